"""The objects every handler needs, kept in ``application.bot_data``."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Protocol, cast

from telegram.ext import ContextTypes

from bot.adapters.ptb_types import BotApp
from bot.computer import ComputerPool
from bot.config import Settings
from bot.game.clock import Clock
from bot.game.dice import DiceSource, VerifiableDice
from bot.game.table import Table
from bot.views.painter import BoardPainter
from storage import GameRepository, StoredGame

KEY = "tavola"


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

    @property
    def analysis_pool(self) -> ComputerPool:
        return self.analyst or self.computer


def services(context: ContextTypes.DEFAULT_TYPE) -> Services:
    return of_app(context.application)


def of_app(app: BotApp) -> Services:
    return cast(Services, app.bot_data[KEY])
