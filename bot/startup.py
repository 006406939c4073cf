"""Start-up helpers for ``python -m bot``: one clear line when start-up fails, no waiting for
the renderer's warm-up before updates are served.

A failed start must print exactly one line (``tavola: ...``) and exit with code 2, never a
traceback and never the token: PTB's own ``InvalidToken`` message quotes the token, so its
text is never shown. The log lines of the start-up are written as they happen (a slow start
shows where it is); that line comes last, after them.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
from collections.abc import AsyncIterator

from telegram.error import BadRequest, InvalidToken, NetworkError

import render

log = logging.getLogger(__name__)

DEFAULT_BOT_API = "https://api.telegram.org"


class StartupError(Exception):
    """Start-up cannot go on. The message is one line without secrets, for stderr."""


def _one_line(exc: BaseException, token: str) -> str:
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text.replace(token, "<token>") if token else text


@contextlib.asynccontextmanager
async def telegram_errors(token: str, base_url: str | None) -> AsyncIterator[None]:
    """Turn the Bot API's refusal of the token, or its absence, into :class:`StartupError`.

    Wrap only the start-up calls (``getMe``, ``setMyCommands``, starting the polling or the
    webhook): later network errors are PTB's to retry, not a reason to exit.
    """
    where = base_url or DEFAULT_BOT_API
    try:
        yield
    except InvalidToken:
        # Telegram answers 401 to a wrong token (404 to a malformed one or a wrong base URL).
        hint = "; check TELEGRAM_BASE_URL too" if base_url else ""
        raise StartupError(
            f"the Bot API at {where} rejected TELEGRAM_TOKEN: get a valid token from "
            f"@BotFather{hint}"
        ) from None
    except BadRequest:
        raise  # Telegram answered: a bug of ours, not an outage; keep the traceback
    except NetworkError as exc:  # TimedOut included
        raise StartupError(
            f"cannot reach the Bot API at {where}: {_one_line(exc, token)}"
        ) from None


def warm_up_in_background() -> asyncio.Task[None]:
    """Build the renderer's palette, sprites and backgrounds in a thread, without delaying
    updates.

    The first board drawn before it finishes waits only for what it needs that the warm-up
    is building. The thread is a daemon: a stop during the start-up does not wait for the
    warm-up to end (a pool thread would hold the exit until it had). A failure is logged,
    not fatal: drawing then fails (and is reported) where it is needed.
    """
    loop = asyncio.get_running_loop()
    done: asyncio.Future[None] = loop.create_future()

    def settle(error: BaseException | None) -> None:
        if done.done():
            return  # cancelled: the bot is stopping
        if error is None:
            done.set_result(None)
        else:
            done.set_exception(error)

    def work() -> None:
        error: BaseException | None = None
        try:
            render.warm_up()
        except Exception as exc:
            error = exc
        with contextlib.suppress(RuntimeError):  # the loop has closed meanwhile
            loop.call_soon_threadsafe(settle, error)

    async def run() -> None:
        threading.Thread(target=work, name="render-warm-up", daemon=True).start()
        try:
            await done
        except Exception:
            log.exception("renderer warm-up failed")
        else:
            log.debug("renderer warmed up")

    return asyncio.create_task(run(), name="render-warm-up")


async def stop_background(task: asyncio.Task[None]) -> None:
    """Cancel ``task`` if it still runs and wait for it (its thread finishes on its own, or
    ends with the process)."""
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task
