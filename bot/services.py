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


def services(context: ContextTypes.DEFAULT_TYPE) -> Services:
    return of_app(context.application)


def of_app(app: BotApp) -> Services:
    return cast(Services, app.bot_data[KEY])
