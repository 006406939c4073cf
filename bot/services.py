"""The objects every handler needs, and everything else the application keeps.

PTB's ``bot_data`` is a :class:`BotData` (``ContextTypes(bot_data=BotData)``, set by
``bot.app``): typed fields instead of string keys, so a reader finds what is kept, by whom.
"""

from __future__ import annotations

import asyncio
import random
from dataclasses import dataclass, field
from typing import Protocol

from telegram.ext import ContextTypes

from bot.adapters.card_edits import CardEdits
from bot.adapters.ptb_types import BotApp
from bot.computer import ComputerPool
from bot.config import Settings
from bot.drawing import DrawingPool
from bot.file_jobs import FileJobs
from bot.game.clock import Clock
from bot.game.dice import DiceSource, VerifiableDice
from bot.game.table import Table
from bot.views.painter import BoardPainter
from storage import GameRepository, StoredGame


class ClockFollower(Protocol):
    """Makes a chat's timers match a committed save: the save wrote the deadline (``due_at``
    when ``clock`` is NEW); the follower sets or clears what goes with it. It must not
    wait: it runs right after a commit, before the board is shown."""

    def __call__(
        self, app: BotApp, game: StoredGame, table: Table, clock: Clock, due_at: float | None
    ) -> None: ...


@dataclass
class Services:
    settings: Settings
    repo: GameRepository
    painter: BoardPainter
    computer: ComputerPool
    dice: DiceSource = field(default_factory=VerifiableDice)
    rng: random.Random = field(default_factory=random.SystemRandom)
    #: Workers of their own for the post-game analyses, so an analysis (seconds of CPU)
    #: never delays the computer's moves; None: the computer's pool does them too.
    analyst: ComputerPool | None = None
    #: Makes the timers follow each committed save (``bot.timeouts.follow`` in the bot),
    #: handed over so that saving never imports the timers that save.
    follow_clock: ClockFollower = field(kw_only=True)
    #: Tells the Mini App's open pages of each commit (``bot.miniapp.live``); None: off.
    live: LivePublisher | None = field(default=None, kw_only=True)
    #: The processes that draw the boards (``bot.drawing``); None: a thread draws them.
    drawer: DrawingPool | None = field(default=None, kw_only=True)

    @property
    def analysis_pool(self) -> ComputerPool:
        return self.analyst or self.computer


class LivePublisher(Protocol):
    """Publishes that a place's game was saved at a version (the Mini App's pages listen)."""

    async def publish(self, key: int, version: int) -> None: ...


class Stoppable(Protocol):
    """A background loop the application stops on its way out."""

    async def stop(self) -> None: ...


@dataclass
class BotData:
    """The application's ``bot_data``: PTB builds it empty (``ContextTypes``), the bot's
    set-up (``bot.app.build_application``) hands it the services."""

    #: Set once, right after the application is built.
    services: Services | None = None
    #: False when the caller (a test) shares one pool of workers: it is not closed here.
    owns_computer: bool = True
    #: The task starting the computer's workers (kept referenced until done).
    computer_start: asyncio.Task[None] | None = None
    #: The board drawers starting (``bot.drawing``), in a thread.
    drawer_start: asyncio.Task[None] | None = None
    #: The loop firing due timers (``bot.timeouts.TimerPoller``).
    timer_poller: Stoppable | None = None
    #: Per chat, one migration at a time (``bot.reach``).
    migration_locks: dict[int, asyncio.Lock] = field(default_factory=dict)
    #: The analyses still being computed or sent (kept referenced until done).
    analyses: set[asyncio.Task[None]] = field(default_factory=set)
    #: The replays and match files being built and sent lately.
    file_jobs: FileJobs = field(default_factory=FileJobs)
    #: The challenge cards' coalesced edits (``bot.adapters.card_edits``).
    card_edits: CardEdits = field(default_factory=CardEdits)


def bot_data(app: BotApp) -> BotData:
    """The application's typed ``bot_data``."""
    data = app.bot_data
    assert isinstance(data, BotData), "the application is built by bot.app"
    return data


def services(context: ContextTypes.DEFAULT_TYPE) -> Services:
    return of_app(context.application)


def of_app(app: BotApp) -> Services:
    svc = bot_data(app).services
    assert svc is not None, "the services are handed over when the application is built"
    return svc
