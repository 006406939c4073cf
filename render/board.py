"""Compose one board picture: copy the cached background, paste the cached sprites.

:func:`compose` also notes the boxes it drew in, so that ``render.png`` maps only those
onto the palette and takes the rest from the background mapped once (same indices, since
the mapping is per pixel): most of a board is the static background.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from PIL import Image, ImageDraw

from render.arrows import draw_arrows
from render.background import (
    background,
    board_point,
    draw_label,
    label_number,
    tray_boxes,
)
from render.fonts import clean_text, draw_text, fit_text_cached, text_width
from render.geometry import BASE_WIDTH, STACK_VISIBLE, Layout, layout_for
from render.sprites import (
    borne_off_slice,
    checker,
    cube,
    die,
    die_pad,
    ring,
    text_colour,
)
from render.texts import PIP, match_line
from render.theme import DEFAULT_THEME, Theme, get_theme, mix
from render.view import BAR, SIDES, BoardView, LastStep, Side, Variant, other

# ("pt", board point) | ("bar", side) | ("off", side)
Loc = tuple[Literal["pt"], int] | tuple[Literal["bar", "off"], Side]
#: A box drawn in: left, top, right, bottom (exclusive), maybe partly off the picture.
Box = tuple[int, int, int, int]
#: What ``background`` was called with: (theme, width, variant, orientation, perspective, heads).
Backdrop = tuple[Theme, int, Variant, Side, Side, tuple[bool, bool]]


@dataclass(frozen=True, slots=True)
class Composed:
    """A board drawn: the RGB picture, the background it started from, and the boxes
    drawn over that background (None: anywhere, e.g. arrows across the board)."""

    image: Image.Image
    backdrop: Backdrop
    changed: list[Box] | None


def _paste(img: Image.Image, sprite: Image.Image, xy: tuple[int, int]) -> Box:
    """Paste the RGBA ``sprite`` through its own alpha with its top left at ``xy``, and
    return the box it covers.

    This is the call ``img.paste(sprite, xy, sprite)`` ends in, made on the images' cores:
    ``img`` is a fresh RGB copy of the background and the sprites are cached RGBA images,
    so its checks and conversions have nothing to do. A board makes dozens of pastes, and
    the Python around each costs more than the copy itself, which runs without the GIL.
    """
    box = (xy[0], xy[1], xy[0] + sprite.width, xy[1] + sprite.height)
    img.im.paste(sprite.im, box, sprite.im)
    return box


def board_image(
    view: BoardView,
    *,
    orientation: Side = "white",
    last_play: Iterable[LastStep] | None = None,
    size: int = BASE_WIDTH,
    theme: str | Theme = DEFAULT_THEME,
) -> Image.Image:
    """Draw ``view`` as an RGB Pillow image.

    See :func:`compose` for the arguments.
    """
    return compose(view, orientation=orientation, last_play=last_play, size=size, theme=theme).image


def compose(
    view: BoardView,
    *,
    orientation: Side = "white",
    last_play: Iterable[LastStep] | None = None,
    size: int = BASE_WIDTH,
    theme: str | Theme = DEFAULT_THEME,
) -> Composed:
    """Draw ``view`` as an RGB Pillow image, noting where it drew over the background.

    Args:
        view: what to draw.
        orientation: the side sitting at the bottom of the picture (home bottom right).
            The point labels follow ``view.perspective`` independently, so a shared
            chat can keep a stable board while the numbers follow the player on turn.
        last_play: steps to highlight; None uses ``view.last_play``, ``()`` none.
        size: width in pixels (the height follows the board's fixed proportions).
        theme: a theme name from ``render.THEMES`` or a ``Theme``.
    """
    if orientation not in SIDES:
        raise ValueError(f"unknown orientation: {orientation!r}")
    th = get_theme(theme)
    lay = layout_for(size)
    heads = (True, True)
    if view.turn is None:  # the game is over: an emptied head needs no "TESTA" any more
        heads = (bool(view.counts(orientation)[24]), bool(view.counts(other(orientation))[24]))
    backdrop: Backdrop = (th, size, view.variant, orientation, view.perspective, heads)
    img = background(*backdrop).copy()
    draw = ImageDraw.Draw(img)
    steps = tuple(view.last_play if last_play is None else last_play)
    marks: list[Box] = []
    _draw_info(draw, img, lay, th, view, orientation, marks)
    for side in SIDES:
        _draw_side(img, lay, th, view, side, orientation, marks)
    _draw_cube(img, lay, view, orientation, marks)
    _draw_dice(img, lay, view, orientation, marks)
    if steps:
        _draw_last_play(img, lay, th, view, orientation, steps, marks)
    if view.banner:
        _draw_banner(img, lay, view.banner, marks)
    if view.arrows:
        draw_arrows(img, lay, th, view, orientation)
        return Composed(img, backdrop, None)
    return Composed(img, backdrop, marks)


# --- checkers -----------------------------------------------------------------------


def _paste_stack(img: Image.Image, sprite: Image.Image, centres: Iterable[tuple[int, int]]) -> Box:
    """Paste a checker ``sprite`` centred on each of ``centres`` (one stack, in order);
    returns the box the stack covers."""
    half = sprite.width // 2
    boxes = [_paste(img, sprite, (cx - half, cy - half)) for cx, cy in centres]
    return (
        min(b[0] for b in boxes),
        min(b[1] for b in boxes),
        max(b[2] for b in boxes),
        max(b[3] for b in boxes),
    )


def _count_text(
    img: Image.Image, lay: Layout, th: Theme, side: Side, centre: tuple[int, int], n: int
) -> Box:
    colour = text_colour(th, side)
    return draw_text(img, centre, str(n), round(lay.checker * 0.46), "bold", colour)


def _draw_side(
    img: Image.Image,
    lay: Layout,
    th: Theme,
    view: BoardView,
    side: Side,
    orientation: Side,
    marks: list[Box],
) -> None:
    counts = view.counts(side)
    sprite = checker(th, side, lay.checker)
    for q in range(1, 25):
        n = counts[q]
        if not n:
            continue
        p = board_point(side, q, orientation, view.variant)
        shown = min(n, STACK_VISIBLE)
        marks.append(_paste_stack(img, sprite, (lay.slot_center(p, k) for k in range(shown))))
        if n > STACK_VISIBLE:
            marks.append(_count_text(img, lay, th, side, lay.slot_center(p, shown - 1), n))
    on_bar = counts[BAR]
    if on_bar:
        top_half = side == orientation
        shown = min(on_bar, STACK_VISIBLE - 1)
        centres = (lay.bar_slot_center(top_half, k) for k in range(shown))
        marks.append(_paste_stack(img, sprite, centres))
        if on_bar > shown:
            centre = lay.bar_slot_center(top_half, shown - 1)
            marks.append(_count_text(img, lay, th, side, centre, on_bar))
    _draw_tray(img, lay, th, view, side, orientation, marks)


@dataclass(frozen=True, slots=True)
class _Tray:
    """Where one side's borne-off checkers stack: thin slices from the tray's outer end."""

    box: tuple[int, int, int, int]
    from_top: bool
    slice_w: int
    slice_h: int
    inset: int

    def slice_top(self, k: int) -> int:
        """Top y of the ``k``-th borne-off slice."""
        _, y0, _, y1 = self.box
        if self.from_top:
            return y0 + self.inset + k * self.slice_h
        return y1 - self.inset - (k + 1) * self.slice_h


def _tray(lay: Layout, view: BoardView, side: Side, orientation: Side) -> _Tray:
    """The tray of ``side``: the far one for the player seen from the top."""
    from_top = side != orientation
    box = tray_boxes(lay, view.variant)["top" if from_top else "bottom"]
    x0, y0, x1, y1 = box
    inset = max(2, round(6 * lay.scale))
    slice_h = (y1 - y0 - 2 * inset) * 78 // 100 // 15
    return _Tray(box, from_top, x1 - x0 - 2 * inset, slice_h, inset)


def _draw_tray(
    img: Image.Image,
    lay: Layout,
    th: Theme,
    view: BoardView,
    side: Side,
    orientation: Side,
    marks: list[Box],
) -> None:
    off = view.counts(side)[0]
    if not off:
        return
    tray = _tray(lay, view, side, orientation)
    box, sh, inset = tray.box, tray.slice_h, tray.inset
    sprite = borne_off_slice(th, side, tray.slice_w, sh)
    for k in range(off):
        _paste(img, sprite, (box[0] + inset, tray.slice_top(k)))
    tops = (tray.slice_top(0), tray.slice_top(off - 1))
    marks.append((box[0] + inset, min(tops), box[0] + inset + sprite.width, max(tops) + sh))
    cx = (box[0] + box[2]) // 2
    edge = tray.slice_top(off - 1)
    gap = round(22 * lay.scale)
    cy = edge + sh + gap if tray.from_top else edge - gap
    marks.append(draw_text(img, (cx, cy), str(off), round(30 * lay.scale), "bold", th.label))


# --- cube and dice ------------------------------------------------------------------


def _draw_cube(
    img: Image.Image, lay: Layout, view: BoardView, orientation: Side, marks: list[Box]
) -> None:
    """The cube in the left column (centred or on its owner's side), or, while a double is
    offered, in the doubler's half of the board showing the value on offer."""
    if view.cube_value is None:
        return
    if view.cube_offered_by is not None:
        cx, cy = lay.dice_center(right_half=view.cube_offered_by == orientation)
        value = view.cube_value
    elif view.cube_owner is None:
        cx, cy = lay.cube_center("middle")
        value = 64 if view.cube_value == 1 else view.cube_value
    else:
        cx, cy = lay.cube_center("bottom" if view.cube_owner == orientation else "top")
        value = view.cube_value
    sprite = cube(value, lay.cube, grey=not view.cube_active)
    half = sprite.width // 2
    marks.append(_paste(img, sprite, (cx - half, cy - half)))


def _draw_banner(img: Image.Image, lay: Layout, lines: tuple[str, ...], marks: list[Box]) -> None:
    """A dark band with the result, first line larger, inside the gap between the top and
    bottom stacks, so it never hides a checker or a stack's count. The later lines (the
    score, the match) share the second line."""
    s = lay.scale
    if len(lines) > 2:
        lines = (lines[0], " · ".join(lines[1:]))
    room = lay.field_bottom - lay.field_top - 2 * STACK_VISIBLE * lay.checker
    pad = max(2, round(6 * s))
    gap = max(1, round(3 * s)) if len(lines) > 1 else 0
    first = min(
        round(48 * s), round((room - 2 * pad - gap) * (0.56 if len(lines) > 1 else 1.0) * 0.92)
    )
    sizes = [first] + [round(first * 0.78)] * (len(lines) - 1)
    height = min(room, sum(sizes) + gap * (len(lines) - 1) + 2 * pad)
    x0 = lay.left_field_x + round(20 * s)
    x1 = lay.right_field_x + 6 * lay.point_w - round(20 * s)
    y0 = lay.mid_y - height // 2
    band = Image.new("RGBA", (x1 - x0, height), (0, 0, 0, 0))
    ImageDraw.Draw(band).rounded_rectangle(
        (0, 0, band.width - 1, band.height - 1),
        radius=round(18 * s),
        fill=(24, 20, 16, 225),
        outline=(236, 200, 120, 255),
        width=max(2, round(4 * s)),
    )
    marks.append(_paste(img, band, (x0, y0)))
    y = y0 + pad
    for i, (line, size) in enumerate(zip(lines, sizes, strict=True)):
        weight = "bold" if i == 0 else "regular"
        colour = (250, 226, 160) if i == 0 else (240, 234, 222)
        text = fit_text_cached(clean_text(line), size, weight, x1 - x0 - 2 * pad)
        marks.append(draw_text(img, ((x0 + x1) // 2, y + size // 2), text, size, weight, colour))
        y += size + gap


def _draw_dice(
    img: Image.Image, lay: Layout, view: BoardView, orientation: Side, marks: list[Box]
) -> None:
    """The roll of the side on turn, in the half on that side's right hand."""
    if view.turn is None or not view.dice:
        return
    cx, cy = lay.dice_center(right_half=view.turn == orientation)
    gap = round(lay.die * 0.28)
    total = len(view.dice) * lay.die + (len(view.dice) - 1) * gap
    pad = die_pad(lay.die)
    x = cx - total // 2
    for d in view.dice:
        sprite = die(view.turn, d.value, lay.die, d.used)
        xy = (x - pad, cy - lay.die // 2 - pad)
        marks.append(_paste(img, sprite, xy))
        x += lay.die + gap


# --- names, pips, score -------------------------------------------------------------


def _draw_info(
    draw: ImageDraw.ImageDraw,
    img: Image.Image,
    lay: Layout,
    th: Theme,
    view: BoardView,
    orientation: Side,
    marks: list[Box],
) -> None:
    s = lay.scale
    centre_texts = {
        "top": match_line(view.variant, view.match_length, view.crawford),
        "bottom": clean_text(view.status),
    }
    for where, side in (("top", other(orientation)), ("bottom", orientation)):
        y0 = 0 if where == "top" else lay.frame_bottom
        cy = y0 + lay.info_h // 2
        on_turn = view.turn == side
        if on_turn:
            bar_w = max(4, round(10 * s))
            draw.rectangle((0, y0, bar_w, y0 + lay.info_h - 1), fill=th.accent)
            marks.append((0, y0, bar_w + 1, y0 + lay.info_h))
        # Colour chip: a small checker.
        chip = checker(th, side, round(lay.info_h * 0.62))
        x = lay.margin + round(12 * s)
        marks.append(_paste(img, chip, (x, cy - chip.height // 2)))
        x += chip.width + round(12 * s)
        index = 0 if side == "white" else 1
        name_size = round(32 * s)
        name = clean_text(view.names[index]) or ("Bianco" if side == "white" else "Nero")
        name = fit_text_cached(name, name_size, "bold", round(lay.width * 0.30))
        colour = th.accent if on_turn else th.info_text
        marks.append(draw_text(img, (x, cy), name, name_size, "bold", colour, anchor="lm"))
        left_free = x + text_width(name, name_size, "bold") + round(24 * s)
        # Right: pips and score.
        right = lay.width - lay.margin - round(10 * s)
        score_size = round(36 * s)
        score = str(view.score[index])
        sw = max(text_width(score, score_size, "bold") + round(26 * s), round(56 * s))
        box_h = round(lay.info_h * 0.68)
        draw.rounded_rectangle(
            (right - sw, cy - box_h // 2, right, cy + box_h // 2),
            radius=round(10 * s),
            fill=mix(th.info_bg, th.info_text, 0.14),
        )
        marks.append((right - sw, cy - box_h // 2, right + 1, cy + box_h // 2 + 1))
        marks.append(draw_text(img, (right - sw // 2, cy), score, score_size, "bold", th.info_text))
        right_free = right - sw - round(24 * s)
        if view.pips is not None:
            pip_size = round(28 * s)
            pip_text = f"{PIP} {view.pips[index]}"
            marks.append(
                draw_text(img, (right_free, cy), pip_text, pip_size, "regular", th.info_muted, "rm")
            )
            right_free -= text_width(pip_text, pip_size, "regular") + round(28 * s)
        text = centre_texts[where]
        if text and right_free - left_free > 40 * s:
            size = round(26 * s)
            text = fit_text_cached(text, size, "regular", right_free - left_free)
            half = text_width(text, size, "regular") / 2
            cx = min(max(lay.width // 2, left_free + half), right_free - half)
            marks.append(draw_text(img, (cx, cy), text, size, "regular", th.info_muted))


# --- last play ----------------------------------------------------------------------


def _draw_last_play(  # noqa: C901 - counts, then marks each kind of place the play touched
    img: Image.Image,
    lay: Layout,
    th: Theme,
    view: BoardView,
    orientation: Side,
    steps: tuple[LastStep, ...],
    marks: list[Box],
) -> None:
    """Mark where the last play's checkers left from, where they landed, and hits."""
    variant = view.variant
    outs: Counter[Loc] = Counter()
    ins: Counter[Loc] = Counter()
    hit_points: set[int] = set()
    hits: Counter[Side] = Counter()
    for st in steps:
        src: Loc = (
            ("bar", st.side)
            if st.src == BAR
            else ("pt", board_point(st.side, st.src, orientation, variant))
        )
        dst: Loc = (
            ("off", st.side)
            if st.dst == 0
            else ("pt", board_point(st.side, st.dst, orientation, variant))
        )
        outs[src] += 1
        ins[dst] += 1
        if st.hit and st.dst:
            hit_points.add(board_point(st.side, st.dst, orientation, variant))
            hits[other(st.side)] += 1
    occupancy = _occupancy(view, orientation)
    ghost = ring(th.accent, lay.checker - 2, max(3, round(5 * lay.scale)), dashed=True)
    mark = ring(th.accent, lay.checker + 4, max(3, round(6 * lay.scale)))
    hit_mark = ring(th.hit, lay.checker + 4, max(3, round(6 * lay.scale)))
    dark = (36, 28, 20)

    def paste(sprite: Image.Image, centre: tuple[int, int]) -> None:
        xy = (centre[0] - sprite.width // 2, centre[1] - sprite.height // 2)
        marks.append(_paste(img, sprite, xy))

    for loc in set(outs) | set(ins):
        net = outs[loc] - ins[loc]
        match loc:
            case ("pt", int() as p):
                n = occupancy.get(p, 0)
                text = str(label_number(p, orientation, view.perspective, variant))
                if net > 0:
                    if n < STACK_VISIBLE:
                        paste(ghost, lay.slot_center(p, n))
                    if p not in hit_points:
                        marks += draw_label(
                            img, lay, th, p, text, fill=th.label, outline=th.accent, text_fill=dark
                        )
                elif net < 0:
                    top = min(n, STACK_VISIBLE) - 1
                    for k in range(min(-net, top + 1)):
                        paste(mark, lay.slot_center(p, top - k))
                    if p not in hit_points:
                        marks += draw_label(img, lay, th, p, text, fill=th.accent, text_fill=dark)
            case ("bar", side) if net > 0:
                n = view.counts(side)[BAR]
                if n < STACK_VISIBLE - 1:
                    paste(ghost, lay.bar_slot_center(side == orientation, n))
            case ("off", side) if net < 0:
                marks += _mark_borne_off(img, lay, th, view, side, orientation, -net)
    for p in hit_points:
        text = str(label_number(p, orientation, view.perspective, variant))
        marks += draw_label(img, lay, th, p, text, fill=th.hit, text_fill=(255, 255, 255))
    for side, n_hit in hits.items():
        on_bar = view.counts(side)[BAR]
        shown = min(on_bar, STACK_VISIBLE - 1)
        for k in range(min(n_hit, shown)):
            paste(hit_mark, lay.bar_slot_center(side == orientation, shown - 1 - k))


def _occupancy(view: BoardView, orientation: Side) -> dict[int, int]:
    """Checkers per board point, whoever owns them."""
    occ: dict[int, int] = {}
    for side in SIDES:
        counts = view.counts(side)
        for q in range(1, 25):
            if counts[q]:
                p = board_point(side, q, orientation, view.variant)
                occ[p] = occ.get(p, 0) + counts[q]
    return occ


def _mark_borne_off(
    img: Image.Image,
    lay: Layout,
    th: Theme,
    view: BoardView,
    side: Side,
    orientation: Side,
    n: int,
) -> list[Box]:
    """Outline the last ``n`` checkers borne off; returns the box drawn in (if any)."""
    off = view.counts(side)[0]
    if not off:
        return []
    tray = _tray(lay, view, side, orientation)
    box, sw, sh, inset = tray.box, tray.slice_w, tray.slice_h, tray.inset
    first = max(0, off - n)
    ys = [tray.slice_top(k) for k in (first, off - 1)]
    lw = max(2, round(3 * lay.scale))
    outline = (
        box[0] + inset - lw - 1,
        min(ys) - lw - 1,
        box[0] + inset + sw + lw,
        max(ys) + sh + lw,
    )
    ImageDraw.Draw(img).rounded_rectangle(
        outline, radius=round(6 * lay.scale), outline=th.accent, width=lw
    )
    return [(outline[0], outline[1], outline[2] + 1, outline[3] + 1)]
