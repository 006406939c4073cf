"""Colour themes: a board's look is data, so a new theme needs no drawing code."""

from __future__ import annotations

from dataclasses import dataclass

RGB = tuple[int, int, int]


@dataclass(frozen=True)
class Theme:
    """The colours of one board style."""

    name: str
    wood: RGB  # frame base colour
    wood_dark: RGB  # darker grain
    wood_light: RGB  # lighter grain
    felt: RGB  # playing field
    point_a: RGB  # triangles, first colour
    point_b: RGB  # triangles, second colour
    tray: RGB  # bear-off trays and cube well
    label: RGB  # point numbers on the frame
    info_bg: RGB  # name strips above and below the board
    info_text: RGB
    info_muted: RGB
    accent: RGB  # turn marker, last-play destinations
    hit: RGB  # hit checkers
    white_checker: RGB
    white_rim: RGB
    black_checker: RGB
    black_rim: RGB


THEMES: dict[str, Theme] = {
    "legno": Theme(
        name="legno",
        wood=(120, 74, 42),
        wood_dark=(78, 44, 22),
        wood_light=(160, 106, 64),
        felt=(30, 92, 64),
        point_a=(226, 208, 170),
        point_b=(150, 40, 38),
        tray=(22, 64, 45),
        label=(250, 236, 206),
        info_bg=(36, 28, 22),
        info_text=(248, 240, 226),
        info_muted=(196, 180, 160),
        accent=(255, 196, 40),
        hit=(235, 52, 52),
        white_checker=(244, 238, 224),
        white_rim=(176, 164, 140),
        black_checker=(44, 42, 46),
        black_rim=(12, 12, 14),
    ),
    "blu": Theme(
        name="blu",
        wood=(58, 44, 38),
        wood_dark=(40, 30, 26),
        wood_light=(76, 58, 50),
        felt=(28, 58, 98),
        point_a=(214, 196, 160),
        point_b=(40, 120, 130),
        tray=(20, 40, 70),
        label=(236, 228, 212),
        info_bg=(22, 26, 36),
        info_text=(240, 242, 248),
        info_muted=(170, 180, 198),
        accent=(255, 190, 60),
        hit=(240, 70, 70),
        white_checker=(244, 240, 230),
        white_rim=(170, 160, 140),
        black_checker=(46, 40, 40),
        black_rim=(14, 10, 10),
    ),
}

DEFAULT_THEME = "legno"


def get_theme(theme: str | Theme) -> Theme:
    """Resolve a theme name (or pass a ``Theme`` through)."""
    if isinstance(theme, Theme):
        return theme
    try:
        return THEMES[theme]
    except KeyError:
        raise ValueError(f"unknown theme {theme!r}; known: {sorted(THEMES)}") from None


def mix(a: RGB, b: RGB, t: float) -> RGB:
    """Blend ``a`` towards ``b`` by ``t`` (0 = a, 1 = b)."""
    return (
        round(a[0] + (b[0] - a[0]) * t),
        round(a[1] + (b[1] - a[1]) * t),
        round(a[2] + (b[2] - a[2]) * t),
    )
