"""The trained evaluators, loaded once from the ``.npz`` files shipped in ``weights/``.

Reading the packaged weights is the only file access of the AI package; it happens on first
use and is cached for the life of the process.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import numpy as np

from engine.ai.arrays import Counts, Probs
from engine.ai.features import encode
from engine.ai.network import Network
from engine.ai.outcomes import sanitize
from engine.board import OFF
from engine.types import Variant

WEIGHTS_DIR = Path(__file__).with_name("weights")


@cache
def network(variant: Variant) -> Network:
    path = WEIGHTS_DIR / f"{variant.value}.npz"
    with np.load(path) as data:
        return Network(data["w1"], data["b1"], data["w2"], data["b2"])


def evaluate(variant: Variant, on: Counts, off: Counts) -> Probs:
    """Outcome probabilities for the side on roll, one row per position.

    Gammons (mars) that can no longer happen, because the loser has already borne a
    checker off, are set to zero: the network only approximates what the rules know.
    """
    on = np.asarray(on)
    off = np.asarray(off)
    p = sanitize(variant, network(variant).forward(encode(variant, on, off)).astype(np.float64))
    k = len(variant.rules.big_results)
    win_big = np.arange(1, k + 1)
    lose_big = np.arange(k + 1, 2 * k + 1)
    p[np.ix_(on[:, OFF] > 0, lose_big)] = 0.0
    p[np.ix_(off[:, OFF] > 0, win_big)] = 0.0
    return p
