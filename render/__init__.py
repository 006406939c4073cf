"""Board pictures for Tavola: a ``BoardView`` in, PNG bytes out.

No Telegram, no Redis, no rules: the bot fills a ``BoardView`` from the engine's state
and sends the bytes. ``board_image`` returns the Pillow image (for tests).
"""

from render.board import board_image
from render.png import board_png, warm_up
from render.replay import ReplayFrame, replay_gif
from render.theme import THEMES, Theme
from render.view import Arrow, BoardView, Die, LastStep, Side, Variant, convert_point, pip_count

__all__ = [
    "THEMES",
    "Arrow",
    "BoardView",
    "Die",
    "LastStep",
    "ReplayFrame",
    "Side",
    "Theme",
    "Variant",
    "board_image",
    "board_png",
    "convert_point",
    "pip_count",
    "replay_gif",
    "warm_up",
]
