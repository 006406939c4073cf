"""The challenge card's edits, at most one per card every few seconds.

A challenger often taps several settings in a row; each tap is answered at once, but the
group message is edited at most once per ``CARD_EDIT_SECONDS``: the first tap edits it
at once, the taps that follow within the period leave one edit for the period's end, which
shows the card as stored then (the latest state, whoever saved it). A group has about 20
edits a minute for everything, the boards included.

With several workers (webhook processes) the periods are kept in Redis
(``storage.edit_windows``): whichever worker gets a tap, one edit opens the card's period
and one edit, held by the first worker that found the period running, closes it. Without
Redis (or when it fails) each process keeps its own periods, as a single worker needs.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from telegram import Bot, InlineKeyboardMarkup
from telegram.constants import ParseMode
from telegram.error import BadRequest, TelegramError

from storage.edit_windows import EditWindows

log = logging.getLogger(__name__)

CARD_EDIT_SECONDS = 3.0
MAX_CARDS = 1000  # cards remembered at once (each is a few seconds of interest)
#: How many times a held edit looks again for the end of a period another worker reopened.
MAX_HELD_TRIES = 5

#: The card's wording now, read from storage when the edit goes out; None: nothing to
#: edit any more (the card was launched, withdrawn or expired meanwhile).
Render = Callable[[], Awaitable[tuple[str, InlineKeyboardMarkup] | None]]


@dataclass
class _Card:
    last_edit: float = float("-inf")
    shown: tuple[str, InlineKeyboardMarkup] | None = None
    pending: asyncio.Task[None] | None = field(default=None, repr=False)


class CardEdits:
    """Coalesces the edits of challenge cards in this process (one instance per bot)."""

    def __init__(
        self, period: float = CARD_EDIT_SECONDS, windows: EditWindows | None = None
    ) -> None:
        self.period = period
        #: The periods shared by every worker (None: this process's own).
        self.windows = windows
        self._cards: dict[tuple[int, int], _Card] = {}

    async def edit(self, bot: Bot, chat_id: int, message_id: int, render: Render) -> None:
        """Show the card's latest wording: now if the period allows, else once it ends."""
        key = (chat_id, message_id)
        if key not in self._cards and len(self._cards) >= MAX_CARDS:
            self._forget_idle()
        card = self._cards.setdefault(key, _Card())
        if card.pending is not None and not card.pending.done():
            return  # the edit already planned reads the latest state when it goes out
        if self.windows is not None:
            try:
                await self._shared(bot, key, card, render, self.windows)
                return
            except Exception:  # Redis failing: this process's own periods still hold
                log.warning("shared card edit periods unavailable", exc_info=True)
        wait = card.last_edit + self.period - time.monotonic()
        if wait <= 0:
            await self._edit(bot, key, card, render)
            return
        card.pending = asyncio.create_task(
            self._later(bot, key, card, render, wait), name=f"card:{chat_id}:{message_id}"
        )

    def settled(self, chat_id: int, message_id: int) -> None:
        """The card became something else (launched, withdrawn, expired): forget it and
        any edit it still had planned."""
        card = self._cards.pop((chat_id, message_id), None)
        if card is not None and card.pending is not None:
            card.pending.cancel()

    async def drain(self) -> None:
        """Wait for the edits planned so far (a stop, a test waiting for quiet)."""
        pending = [c.pending for c in self._cards.values() if c.pending is not None]
        if pending:
            await asyncio.gather(*pending, return_exceptions=True)

    def _forget_idle(self) -> None:
        """Forget the cards with no edit planned (their period is long over, or soon)."""
        for key in [k for k, c in self._cards.items() if c.pending is None]:
            del self._cards[key]

    async def _shared(
        self,
        bot: Bot,
        key: tuple[int, int],
        card: _Card,
        render: Render,
        windows: EditWindows,
    ) -> None:
        """Edit now if this tap opens the card's period (in any worker), else hold the
        edit for the period's end unless another tap (in any worker) holds it already."""
        if await windows.claim(*key, self.period):
            await self._edit(bot, key, card, render)
            return
        wait = await windows.plan(*key, self.period)
        if wait is None:
            return  # held elsewhere: that edit reads the latest state when it goes out
        card.pending = asyncio.create_task(
            self._held(bot, key, card, render, windows, wait), name=f"card:{key[0]}:{key[1]}"
        )

    async def _held(
        self,
        bot: Bot,
        key: tuple[int, int],
        card: _Card,
        render: Render,
        windows: EditWindows,
        wait: float,
    ) -> None:
        """The held edit: at the period's end, open the next period and edit."""
        try:
            for _ in range(MAX_HELD_TRIES):
                await asyncio.sleep(wait)
                if await windows.claim(*key, self.period):
                    await windows.unplan(*key)  # a tap from now on holds the next edit
                    await self._edit(bot, key, card, render)
                    return
                wait = max(await windows.remaining(*key), 0.05)
            await windows.unplan(*key)
        except Exception:
            log.warning("held card edit %s of chat %s failed", key[1], key[0], exc_info=True)
        finally:
            card.pending = None

    async def _later(
        self, bot: Bot, key: tuple[int, int], card: _Card, render: Render, wait: float
    ) -> None:
        await asyncio.sleep(wait)
        try:
            await self._edit(bot, key, card, render)
        finally:
            card.pending = None

    async def _edit(self, bot: Bot, key: tuple[int, int], card: _Card, render: Render) -> None:
        try:
            wording = await render()
        except Exception:
            log.exception("cannot read the challenge card %s of chat %s", key[1], key[0])
            return
        if wording is None or wording == card.shown:
            return
        card.last_edit = time.monotonic()
        text, markup = wording
        try:
            await bot.edit_message_text(
                text,
                chat_id=key[0],
                message_id=key[1],
                parse_mode=ParseMode.HTML,
                reply_markup=markup,
            )
        except BadRequest as exc:
            if "not modified" not in str(exc).lower():
                log.info("cannot edit the challenge card %s of chat %s: %s", key[1], key[0], exc)
                return
        except TelegramError as exc:
            log.info("cannot edit the challenge card %s of chat %s: %s", key[1], key[0], exc)
            return
        card.shown = wording
