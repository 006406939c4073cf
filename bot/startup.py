"""Start-up helpers for ``python -m bot``: one clear line when start-up fails, no waiting for
the renderer's warm-up before updates are served.

A failed start must print exactly one line (``tavola: ...``) and exit with code 2, never a
traceback and never the token: PTB's own ``InvalidToken`` message quotes the token, so its
text is never shown. The log lines written while starting are held back and shown only once
the bot runs (or when start-up fails in an unexpected way, which keeps its traceback), so a
refused token or an unreachable server does not bury that one line under log output.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Callable, Iterator

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


class _Held(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.NOTSET)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@contextlib.contextmanager
def held_logs(
    drop_on: tuple[type[BaseException], ...],
) -> Iterator[Callable[[], None]]:
    """Hold back the root logger's output until the returned ``release()`` is called.

    ``release()`` writes the held records through the original handlers (filters, such as
    the token redaction, still apply) and restores them. Leaving the block without releasing
    drops the records when the exception is one of ``drop_on`` (a start-up failure that
    prints its own line), else writes them, so an unexpected failure keeps its context.
    """
    root = logging.getLogger()
    handlers = root.handlers[:]
    held = _Held()
    root.handlers[:] = [held]
    released = False

    def release() -> None:
        nonlocal released
        if released:
            return
        released = True
        root.handlers[:] = handlers
        for record in held.records:
            for handler in handlers:
                if record.levelno >= handler.level:
                    handler.handle(record)
        held.records.clear()

    try:
        yield release
    except drop_on:
        released = True
        root.handlers[:] = handlers
        raise
    finally:
        release()


def warm_up_in_background() -> asyncio.Task[None]:
    """Build the renderer's sprites and backgrounds in a thread, without delaying updates.

    The first board drawn before it finishes is just slower. A failure is logged, not
    fatal: drawing then fails (and is reported) where it is needed.
    """

    async def run() -> None:
        try:
            await asyncio.to_thread(render.warm_up)
        except Exception:
            log.exception("renderer warm-up failed")
        else:
            log.debug("renderer warmed up")

    return asyncio.create_task(run(), name="render-warm-up")


async def stop_background(task: asyncio.Task[None]) -> None:
    """Cancel ``task`` if it still runs and wait for it (its thread finishes on its own)."""
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task
