"""Settings from the environment, read once at start-up.

Every variable has a default except ``TELEGRAM_TOKEN``; the README lists them all. Each is
checked here, so that a bad value stops the start with one clear line instead of a traceback
(or a silent misbehaviour) later.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import hmac
import ipaddress
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

from storage.connect import CLUSTER_SCHEMES

#: Telegram's rule for setWebhook's ``secret_token``: 1 to 256 of these characters.
MAX_WEBHOOK_SECRET = 256
_SECRET_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")
#: Where the webhook server listens unless WEBHOOK_LISTEN says otherwise: every interface,
#: as a platform's router (the Procfile's ``web``) must reach it; unsigned calls are refused.
DEFAULT_WEBHOOK_LISTEN = "0.0.0.0"
#: The health server's port in polling mode (in webhook mode the webhook's port serves it).
DEFAULT_HEALTH_PORT = 8081
#: Processes that draw the boards unless TAVOLA_DRAW_WORKERS says otherwise (``bot.drawing``).
DEFAULT_DRAW_WORKERS = 1
#: The only ports Telegram's own servers deliver webhooks to (a local Bot API server: any).
TELEGRAM_WEBHOOK_PORTS = (443, 80, 88, 8443)
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
#: A bot token as @BotFather gives it: the bot's id, a colon, then the secret part.
_TOKEN = re.compile(r"[0-9]+:[A-Za-z0-9_-]+")
#: A public chat's name: @, a letter, then 4 to 31 letters, digits or underscores.
_CHAT_NAME = re.compile(r"@[A-Za-z][A-Za-z0-9_]{3,31}")
#: A Mini App's short name in @BotFather.
_APP_NAME = re.compile(r"[A-Za-z0-9_]{3,30}")


class ConfigError(Exception):
    """Malformed or missing environment variables, one line each (``VARIABLE: what is
    wrong``): every bad variable is reported at once, so a deploy is fixed in one go."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("\n".join(problems))
        self.problems = problems


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
    log_format: str = "text"  # or "json": one JSON object a line
    #: Polling mode's health server (0: none). The environment's default is
    #: DEFAULT_HEALTH_PORT; settings built in code (tests) have none.
    health_port: int = 0
    data_dir: Path = Path("data")
    challenge_ttl: int = 600  # seconds a challenge stays open
    turn_seconds: int = 600  # default turn time limit
    rate_limit: bool = True
    ai_workers: int | None = None  # None: one per core but one, at least one
    #: Processes that draw the boards (``bot.drawing``); 0: a thread of the bot draws them.
    #: The environment's default is DEFAULT_DRAW_WORKERS; settings built in code (tests)
    #: have none.
    draw_workers: int = 0
    auto_confirm: bool = True  # for players who never chose in /impostazioni
    record_days: int = 30  # days each finished game's record is kept
    media_chat: int | str | None = None  # where inline boards are uploaded; None: inline off
    #: The Mini App's public HTTPS address (the web server's ``/app/``); None: Mini App off.
    miniapp_url: str | None = None
    #: The Mini App's short name in @BotFather, for direct links ``t.me/<bot>/<name>``.
    miniapp_name: str | None = None

    @property
    def base_file_url(self) -> str | None:
        if not self.base_url:
            return None
        root = self.base_url.rstrip("/")
        return root[: -len("/bot")] + "/file/bot" if root.endswith("/bot") else root + "/file/bot"


def derived_webhook_secret(token: str) -> str:
    """The webhook's secret when WEBHOOK_SECRET is not set: an HMAC of the token.

    Every worker with the same token derives the same one (so several webhook workers agree
    without another setting), nobody without the token can compute it, and the token cannot
    be recovered from it. 43 characters of ``A-Z a-z 0-9 _ -``, as Telegram requires.
    """
    digest = hmac.new(b"tavola webhook secret", token.encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).decode().rstrip("=")


