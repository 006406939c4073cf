"""Arrows drawn over a board: the steps of a suggested play, numbered in playing order.

A hint is easier to follow on the picture than in notation: each step of the suggested
play becomes an arrow from the checker that moves to where it lands, with its number in
a disc at the arrow's tail, so the player sees which checker to take first. They are
drawn opaque in the theme's accent colour with a dark rim: the board is encoded with a
fixed palette (``render.png``) that has those colours, not a blend of them, and a dark rim
keeps the arrow visible over checkers of either colour. A hint picture shows no last play,
so the accent colour means the suggestion alone.
"""

from __future__ import annotations

import math
from collections import Counter

from PIL import Image, ImageDraw

from render.background import board_point, tray_boxes
from render.fonts import draw_text
from render.geometry import STACK_VISIBLE, Layout
from render.theme import Theme
from render.view import BAR, OFF, SIDES, Arrow, BoardView, Side

#: The dark rim around arrows and discs, and the discs' numbers.
DARK = (36, 28, 20)


def draw_arrows(
    img: Image.Image, lay: Layout, th: Theme, view: BoardView, orientation: Side
) -> None:
    """Draw ``view.arrows`` on ``img``, following the stacks as the steps change them: the
    play made (if given) thin in the hit colour, then the suggested play over it."""
    draw = ImageDraw.Draw(img)
    rim = max(2, round(3 * lay.scale))
    for made in (True, False):
        arrows = [arrow for arrow in view.arrows if arrow.made is made]
        if not arrows:
            continue
        width = max(2, round((5 if made else 8) * lay.scale))
        colour = th.hit if made else th.accent
        tails = _draw_play(draw, lay, view, orientation, arrows, (width, rim, colour))
        radius = round(lay.checker * (0.22 if made else 0.3))
        used: Counter[tuple[int, int]] = Counter()
        for (x0, y), label in tails:
            # Steps leaving the same stack would hide each other's number: side by side.
            x = x0 + round(radius * 1.6) * used[(x0, y)]
            used[(x0, y)] += 1
            if not label:
                continue
            draw.ellipse(
                (x - radius, y - radius, x + radius, y + radius),
                fill=colour,
                outline=DARK,
                width=rim,
            )
            draw_text(img, (x, y), label, round(radius * 1.3), "bold", DARK)


def _draw_play(
    draw: ImageDraw.ImageDraw,
    lay: Layout,
    view: BoardView,
    orientation: Side,
    arrows: list[Arrow],
    pen: tuple[int, int, tuple[int, int, int]],
) -> list[tuple[tuple[int, int], str]]:
    """The arrows of one play, each from the checker that moves; returns their tails.
    ``pen`` is the shaft's width, its dark rim's and the colour."""
    width, rim, colour = pen
    occupancy = _occupancy(view, orientation)
    bar: Counter[Side] = Counter({side: view.counts(side)[BAR] for side in SIDES})
    tails: list[tuple[tuple[int, int], str]] = []
    segments: list[tuple[tuple[int, int], tuple[int, int]]] = []
    for arrow in arrows:
        if arrow.src == BAR:
            bar[arrow.side] -= 1
            start = lay.bar_slot_center(arrow.side == orientation, max(0, bar[arrow.side]))
        else:
            p = board_point(arrow.side, arrow.src, orientation, view.variant)
            occupancy[p] -= 1
            start = lay.slot_center(p, min(max(0, occupancy[p]), STACK_VISIBLE - 1))
        if arrow.dst == OFF:
            box = tray_boxes(lay, view.variant)["bottom" if arrow.side == orientation else "top"]
            end = ((box[0] + box[2]) // 2, (box[1] + box[3]) // 2)
        else:
            q = board_point(arrow.side, arrow.dst, orientation, view.variant)
            end = lay.slot_center(q, min(occupancy[q], STACK_VISIBLE - 1))
            occupancy[q] += 1
        segments.append((start, end))
        tails.append((start, arrow.label))
    head = round(lay.checker * (0.32 if width < 8 * lay.scale else 0.42))
    for start, end in _uncrossed(segments):
        _arrow(draw, start, end, width + 2 * rim, head + 2 * rim, DARK)
        _arrow(draw, start, end, width, head, colour)
    return tails


Segment = tuple[tuple[int, int], tuple[int, int]]


def _uncrossed(segments: list[Segment]) -> list[Segment]:
    """The arrows with their landing slots swapped where two of them would cross in an X.

    Two checkers making the same move (a double: 24/18(2)) leave one stack and land on
    another; taken in playing order, the upper one may land lower and the arrows cross.
    Swapping where they land keeps the same moves as two parallel arrows."""
    out = list(segments)
    for i in range(len(out)):
        for j in range(i + 1, len(out)):
            (a0, a1), (b0, b1) = out[i], out[j]
            same_move = a0[0] == b0[0] and a1[0] == b1[0]  # same columns: same points
            if same_move and _crosses(a0, a1, b0, b1) and not _crosses(a0, b1, b0, a1):
                out[i], out[j] = (a0, b1), (b0, a1)
    return out


def _crosses(
    p: tuple[int, int], q: tuple[int, int], r: tuple[int, int], s: tuple[int, int]
) -> bool:
    """Do the segments p-q and r-s cross at a point inside both (not at a shared end)?"""

    def side(a: tuple[int, int], b: tuple[int, int], c: tuple[int, int]) -> int:
        cross = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
        return (cross > 0) - (cross < 0)

    if len({p, q, r, s}) < 4:
        return False
    d1, d2 = side(r, s, p), side(r, s, q)
    d3, d4 = side(p, q, r), side(p, q, s)
    return d1 * d2 < 0 and d3 * d4 < 0


def _arrow(
    draw: ImageDraw.ImageDraw,
    start: tuple[int, int],
    end: tuple[int, int],
    width: int,
    head: int,
    colour: tuple[int, int, int],
) -> None:
    """A straight arrow from ``start`` to ``end`` with a filled head at ``end``."""
    (x0, y0), (x1, y1) = start, end
    angle = math.atan2(y1 - y0, x1 - x0)
    length = math.hypot(x1 - x0, y1 - y0)
    if length < 1:
        return
    base = (x1 - head * math.cos(angle), y1 - head * math.sin(angle))
    draw.line((start, base), fill=colour, width=width)
    spread = math.radians(28)
    left = (
        x1 - head * math.cos(angle - spread) * 1.1,
        y1 - head * math.sin(angle - spread) * 1.1,
    )
    right = (
        x1 - head * math.cos(angle + spread) * 1.1,
        y1 - head * math.sin(angle + spread) * 1.1,
    )
    draw.polygon([(x1, y1), left, right], fill=colour)


def _occupancy(view: BoardView, orientation: Side) -> Counter[int]:
    """Checkers per board point, whoever owns them."""
    occ: Counter[int] = Counter()
    for side in SIDES:
        counts = view.counts(side)
        for q in range(1, 25):
            if counts[q]:
                occ[board_point(side, q, orientation, view.variant)] += counts[q]
    return occ
