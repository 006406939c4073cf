"""``python -m bot``: run Tavola (polling, or webhook when WEBHOOK_URL is set).

Exits with code 2 and one clear line (``tavola: ...``) when the configuration is wrong (no
token), the Bot API refuses the token or cannot be reached, or the storage cannot be reached,
instead of a traceback. Updates are served as soon as the bot is connected; the renderer
warms up in the background.

SIGTERM or SIGINT at any moment ends the process with exit code 0 and no traceback: during
start-up it stops the start-up; while serving, the bot stops taking updates, runs the
application's shutdown hooks (the boards already saved are drawn, for a few seconds at
most) and closes its connections.
"""

from __future__ import annotations

import signal
import sys


def _stop_now(signum: int, frame: object) -> None:
    raise SystemExit(0)


if __name__ == "__main__":
    # The imports below take a second or more: a stop signal meanwhile ends the process at
    # once (nothing is started yet), until serve() takes over the signals.
    signal.signal(signal.SIGTERM, _stop_now)
    signal.signal(signal.SIGINT, _stop_now)
    # The computer's fork server loads the engine and its networks (at a lower priority)
    # while this process imports and connects: the first game against the computer finds
    # its workers ready (one fork and exec here, a few milliseconds).
    from bot import fork_server

    fork_server.start()

import asyncio
import contextlib
import logging
from typing import TYPE_CHECKING

from bot.adapters.ptb_types import BotApp
from bot.config import ConfigError, Settings, load_settings, webhook_address
from bot.logging_setup import configure, redact
from bot.startup import (
    DEFAULT_BOT_API,
    StartupError,
    stop_background,
    telegram_errors,
    warm_up_in_background,
)
from storage import (
    GameRepository,
    SchemaRegistry,
    StorageConfig,
    StorageUnavailableError,
    open_redis,
)

if TYPE_CHECKING:
    from bot.web import WebServer

log = logging.getLogger("bot")
#: Where Telegram posts the updates in webhook mode (under WEBHOOK_URL).
WEBHOOK_PATH = "/telegram"


async def serve(settings: Settings) -> None:
    """Run the bot until SIGTERM or SIGINT; one during start-up stops the start-up."""
    stop = asyncio.Event()
    serving = asyncio.Event()
    main = asyncio.current_task()

    def on_signal() -> None:
        if not serving.is_set() and not stop.is_set() and main is not None:
            main.cancel()  # starting: unwind what was started so far
        stop.set()

    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError):
            loop.add_signal_handler(sig, on_signal)
    try:
        await _serve(settings, stop, serving)
    except asyncio.CancelledError:
        if not stop.is_set() or serving.is_set():
            raise
        log.info("stopped during start-up")


async def _serve(settings: Settings, stop: asyncio.Event, serving: asyncio.Event) -> None:
    from bot.app import build_application
    from engine import SCHEMA_VERSION

    # Each step is logged as it happens: a slow start shows where it is, not a silence.
    where = "Redis" if settings.redis_url else f"embedded Valkey in {settings.data_dir / 'valkey'}"
    log.info("starting Tavola: opening the storage (%s)", where)
    handle = await open_redis(settings.redis_url, settings.data_dir / "valkey")
    try:
        storage_config = StorageConfig(record_ttl=settings.record_days * 86_400.0)
        repo = GameRepository(handle.client, SchemaRegistry(current=SCHEMA_VERSION), storage_config)
        moved = await repo.migrate_key_layout()  # once: keys of the untagged first layout
        if moved:
            log.info("moved %d keys to the cluster-ready key layout", moved)
        app = build_application(settings, repo)
        async with contextlib.AsyncExitStack() as stack:
            # The renderer warms up in a thread while the bot connects and starts polling
            # (waiting on the network, mostly): the first board finds its pictures ready.
            warm_up = warm_up_in_background()
            stack.push_async_callback(stop_background, warm_up)
            stack.push_async_callback(_post_shutdown, app)  # after app.shutdown()
            log.info("connecting to the Bot API at %s", settings.base_url or DEFAULT_BOT_API)
            async with telegram_errors(settings.token, settings.base_url):
                await stack.enter_async_context(app)  # getMe: checks the token
                stack.push_async_callback(_stop_if_running, app)
                if app.post_init:
                    await app.post_init(app)
                await app.start()
                server = await _start_updates(app, settings)
                if server is not None:
                    stack.push_async_callback(server.stop)
            serving.set()
            await stop.wait()
            log.info("stopping")
    finally:
        await handle.aclose()


