"""Structural checks of the board picture: sizes, colours where checkers must be,
and that highlights, dice, cube and labels change the picture where they should."""

from __future__ import annotations

import io
from dataclasses import replace

import pytest
from PIL import Image, ImageChops

from render import BoardView, Die, LastStep, board_image, board_png, samples
from render.geometry import layout_for
from render.view import convert_point

LAY = layout_for(1280)


def brightness(img: Image.Image, xy: tuple[int, int]) -> float:
    r, g, b = img.getpixel(xy)[:3]
    return (r + g + b) / 3


def is_white_checker(img: Image.Image, xy: tuple[int, int]) -> bool:
    r, g, b = img.getpixel(xy)[:3]
    return min(r, g, b) > 190


def is_black_checker(img: Image.Image, xy: tuple[int, int]) -> bool:
    return max(img.getpixel(xy)[:3]) < 80


def diff_box(a: Image.Image, b: Image.Image) -> tuple[int, int, int, int] | None:
    return ImageChops.difference(a, b).getbbox()


def inside(xy: tuple[int, int], box: tuple[int, int, int, int] | None) -> bool:
    return box is not None and box[0] <= xy[0] < box[2] and box[1] <= xy[1] < box[3]


def test_default_size_fits_telegram() -> None:
    img = board_image(samples.classic_start())
    assert img.mode == "RGB"
    assert img.width == 1280
    assert 900 <= img.height <= 1280
    small = board_image(samples.classic_start(), size=800)
    assert small.width == 800
    assert abs(small.height / small.width - img.height / img.width) < 0.01


def test_classic_start_checkers_where_expected() -> None:
    img = board_image(samples.classic_start(), last_play=())
    # White's 24 is the top-right point, White's 6 bottom right of the bar.
    for point, n in ((24, 2), (13, 5), (8, 3), (6, 5)):
        for slot in range(n):
            assert is_white_checker(img, LAY.slot_center(point, slot)), (point, slot)
    # Black's 24 is White's 1, Black's 13 is White's 12, and so on.
    for point, n in ((24, 2), (13, 5), (8, 3), (6, 5)):
        board = 25 - point
        for slot in range(n):
            assert is_black_checker(img, LAY.slot_center(board, slot)), (board, slot)
    # Empty points show felt or triangle, not a checker.
    for point in (2, 3, 20, 22):
        xy = LAY.slot_center(point, 0)
        assert not is_white_checker(img, xy) and not is_black_checker(img, xy)
    # Stacks stop at five: a sixth slot would be in the middle gap.
    assert not is_white_checker(img, LAY.slot_center(13, 5))


def test_long_heads_are_diagonally_opposite() -> None:
    img = board_image(samples.long_start(), last_play=())
    assert is_white_checker(img, LAY.slot_center(24, 0))
    assert is_black_checker(img, LAY.slot_center(convert_point(24, "long"), 0))
    assert convert_point(24, "long") == 12
    for point in (1, 6, 13, 18):
        assert not is_white_checker(img, LAY.slot_center(point, 0))
        assert not is_black_checker(img, LAY.slot_center(point, 0))


def test_orientation_black_puts_black_home_bottom_right() -> None:
    view = samples.classic_start()
    img = board_image(view, orientation="black", last_play=())
    # From Black's side, Black's 6 is the bottom point next to the bar on the right.
    assert is_black_checker(img, LAY.slot_center(6, 0))
    assert is_white_checker(img, LAY.slot_center(19, 0))  # White's 6
    long_img = board_image(samples.long_start(), orientation="black", last_play=())
    assert is_black_checker(long_img, LAY.slot_center(24, 0))
    assert is_white_checker(long_img, LAY.slot_center(12, 0))


def test_big_stack_shows_its_count() -> None:
    five = samples.view("classic", samples.counts(p6=5, p1=10), samples.CLASSIC_START)
    six = samples.view("classic", samples.counts(p6=6, p1=9), samples.CLASSIC_START)
    a = board_image(five).crop(_checker_box(6, 4))
    b = board_image(six).crop(_checker_box(6, 4))
    # Same checker in the same place; only the number differs, and it is dark ink.
    assert diff_box(a, b) is not None
    darkest = min(
        brightness(b, (x, y))
        for x in range(b.width)
        for y in range(b.height)
        if (x - b.width / 2) ** 2 + (y - b.height / 2) ** 2 < (b.width / 4) ** 2
    )
    assert darkest < 90


def _checker_box(point: int, slot: int) -> tuple[int, int, int, int]:
    cx, cy = LAY.slot_center(point, slot)
    r = LAY.checker // 2
    return cx - r, cy - r, cx + r, cy + r


