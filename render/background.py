"""The static part of the picture: frame, felt, points, numbers, trays.

It depends only on the theme, the width, the variant, which side sits at the bottom and
whose numbering the labels show, so it is drawn once per combination and then copied
for every board. Textures are kept to one direction per region (wood grain constant
along rows or along columns, flat felt) because PNG compresses such areas to almost
nothing; a noisy texture would triple the file size.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
from PIL import Image, ImageDraw

from render.cache import one_at_a_time
from render.fonts import draw_text, font
from render.geometry import Layout, layout_for
from render.sprites import checker_colours, text_colour
from render.theme import RGB, Theme, mix
from render.view import Side, Variant, convert_point, other

_SS = 4


def board_point(side: Side, point: int, orientation: Side, variant: Variant) -> int:
    """Board numbering (bottom side's) of ``side``'s own ``point``."""
    return point if side == orientation else convert_point(point, variant)


def label_number(board_pt: int, orientation: Side, perspective: Side, variant: Variant) -> int:
    """The number printed next to a board point, in ``perspective``'s numbering."""
    if perspective == orientation:
        return board_pt
    return convert_point(board_pt, variant)


def _grain(length: int, seed: int, scale: float) -> np.ndarray:
    """A 1-D wood-grain profile in 0..1: irregular waves crossed by thin dark lines."""
    t = np.arange(length, dtype=np.float32) / max(scale, 0.1)
    rng = np.random.default_rng(seed)
    v = np.zeros(length, dtype=np.float32)
    for freq, amp in ((0.045, 0.5), (0.11, 0.3), (0.23, 0.2), (0.017, 0.6)):
        phase = rng.uniform(0, 6.28)
        v += amp * np.sin(t * freq + phase + 1.7 * np.sin(t * freq * 0.31 + phase))
    v -= v.min()
    v /= max(float(v.max()), 1e-6)
    pos = 0.0
    step = max(scale, 0.3)
    while pos < length:
        pos += rng.uniform(6, 22) * step
        i = int(pos)
        if i < length:
            v[i] -= rng.uniform(0.25, 0.5)
            if i + 1 < length:
                v[i + 1] -= 0.12
    return np.clip(v, 0, 1)


def _wood_strip(theme: Theme, length: int, seed: int, scale: float) -> np.ndarray:
    """Colours (length x 3) along a grain profile, between dark, base and light wood."""
    g = _grain(length, seed, scale)[:, None]
    dark = np.array(theme.wood_dark, np.float32)
    base = np.array(theme.wood, np.float32)
    light = np.array(theme.wood_light, np.float32)
    low = dark + (base - dark) * np.clip(g * 2, 0, 1)
    col = np.where(g < 0.5, low, base + (light - base) * np.clip(g * 2 - 1, 0, 1))
    strip: np.ndarray = np.round(col).astype(np.uint8)
    return strip


def _paint_wood(
    arr: np.ndarray,
    box: tuple[int, int, int, int],
    theme: Theme,
    along_x: bool,
    seed: int,
    scale: float,
) -> None:
    """Fill ``box`` of an HxWx3 array with grain running along x (rows) or along y."""
    x0, y0, x1, y1 = box
    if along_x:
        strip = _wood_strip(theme, y1 - y0, seed, scale)
        arr[y0:y1, x0:x1] = strip[:, None, :]
    else:
        strip = _wood_strip(theme, x1 - x0, seed, scale)
        arr[y0:y1, x0:x1] = strip[None, :, :]


def _inner_shadow(
    arr: np.ndarray, box: tuple[int, int, int, int], depth: int, strength: float
) -> None:
    """Darken the inside edges of ``box``: the field sits below the frame."""
    x0, y0, x1, y1 = box
    region = arr[y0:y1, x0:x1].astype(np.float32)
    h, w = region.shape[:2]
    ys = np.arange(h, dtype=np.float32)
    xs = np.arange(w, dtype=np.float32)
    dy = np.clip(1 - np.minimum(ys, (h - 1 - ys) * 2) / depth, 0, 1)
    dx = np.clip(1 - np.minimum(xs, (w - 1 - xs) * 2) / depth, 0, 1)
    shade = 1 - strength * np.maximum(dy[:, None], dx[None, :]) ** 2
    arr[y0:y1, x0:x1] = np.round(region * shade[..., None]).astype(np.uint8)


def _field_half(
    lay: Layout, theme: Theme, left: bool, variant: Variant, orientation: Side
) -> Image.Image:
    """Felt and twelve points of one half, drawn supersampled for smooth edges."""
    w = 6 * lay.point_w
    h = lay.field_bottom - lay.field_top
    img = Image.new("RGB", (w * _SS, h * _SS), theme.felt)
    draw = ImageDraw.Draw(img)
    x_base = lay.left_field_x if left else lay.right_field_x
    points = range(13, 19) if left else range(19, 25)
    bottom_points = range(7, 13) if left else range(1, 7)
    for pt in (*points, *bottom_points):
        col = lay.column(pt)
        top = lay.is_top(pt)
        colour = theme.point_a if (col + (0 if top else 1)) % 2 == 0 else theme.point_b
        x0 = (lay.point_x(pt) - x_base) * _SS
        x1 = x0 + lay.point_w * _SS
        inset = lay.point_w * _SS * 0.04
        tip = lay.point_len * _SS
        if top:
            poly = [(x0 + inset, 0), (x1 - inset, 0), ((x0 + x1) / 2, tip)]
        else:
            poly = [(x0 + inset, h * _SS), (x1 - inset, h * _SS), ((x0 + x1) / 2, h * _SS - tip)]
        edge = mix(colour, (0, 0, 0), 0.25)
        draw.polygon(poly, fill=colour, outline=edge, width=_SS)
        if variant == "long" and pt in _heads(variant, orientation):
            owner = orientation if pt == 24 else other(orientation)
            body, rim = checker_colours(theme, owner)
            ring_col = body if owner == "white" else mix(rim, (0, 0, 0), 0.2)
            draw.polygon(poly, outline=ring_col, width=round(4 * lay.scale * _SS))
    return img.reduce(_SS)


def _heads(variant: Variant, orientation: Side) -> tuple[int, ...]:
    """Board points of the heads (long only): the bottom side's 24 and the top's."""
    if variant != "long":
        return ()
    return 24, board_point(other(orientation), 24, orientation, variant)


def draw_label(  # noqa: PLR0913 - the three pill colours are keyword-only options
    img: Image.Image,
    lay: Layout,
    theme: Theme,
    board_pt: int,
    text: str,
    *,
    fill: RGB | None = None,
    outline: RGB | None = None,
    text_fill: RGB | None = None,
) -> list[tuple[int, int, int, int]]:
    """A point number on the frame, optionally inside a pill (heads, highlights); returns
    the boxes it drew in (the pill's, then the number's)."""
    cx, cy = lay.label_center(board_pt)
    boxes = []
    if fill is not None or outline is not None:
        hw = round(lay.point_w * 0.36)
        hh = round(lay.band * 0.34)
        ImageDraw.Draw(img).rounded_rectangle(
            (cx - hw, cy - hh, cx + hw, cy + hh),
            radius=hh,
            fill=fill,
            outline=outline,
            width=max(2, round(3 * lay.scale)),
        )
        boxes.append((cx - hw, cy - hh, cx + hw + 1, cy + hh + 1))
    size = round(25 * lay.scale)
    boxes.append(draw_text(img, (cx, cy), text, size, "bold", text_fill or theme.label))
    return boxes


def _tray(arr: np.ndarray, box: tuple[int, int, int, int], theme: Theme, lay: Layout) -> None:
    x0, y0, x1, y1 = box
    arr[y0:y1, x0:x1] = theme.tray
    _inner_shadow(arr, box, max(4, round(10 * lay.scale)), 0.45)


def tray_boxes(lay: Layout, variant: Variant) -> dict[str, tuple[int, int, int, int]]:
    """Bear-off trays by position ("bottom" = bottom side's, "top" = top side's).

    Classic: both on the right, next to both homes. Long: the top side's home is the
    top-left quarter, so its tray is in the left column.
    """
    return {
        "bottom": lay.tray_box(right=True, top=False),
        "top": lay.tray_box(right=variant == "classic", top=True),
    }


@one_at_a_time
@lru_cache(maxsize=16)
def background(
    theme: Theme,
    width: int,
    variant: Variant,
    orientation: Side,
    perspective: Side,
    heads: tuple[bool, bool] = (True, True),
) -> Image.Image:
    """The static board picture; callers copy it before drawing on it.

    ``heads`` says which heads (long) are marked, the bottom side's then the top side's:
    at the end of a game an empty head is no longer worth a "TESTA" plaque.
    """
    lay = layout_for(width)
    arr = np.zeros((lay.height, lay.width, 3), dtype=np.uint8)
    arr[:, :] = theme.info_bg
    ft, fb = lay.frame_top, lay.frame_bottom
    # Wood: bands above/below the field run along x, columns and bar along y.
    _paint_wood(arr, (0, ft, lay.width, lay.field_top), theme, True, 1, lay.scale)
    _paint_wood(arr, (0, lay.field_bottom, lay.width, fb), theme, True, 2, lay.scale)
    _paint_wood(
        arr, (0, lay.field_top, lay.left_field_x, lay.field_bottom), theme, False, 3, lay.scale
    )
    _paint_wood(
        arr,
        (lay.right_col_x, lay.field_top, lay.width, lay.field_bottom),
        theme,
        False,
        4,
        lay.scale,
    )
    _paint_wood(
        arr,
        (lay.bar_x, lay.field_top, lay.right_field_x, lay.field_bottom),
        theme,
        False,
        5,
        lay.scale,
    )
    for box in tray_boxes(lay, variant).values():
        _tray(arr, box, theme, lay)
    img = Image.fromarray(arr, "RGB")
    for left in (True, False):
        half = _field_half(lay, theme, left, variant, orientation)
        img.paste(half, (lay.left_field_x if left else lay.right_field_x, lay.field_top))
    arr = np.asarray(img).copy()
    depth = max(4, round(12 * lay.scale))
    for x0 in (lay.left_field_x, lay.right_field_x):
        _inner_shadow(arr, (x0, lay.field_top, x0 + 6 * lay.point_w, lay.field_bottom), depth, 0.35)
    img = Image.fromarray(arr, "RGB")
    draw = ImageDraw.Draw(img)
    # Thin dark lines where the wood meets the field and the name strips.
    line = mix(theme.wood_dark, (0, 0, 0), 0.35)
    lw = max(1, round(2 * lay.scale))
    for x0 in (lay.left_field_x, lay.right_field_x):
        draw.rectangle(
            (x0 - lw, lay.field_top - lw, x0 + 6 * lay.point_w + lw - 1, lay.field_bottom + lw - 1),
            outline=line,
            width=lw,
        )
    draw.line((0, ft, lay.width, ft), fill=line, width=lw)
    draw.line((0, fb - 1, lay.width, fb - 1), fill=line, width=lw)
    home_text = _draw_home_bands(draw, lay, theme, variant, orientation)
    bottom_head, top_head = heads
    marked = _heads(variant, orientation)
    heads_on = tuple(p for p, on in zip(marked, heads, strict=False) if on)
    if heads_on:
        _draw_head_plaques(img, lay, theme, orientation, bottom_head, top_head)
    for pt in range(1, 25):
        text = str(label_number(pt, orientation, perspective, variant))
        if pt in heads_on:
            owner = orientation if pt == 24 else other(orientation)
            body, rim = checker_colours(theme, owner)
            draw_label(
                img,
                lay,
                theme,
                pt,
                text,
                fill=body,
                outline=rim,
                text_fill=text_colour(theme, owner),
            )
        else:
            draw_label(img, lay, theme, pt, text, text_fill=home_text.get(pt))
    return img


def _draw_home_bands(
    draw: ImageDraw.ImageDraw, lay: Layout, theme: Theme, variant: Variant, orientation: Side
) -> dict[int, RGB]:
    """Long: the frame band along each home area takes its owner's colour.

    Returns the label text colour to use for each point on such a band.
    """
    if variant != "long":
        return {}
    colours: dict[int, RGB] = {}
    inset = round(lay.band * 0.14)
    for side, pts in ((orientation, range(1, 7)), (other(orientation), range(13, 19))):
        xs = [lay.point_x(p) for p in pts]
        x0, x1 = min(xs) + inset, max(xs) + lay.point_w - inset
        cy = lay.label_center(pts[0])[1]
        half = lay.band // 2 - inset
        body, rim = checker_colours(theme, side)
        draw.rounded_rectangle(
            (x0, cy - half, x1, cy + half),
            radius=half,
            fill=body,
            outline=rim,
            width=max(1, round(2 * lay.scale)),
        )
        for p in pts:
            colours[p] = text_colour(theme, side)
    return colours


HEAD_WORD = "TESTA"


def _draw_head_plaques(
    img: Image.Image, lay: Layout, theme: Theme, orientation: Side, bottom: bool, top_side: bool
) -> None:
    """Long: a plaque reading "TESTA" in the free half-column beside each marked head.

    The bottom side's head (board 24) is the top-right point and the top side's head
    (board 12) the bottom-left one; the column halves next to them hold no tray in long.
    """
    marked = ((orientation, True, True, bottom), (other(orientation), False, False, top_side))
    for side, right, top, on in marked:
        if not on:
            continue
        x0, y0, x1, y1 = lay.tray_box(right=right, top=top)
        body, rim = checker_colours(theme, side)
        w, h = y1 - y0, x1 - x0  # drawn horizontally, then turned upright
        plaque = Image.new("RGBA", (w * _SS, h * _SS), (0, 0, 0, 0))
        d = ImageDraw.Draw(plaque)
        d.rounded_rectangle(
            (0, 0, w * _SS - 1, h * _SS - 1),
            radius=h * _SS // 3,
            fill=body,
            outline=rim,
            width=round(3 * lay.scale * _SS),
        )
        # An arrow towards the head point: it is at the frame end of the column.
        ah = h * _SS * 0.28
        tip = w * _SS * 0.94
        base = tip - ah * 1.2
        mid = h * _SS / 2
        d.polygon([(tip, mid), (base, mid - ah), (base, mid + ah)], fill=text_colour(theme, side))
        d.text(
            ((w * _SS) * 0.45, mid),
            HEAD_WORD,
            font=font(round(h * _SS * 0.42), "bold"),
            fill=text_colour(theme, side),
            anchor="mm",
        )
        plaque = plaque.reduce(_SS)
        # Right column (top): the head is above, so the arrow points up; left (bottom): down.
        plaque = plaque.rotate(90 if top else -90, expand=True)
        img.paste(plaque, (x0, y0), plaque)