async def _stop_if_running(app: BotApp) -> None:
    """Stop receiving and processing updates (PTB refuses to shut down a running app), then
    run the application's stop hook, as PTB's own run_polling does: it also tidies what a
    start-up stopped half-way has started."""
    if app.updater is not None and app.updater.running:
        await app.updater.stop()
    if app.running:
        await app.stop()
    if app.post_stop:
        await app.post_stop(app)


async def _post_shutdown(app: BotApp) -> None:
    if app.post_shutdown:
        await app.post_shutdown(app)


def _listen(server: WebServer, host: str, port: int, variable: str) -> None:
    try:
        server.start(host, port)
    except OSError as exc:
        raise StartupError(
            f"{variable}: cannot listen on {host} port {port}: {exc.strerror}"
        ) from None


def _say_miniapp(settings: Settings, *, served: bool) -> None:
    """Say at start-up whether the Mini App is on, and where its page is served."""
    if not settings.miniapp_url:
        log.info("Mini App off (TAVOLA_MINIAPP_URL is not set): the tables are played in chat")
    elif not served:
        log.warning(
            "Mini App: this process serves no web page (polling with TAVOLA_HEALTH_PORT=0); "
            "%s must reach another worker's /app/",
            settings.miniapp_url,
        )
    else:
        port = settings.port if settings.webhook_url else settings.health_port
        log.info("Mini App on: %s (served at /app/ on port %d)", settings.miniapp_url, port)


async def _start_updates(app: BotApp, settings: Settings) -> WebServer | None:
    """Start receiving updates: the webhook when WEBHOOK_URL is set, else long polling;
    either way only the update types the registered handlers handle. The webhook's server
    serves /healthz, /readyz and /metrics too; in polling mode a server of their own does,
    on TAVOLA_HEALTH_PORT (0: none). Returns that server, for the caller to stop."""
    from bot.adapters.update_types import allowed_updates
    from bot.app import web_routes
    from bot.web import Webhook, WebServer

    assert app.updater is not None
    wanted = allowed_updates(app)
    extra = web_routes(app)
    _say_miniapp(settings, served=bool(settings.webhook_url or settings.health_port))
    if settings.webhook_url:
        # Never unsigned: load_settings derives a secret from the token when none is set.
        assert settings.webhook_secret
        redact(settings.webhook_secret)  # PTB logs setWebhook's parameters at DEBUG
        server = WebServer(app, Webhook(WEBHOOK_PATH, settings.webhook_secret), extra)
        _listen(server, settings.webhook_listen, settings.port, "PORT")
        try:
            await app.bot.set_webhook(
                url=settings.webhook_url.rstrip("/") + WEBHOOK_PATH,
                secret_token=settings.webhook_secret,
                allowed_updates=wanted,
            )
        except BaseException:
            await server.stop()
            raise
        log.info("health at /healthz and /readyz, metrics at /metrics, on the webhook's port")
        log.info(
            "Tavola is running (webhook server on %s, secret token required; updates: %s)",
            webhook_address(settings),
            ", ".join(wanted),
        )
        return server
    health = None
    if settings.health_port:
        health = WebServer(app, extra_routes=extra)
        _listen(health, settings.webhook_listen, settings.health_port, "TAVOLA_HEALTH_PORT")
        log.info(
            "health at /healthz and /readyz, metrics at /metrics, on port %d", settings.health_port
        )
    try:
        await app.updater.start_polling(allowed_updates=wanted)
    except BaseException:
        if health is not None:
            await health.stop()
        raise
    log.info("Tavola is running (polling; updates: %s)", ", ".join(wanted))
    return health


def main() -> int:
    try:
        settings = load_settings()
    except ConfigError as exc:
        for problem in exc.problems:
            print(f"tavola: {problem}", file=sys.stderr)
        return 2
    configure(settings.log_level, settings.token, settings.log_format)
    try:
        asyncio.run(serve(settings))
    except StartupError as exc:
        print(f"tavola: {exc}", file=sys.stderr)
        return 2
    except StorageUnavailableError as exc:
        print(f"tavola: storage unavailable: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