def test_checkers_on_the_bar() -> None:
    view = samples.classic_bar_hit()  # two black checkers on the bar
    img = board_image(view, last_play=())
    for slot in range(2):
        # Black sits at the top (White's orientation): its bar checkers are below.
        assert is_black_checker(img, LAY.bar_slot_center(False, slot))
    assert not is_black_checker(img, LAY.bar_slot_center(False, 2))
    assert not is_black_checker(img, LAY.bar_slot_center(True, 0))


def test_last_play_marks_source_destination_and_hits() -> None:
    view = samples.classic_bar_hit()  # White 13/7*/4*
    plain = board_image(view, last_play=())
    marked = board_image(view)
    box = diff_box(plain, marked)
    assert box is not None
    assert inside(LAY.slot_center(13, 4), box)  # where the checker left
    assert inside(LAY.slot_center(4, 0), box)  # where it landed
    # The hit black checkers on the bar wear a red ring.
    cx, cy = LAY.bar_slot_center(False, 0)
    ring = [
        marked.getpixel((cx + dx, cy)) for dx in range(-LAY.checker // 2 - 3, -LAY.checker // 2 + 6)
    ]
    assert any(r > 180 and g < 110 and b < 110 for r, g, b in ring)
    # Only the marks change: the far side of the board is identical.
    far = (
        LAY.left_field_x,
        LAY.field_top,
        LAY.left_field_x + 3 * LAY.point_w,
        LAY.field_top + 3 * LAY.checker,
    )
    assert diff_box(plain.crop(far), marked.crop(far)) is None


def test_bear_off_tray_counts_checkers() -> None:
    view = samples.classic_bearoff()
    empty = replace(view, white=samples.counts(p1=8, p2=3, p3=2, p4=1, p5=1))
    a = board_image(view, last_play=())
    b = board_image(empty, last_play=())
    tray = LAY.tray_box(right=True, top=False)
    assert diff_box(a.crop(tray), b.crop(tray)) is not None
    # The lowest slice in the bottom tray is a white checker seen edge-on.
    x = (tray[0] + tray[2]) // 2
    y = tray[3] - round(6 * LAY.scale) - 8
    assert is_white_checker(a, (x, y))


def test_dice_area_changes_with_the_dice() -> None:
    base = samples.classic_start()
    area = _dice_box(right=True)
    images = {
        "none": board_image(replace(base, dice=())).crop(area),
        "31": board_image(replace(base, dice=(Die(3), Die(1)))).crop(area),
        "52": board_image(replace(base, dice=(Die(5), Die(2)))).crop(area),
        "31used": board_image(replace(base, dice=(Die(3, True), Die(1)))).crop(area),
    }
    keys = list(images)
    for i, k in enumerate(keys):
        for other_key in keys[i + 1 :]:
            assert diff_box(images[k], images[other_key]) is not None, (k, other_key)
    # Black's dice go to the other half.
    black_turn = board_image(replace(base, turn="black", dice=(Die(6), Die(6)) * 2))
    no_dice_left = board_image(replace(base, dice=())).crop(_dice_box(right=False))
    assert diff_box(black_turn.crop(_dice_box(right=False)), no_dice_left) is not None
    assert diff_box(black_turn.crop(area), images["none"]) is None


def _dice_box(right: bool) -> tuple[int, int, int, int]:
    cx, cy = LAY.dice_center(right)
    return cx - 3 * LAY.point_w, cy - LAY.die, cx + 3 * LAY.point_w, cy + LAY.die


@pytest.mark.parametrize(
    ("owner", "where"), [(None, "middle"), ("white", "bottom"), ("black", "top")]
)
def test_cube_position_follows_its_owner(owner: str | None, where: str) -> None:
    view = replace(samples.classic_start(), cube_value=2 if owner else 1, cube_owner=owner)
    img = board_image(view)
    for spot in ("top", "middle", "bottom"):
        cx, cy = LAY.cube_center(spot)
        light = brightness(img, (cx - LAY.cube * 3 // 8, cy)) > 200  # beside the digits
        assert light == (spot == where), spot


def test_no_cube_drawn_without_cube() -> None:
    with_cube = board_image(replace(samples.classic_start(), cube_value=1))
    without = board_image(replace(samples.classic_start(), cube_value=None))
    box = diff_box(with_cube, without)
    assert inside(LAY.cube_center("middle"), box)
    assert box is not None and box[2] <= LAY.left_field_x  # nothing else changes


def test_labels_follow_perspective_only() -> None:
    view = samples.classic_start()
    a = board_image(view, last_play=())
    b = board_image(replace(view, perspective="black"), last_play=())
    box = diff_box(a, b)
    assert box is not None
    field = (LAY.left_field_x, LAY.field_top, LAY.right_col_x, LAY.field_bottom)
    assert diff_box(a.crop(field), b.crop(field)) is None


def test_names_with_emoji_and_long_names_render() -> None:
    view = replace(samples.classic_start(), names=("🎲" * 3, "Giulia " + "x" * 200))
    assert board_image(view).width == 1280


def test_png_and_jpeg_bytes() -> None:
    view = samples.classic_bar_hit()
    data = board_png(view)
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    assert len(data) < 150_000
    decoded = Image.open(io.BytesIO(data))
    assert decoded.size == board_image(view).size
    # The palette keeps colours close to the RGB render.
    rgb = board_image(view)
    xy = LAY.slot_center(24, 0)
    assert (
        max(
            abs(p - q)
            for p, q in zip(decoded.convert("RGB").getpixel(xy), rgb.getpixel(xy), strict=True)
        )
        < 16
    )
    jpeg = board_png(view, jpeg=True)
    assert jpeg.startswith(b"\xff\xd8")


@pytest.mark.parametrize("name", sorted(samples.named_views()))
def test_every_sample_fits_the_size_budget(name: str) -> None:
    assert len(board_png(samples.named_views()[name])) < 150_000


def test_themes_differ() -> None:
    view = samples.classic_start()
    assert diff_box(board_image(view, theme="legno"), board_image(view, theme="blu"))
    with pytest.raises(ValueError, match="unknown theme 'nessuno'"):
        board_image(view, theme="nessuno")


def test_view_validation() -> None:
    with pytest.raises(ValueError, match="white: expected 15 checkers"):
        BoardView(white=samples.counts(p6=14), black=samples.CLASSIC_START)
    with pytest.raises(ValueError, match="white: long has no bar"):
        BoardView(variant="long", white=samples.counts(p24=14, bar=1), black=samples.LONG_START)
    with pytest.raises(ValueError, match="step source out of range: 0"):
        LastStep("white", 0, 3)
    with pytest.raises(ValueError, match="die value out of range: 7"):
        Die(7)
    view = BoardView(dice=((3, False), (1, True)))
    assert view.dice == (Die(3), Die(1, True))


def test_warm_up_then_render() -> None:
    from render import warm_up

    warm_up(size=640)
    assert Image.open(io.BytesIO(board_png(samples.long_midgame(), size=640))).width == 640


def test_offered_cube_is_drawn_in_the_doublers_half_with_its_new_value() -> None:
    offered = samples.classic_cube_offered()  # Black offers 4, White at the bottom
    img = board_image(offered, last_play=())
    plain = board_image(replace(offered, cube_value=None, cube_offered_by=None), last_play=())
    box = diff_box(img, plain)
    # Black sits at the top: its half is the left one (its right hand), nothing in the column.
    assert inside(LAY.dice_center(right_half=False), box)
    assert box is not None and box[0] > LAY.left_field_x
    cx, cy = LAY.dice_center(right_half=False)
    assert brightness(img, (cx - LAY.cube * 3 // 8, cy)) > 200  # the cube's light face
    four = board_image(offered, last_play=()).crop(_cube_box(cx, cy))
    eight = board_image(replace(offered, cube_value=8), last_play=()).crop(_cube_box(cx, cy))
    assert diff_box(four, eight) is not None  # the value on offer is what is printed


def _cube_box(cx: int, cy: int) -> tuple[int, int, int, int]:
    r = LAY.cube // 2
    return cx - r, cy - r, cx + r, cy + r


def test_inactive_cube_is_grey() -> None:
    crawford = board_image(samples.classic_crawford(), last_play=())
    cx, cy = LAY.cube_center("middle")
    r, g, b = crawford.getpixel((cx - LAY.cube * 3 // 8, cy))[:3]
    assert max(r, g, b) - min(r, g, b) < 8 and 150 < r < 200  # grey, not the cream face
    live = board_image(replace(samples.classic_crawford(), cube_active=True), last_play=())
    assert brightness(live, (cx - LAY.cube * 3 // 8, cy)) > 200


def test_final_banner_covers_the_middle_and_heads_lose_their_plaque_when_empty() -> None:
    final = samples.classic_final()
    with_banner = board_image(final)
    without = board_image(replace(final, banner=()))
    box = diff_box(with_banner, without)
    assert box is not None and inside((LAY.width // 2, LAY.mid_y), box)
    assert box[1] > LAY.field_top and box[3] < LAY.field_bottom
    # Long: White's head (top right from White's side) is empty at the end: no plaque beside
    # it; Black's head still has checkers and keeps its plaque.
    long_final = samples.long_final()
    ended = board_image(replace(long_final, banner=()), last_play=())
    playing = board_image(replace(long_final, banner=(), turn="white"), last_play=())
    right_plaque = LAY.tray_box(right=True, top=True)
    left_plaque = LAY.tray_box(right=False, top=False)
    assert diff_box(ended.crop(right_plaque), playing.crop(right_plaque)) is not None
    assert diff_box(ended.crop(left_plaque), playing.crop(left_plaque)) is None
