"""Logging that never shows a secret: the bot token (httpx and PTB log request URLs) and the
webhook's secret token (PTB logs setWebhook's parameters at DEBUG).

The redaction is applied to each finished line, traceback included, so a secret that an
exception message or a library's debug line carries is replaced whatever logged it.
"""

from __future__ import annotations

import logging

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


def configure(level: str, token: str) -> None:
    redact(token)
    handler = logging.StreamHandler()
    handler.setFormatter(RedactingFormatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
    logging.getLogger("httpx").setLevel(logging.WARNING)
    logging.getLogger("apscheduler").setLevel(logging.WARNING)
