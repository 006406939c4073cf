"""The benchmark's reference players: legal, and pubeval/greedy clearly beat random."""

from __future__ import annotations

import random

from benchmarks.ai import Tally, play_game
from engine import Variant
from training import pubeval
from training.reference import greedy_player, pubeval_player, random_player

from .helpers import opening


def test_pubeval_prefers_the_textbook_opening_three_one() -> None:
    seeds = (opening(Variant.CLASSIC, seed) for seed in range(10_000))
    state = next(s for s in seeds if sorted(s.dice) == [1, 3])
    play = pubeval_player(state, random.Random(0))
    assert play is not None
    assert sorted((s.src, s.dst) for s in play.steps) == [(6, 5), (8, 5)]


def test_pubeval_sees_races() -> None:
    start = tuple([0, 0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0])
    assert not pubeval.is_race(start, start)
    home = tuple([0, 5, 5, 5] + [0] * 23)
    assert pubeval.is_race(home, start[:1] + (0,) * 6 + (15,) + (0,) * 18)


def test_reference_players_beat_random() -> None:
    for variant, player in ((Variant.CLASSIC, pubeval_player), (Variant.LONG, greedy_player)):
        tally = Tally()
        for i in range(8):
            play_game(variant, player, random_player, i % 2 == 0, 500 + i, tally)
        assert sum(p > 0 for p in tally.points) >= 7
