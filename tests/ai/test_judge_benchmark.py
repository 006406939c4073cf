"""The judged-positions benchmark: its stored set matches the engine, and a level's loss
is read off the stored values of the play it makes."""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path

import numpy as np
import pytest

from benchmarks.judge import DATA, Judged, build, judge, losses, main, read, save
from engine.ai import Level, choose_play


def test_the_stored_set_matches_the_engines_plays() -> None:
    judged = read(DATA)
    assert len(judged) >= 1000
    for j in judged:
        plays = j.state().legal_plays()
        assert len(plays) == len(j.values) > 1
        assert all(-3.0 <= v <= 3.0 for v in j.values)


def test_the_loss_is_read_off_the_played_move() -> None:
    j = read(DATA)[0]
    state = j.state()
    plays = state.legal_plays()
    chosen = choose_play(state, Level.MEDIO, random.Random(0))
    assert chosen is not None
    index = next(i for i, p in enumerate(plays) if p.key == chosen.key)
    best_is_played = dataclasses.replace(
        j, values=tuple(1.0 if i == index else 0.0 for i in range(len(plays)))
    )
    other = (index + 1) % len(plays)
    best_is_other = dataclasses.replace(
        j, values=tuple(0.5 if i == other else 0.0 for i in range(len(plays)))
    )
    lost, ms = losses([best_is_played, best_is_other], Level.MEDIO)
    assert lost.tolist() == [0.0, 0.5]
    assert ms.shape == (2,) and (ms >= 0).all()


def test_stale_values_are_refused() -> None:
    j = read(DATA)[0]
    with pytest.raises(ValueError, match="do not match"):
        losses([dataclasses.replace(j, values=j.values[:-1])], Level.MEDIO)


def test_run_saves_and_compares(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = tmp_path / "judged.json"
    save(read(DATA)[:12], data)
    assert read(data) == read(DATA)[:12]
    first = tmp_path / "first.npy"
    assert main(["run", "--level", "medio", "--data", str(data), "--save", str(first)]) == 0
    assert main(["run", "--level", "medio", "--data", str(data), "--against", str(first)]) == 0
    out = capsys.readouterr().out
    assert "medio: 12 positions, loss/move" in out
    assert "+0.00000 ± 0.00000 (0 changed)" in out
    assert np.load(first).shape == (12,)


def test_the_stored_values_are_gnu_backgammons() -> None:
    pytest.importorskip("gnubg_nn", reason="GNU Backgammon's net (bench extra) absent")
    stored = read(DATA)[:2]
    for fresh, kept in zip(judge([j.state() for j in stored]), stored, strict=True):
        assert (fresh.mine, fresh.theirs, fresh.dice) == (kept.mine, kept.theirs, kept.dice)
        assert np.allclose(fresh.values, kept.values, atol=1e-5)


def test_build_judges_every_play_of_positions_with_a_choice() -> None:
    pytest.importorskip("gnubg_nn", reason="GNU Backgammon's net (bench extra) absent")
    judged = build(3, seed=5)
    assert len(judged) == 3
    for j in judged:
        assert len(j.state().legal_plays()) == len(j.values) > 1
        assert all(-3.0 <= v <= 3.0 for v in j.values)


def test_a_judged_position_is_a_middle_game_state() -> None:
    j: Judged = read(DATA)[3]
    state = j.state()
    assert state.dice is not None and tuple(state.dice[:2]) == j.dice
    assert state.checkers[state.turn] == j.mine