class _Reader:
    """Reads the variables one by one, noting each problem and going on with the default,
    so that one start-up attempt lists every bad variable."""

    def __init__(self, env: Mapping[str, str]) -> None:
        self.env = env
        self.problems: list[str] = []

    def raw(self, name: str) -> str:
        return self.env.get(name, "").strip()

    def bad(self, name: str, problem: str) -> None:
        self.problems.append(f"{name}: {problem}")

    def integer(self, name: str, default: int, low: int, high: int) -> int:
        raw = self.raw(name)
        if not raw:
            return default
        try:
            value = int(raw)
        except ValueError:
            self.bad(name, f"must be a whole number from {low} to {high}, got {raw!r}")
            return default
        if not low <= value <= high:
            self.bad(name, f"must be from {low} to {high}, got {value}")
            return default
        return value

    def flag(self, name: str, default: bool) -> bool:
        raw = self.raw(name)
        if raw in ("", "0", "1"):
            return default if not raw else raw == "1"
        self.bad(name, f"must be 0 or 1, got {raw!r}")
        return default

    def choice(self, name: str, default: str, allowed: tuple[str, ...]) -> str:
        raw = self.raw(name)
        value = raw.upper() if name == "LOG_LEVEL" else raw.lower()
        if not raw:
            return default
        if value not in allowed:
            self.bad(name, f"must be {', '.join(allowed[:-1])} or {allowed[-1]}, got {raw!r}")
            return default
        return value

    def token(self) -> str:
        raw = self.raw("TELEGRAM_TOKEN")
        if not raw:
            self.bad(
                "TELEGRAM_TOKEN",
                "not set: get a token from @BotFather and export TELEGRAM_TOKEN=...",
            )
        elif not _TOKEN.fullmatch(raw):
            # The value itself is never repeated: it may be a real token with a typo.
            self.bad(
                "TELEGRAM_TOKEN",
                "does not look like a bot token (digits, a colon, then letters, digits, _ or -)",
            )
        return raw

    def url(self, name: str, schemes: tuple[str, ...], example: str) -> str | None:
        raw = self.raw(name)
        if not raw:
            return None
        try:
            parts = urlsplit(raw)
            parts.port  # noqa: B018 - raises ValueError on a malformed port
        except ValueError:
            self.bad(name, f"is not a valid URL, e.g. {example}")
            return None
        if parts.scheme not in schemes or not parts.hostname:
            shown = " or ".join(f"{s}://" for s in schemes)
            self.bad(name, f"must be a {shown} URL with a host, e.g. {example}")
            return None
        return raw

    def redis_url(self) -> str | None:
        """``REDIS_URL``; with ``REDIS_CLUSTER`` set, given the cluster scheme
        (``redis+cluster://``), which is what storage.connect reads the mode from."""
        raw = self.raw("REDIS_URL")
        if not raw:
            if self.flag("REDIS_CLUSTER", False):
                self.bad("REDIS_CLUSTER", "needs REDIS_URL (a node of the cluster)")
            return None
        example = "redis://localhost:6379/0"
        try:
            parts = urlsplit(raw)
            parts.port  # noqa: B018 - raises ValueError on a malformed port
        except ValueError:
            self.bad("REDIS_URL", f"is not a valid URL, e.g. {example}")
            return None
        if parts.scheme not in ("redis", "rediss", "unix", *CLUSTER_SCHEMES):
            self.bad(
                "REDIS_URL",
                "must start with redis://, rediss://, unix://, redis+cluster:// or "
                f"rediss+cluster://, e.g. {example}",
            )
            return None
        if self.flag("REDIS_CLUSTER", False) and parts.scheme not in CLUSTER_SCHEMES:
            if parts.scheme == "unix":
                self.bad("REDIS_CLUSTER", "a cluster is reached over TCP, not a unix:// socket")
                return None
            # The mode travels in the URL's scheme, as if given as redis+cluster://.
            return f"{parts.scheme}+cluster{raw[len(parts.scheme) :]}"
        if parts.scheme == "unix" and not parts.path:
            self.bad(
                "REDIS_URL", "a unix:// URL needs the socket's path, e.g. unix:///run/redis.sock"
            )
            return None
        database = parts.path.strip("/")
        if parts.scheme != "unix" and database and not database.isdigit():
            self.bad("REDIS_URL", f"the database after the host must be a number, e.g. {example}")
            return None
        return raw

    def webhook_url(self, local_api: bool) -> str | None:
        """Telegram calls only HTTPS webhooks on ports 443, 80, 88 and 8443; a local Bot API
        server (TELEGRAM_BASE_URL) calls plain HTTP and any port too."""
        raw = self.raw("WEBHOOK_URL")
        if not local_api and raw.lower().startswith("http://"):
            self.bad(
                "WEBHOOK_URL",
                "must be https:// (Telegram calls only HTTPS webhooks; http:// only with a "
                "local Bot API server in TELEGRAM_BASE_URL)",
            )
            return None
        schemes = ("https", "http") if local_api else ("https",)
        url = self.url("WEBHOOK_URL", schemes, "https://bot.example.org")
        if url is None:
            return None
        parts = urlsplit(url)
        if parts.query or parts.fragment:
            self.bad("WEBHOOK_URL", "must be a base URL without ?query or #fragment")
            return None
        if not local_api and (parts.port or 443) not in TELEGRAM_WEBHOOK_PORTS:
            ports = ", ".join(str(p) for p in TELEGRAM_WEBHOOK_PORTS)
            self.bad("WEBHOOK_URL", f"Telegram calls webhooks only on ports {ports}")
            return None
        return url

    def webhook_secret(self, token: str, webhook: bool) -> str | None:
        raw = self.raw("WEBHOOK_SECRET")
        if raw and (len(raw) > MAX_WEBHOOK_SECRET or not set(raw) <= _SECRET_CHARS):
            self.bad(
                "WEBHOOK_SECRET",
                f"must be 1 to {MAX_WEBHOOK_SECRET} of the characters A-Z a-z 0-9 _ - "
                f"(got {len(raw)} characters)",
            )
            raw = ""
        if raw or not webhook:
            return raw or None
        return derived_webhook_secret(token)

    def listen(self) -> str:
        raw = self.raw("WEBHOOK_LISTEN")
        if not raw:
            return DEFAULT_WEBHOOK_LISTEN
        try:
            return str(ipaddress.ip_address(raw))
        except ValueError:
            self.bad(
                "WEBHOOK_LISTEN", f"must be an IP address such as 127.0.0.1 or 0.0.0.0, got {raw!r}"
            )
            return DEFAULT_WEBHOOK_LISTEN

    def chat(self, name: str) -> int | str | None:
        """A chat given by id (``-1001234567890``) or public name (``@name``), or None."""
        raw = self.raw(name)
        if not raw:
            return None
        if _CHAT_NAME.fullmatch(raw):
            return raw
        with contextlib.suppress(ValueError):
            if (chat_id := int(raw)) != 0:
                return chat_id
        self.bad(name, f"must be a chat id such as -1001234567890 or an @name, got {raw!r}")
        return None

    def miniapp_url(self) -> str | None:
        """``TAVOLA_MINIAPP_URL``: HTTPS only (Telegram opens Mini Apps over HTTPS), the
        address of the web server's ``/app/`` page."""
        url = self.url("TAVOLA_MINIAPP_URL", ("https",), "https://bot.example.org/app/")
        if url is not None and (urlsplit(url).query or urlsplit(url).fragment):
            self.bad("TAVOLA_MINIAPP_URL", "must be an address without ?query or #fragment")
            return None
        return url

    def miniapp_name(self) -> str | None:
        """``TAVOLA_MINIAPP_NAME``: the short name given to the Mini App in @BotFather (3 to
        30 letters, digits or underscores), needed for links in groups and inline."""
        raw = self.raw("TAVOLA_MINIAPP_NAME")
        if raw and not _APP_NAME.fullmatch(raw):
            self.bad(
                "TAVOLA_MINIAPP_NAME",
                f"must be 3 to 30 letters, digits or underscores (as in @BotFather), got {raw!r}",
            )
            return None
        if raw and not self.raw("TAVOLA_MINIAPP_URL"):
            self.bad("TAVOLA_MINIAPP_NAME", "needs TAVOLA_MINIAPP_URL (the page's address)")
            return None
        return raw or None

    def data_dir(self, used: bool) -> Path:
        """Where the embedded Valkey writes: it must be (or become) a writable directory.
        Checked without creating anything; only when it is used (no REDIS_URL)."""
        path = Path(self.raw("TAVOLA_DATA_DIR") or "data")
        if used and (problem := _unwritable(path)):
            self.bad("TAVOLA_DATA_DIR", f"{problem} ({str(path)!r})")
        return path


