"""Telegram's ``initData``: who opened the Mini App, signed by Telegram with the bot's token.

Telegram signs the launch data with ``HMAC-SHA256(key=HMAC-SHA256(key="WebAppData",
msg=token), msg=data_check_string)``, where the data-check string is every received field
but ``hash``, sorted by key, as ``key=value`` lines. Anything else the page could send about
its user is untrusted: the server believes the signed user id only, and only while the
signature is fresh (``auth_date``), so a leaked launch string stops working.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import time
from dataclasses import dataclass
from urllib.parse import parse_qsl

#: How long a launch string is accepted after Telegram signed it. A Mini App stays open for
#: a whole game; the page is reopened (and signed anew) after this.
MAX_AGE_SECONDS = 24 * 3600
#: A clock ahead of the server's by more than this is not Telegram's.
FUTURE_SKEW_SECONDS = 60
#: Longer launch strings are refused before any parsing (Telegram's are about 500 bytes).
MAX_LENGTH = 4096


class InitDataError(Exception):
    """The launch data is missing, malformed, not signed with this bot's token, or stale."""


@dataclass(frozen=True, slots=True)
class WebAppUser:
    """The Telegram user a valid launch string names."""

    id: int
    first_name: str
    start_param: str | None
    auth_date: int


def secret_key(token: str) -> bytes:
    return hmac.new(b"WebAppData", token.encode(), hashlib.sha256).digest()


def check_string(fields: dict[str, str]) -> str:
    return "\n".join(f"{k}={fields[k]}" for k in sorted(fields) if k != "hash")


def sign(fields: dict[str, str], token: str) -> str:
    """The ``hash`` Telegram would attach to ``fields`` (tests sign their launch data)."""
    return hmac.new(secret_key(token), check_string(fields).encode(), hashlib.sha256).hexdigest()


def validate(raw: str, token: str, *, now: float | None = None) -> WebAppUser:
    """The user of a launch string, once its signature and freshness are checked."""
    if not raw or len(raw) > MAX_LENGTH:
        raise InitDataError("no launch data")
    try:
        pairs = parse_qsl(raw, keep_blank_values=True, strict_parsing=True)
    except ValueError:
        raise InitDataError("malformed launch data") from None
    fields = dict(pairs)
    if len(fields) != len(pairs):
        raise InitDataError("a field given twice")
    sent = fields.get("hash", "")
    if not hmac.compare_digest(sent.encode(), sign(fields, token).encode()):
        raise InitDataError("bad signature")
    try:
        auth_date = int(fields["auth_date"])
        user = json.loads(fields["user"])
        user_id = int(user["id"])
        first_name = str(user.get("first_name", ""))
    except (KeyError, ValueError, TypeError):
        raise InitDataError("no user in the launch data") from None
    age = (time.time() if now is None else now) - auth_date
    if age > MAX_AGE_SECONDS or age < -FUTURE_SKEW_SECONDS:
        raise InitDataError("stale launch data")
    return WebAppUser(user_id, first_name, fields.get("start_param") or None, auth_date)
