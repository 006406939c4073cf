"""``LOG_FORMAT=json``: one JSON object a line, the secrets removed as in the text format."""

from __future__ import annotations

import json
import logging

from bot.logging_setup import JsonFormatter, redact

TOKEN = "654321:AAH-json_secret_token"


def _record(message: str, *args: object, exc: BaseException | None = None) -> logging.LogRecord:
    info = (type(exc), exc, exc.__traceback__) if exc is not None else None
    return logging.LogRecord("httpx", logging.WARNING, __file__, 1, message, args, info)


def test_a_line_is_one_json_object_without_the_secrets() -> None:
    redact(TOKEN)
    redact("hook-secret-json")
    try:
        raise RuntimeError(f"POST https://api.telegram.org/bot{TOKEN}/getMe failed")
    except RuntimeError as exc:
        record = _record("calling %s with %s", f"bot{TOKEN}/getMe", "hook-secret-json", exc=exc)
    line = JsonFormatter().format(record)
    assert "\n" not in line
    entry = json.loads(line)
    assert entry["level"] == "WARNING" and entry["logger"] == "httpx"
    assert entry["message"] == "calling bot<secret>/getMe with <secret>"
    assert "RuntimeError" in entry["exception"] and "<secret>" in entry["exception"]
    assert entry["time"].endswith("+00:00")
    assert TOKEN not in line and "hook-secret-json" not in line


def test_non_ascii_messages_stay_readable() -> None:
    entry = json.loads(JsonFormatter().format(_record("è il turno di %s", "Léa")))
    assert entry["message"] == "è il turno di Léa"
