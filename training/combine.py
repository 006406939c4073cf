"""Make a weights file from the contact network of one file and the race network of another.

Why: a training run improves the contact network and the race network at different speeds,
and the benchmark may find one of them better than before and the other not. Shipping the
better of each needs a file with both, reproducibly made::

    python -m training.combine --variant classic --contact runs/classic.npz \\
        --race engine/ai/weights/reference/classic.npz --out engine/ai/weights/classic.npz

A file without a race network (the reference layout) lends its only network, grown to the
contact network's inputs and hidden units with ``training.train.grow`` (same outputs).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from engine.ai.model import Evaluator, load
from engine.types import Variant
from training.train import grow, save, saved_games


def combine(variant: Variant, contact: Evaluator, race: Evaluator) -> Evaluator:
    hidden = int(contact.contact.w1.shape[1])
    if race.race is None or race.inputs != contact.inputs:
        race = grow(race, variant, hidden, seed=0)
    assert race.race is not None
    return Evaluator(contact.inputs, contact.contact, race.race)


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--variant", choices=["classic", "long"], required=True)
    ap.add_argument("--contact", type=Path, required=True)
    ap.add_argument("--race", type=Path, required=True)
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args(argv)
    variant = Variant(args.variant)
    games, settings = saved_games(args.contact)
    settings["race_from"] = args.race.name
    save(combine(variant, load(args.contact), load(args.race)), args.out, settings, games)
    print(json.dumps({**settings, "games": games}, sort_keys=True))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
