"""Game outcomes as probability vectors, and the cubeless equity they are worth.

Every vector is from the point of view of the side on roll. ``flip`` turns the vector of
one side into the other side's, which is how a position after my play (the opponent on
roll) is scored for me.
"""

from __future__ import annotations

import numpy as np

from engine.ai.arrays import Probs
from engine.types import Variant

# An outcome vector is [win, the bigger wins..., the bigger losses...], each "at least"
# (cumulative), with the bigger results of the variant's rules (``Rules.big_results``):
# classic: 0 win, 1 win gammon, 2 win backgammon, 3 lose gammon, 4 lose backgammon
# long:    0 win, 1 win mars, 2 lose mars
N_OUTPUTS: dict[Variant, int] = {v: v.rules.n_outcomes for v in Variant}


def _bigs(variant: Variant) -> int:
    """How many bigger results (gammon, backgammon / mars) the variant scores."""
    return len(variant.rules.big_results)


def flip(variant: Variant, p: Probs) -> Probs:
    """The same outcome probabilities seen by the other side (rows of ``p``)."""
    k = _bigs(variant)
    q = np.empty_like(p)
    q[..., 0] = 1.0 - p[..., 0]
    for i in range(1, k + 1):
        q[..., i], q[..., k + i] = p[..., k + i], p[..., i]
    return q


def sanitize(variant: Variant, p: Probs) -> Probs:
    """Enforce the nesting the network may violate: backgammon <= gammon <= win."""
    k = _bigs(variant)
    p = p.copy()
    win = p[..., 0]
    p[..., 1] = np.minimum(p[..., 1], win)
    for i in range(2, k + 1):
        p[..., i] = np.minimum(p[..., i], p[..., i - 1])
    p[..., k + 1] = np.minimum(p[..., k + 1], 1.0 - win)
    for i in range(k + 2, 2 * k + 1):
        p[..., i] = np.minimum(p[..., i], p[..., i - 1])
    return p


def equity(variant: Variant, p: Probs) -> Probs:
    """Cubeless points per game expected by the side the vector belongs to."""
    k = _bigs(variant)
    e = 2.0 * p[..., 0] - 1.0
    for i in range(1, k + 1):
        e = e + p[..., i]
    for i in range(k + 1, 2 * k + 1):
        e = e - p[..., i]
    return e


def final(variant: Variant, winner: tuple[int, ...], loser: tuple[int, ...]) -> Probs:
    """The outcome vector of a finished game for the winner."""
    rules = variant.rules
    v = np.zeros(rules.n_outcomes, dtype=np.float32)
    v[0] = 1.0
    v[1 : 1 + rules.outcome_rank(loser)] = 1.0
    return v


def points(variant: Variant, winner: tuple[int, ...], loser: tuple[int, ...]) -> int:
    """Cubeless points the winner scores (gammon 2, backgammon 3, mars 2)."""
    return 1 + variant.rules.outcome_rank(loser)
