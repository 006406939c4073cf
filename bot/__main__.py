"""``python -m bot``: run Tavola (polling, or webhook when WEBHOOK_URL is set).

Exits with code 2 and one clear line when the configuration is wrong (no token) or the
storage cannot be reached, instead of a traceback.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import sys

from bot.config import ConfigError, Settings, load_settings
from bot.logging_setup import configure
from storage import GameRepository, SchemaRegistry, StorageUnavailableError, open_redis

log = logging.getLogger("bot")


async def serve(settings: Settings) -> None:
    from bot.app import build_application
    from engine.serialize import SCHEMA_VERSION

    handle = await open_redis(settings.redis_url, settings.data_dir / "valkey")
    try:
        repo = GameRepository(handle.client, SchemaRegistry(current=SCHEMA_VERSION))
        app = build_application(settings, repo)
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(NotImplementedError):
                loop.add_signal_handler(sig, stop.set)
        async with app:
            if app.post_init:
                await app.post_init(app)
            await app.start()
            assert app.updater is not None
            if settings.webhook_url:
                await app.updater.start_webhook(
                    listen="0.0.0.0",
                    port=settings.port,
                    url_path="telegram",
                    webhook_url=settings.webhook_url.rstrip("/") + "/telegram",
                    secret_token=settings.webhook_secret,
                    allowed_updates=["message", "callback_query"],
                )
                log.info("Tavola is running (webhook on port %d)", settings.port)
            else:
                await app.updater.start_polling(allowed_updates=["message", "callback_query"])
                log.info("Tavola is running (polling)")
            await stop.wait()
            await app.updater.stop()
            await app.stop()
    finally:
        await handle.aclose()


def main() -> int:
    try:
        settings = load_settings()
    except ConfigError as exc:
        print(f"tavola: {exc}", file=sys.stderr)
        return 2
    configure(settings.log_level, settings.token)
    try:
        asyncio.run(serve(settings))
    except StorageUnavailableError as exc:
        print(f"tavola: storage unavailable: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
