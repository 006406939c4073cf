"""Game outcomes as probability vectors, and the cubeless equity they are worth.

Every vector is from the point of view of the side on roll. ``flip`` turns the vector of
one side into the other side's, which is how a position after my play (the opponent on
roll) is scored for me.
"""

from __future__ import annotations

import numpy as np

from engine.board import BAR, OFF
from engine.types import Variant

N_OUTPUTS = {Variant.CLASSIC: 5, Variant.LONG: 3}
# classic: 0 win, 1 win gammon, 2 win backgammon, 3 lose gammon, 4 lose backgammon
# long:    0 win, 1 win mars, 2 lose mars
_FLIP = {Variant.CLASSIC: [3, 4], Variant.LONG: [2]}


def flip(variant: Variant, p: np.ndarray) -> np.ndarray:
    """The same outcome probabilities seen by the other side (rows of ``p``)."""
    q = np.empty_like(p)
    q[..., 0] = 1.0 - p[..., 0]
    if variant is Variant.CLASSIC:
        q[..., 1], q[..., 2] = p[..., 3], p[..., 4]
        q[..., 3], q[..., 4] = p[..., 1], p[..., 2]
    else:
        q[..., 1], q[..., 2] = p[..., 2], p[..., 1]
    return q


def sanitize(variant: Variant, p: np.ndarray) -> np.ndarray:
    """Enforce the nesting the network may violate: backgammon <= gammon <= win."""
    p = p.copy()
    win = p[..., 0]
    if variant is Variant.CLASSIC:
        p[..., 1] = np.minimum(p[..., 1], win)
        p[..., 2] = np.minimum(p[..., 2], p[..., 1])
        p[..., 3] = np.minimum(p[..., 3], 1.0 - win)
        p[..., 4] = np.minimum(p[..., 4], p[..., 3])
    else:
        p[..., 1] = np.minimum(p[..., 1], win)
        p[..., 2] = np.minimum(p[..., 2], 1.0 - win)
    return p


def equity(variant: Variant, p: np.ndarray) -> np.ndarray:
    """Cubeless points per game expected by the side the vector belongs to."""
    base = 2.0 * p[..., 0] - 1.0
    if variant is Variant.CLASSIC:
        return base + p[..., 1] + p[..., 2] - p[..., 3] - p[..., 4]
    return base + p[..., 1] - p[..., 2]


def final(variant: Variant, winner: tuple[int, ...], loser: tuple[int, ...]) -> np.ndarray:
    """The outcome vector of a finished game for the winner."""
    v = np.zeros(N_OUTPUTS[variant], dtype=np.float32)
    v[0] = 1.0
    if loser[OFF] == 0:
        v[1] = 1.0
        if variant is Variant.CLASSIC and (loser[BAR] or any(loser[19:25])):
            v[2] = 1.0
    return v


def points(variant: Variant, winner: tuple[int, ...], loser: tuple[int, ...]) -> int:
    """Cubeless points the winner scores (gammon 2, backgammon 3, mars 2)."""
    v = final(variant, winner, loser)
    return int(1 + v[1] + (v[2] if variant is Variant.CLASSIC else 0))
