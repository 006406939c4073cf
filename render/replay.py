"""A whole game as an animated GIF: one board per play, with a caption strip above it.

Telegram plays a GIF sent with ``sendAnimation`` inline and on a loop, so a replay needs
no player or extra tap. To load quickly on a phone the frames are small (480 pixels wide
by default), mapped onto the board's fixed 256-colour palette without dithering (flat
areas stay flat and compress well, and one palette serves every frame), and GIF stores
only the rectangle that changed from one frame to the next: a play moves a few checkers.

No rules here: the caller (the bot) turns the game's states into ``BoardView``s and the
caption lines, as for the still board.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image

from render.board import board_image
from render.fonts import clean_text, draw_text, fit_text_cached
from render.png import palette
from render.theme import DEFAULT_THEME, Theme, get_theme
from render.view import BoardView, Side

REPLAY_WIDTH = 480
FRAME_MS = 1100
FIRST_MS = 1800  # the starting position: time to see who plays which colour
LAST_MS = 5000  # the final position and result stay before the loop starts again
#: The caption strip's height and font, as fractions of the width.
_STRIP = 0.075
_FONT = 0.036


@dataclass(frozen=True)
class ReplayFrame:
    """One frame: the board, the line written above it, and who sits at the bottom."""

    view: BoardView
    caption: str
    orientation: Side = "white"


def frame_image(frame: ReplayFrame, width: int, theme: Theme) -> Image.Image:
    """The frame in RGB: the caption strip, then the board."""
    board = board_image(frame.view, orientation=frame.orientation, size=width, theme=theme)
    strip = max(16, round(width * _STRIP))
    img = Image.new("RGB", (board.width, board.height + strip), theme.info_bg)
    img.paste(board, (0, strip))
    size = max(10, round(width * _FONT))
    text = fit_text_cached(clean_text(frame.caption), size, "bold", width - strip)
    draw_text(img, (width // 2, strip // 2), text, size, "bold", theme.info_text)
    return img


def replay_gif(
    frames: Sequence[ReplayFrame],
    *,
    width: int = REPLAY_WIDTH,
    frame_ms: int = FRAME_MS,
    first_ms: int = FIRST_MS,
    last_ms: int = LAST_MS,
    theme: str | Theme = DEFAULT_THEME,
) -> bytes:
    """The frames as a looping GIF; the first and last frames stay longer."""
    if not frames:
        raise ValueError("a replay needs at least one frame")
    th = get_theme(theme)
    pal = _gif_palette(th, width)
    images = [
        frame_image(f, width, th).quantize(palette=pal, dither=Image.Dither.NONE) for f in frames
    ]
    durations = [frame_ms] * len(images)
    durations[0] = first_ms if len(images) > 1 else last_ms
    durations[-1] = last_ms
    buf = io.BytesIO()
    images[0].save(
        buf,
        "GIF",
        save_all=True,
        append_images=images[1:],
        duration=durations,
        loop=0,
        optimize=True,  # with a transparent index: pixels a frame leaves unchanged
        transparency=_TRANSPARENT,
        disposal=1,  # each frame is drawn over the one before
    )
    return buf.getvalue()


_TRANSPARENT = 255
#: The colour left in the transparent slot: no board element is anywhere near it, so no
#: pixel is ever mapped to it.
_UNUSED = (255, 0, 255)


@lru_cache(maxsize=4)
def _gif_palette(theme: Theme, width: int) -> Image.Image:
    """The board's palette with its last slot given up for transparency: a frame then
    stores only the pixels that changed, the rest of it is transparent and compresses to
    almost nothing. (With all 256 colours used, every frame would be stored whole.)"""
    colours = palette(theme, width).getpalette() or []
    pal = Image.new("P", (1, 1))
    pal.putpalette(colours[: 3 * _TRANSPARENT] + list(_UNUSED))
    return pal
