"""The trained evaluators, loaded once from the ``.npz`` files shipped in ``weights/``.

Reading the packaged weights is the only file access of the AI package; it happens on first
use and is cached for the life of the process.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import numpy as np

from engine.ai.features import encode
from engine.ai.network import Network
from engine.ai.outcomes import sanitize
from engine.types import Variant

WEIGHTS_DIR = Path(__file__).with_name("weights")


@cache
def network(variant: Variant) -> Network:
    path = WEIGHTS_DIR / f"{variant.value}.npz"
    with np.load(path) as data:
        return Network(data["w1"], data["b1"], data["w2"], data["b2"])


def evaluate(variant: Variant, on: np.ndarray, off: np.ndarray) -> np.ndarray:
    """Outcome probabilities for the side on roll, one row per position."""
    x = encode(variant, on, off)
    return sanitize(variant, network(variant).forward(x).astype(np.float64))
