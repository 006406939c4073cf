"""The objects every handler needs, kept in ``application.bot_data``."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import cast

from telegram.ext import ContextTypes

from bot.board import BoardPainter
from bot.computer import ComputerPool
from bot.config import Settings
from bot.dice import DiceSource, VerifiableDice
from bot.ptb_types import BotApp
from bot.turn_clock import ClockFollower
from storage import GameRepository

KEY = "tavola"


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
