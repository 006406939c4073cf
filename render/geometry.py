"""Where things go on the picture.

All sizes are designed for a 1280 px wide image and scaled linearly for other widths,
so one set of numbers describes every size. Positions are given in *board numbering*:
the numbering of the side sitting at the bottom (the orientation side), whose point 1
is the bottom-right point and whose point 24 is the top-right point; both sides then
move counter-clockwise in long, and the bottom side does in classic.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

BASE_WIDTH = 1280
STACK_VISIBLE = 5  # checkers drawn per point before a number takes over

# Base measurements at 1280 px.
_INFO_H = 76  # name strip above and below the board
_MARGIN = 18  # plain wood at the left and right edge
_SIDE = 80  # side columns: bear-off trays and the cube
_BAR = 76
_POINT_W = 84
_BAND = 44  # frame band that carries the point numbers
_CHECKER = 76
_GAP = 92  # between the top and bottom stacks: room for the dice
_DIE = 62
_CUBE = 60


@dataclass(frozen=True)
class Layout:
    """Pixel geometry for one image width."""

    width: int
    height: int
    scale: float
    info_h: int
    margin: int
    side: int
    bar: int
    point_w: int
    band: int
    checker: int
    die: int
    cube: int
    field_top: int
    field_bottom: int
    point_len: int

    # --- horizontal landmarks -------------------------------------------------------
    @property
    def left_col_x(self) -> int:
        return self.margin

    @property
    def left_field_x(self) -> int:
        return self.margin + self.side

    @property
    def bar_x(self) -> int:
        return self.left_field_x + 6 * self.point_w

    @property
    def right_field_x(self) -> int:
        return self.bar_x + self.bar

    @property
    def right_col_x(self) -> int:
        return self.right_field_x + 6 * self.point_w

    @property
    def frame_top(self) -> int:
        return self.info_h

    @property
    def frame_bottom(self) -> int:
        return self.height - self.info_h

    @property
    def mid_y(self) -> int:
        return (self.field_top + self.field_bottom) // 2

    # --- points ---------------------------------------------------------------------
    def column(self, point: int) -> int:
        """Column 0..11 (left to right) of a board point 1..24."""
        return 12 - point if point <= 12 else point - 13

    def is_top(self, point: int) -> bool:
        return point > 12

    def point_x(self, point: int) -> int:
        """Left edge of a point's column."""
        col = self.column(point)
        if col < 6:
            return self.left_field_x + col * self.point_w
        return self.right_field_x + (col - 6) * self.point_w

    def slot_center(self, point: int, slot: int) -> tuple[int, int]:
        """Centre of the ``slot``-th checker (0 = at the frame) on a board point."""
        cx = self.point_x(point) + self.point_w // 2
        offset = self.checker // 2 + slot * self.checker
        if self.is_top(point):
            return cx, self.field_top + offset
        return cx, self.field_bottom - offset

    def label_center(self, point: int) -> tuple[int, int]:
        """Centre of a point's number on the frame band."""
        cx = self.point_x(point) + self.point_w // 2
        if self.is_top(point):
            return cx, self.field_top - self.band // 2
        return cx, self.field_bottom + self.band // 2

    def bar_slot_center(self, top_half: bool, slot: int) -> tuple[int, int]:
        """Centre of a bar checker; slots grow from the middle towards the frame."""
        cx = self.bar_x + self.bar // 2
        offset = self.checker // 2 + self.checker // 3 + slot * self.checker
        return (cx, self.mid_y - offset) if top_half else (cx, self.mid_y + offset)

    # --- side columns ---------------------------------------------------------------
    def tray_box(self, right: bool, top: bool) -> tuple[int, int, int, int]:
        """A bear-off tray in the left or right column, upper or lower half."""
        pad = round(8 * self.scale)
        x0 = (self.right_col_x if right else self.left_col_x) + pad
        x1 = x0 + self.side - 2 * pad
        gap = round(34 * self.scale)
        if top:
            return x0, self.field_top + pad, x1, self.mid_y - gap
        return x0, self.mid_y + gap, x1, self.field_bottom - pad

    def cube_center(self, where: str) -> tuple[int, int]:
        """The cube in the left column: "top", "middle" or "bottom"."""
        cx = self.left_col_x + self.side // 2
        edge = round(14 * self.scale) + self.cube // 2
        y = {
            "top": self.field_top + edge,
            "middle": self.mid_y,
            "bottom": self.field_bottom - edge,
        }[where]
        return cx, y

    def dice_center(self, right_half: bool) -> tuple[int, int]:
        x0 = self.right_field_x if right_half else self.left_field_x
        return x0 + 3 * self.point_w, self.mid_y


@lru_cache(maxsize=8)
def layout_for(width: int) -> Layout:
    """The layout of a ``width`` pixels wide image."""
    if not 320 <= width <= 4096:
        raise ValueError(f"width out of range: {width}")
    s = width / BASE_WIDTH

    def sc(v: float) -> int:
        return max(1, round(v * s))

    point_w = sc(_POINT_W)
    bar = sc(_BAR)
    side = sc(_SIDE)
    margin = (width - 12 * point_w - bar - 2 * side) // 2
    checker = min(sc(_CHECKER), point_w - 2)
    info_h = sc(_INFO_H)
    band = sc(_BAND)
    field_h = 2 * STACK_VISIBLE * checker + sc(_GAP)
    field_top = info_h + band
    field_bottom = field_top + field_h
    height = field_bottom + band + info_h
    return Layout(
        width=width,
        height=height,
        scale=s,
        info_h=info_h,
        margin=margin,
        side=side,
        bar=bar,
        point_w=point_w,
        band=band,
        checker=checker,
        die=sc(_DIE),
        cube=sc(_CUBE),
        field_top=field_top,
        field_bottom=field_bottom,
        point_len=round(checker * 4.7),
    )
