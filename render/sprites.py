"""Checker, die, cube and marker sprites, drawn once per size and theme.

Sprites are drawn four times larger and scaled down, which gives smooth edges without
anti-aliasing support in ``ImageDraw``; they are cached, so composing a board is just
pasting (the benchmark target is a few milliseconds per board).
"""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np
from PIL import Image, ImageDraw, ImageFilter

from render.fonts import font
from render.theme import RGB, Theme

_SS = 4  # supersampling factor

_PIPS = {
    1: [(0.5, 0.5)],
    2: [(0.27, 0.27), (0.73, 0.73)],
    3: [(0.27, 0.27), (0.5, 0.5), (0.73, 0.73)],
    4: [(0.27, 0.27), (0.73, 0.27), (0.27, 0.73), (0.73, 0.73)],
    5: [(0.27, 0.27), (0.73, 0.27), (0.5, 0.5), (0.27, 0.73), (0.73, 0.73)],
    6: [(0.27, 0.25), (0.73, 0.25), (0.27, 0.5), (0.73, 0.5), (0.27, 0.75), (0.73, 0.75)],
}


def checker_colours(theme: Theme, side: str) -> tuple[RGB, RGB]:
    """(body, rim) of a side's checkers."""
    if side == "white":
        return theme.white_checker, theme.white_rim
    return theme.black_checker, theme.black_rim


def text_colour(theme: Theme, side: str) -> RGB:
    """A colour that reads well on top of ``side``'s checkers."""
    return (40, 34, 30) if side == "white" else (246, 240, 228)


def _shadow(
    size: int, box: tuple[float, float, float, float], blur: float, alpha: int
) -> Image.Image:
    """A soft drop-shadow mask of an ellipse ``box`` on a ``size`` square canvas."""
    mask = Image.new("L", (size, size), 0)
    ImageDraw.Draw(mask).ellipse(box, fill=alpha)
    return mask.filter(ImageFilter.GaussianBlur(blur))


