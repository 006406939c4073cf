"""The array types of the AI package (numpy arrays, named by what they hold)."""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

#: Checker counts, one row of 26 per position (own numbering): built from tuples of ints.
Counts = NDArray[np.integer[Any]]
#: The network's inputs, weights and raw outputs: float32 throughout.
Floats = NDArray[np.float32]
#: Outcome probabilities and equities: float64 once read from the network, float32 in
#: training and for finished games (``outcomes.final``).
Probs = NDArray[np.floating[Any]]
#: Any floating array, e.g. weights as loaded or drawn (float64) before the network's cast.
Reals = NDArray[np.floating[Any]]
#: Per-row flags (made points, occupied points...).
Flags = NDArray[np.bool_]
