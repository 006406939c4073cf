"""``python -m bot`` refuses to start without a token or storage, with one clear line."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from telegram.error import BadRequest, InvalidToken, TimedOut

from bot.config import ConfigError, load_settings
from bot.startup import StartupError, telegram_errors


def _run(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if k not in ("TELEGRAM_TOKEN", "REDIS_URL")}
    return subprocess.run(  # the tests look at the exit code themselves
        [sys.executable, "-m", "bot"],
        check=False,
        env={**base, **env},
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_missing_token_exits_2_with_one_clear_line() -> None:
    proc = _run({})
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1
    assert "TELEGRAM_TOKEN" in lines[0]
    assert "Traceback" not in proc.stderr


def test_unreachable_redis_exits_2_without_traceback_or_secrets() -> None:
    proc = _run(
        {"TELEGRAM_TOKEN": "123:SECRET-TOKEN", "REDIS_URL": "redis://:hunter2@127.0.0.1:1/0"}
    )
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    last = proc.stderr.strip().splitlines()[-1]
    assert "unreachable" in last
    assert "hunter2" not in proc.stderr
    assert "SECRET-TOKEN" not in proc.stderr


def test_settings_read_every_variable() -> None:
    s = load_settings(
        {
            "TELEGRAM_TOKEN": "1:x",
            "REDIS_URL": "redis://r:6379/0",
            "TELEGRAM_BASE_URL": "http://127.0.0.1:9/bot",
            "WEBHOOK_URL": "https://example.org",
            "WEBHOOK_SECRET": "s3cr3t_-",
            "PORT": "8443",
            "LOG_LEVEL": "debug",
            "TAVOLA_TURN_SECONDS": "120",
            "TAVOLA_MEDIA_CHAT": "-1001234567890",
        }
    )
    assert (s.redis_url, s.port, s.log_level, s.turn_seconds, s.media_chat) == (
        "redis://r:6379/0",
        8443,
        "DEBUG",
        120,
        -1001234567890,
    )
    assert load_settings({"TELEGRAM_TOKEN": "1:x", "TAVOLA_MEDIA_CHAT": "@boards"}).media_chat == (
        "@boards"
    )
    assert load_settings({"TELEGRAM_TOKEN": "1:x"}).media_chat is None
    assert s.base_file_url == "http://127.0.0.1:9/file/bot"


@pytest.mark.parametrize(
    "env",
    [
        {"TELEGRAM_TOKEN": "1:x", "PORT": "abc"},
        {"TELEGRAM_TOKEN": "1:x", "WEBHOOK_SECRET": "has space"},
        {"TELEGRAM_TOKEN": "1:x", "LOG_LEVEL": "LOUD"},
        {"TELEGRAM_TOKEN": "1:x", "TAVOLA_MEDIA_CHAT": "my channel"},
        {"TELEGRAM_TOKEN": " "},
    ],
)
def test_bad_settings_are_refused_with_a_reason(env: dict[str, str]) -> None:
    with pytest.raises(ConfigError):
        load_settings(env)


async def test_start_up_telegram_errors_become_one_line_without_the_token() -> None:
    token = "42:Top-Secret"
    with pytest.raises(StartupError) as rejected:
        async with telegram_errors(token, None):
            raise InvalidToken(f"The token `{token}` was rejected by the server.")
    assert "rejected TELEGRAM_TOKEN" in str(rejected.value)
    assert "Top-Secret" not in str(rejected.value)

    with pytest.raises(StartupError) as unreachable:
        async with telegram_errors(token, "http://127.0.0.1:9/bot"):
            raise TimedOut(f"no answer from http://127.0.0.1:9/bot{token}/getMe")
    message = str(unreachable.value)
    assert message.startswith("cannot reach the Bot API at http://127.0.0.1:9/bot")
    assert "Top-Secret" not in message and "\n" not in message

    with pytest.raises(BadRequest):  # Telegram answered: a bug, not an outage
        async with telegram_errors(token, None):
            raise BadRequest("Bad Request: command description is too long")