@lru_cache(maxsize=16)
def checker(theme: Theme, side: str, diameter: int) -> Image.Image:
    """A glossy checker with a soft shadow, ``diameter`` plus a small margin wide.

    The sprite is ``diameter + 2 * pad`` square where ``pad = checker_pad(diameter)``.
    """
    pad = checker_pad(diameter)
    full = (diameter + 2 * pad) * _SS
    body, rim = checker_colours(theme, side)
    n = diameter * _SS
    # Normalised coordinates over the disc's square.
    ax = (np.arange(n, dtype=np.float32) + 0.5) / n * 2 - 1
    x, y = np.meshgrid(ax, ax)
    r = np.sqrt(x * x + y * y)
    base = np.array(body, dtype=np.float32) / 255
    rim_c = np.array(rim, dtype=np.float32) / 255
    shade = 1.0 + 0.10 * (-x - y)  # light from the top left
    rgb = base[None, None, :] * shade[..., None]
    # Outer rim and bevel.
    rim_zone = np.clip((r - 0.90) / 0.03, 0, 1)[..., None]
    rgb = rgb * (1 - rim_zone) + rim_c[None, None, :] * shade[..., None] * rim_zone
    bevel = np.exp(-(((r - 0.86) / 0.025) ** 2))[..., None]
    rgb = rgb + bevel * 0.10
    # Carved ring: a dark groove with a lit edge inside it.
    groove = np.exp(-(((r - 0.62) / 0.03) ** 2))[..., None]
    lit = np.exp(-(((r - 0.67) / 0.025) ** 2))[..., None]
    rgb = rgb * (1 - 0.22 * groove) + lit * 0.07
    # Specular highlight.
    spec = np.exp(-(((x + 0.32) ** 2 + (y + 0.40) ** 2) / 0.09))[..., None]
    strength = 0.30 if side == "white" else 0.22
    rgb = rgb + spec * strength * (1 - rgb) * 1.2
    rgb = np.clip(rgb, 0, 1)
    alpha = np.clip((1.0 - r) * n / 2, 0, 1)  # hard edge; supersampling smooths it
    arr = np.dstack([rgb * 255, alpha[..., None] * 255]).astype(np.uint8)
    disc = Image.fromarray(arr, "RGBA")

    off = pad * _SS
    shift = 0.05 * n
    shadow = _shadow(
        full,
        (off + shift * 0.4, off + shift, off + n + shift * 0.4, off + n + shift),
        n * 0.03,
        150,
    )
    sprite = Image.new("RGBA", (full, full), (0, 0, 0, 0))
    sprite.putalpha(shadow)
    sprite.alpha_composite(disc, (off, off))
    return sprite.resize((full // _SS, full // _SS), Image.Resampling.LANCZOS)


def checker_pad(diameter: int) -> int:
    """Margin around a checker sprite that leaves room for its shadow."""
    return max(2, round(diameter * 0.08))


@lru_cache(maxsize=32)
def ring(colour: RGB, diameter: int, width: int, dashed: bool = False) -> Image.Image:
    """A ring marker (solid, or dashed for where a checker left)."""
    n = diameter * _SS
    ax = (np.arange(n, dtype=np.float32) + 0.5) - n / 2
    x, y = np.meshgrid(ax, ax)
    r = np.sqrt(x * x + y * y)
    outer = n / 2
    inner = outer - width * _SS
    alpha = ((r <= outer) & (r >= inner)).astype(np.float32)
    if dashed:
        angle = np.arctan2(y, x) / (2 * math.pi) * 12
        alpha *= (angle % 1.0) < 0.6
    arr = np.zeros((n, n, 4), dtype=np.uint8)
    arr[..., :3] = colour
    arr[..., 3] = (alpha * 255).astype(np.uint8)
    return Image.fromarray(arr, "RGBA").resize((diameter, diameter), Image.Resampling.LANCZOS)


@lru_cache(maxsize=64)
def die(side: str, value: int, size: int, used: bool) -> Image.Image:
    """A die of ``side``'s colour; used dice are faded so the remaining ones stand out."""
    pad = max(2, size // 10)
    full = (size + 2 * pad) * _SS
    n = size * _SS
    off = pad * _SS
    if side == "white":
        body, edge, pip = (248, 244, 234), (170, 160, 140), (30, 26, 24)
    else:
        body, edge, pip = (40, 38, 42), (8, 8, 10), (246, 240, 228)
    shadow = Image.new("L", (full, full), 0)
    sd = round(0.05 * n)
    ImageDraw.Draw(shadow).rounded_rectangle(
        (off + sd * 0.5, off + sd, off + n + sd * 0.5, off + n + sd), radius=n * 0.18, fill=140
    )
    shadow = shadow.filter(ImageFilter.GaussianBlur(n * 0.03))
    img = Image.new("RGBA", (full, full), (0, 0, 0, 0))
    img.putalpha(shadow)
    draw = ImageDraw.Draw(img)
    draw.rounded_rectangle(
        (off, off, off + n, off + n), radius=n * 0.18, fill=(*edge, 255), outline=None
    )
    inset = round(n * 0.035)
    draw.rounded_rectangle(
        (off + inset, off + inset, off + n - inset, off + n - inset),
        radius=n * 0.16,
        fill=(*body, 255),
    )
    pr = n * 0.085
    for px, py in _PIPS[value]:
        cx, cy = off + px * n, off + py * n
        draw.ellipse((cx - pr, cy - pr, cx + pr, cy + pr), fill=(*pip, 255))
    small = img.resize((full // _SS, full // _SS), Image.Resampling.LANCZOS)
    if used:
        a = small.getchannel("A").point(lambda v: v * 38 // 100)
        small.putalpha(a)
    return small


def die_pad(size: int) -> int:
    return max(2, size // 10)


#: (rim, face, digits) of the cube; a greyed cube cannot be turned in this game.
_CUBE_COLOURS = {
    False: ((150, 140, 120, 255), (250, 246, 236, 255), (28, 40, 90, 255)),
    True: ((120, 120, 120, 255), (178, 178, 178, 255), (104, 104, 104, 255)),
}


@lru_cache(maxsize=32)
def cube(value: int, size: int, grey: bool = False) -> Image.Image:
    """The doubling cube showing ``value`` (64 when it has not been turned yet)."""
    rim, face, ink = _CUBE_COLOURS[grey]
    pad = max(2, size // 10)
    full = (size + 2 * pad) * _SS
    n = size * _SS
    off = pad * _SS
    img = Image.new("RGBA", (full, full), (0, 0, 0, 0))
    shadow = Image.new("L", (full, full), 0)
    sd = round(0.05 * n)
    ImageDraw.Draw(shadow).rounded_rectangle(
        (off + sd * 0.5, off + sd, off + n + sd * 0.5, off + n + sd), radius=n * 0.14, fill=150
    )
    img.putalpha(shadow.filter(ImageFilter.GaussianBlur(n * 0.03)))
    draw = ImageDraw.Draw(img)
    draw.rounded_rectangle((off, off, off + n, off + n), radius=n * 0.14, fill=rim)
    inset = round(n * 0.04)
    draw.rounded_rectangle(
        (off + inset, off + inset, off + n - inset, off + n - inset),
        radius=n * 0.12,
        fill=face,
    )
    small = img.resize((full // _SS, full // _SS), Image.Resampling.LANCZOS)
    text = str(value)
    fnt = font(round(size * (0.52 if len(text) < 2 else 0.44)), "bold")
    ImageDraw.Draw(small).text(
        (small.width / 2, small.height / 2), text, font=fnt, fill=ink, anchor="mm"
    )
    return small


@lru_cache(maxsize=16)
def borne_off_slice(theme: Theme, side: str, width: int, height: int) -> Image.Image:
    """A checker seen edge-on, as it lies in the bear-off tray."""
    body, rim = checker_colours(theme, side)
    n_w, n_h = width * _SS, height * _SS
    img = Image.new("RGBA", (n_w, n_h), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    draw.rounded_rectangle((0, 0, n_w - 1, n_h - 1), radius=n_h * 0.3, fill=(*rim, 255))
    inset = max(1, round(n_h * 0.14))
    light = tuple(min(255, c + 22) for c in body)
    draw.rounded_rectangle(
        (inset, inset, n_w - 1 - inset, n_h - 1 - inset), radius=n_h * 0.22, fill=(*body, 255)
    )
    draw.rectangle((inset * 3, inset * 2, n_w - 1 - inset * 3, inset * 3), fill=(*light, 255))
    return img.resize((width, height), Image.Resampling.LANCZOS)
