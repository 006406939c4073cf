"""Hint arrows: drawn between the moving checker and its landing point, numbered, and
only where asked."""

from __future__ import annotations

import pytest
from PIL import ImageChops

from render import Arrow, BoardView, Die, board_image
from render.geometry import layout_for

LAY = layout_for(1280)


def test_arrow_runs_from_the_stack_to_the_landing_point() -> None:
    plain = BoardView.start("classic", dice=(Die(6), Die(5)))
    hinted = BoardView.start("classic", dice=(Die(6), Die(5)), arrows=(Arrow("white", 13, 7, "1"),))
    a = board_image(plain, last_play=())
    b = board_image(hinted, last_play=())
    box = ImageChops.difference(a, b).getbbox()
    assert box is not None
    src = LAY.slot_center(13, 4)  # the top checker of White's five on the 13 point
    dst = LAY.slot_center(7, 0)  # an empty point: the first slot
    for x, y in (src, dst):
        assert box[0] - 2 <= x <= box[2] + 2 and box[1] - 2 <= y <= box[3] + 2
    # The middle of the arrow's shaft changed colour; the far side of the board did not.
    mid = ((src[0] + dst[0]) // 2, (src[1] + dst[1]) // 2)
    assert a.getpixel(mid) != b.getpixel(mid)
    far = LAY.slot_center(1, 0)
    assert a.getpixel(far) == b.getpixel(far)


def test_no_arrows_leave_the_picture_unchanged() -> None:
    view = BoardView.start("long", dice=(Die(3), Die(1)))
    assert (
        board_image(view).tobytes()
        == board_image(BoardView.start("long", dice=(Die(3), Die(1)), arrows=())).tobytes()
    )


def test_bar_and_bear_off_arrows_draw() -> None:
    white = [0] * 26
    white[25], white[6], white[0] = 1, 4, 10
    black = [0] * 26
    black[24], black[0] = 2, 13
    view = BoardView(
        variant="classic",
        white=tuple(white),
        black=tuple(black),
        arrows=(Arrow("white", 25, 20, "1"), Arrow("white", 6, 0, "2")),
    )
    plain = BoardView(variant="classic", white=tuple(white), black=tuple(black))
    assert ImageChops.difference(board_image(view), board_image(plain)).getbbox() is not None


def test_arrow_validation() -> None:
    with pytest.raises(ValueError, match="out of range"):
        Arrow("white", 0, 5)
    with pytest.raises(ValueError, match="unknown side"):
        Arrow("green", 5, 3)  # type: ignore[arg-type]


def test_two_checkers_making_the_same_move_get_parallel_arrows_not_an_x() -> None:
    from render.arrows import _crosses, _uncrossed

    arrows = (Arrow("white", 8, 2, "1"), Arrow("white", 8, 2, "2"))
    view = BoardView.start("classic", dice=(Die(6), Die(6)), arrows=arrows)
    plain = board_image(BoardView.start("classic", dice=(Die(6), Die(6))), last_play=())
    hinted = board_image(view, last_play=())
    # In playing order the upper checker goes first and would land on the lower slot.
    top, next_ = LAY.slot_center(8, 2), LAY.slot_center(8, 1)
    first, second = LAY.slot_center(2, 0), LAY.slot_center(2, 1)
    assert _crosses(top, first, next_, second)
    drawn = _uncrossed([(top, first), (next_, second)])
    assert drawn == [(top, second), (next_, first)]
    assert not _crosses(*drawn[0], *drawn[1])
    for start, end in drawn:  # both shafts are on the picture
        mid = ((start[0] + end[0]) // 2, (start[1] + end[1]) // 2)
        assert plain.getpixel(mid) != hinted.getpixel(mid)
    # Different moves are never bent into others.
    other = [(top, first), (LAY.slot_center(6, 4), second)]
    assert _uncrossed(other) == other


def test_the_play_made_is_drawn_apart_from_the_best_play() -> None:
    best = (Arrow("white", 13, 7, "1"), Arrow("white", 8, 7, "2"))
    made = (Arrow("white", 24, 18, made=True), Arrow("white", 13, 12, made=True))
    only_best = board_image(BoardView.start("classic", arrows=best), last_play=())
    both = board_image(BoardView.start("classic", arrows=made + best), last_play=())
    box = ImageChops.difference(only_best, both).getbbox()
    assert box is not None
    src, dst = LAY.slot_center(24, 1), LAY.slot_center(18, 0)
    mid = ((src[0] + dst[0]) // 2, (src[1] + dst[1]) // 2)
    colour = both.getpixel(mid)[:3]
    assert colour != only_best.getpixel(mid)[:3]
    # In the hit colour, not the suggestion's accent.
    from render.theme import DEFAULT_THEME, get_theme

    theme = get_theme(DEFAULT_THEME)
    assert colour == theme.hit and colour != theme.accent
