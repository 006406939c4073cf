"""Settings from the environment, read once at start-up.

Every variable has a default except ``TELEGRAM_TOKEN``; the README lists them all.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path


class ConfigError(Exception):
    """A missing or malformed environment variable; the message is one line for the user."""


@dataclass(frozen=True, slots=True)
class Settings:
    token: str
    redis_url: str | None = None
    base_url: str | None = None
    webhook_url: str | None = None
    webhook_secret: str | None = None
    port: int = 8080
    log_level: str = "INFO"
    data_dir: Path = Path("data")
    challenge_ttl: int = 600  # seconds a challenge stays open
    turn_seconds: int = 600  # default turn time limit
    rate_limit: bool = True
    ai_workers: int | None = None  # None: one per core but one, at least one
    auto_confirm: bool = True  # for players who never chose in /impostazioni
    record_days: int = 30  # days each finished game's record is kept

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


def load_settings(env: Mapping[str, str] | None = None) -> Settings:
    env = os.environ if env is None else env
    token = env.get("TELEGRAM_TOKEN", "").strip()
    if not token:
        raise ConfigError(
            "TELEGRAM_TOKEN is not set: get a token from @BotFather and export TELEGRAM_TOKEN=..."
        )
    webhook_url = env.get("WEBHOOK_URL", "").strip() or None
    secret = env.get("WEBHOOK_SECRET", "").strip() or None
    if secret and not all(c.isalnum() or c in "_-" for c in secret):
        raise ConfigError("WEBHOOK_SECRET may contain only letters, digits, _ and -")
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
        log_level=level,
        data_dir=Path(env.get("TAVOLA_DATA_DIR", "").strip() or "data"),
        challenge_ttl=_int(env, "TAVOLA_CHALLENGE_TTL", 600, 10, 86400),
        turn_seconds=_int(env, "TAVOLA_TURN_SECONDS", 600, 10, 86400),
        ai_workers=_int(env, "TAVOLA_AI_WORKERS", 0, 0, 64) or None,
        auto_confirm=_int(env, "TAVOLA_AUTO_CONFIRM", 1, 0, 1) == 1,
        record_days=_int(env, "TAVOLA_RECORD_DAYS", 30, 1, 3650),
    )
