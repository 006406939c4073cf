"""The array types of the AI package (numpy arrays, named by what they hold), and the
readers of packed checker rows into counts."""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from engine.movegen import SIDE_BYTES

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


def counts_of(rows: list[bytes]) -> Counts:
    """(n, 26) counts from n ``bytes(checkers)`` rows (one count a byte).

    The search and the trainer keep positions as bytes (cheap to build, hash and compare)
    and read whole layers at once: ``numpy.frombuffer`` is far faster than tuples.
    """
    flat = np.frombuffer(b"".join(rows), dtype=np.uint8)
    counts: Counts = flat.reshape(len(rows), -1).astype(np.int64)
    return counts


def counts_to_roll(rows: list[bytes]) -> tuple[Counts, Counts]:
    """(on roll, waiting) counts from ``TurnGenerator.packed_results`` rows (the mover's
    counts, then the opponent's): after a play, the opponent is on roll."""
    both = counts_of(rows)
    return both[:, SIDE_BYTES:], both[:, :SIDE_BYTES]


def sides_of(row: bytes) -> tuple[bytes, bytes]:
    """(mover, opponent) of one ``packed_results`` row, each as ``bytes(checkers)``."""
    return row[:SIDE_BYTES], row[SIDE_BYTES:]