def _unwritable(path: Path) -> str | None:
    """Why the directory ``path`` cannot be used for writing (created if missing), or None."""
    if path.exists():
        if not path.is_dir():
            return "is not a directory"
        if not os.access(path, os.W_OK | os.X_OK):
            return "is not writable"
        return None
    parent = path.absolute().parent
    while not parent.exists():
        parent = parent.parent
    if not parent.is_dir():
        return f"cannot be created: {str(parent)!r} is not a directory"
    if not os.access(parent, os.W_OK | os.X_OK):
        return f"cannot be created: {str(parent)!r} is not writable"
    return None


def load_settings(env: Mapping[str, str] | None = None) -> Settings:
    """Every variable of the README's table, checked; :class:`ConfigError` lists every
    problem found."""
    read = _Reader(os.environ if env is None else env)
    token = read.token()
    redis_url = read.redis_url()
    base_url = read.url("TELEGRAM_BASE_URL", ("https", "http"), "http://127.0.0.1:8081/bot")
    webhook_url = read.webhook_url(local_api=base_url is not None)
    webhook = webhook_url is not None or bool(read.raw("WEBHOOK_URL"))
    settings = Settings(
        token=token,
        redis_url=redis_url,
        base_url=base_url,
        webhook_url=webhook_url,
        webhook_secret=read.webhook_secret(token, webhook),
        port=read.integer("PORT", 8080, 1, 65535),
        webhook_listen=read.listen(),
        log_level=read.choice("LOG_LEVEL", "INFO", LOG_LEVELS),
        log_format=read.choice("LOG_FORMAT", "text", ("text", "json")),
        health_port=read.integer("TAVOLA_HEALTH_PORT", DEFAULT_HEALTH_PORT, 0, 65535),
        data_dir=read.data_dir(used=redis_url is None and not read.raw("REDIS_URL")),
        challenge_ttl=read.integer("TAVOLA_CHALLENGE_TTL", 600, 10, 86400),
        turn_seconds=read.integer("TAVOLA_TURN_SECONDS", 600, 10, 86400),
        ai_workers=read.integer("TAVOLA_AI_WORKERS", 0, 0, 64) or None,
        draw_workers=read.integer("TAVOLA_DRAW_WORKERS", DEFAULT_DRAW_WORKERS, 0, 16),
        auto_confirm=read.flag("TAVOLA_AUTO_CONFIRM", True),
        record_days=read.integer("TAVOLA_RECORD_DAYS", 30, 1, 3650),
        media_chat=read.chat("TAVOLA_MEDIA_CHAT"),
        miniapp_url=read.miniapp_url(),
        miniapp_name=read.miniapp_name(),
    )
    if read.problems:
        raise ConfigError(read.problems)
    return settings


def webhook_address(settings: Settings) -> str:
    """Where the webhook server listens, as the start-up line shows it (``host:port``)."""
    host = settings.webhook_listen
    shown = f"[{host}]" if ":" in host else host
    scope = " (all interfaces)" if host in ("0.0.0.0", "::") else ""
    return f"{shown}:{settings.port}{scope}"
