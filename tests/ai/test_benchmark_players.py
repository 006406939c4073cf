"""The strength benchmark: duplicate dice, pair intervals, and GNU Backgammon's player."""

from __future__ import annotations

import random

import pytest

from benchmarks.ai import Player, Tally, play_game, run
from engine import GameState, Variant
from engine.moves import Play
from training.reference import random_player


def _recording(rolls: list[tuple[int, ...]]) -> Player:
    def player(state: GameState, rng: random.Random) -> Play | None:
        assert state.dice is not None
        rolls.append(tuple(sorted(state.dice)))
        return random_player(state, rng)

    return player


def test_a_duplicate_pair_replays_the_dice_with_the_players_swapped() -> None:
    """Game two gives every roll of game one to the other player: A's rolls in one game
    are B's in the other, turn by turn."""
    a1: list[tuple[int, ...]] = []
    b1: list[tuple[int, ...]] = []
    a2: list[tuple[int, ...]] = []
    b2: list[tuple[int, ...]] = []
    tally = Tally()
    play_game(Variant.CLASSIC, _recording(a1), _recording(b1), True, 77, tally)
    play_game(Variant.CLASSIC, _recording(a2), _recording(b2), False, 77, tally)
    n = min(len(a1), len(b2))
    m = min(len(b1), len(a2))
    assert n > 5 and m > 5
    assert a1[:n] == b2[:n]
    assert b1[:m] == a2[:m]


def test_run_plays_pairs_and_the_interval_is_over_pairs() -> None:
    tally = run(Variant.LONG, "greedy", "random", 3, seed=5)
    assert len(tally.points) == 4  # rounded up to two pairs
    means = tally.pair_means()
    assert means == [
        (tally.points[0] + tally.points[1]) / 2,
        (tally.points[2] + tally.points[3]) / 2,
    ]


def test_gnu_backgammon_plays_legal_moves_and_beats_pubeval() -> None:
    pytest.importorskip("gnubg_nn", reason="GNU Backgammon's net (bench extra) absent")
    # an illegal move would raise inside the player; duplicate pairs keep the luck low
    tally = run(Variant.CLASSIC, "gnubg0", "pubeval", 24, seed=3)
    assert sum(tally.points) > 0


def test_games_shared_out_over_processes_are_those_of_a_serial_run() -> None:
    serial = run(Variant.CLASSIC, "medio", "pubeval", 6, seed=9)
    shared = run(Variant.CLASSIC, "medio", "pubeval", 6, seed=9, jobs=2)
    assert shared.points == serial.points
    assert shared.big == serial.big
    assert len(shared.times["A"]) == len(serial.times["A"])
