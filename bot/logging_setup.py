"""Logging that never shows a secret: the bot token (httpx and PTB log request URLs) and the
webhook's secret token (PTB logs setWebhook's parameters at DEBUG).

The redaction is applied to each finished line, traceback included, so a secret that an
exception message or a library's debug line carries is replaced whatever logged it.
"""

from __future__ import annotations

import json
import logging
from datetime import UTC, datetime

#: What every line is cleaned of; filled by `configure` and `redact`.
_SECRETS: set[str] = set()


def redact(secret: str | None) -> None:
    """Never write ``secret`` in a log line from now on."""
    if secret:
        _SECRETS.add(secret)


def scrub(text: str) -> str:
    """``text`` with every registered secret replaced (the longest first)."""
    for secret in sorted(_SECRETS, key=len, reverse=True):
        if secret in text:
            text = text.replace(secret, "<secret>")
    return text


class RedactingFormatter(logging.Formatter):
    """Formats as usual, then removes the secrets from the whole line and its traceback."""

    def format(self, record: logging.LogRecord) -> str:
        return scrub(super().format(record))


class JsonFormatter(logging.Formatter):
    """One JSON object a line (``LOG_FORMAT=json``), for log collectors: ``time`` (UTC, ISO
    8601), ``level``, ``logger``, ``message`` and, after an exception, ``exception`` (its
    traceback). The secrets are removed from each field before it is encoded."""

    def format(self, record: logging.LogRecord) -> str:
        entry = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": scrub(record.getMessage()),
        }
        if record.exc_info:
            entry["exception"] = scrub(self.formatException(record.exc_info))
        elif record.exc_text:
            entry["exception"] = scrub(record.exc_text)
        if record.stack_info:
            entry["stack"] = scrub(self.formatStack(record.stack_info))
        return json.dumps(entry, ensure_ascii=False)


def configure(level: str, token: str, log_format: str = "text") -> None:
    """The root logger writes to stderr, as each line happens, in ``log_format`` (``text``
    or ``json``), never with a secret."""
    redact(token)
    handler = logging.StreamHandler()
    if log_format == "json":
        handler.setFormatter(JsonFormatter())
    else:
        handler.setFormatter(RedactingFormatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
    logging.getLogger("httpx").setLevel(logging.WARNING)
    logging.getLogger("apscheduler").setLevel(logging.WARNING)
