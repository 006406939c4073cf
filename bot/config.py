"""Settings from the environment, read once at start-up.

Every variable has a default except ``TELEGRAM_TOKEN``; the README lists them all.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import ipaddress
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

#: Telegram's rule for setWebhook's ``secret_token``: 1 to 256 of these characters.
MAX_WEBHOOK_SECRET = 256
_SECRET_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")
#: Where the webhook server listens unless WEBHOOK_LISTEN says otherwise: every interface,
#: as a platform's router (the Procfile's ``web``) must reach it; unsigned calls are refused.
DEFAULT_WEBHOOK_LISTEN = "0.0.0.0"


class ConfigError(Exception):
    """A missing or malformed environment variable; the message is one line for the user."""


@dataclass(frozen=True, slots=True)
class Settings:
    token: str = field(repr=False)
    redis_url: str | None = None
    base_url: str | None = None
    webhook_url: str | None = None
    #: Always set in webhook mode (WEBHOOK_SECRET, or derived from the token).
    webhook_secret: str | None = field(default=None, repr=False)
    port: int = 8080
    webhook_listen: str = DEFAULT_WEBHOOK_LISTEN
    log_level: str = "INFO"
    data_dir: Path = Path("data")
    challenge_ttl: int = 600  # seconds a challenge stays open
    turn_seconds: int = 600  # default turn time limit
    rate_limit: bool = True
    ai_workers: int | None = None  # None: one per core but one, at least one
    auto_confirm: bool = True  # for players who never chose in /impostazioni
    record_days: int = 30  # days each finished game's record is kept
    media_chat: int | str | None = None  # where inline boards are uploaded; None: inline off

    @property
    def base_file_url(self) -> str | None:
        if not self.base_url:
            return None
        root = self.base_url.rstrip("/")
        return root[: -len("/bot")] + "/file/bot" if root.endswith("/bot") else root + "/file/bot"


def _int(env: Mapping[str, str], name: str, default: int, low: int, high: int) -> int:
    raw = env.get(name, "").strip()
    if not raw:
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ConfigError(f"{name} must be a whole number, got {raw!r}") from None
    if not low <= value <= high:
        raise ConfigError(f"{name} must be between {low} and {high}, got {value}")
    return value


def _chat(env: Mapping[str, str], name: str) -> int | str | None:
    """A chat given by id (``-1001234567890``) or public name (``@name``), or None."""
    raw = env.get(name, "").strip()
    if not raw:
        return None
    if raw.startswith("@") and len(raw) > 1 and all(c.isalnum() or c == "_" for c in raw[1:]):
        return raw
    try:
        return int(raw)
    except ValueError:
        raise ConfigError(f"{name} must be a chat id such as -1001234567890 or an @name") from None


def derived_webhook_secret(token: str) -> str:
    """The webhook's secret when WEBHOOK_SECRET is not set: an HMAC of the token.

    Every worker with the same token derives the same one (so several webhook workers agree
    without another setting), nobody without the token can compute it, and the token cannot
    be recovered from it. 43 characters of ``A-Z a-z 0-9 _ -``, as Telegram requires.
    """
    digest = hmac.new(b"tavola webhook secret", token.encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).decode().rstrip("=")


def _webhook_secret(env: Mapping[str, str], token: str, webhook: bool) -> str | None:
    raw = env.get("WEBHOOK_SECRET", "").strip()
    if raw and (len(raw) > MAX_WEBHOOK_SECRET or not set(raw) <= _SECRET_CHARS):
        raise ConfigError(
            f"WEBHOOK_SECRET may contain only letters A-Z a-z, digits, _ and - "
            f"(at most {MAX_WEBHOOK_SECRET})"
        )
    if raw or not webhook:
        return raw or None
    return derived_webhook_secret(token)


def _listen(env: Mapping[str, str]) -> str:
    raw = env.get("WEBHOOK_LISTEN", "").strip()
    if not raw:
        return DEFAULT_WEBHOOK_LISTEN
    try:
        return str(ipaddress.ip_address(raw))
    except ValueError:
        raise ConfigError(
            f"WEBHOOK_LISTEN must be an IP address such as 127.0.0.1 or 0.0.0.0, got {raw!r}"
        ) from None


def load_settings(env: Mapping[str, str] | None = None) -> Settings:
    env = os.environ if env is None else env
    token = env.get("TELEGRAM_TOKEN", "").strip()
    if not token:
        raise ConfigError(
            "TELEGRAM_TOKEN is not set: get a token from @BotFather and export TELEGRAM_TOKEN=..."
        )
    webhook_url = env.get("WEBHOOK_URL", "").strip() or None
    secret = _webhook_secret(env, token, webhook_url is not None)
    level = env.get("LOG_LEVEL", "INFO").strip().upper() or "INFO"
    if level not in ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"):
        raise ConfigError(f"LOG_LEVEL must be DEBUG, INFO, WARNING or ERROR, got {level!r}")
    return Settings(
        token=token,
        redis_url=env.get("REDIS_URL", "").strip() or None,
        base_url=env.get("TELEGRAM_BASE_URL", "").strip() or None,
        webhook_url=webhook_url,
        webhook_secret=secret,
        port=_int(env, "PORT", 8080, 1, 65535),
        webhook_listen=_listen(env),
        log_level=level,
        data_dir=Path(env.get("TAVOLA_DATA_DIR", "").strip() or "data"),
        challenge_ttl=_int(env, "TAVOLA_CHALLENGE_TTL", 600, 10, 86400),
        turn_seconds=_int(env, "TAVOLA_TURN_SECONDS", 600, 10, 86400),
        ai_workers=_int(env, "TAVOLA_AI_WORKERS", 0, 0, 64) or None,
        auto_confirm=_int(env, "TAVOLA_AUTO_CONFIRM", 1, 0, 1) == 1,
        record_days=_int(env, "TAVOLA_RECORD_DAYS", 30, 1, 3650),
        media_chat=_chat(env, "TAVOLA_MEDIA_CHAT"),
    )


def webhook_address(settings: Settings) -> str:
    """Where the webhook server listens, as the start-up line shows it (``host:port``)."""
    host = settings.webhook_listen
    shown = f"[{host}]" if ":" in host else host
    scope = " (all interfaces)" if host in ("0.0.0.0", "::") else ""
    return f"{shown}:{settings.port}{scope}"
