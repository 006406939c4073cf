"""Sending a file Telegram may already have: its ``file_id`` first, the bytes if refused.

A file sent once can be sent again by its ``file_id`` at no upload cost, but Telegram
forgets ids now and then (after long idle times, a moved data centre) and refuses them with
"wrong file identifier". Every send that reuses an id goes through :func:`send_reusing`, so
a refused id costs one more request, never the board, a hint, an analysis, a replay or
an export.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TypeVar

from telegram.error import BadRequest

_Fresh = TypeVar("_Fresh")
_Result = TypeVar("_Result")


def refused_file_id(exc: BadRequest) -> bool:
    """Whether Telegram refused a request because of the file it named (a stale id)."""
    return "file" in str(exc).lower()


async def send_reusing(
    file_id: str | None,
    fresh: Callable[[], Awaitable[_Fresh]],
    send: Callable[[str | _Fresh], Awaitable[_Result]],
    forget: Callable[[], object],
) -> _Result:
    """``send`` with the known ``file_id``; if there is none, or Telegram refuses it, with
    what ``fresh`` makes (the bytes to upload), after ``forget`` dropped the refused id."""
    if file_id is not None:
        try:
            return await send(file_id)
        except BadRequest as exc:
            if not refused_file_id(exc):
                raise
            forget()
    return await send(await fresh())
