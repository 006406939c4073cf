"""Fonts shipped with the project, so the picture never depends on system fonts.

DejaVu Sans (licence in ``fonts/LICENSE-DejaVu.txt``) covers Italian accents, Cyrillic
and Greek, which players' names often need; Pillow's built-in default font has no
accented letters. If the files are missing, Pillow's scalable default font is used.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

FONT_DIR = Path(__file__).with_name("fonts")
_FILES = {"regular": "DejaVuSans.ttf", "bold": "DejaVuSans-Bold.ttf"}

Font = ImageFont.FreeTypeFont | ImageFont.ImageFont | ImageFont.TransposedFont


@lru_cache(maxsize=64)
def font(size: int, weight: str = "bold") -> Font:
    """A font of ``size`` pixels; ``weight`` is "regular" or "bold"."""
    path = FONT_DIR / _FILES[weight]
    try:
        return ImageFont.truetype(str(path), size)
    except OSError:
        return ImageFont.load_default(size=size)


def _drawable(ch: str) -> bool:
    """Whether DejaVu can show ``ch``: emoji and joiners would come out as boxes."""
    code = ord(ch)
    if code >= 0x1F000 or 0xFE00 <= code <= 0xFE0F or code in (0x200D, 0x20E3):
        return False
    if 0x2600 <= code <= 0x27BF or 0x2B00 <= code <= 0x2BFF:
        return False
    return ch.isprintable()


def clean_text(text: str) -> str:
    """Drop characters the font cannot draw and squeeze the spaces left behind."""
    return " ".join("".join(ch for ch in text if _drawable(ch)).split())


def fit_text(text: str, fnt: Font, max_width: int) -> str:
    """``text`` shortened with an ellipsis so that it fits ``max_width`` pixels."""
    if fnt.getlength(text) <= max_width:
        return text
    while text and fnt.getlength(text + "…") > max_width:
        text = text[:-1]
    return text.rstrip() + "…"


@lru_cache(maxsize=1024)
def text_mask(text: str, size: int, weight: str, anchor: str) -> tuple[Image.Image, int, int]:
    """A cached coverage mask of ``text`` and its offset from the anchor point.

    Rasterising text is the costliest part of composing a board after pasting, and
    the same strings (point numbers, counts, names) come back on every board.
    """
    fnt = font(size, weight)
    left, top, right, bottom = (round(v) for v in fnt.getbbox(text, anchor=anchor))
    mask = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
    ImageDraw.Draw(mask).text((-left, -top), text, font=fnt, fill=255, anchor=anchor)
    return mask, left, top


def draw_text(
    img: Image.Image,
    xy: tuple[float, float],
    text: str,
    size: int,
    weight: str,
    fill: tuple[int, int, int],
    anchor: str = "mm",
) -> tuple[int, int, int, int]:
    """Draw ``text`` on ``img`` through the mask cache (same result as ImageDraw.text);
    returns the box it drew in, for the palette mapping of what changed (``render.png``)."""
    mask, left, top = text_mask(text, size, weight, anchor)
    x, y = round(xy[0]) + left, round(xy[1]) + top
    box = (x, y, x + mask.width, y + mask.height)
    img.paste(fill, box, mask)
    return box


@lru_cache(maxsize=512)
def fit_text_cached(text: str, size: int, weight: str, max_width: int) -> str:
    """``fit_text`` for a font given by size and weight, memoised."""
    return fit_text(text, font(size, weight), max_width)


@lru_cache(maxsize=1024)
def text_width(text: str, size: int, weight: str) -> int:
    """Advance width of ``text`` in pixels, memoised."""
    return round(font(size, weight).getlength(text))
