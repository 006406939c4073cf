"""The trained evaluators, loaded once from the ``.npz`` files shipped in ``weights/``.

A weights file holds a contact network (``w1``, ``b1``, ``w2``, ``b2``), optionally a race
network for positions without contact (the same arrays prefixed ``race_``) and the input
version both were trained on (``inputs``; files without it are version 1, from before the
race network). The packaged weights are read on first use and cached for the life of the
process (the AI package's other file is the bear-off database's cache, ``engine.ai.bearoff``).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np

from engine.ai.arrays import Counts, Flags, Floats, Probs
from engine.ai.features import encode
from engine.ai.network import Network
from engine.ai.outcomes import sanitize
from engine.ai.race import no_contact
from engine.board import OFF
from engine.types import Variant

WEIGHTS_DIR = Path(__file__).with_name("weights")
#: The weights the game shipped before the race network, kept as a benchmark opponent.
REFERENCE_DIR = WEIGHTS_DIR / "reference"


@dataclass(frozen=True, slots=True)
class Evaluator:
    """A contact network, an optional race network, and the input version they read."""

    inputs: int
    contact: Network
    race: Network | None = None

    def raw(self, variant: Variant, on: Counts, off: Counts) -> Floats:
        """The networks' outputs for each position, each row by the network of its kind."""
        x = encode(variant, on, off, self.inputs)
        return self.forward(x, self.races(variant, on, off))

    def races(self, variant: Variant, on: Counts, off: Counts) -> Flags:
        """The rows the race network scores (none without one)."""
        if self.race is None:
            return np.zeros(len(on), dtype=bool)
        return no_contact(variant, on, off)

    def forward(self, x: Floats, race: Flags) -> Floats:
        """Outputs for encoded rows: the race network's where ``race``, else the contact's."""
        if self.race is None or not race.any():
            return self.contact.forward(x)
        if race.all():
            return self.race.forward(x)
        y = np.empty((x.shape[0], self.contact.n_outputs), dtype=np.float32)
        y[~race] = self.contact.forward(x[~race])
        y[race] = self.race.forward(x[race])
        return y


def load(path: Path) -> Evaluator:
    """Read a weights file of either layout."""
    with np.load(path) as data:
        contact = Network(data["w1"], data["b1"], data["w2"], data["b2"])
        race = None
        if "race_w1" in data:
            race = Network(data["race_w1"], data["race_b1"], data["race_w2"], data["race_b2"])
        inputs = int(data["inputs"]) if "inputs" in data else 1
    return Evaluator(inputs, contact, race)


@cache
def network(variant: Variant) -> Evaluator:
    """The shipped evaluator of the variant."""
    return load(WEIGHTS_DIR / f"{variant.value}.npz")


@cache
def reference(variant: Variant) -> Evaluator:
    """The variant's reference evaluator (the previous shipped weights)."""
    return load(REFERENCE_DIR / f"{variant.value}.npz")


_override: dict[Variant, Evaluator] = {}


@contextmanager
def evaluating_with(variant: Variant, evaluator: Evaluator) -> Iterator[None]:
    """Within the block, every evaluation of ``variant`` uses ``evaluator``.

    For benchmarks that pit two sets of weights against each other through the same levels
    and search code; the game itself never overrides.
    """
    previous = _override.get(variant)
    _override[variant] = evaluator
    try:
        yield
    finally:
        if previous is None:
            del _override[variant]
        else:
            _override[variant] = previous


@contextmanager
def evaluating_file(variant: Variant, weights: Path | None) -> Iterator[None]:
    """Within the block, ``variant`` evaluates with the networks of the file ``weights``;
    with no file, the evaluation is left as it is. For the commands that take an optional
    ``--weights``."""
    if weights is None:
        yield
        return
    with evaluating_with(variant, load(weights)):
        yield


def evaluate(variant: Variant, on: Counts, off: Counts) -> Probs:
    """Outcome probabilities for the side on roll, one row per position.

    Gammons (mars) that can no longer happen, because the loser has already borne a
    checker off, are set to zero: the network only approximates what the rules know.
    """
    on = np.asarray(on)
    off = np.asarray(off)
    evaluator = _override.get(variant) or network(variant)
    p = sanitize(variant, evaluator.raw(variant, on, off).astype(np.float64))
    k = len(variant.rules.big_results)
    win_big = np.arange(1, k + 1)
    lose_big = np.arange(k + 1, 2 * k + 1)
    p[np.ix_(on[:, OFF] > 0, lose_big)] = 0.0
    p[np.ix_(off[:, OFF] > 0, win_big)] = 0.0
    return p
