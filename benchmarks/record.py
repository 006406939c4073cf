"""Game record benchmark: bytes per stored record, and time to replay one.

Run from the repository root: ``python -m benchmarks.record [--games N]``. Plays whole
games of classic (a 5-point match game, cube on) and long (one game, last roll on) with the
computer opponent at its Medio level on both sides, records them as the bot does (following
each engine transition), and prints per variant: events, the record document's JSON bytes,
the bytes of what the bot archives per finished game (record + players + dice proof), and the
milliseconds to replay and check a record through the engine.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from typing import Any

from benchmarks.selfplay import recorded_game
from engine import GameRecord, MatchConfig, Variant, new_dice_seed
from engine.ai import Level

CONFIGS = {
    "classic": MatchConfig(Variant.CLASSIC, length=5),
    "long": MatchConfig(Variant.LONG, length=1, last_roll=True),
}


def play(config: MatchConfig, rng: random.Random) -> GameRecord:
    return recorded_game(config, Level.MEDIO, rng)


def archived(record: GameRecord) -> dict[str, Any]:
    """What the bot keeps per finished game (see ``bot.pipeline.record_document``)."""
    return {
        "rec": record.to_doc(),
        "pl": [[123456789, "Giocatore Uno"], [987654321, "Giocatrice Due"]],
        "dp": [new_dice_seed(), "4123456789012345678"],
    }


def size(doc: dict[str, Any]) -> int:
    return len(json.dumps(doc, separators=(",", ":"), ensure_ascii=False).encode())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="games per variant")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    print(
        f"{'variant':<8} {'games':>5} {'events':>7} {'record B':>9} {'max B':>6} "
        f"{'archived B':>10} {'replay ms':>9}"
    )
    for name, config in CONFIGS.items():
        records = [play(config, rng) for _ in range(args.games)]
        events = [len(r.events) for r in records]
        sizes = [size(r.to_doc()) for r in records]
        kept = [size(archived(r)) for r in records]
        times = []
        for r in records:
            start = time.perf_counter()
            r.final_state()
            times.append((time.perf_counter() - start) * 1000)
        print(
            f"{name:<8} {len(records):>5} {statistics.median(events):>7.0f} "
            f"{statistics.median(sizes):>9.0f} {max(sizes):>6} {statistics.median(kept):>10.0f} "
            f"{statistics.median(times):>9.1f}"
        )
    print("(medians; record B = the record's JSON, archived B = record + players + dice proof)")


if __name__ == "__main__":
    main()
