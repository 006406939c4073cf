"""Replay GIF size and build time, and match-file size: ``python -m benchmarks.replay``.

Plays a few whole games per variant with the computer on both sides (level Medio, seeded
dice, the cube used in classic), recorded as the bot records them, then builds each
game's replay exactly as the bot's worker does (``bot.views.replay.replay_gif_job``: reading the
record, replaying it through the rules, drawing every frame, encoding the GIF) and writes
the match file. Wall and CPU seconds (the machine may be shared); one core; the first
build (palette, sprites and backgrounds) is reported apart as the cold start.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from benchmarks.selfplay import recorded_game
from bot.views.replay import replay_gif_job
from engine import (
    GameRecord,
    MatchConfig,
    MatchTranscript,
    Variant,
    record_transcript,
    write_match,
)
from engine.ai import Level

NAMES = ("Anna", "Bruno")


def computer_game(config: MatchConfig, seed: int) -> GameRecord:
    """One game of the computer against itself, recorded as the bot records it."""
    return recorded_game(config, Level.MEDIO, random.Random(seed))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=4, help="games per variant")
    args = parser.parse_args()
    configs = (MatchConfig(Variant.CLASSIC, 5), MatchConfig(Variant.LONG, 1))
    first = computer_game(configs[0], 0).to_doc()
    t0 = time.perf_counter()
    replay_gif_job(first, NAMES)
    print(f"cold start (first replay, palette and sprites): {time.perf_counter() - t0:.2f} s")
    print(f"{'variant':8} {'frames':>7} {'GIF KB':>7} {'KB/frame':>8} {'build s':>8} {'file B':>7}")
    for config in configs:
        sizes, times, cpus, frames = [], [], [], []
        for seed in range(args.games):
            record = computer_game(config, seed)
            t, cpu = time.perf_counter(), time.process_time()
            gif = replay_gif_job(record.to_doc(), NAMES)
            elapsed, cpu = time.perf_counter() - t, time.process_time() - cpu
            game = record_transcript(record)[1]
            text = write_match(MatchTranscript(config, NAMES, (game,)))
            count = 1 + len(game.actions)
            print(
                f"{config.variant.value:8} {count:7d} {len(gif) / 1024:7.0f} "
                f"{len(gif) / 1024 / count:8.1f} {elapsed:8.2f} {cpu:6.2f} {len(text.encode()):7d}"
            )
            sizes.append(len(gif))
            times.append(elapsed)
            cpus.append(cpu)
            frames.append(count)
        print(
            f"{config.variant.value:8} median: {statistics.median(frames):.0f} frames, "
            f"{statistics.median(sizes) / 1024:.0f} KB, {statistics.median(times):.2f} s "
            f"({statistics.median(cpus):.2f} s CPU), worst {max(times):.2f} s"
        )


if __name__ == "__main__":
    main()
