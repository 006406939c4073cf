"""The board's palette mapping done on what changed only gives the picture the whole
board's mapping gives, index for index, for every kind of board the bot draws."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from PIL import Image

from benchmarks.render import random_view
from render import Arrow, BoardView, Die, LastStep, board_png, samples
from render.board import compose
from render.png import encode, palette, palette_board
from render.theme import get_theme
from render.view import Side, other


def _views() -> list[BoardView]:
    """Samples (starts, bar and hits, bear-offs, cubes centred, owned, offered and greyed,
    Crawford, finals with a banner, stacks of 15), rolls, and seeded random positions, some
    with hits in the last play, some with the other side's numbering."""
    views = list(samples.named_views().values())
    views += list(samples.roll_views().values())[::5]
    rng = random.Random(35)
    for k in range(24):
        v = random_view(rng)
        if k % 3 == 0:
            v = replace(v, last_play=tuple(replace(s, hit=True) for s in v.last_play))
        if k % 4 == 1:
            v = replace(v, perspective=other(v.perspective), cube_active=False)
        if k % 5 == 2:
            v = replace(v, turn=None, dice=(), banner=("Giulia vince 2 punti", "Marco 3 – 5"))
        views.append(v)
    return views


VIEWS = _views()


def _whole(view: BoardView, orientation: Side, size: int, theme: str) -> Image.Image:
    """The board mapped whole onto its palette: what the bot sent before."""
    img = compose(view, orientation=orientation, size=size, theme=theme).image
    return img.quantize(palette=palette(get_theme(theme), size), dither=Image.Dither.NONE)


@pytest.mark.parametrize("orientation", ["white", "black"])
def test_mapping_what_changed_equals_mapping_the_whole_board(orientation: Side) -> None:
    for i, view in enumerate(VIEWS):
        theme = ("legno", "blu")[i % 2]
        size = 480 if i % 7 == 3 else 1280
        board = compose(view, orientation=orientation, size=size, theme=theme)
        assert board.changed  # only the background untouched is taken from the cache
        fast = palette_board(board)
        whole = _whole(view, orientation, size, theme)
        assert fast.getpalette() == whole.getpalette()
        assert fast.tobytes() == whole.tobytes(), (i, orientation, theme, size)


def test_the_png_sent_is_the_whole_board_mapped() -> None:
    th = get_theme("legno")
    for view in VIEWS[::3]:
        for orientation in ("white", "black"):
            expected = encode(compose(view, orientation=orientation).image, th)
            assert board_png(view, orientation=orientation) == expected


def test_highlights_and_arrows_over_a_board_map_like_the_whole() -> None:
    view = BoardView.start(
        "classic",
        dice=(Die(6), Die(5)),
        arrows=(Arrow("white", 13, 7, "1"), Arrow("white", 8, 7, "2")),
    )
    board = compose(view)
    assert board.changed is None  # arrows cross the board: mapped whole
    assert palette_board(board).tobytes() == _whole(view, "white", 1280, "legno").tobytes()
    assert board_png(view) == encode(board.image, get_theme("legno"))
    hit = LastStep("black", 24, 20, hit=True)
    highlighted = replace(samples.classic_bar_hit(), last_play=(hit,))
    for orientation in ("white", "black"):
        fast = palette_board(compose(highlighted, orientation=orientation))
        assert fast.tobytes() == _whole(highlighted, orientation, 1280, "legno").tobytes()
