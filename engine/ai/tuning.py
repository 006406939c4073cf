"""Each variant's search settings, read from a file beside its weights.

Why a file: the settings are tuned to the networks (the reduced roll set is fitted to
their values, ``training.rollfit``; the margin and the limit were measured with them), so
they travel with the weights, and a variant's settings are data, not a branch on the
variant in the code.

``engine/ai/weights/<variant>-search.json``::

    {"two_ply_margin": 0.1,        # 2-ply when the two best 1-ply plays are this close
     "two_ply_limit": 80000,       # ... and its last layer has at most this many positions
     "reduced_rolls": [[2, 1, 5.2], ...]}   # that layer's rolls (weights out of 36);
                                            # null: all 21
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from engine.ai.model import WEIGHTS_DIR
from engine.ai.search import ROLLS, RollSet
from engine.types import Variant


@dataclass(frozen=True, slots=True)
class SearchTuning:
    """What Difficile's two-ply stage may spend, and the rolls of its last layer."""

    two_ply_margin: float
    two_ply_limit: int
    reduced_rolls: RollSet

    @classmethod
    def read(cls, path: Path) -> SearchTuning:
        data = json.loads(path.read_text(encoding="utf-8"))
        rolls = data["reduced_rolls"]
        reduced: RollSet = ROLLS if rolls is None else tuple((a, b, w) for a, b, w in rolls)
        if abs(sum(w for _, _, w in reduced) - 36.0) > 0.05:
            raise ValueError(f"{path}: the reduced rolls must weigh 36 in all")
        return cls(float(data["two_ply_margin"]), int(data["two_ply_limit"]), reduced)


@cache
def tuning(variant: Variant) -> SearchTuning:
    """The shipped search settings of the variant."""
    return SearchTuning.read(WEIGHTS_DIR / f"{variant.value}-search.json")
