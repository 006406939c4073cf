"""The objects every handler needs, kept in ``application.bot_data``."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from telegram.ext import ContextTypes

from bot.config import Settings
from bot.dice import DiceSource, SecureDice
from storage import GameRepository

KEY = "tavola"


@dataclass
class Services:
    settings: Settings
    repo: GameRepository
    dice: DiceSource = field(default_factory=SecureDice)
    rng: random.Random = field(default_factory=random.SystemRandom)


def services(context: ContextTypes.DEFAULT_TYPE) -> Services:
    return context.application.bot_data[KEY]
