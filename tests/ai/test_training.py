"""The trainer: grown networks keep what they knew, and an interrupted run resumed gives the
same weights as an uninterrupted one; its files load as the game's evaluators."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np

from engine import Variant
from engine.ai import bearoff
from engine.ai.model import REFERENCE_DIR, evaluate, evaluating_with, load, reference
from engine.ai.outcomes import flip
from engine.ai.race import no_contact
from engine.board import OFF, classic_start, long_start
from training import combine, train


def sample_positions(variant: Variant) -> tuple[np.ndarray, np.ndarray]:
    """Three opening-like positions (both sides' checkers, the first on roll)."""
    start = classic_start() if variant is Variant.CLASSIC else long_start()
    on = np.array([start] * 3)
    off = np.array([start] * 3)
    on[1, 24] -= 1
    on[1, 20] += 1
    off[2, 24] -= 2
    off[2, 18] += 2
    return on, off


def test_the_reference_weights_load_in_their_old_layout(variant: Variant) -> None:
    old = reference(variant)
    assert old.inputs == 1
    assert old.race is None


def test_grown_networks_compute_what_the_old_one_did(variant: Variant) -> None:
    old = load(REFERENCE_DIR / f"{variant.value}.npz")
    grown = train.grow(old, variant, 96, seed=5)
    on, off = sample_positions(variant)
    assert grown.race is not None
    assert grown.contact.w1.shape[1] == 96
    np.testing.assert_allclose(grown.raw(variant, on, off), old.raw(variant, on, off), atol=1e-6)


def run(tmp: Path, games: int, *extra: str, hidden: int = 8) -> None:
    args = ["--variant", "classic", "--seed", "4", "--hidden", str(hidden), "--wave", "2"]
    code = train.main([*args, "--games", str(games), "--out", str(tmp), *extra])
    assert code == 0


def test_a_resumed_run_equals_an_uninterrupted_one(tmp_path: Path) -> None:
    whole, parts = tmp_path / "whole.npz", tmp_path / "parts.npz"
    run(whole, 4)
    run(parts, 2)
    assert train.saved_games(parts)[0] == 2
    run(parts, 4, "--resume")
    assert train.saved_games(parts)[0] == 4
    a, b = np.load(whole), np.load(parts)
    assert sorted(a.files) == sorted(b.files)
    for key in a.files:
        if key != "meta":
            np.testing.assert_array_equal(a[key], b[key])
    start = load(tmp_path / "parts.npz")
    assert start.race is not None  # the trained file is one the game can use


def test_resume_refuses_other_settings(tmp_path: Path) -> None:
    out = tmp_path / "w.npz"
    run(out, 2)
    args = ["--variant", "classic", "--seed", "5", "--hidden", "8", "--wave", "2"]
    assert train.main([*args, "--games", "4", "--out", str(out), "--resume"]) == 2


def test_evaluation_can_be_pointed_at_other_weights(variant: Variant) -> None:
    on, off = sample_positions(variant)
    shipped = evaluate(variant, on, off)
    with evaluating_with(variant, train.fresh(variant, 4, seed=1)):
        other = evaluate(variant, on, off)
    assert not np.allclose(shipped, other)
    np.testing.assert_array_equal(evaluate(variant, on, off), shipped)


def test_a_combined_file_takes_each_network_from_its_source(tmp_path: Path) -> None:
    trained = tmp_path / "trained.npz"
    run(trained, 2, hidden=64)  # at least the reference's hidden units, to grow into
    out = tmp_path / "combined.npz"
    old = REFERENCE_DIR / "classic.npz"
    args = ["--variant", "classic", "--contact", str(trained), "--race", str(old)]
    assert combine.main([*args, "--out", str(out)]) == 0
    mixed, contact, race = load(out), load(trained), load(old)
    race_on = np.array([[0, 5, 5, 5] + [0] * 22])  # both sides home: a race
    race_off = np.array([[0, 3, 3, 3, 3, 3] + [0] * 20])
    np.testing.assert_allclose(
        mixed.raw(Variant.CLASSIC, race_on, race_off),
        race.raw(Variant.CLASSIC, race_on, race_off),
        atol=1e-6,
    )
    on, off = sample_positions(Variant.CLASSIC)
    np.testing.assert_array_equal(
        mixed.raw(Variant.CLASSIC, on, off), contact.raw(Variant.CLASSIC, on, off)
    )


def test_the_step_size_decays_geometrically_then_holds() -> None:
    assert train.step_size(0.001, None, 0, 50_000) == 0.001
    assert train.step_size(0.001, 0.0001, 1000, 0) == 0.001
    assert abs(train.step_size(0.001, 0.0001, 1000, 500) - 0.001 * 0.1**0.5) < 1e-12
    assert abs(train.step_size(0.001, 0.0001, 1000, 1000) - 0.0001) < 1e-12
    assert abs(train.step_size(0.001, 0.0001, 1000, 5000) - 0.0001) < 1e-12


def test_a_resumed_decaying_run_equals_an_uninterrupted_one(tmp_path: Path) -> None:
    schedule = ("--lr", "0.01", "--lr-end", "0.001", "--decay-games", "4", "--exact-bearoff")
    whole, parts = tmp_path / "whole.npz", tmp_path / "parts.npz"
    run(whole, 6, *schedule)
    run(parts, 2, *schedule)
    run(parts, 6, *schedule, "--resume")
    a, b = np.load(whole), np.load(parts)
    for key in a.files:
        if key != "meta":
            np.testing.assert_array_equal(a[key], b[key])
    plain = tmp_path / "plain.npz"
    run(plain, 6, "--lr", "0.01")
    assert not np.array_equal(np.load(plain)["w1"], a["w1"])  # the schedule took effect


def test_exact_games_end_at_the_bearoff_database_with_its_outcome() -> None:
    variant = Variant.CLASSIC
    evaluator = load(REFERENCE_DIR.parent / "classic.npz")
    plain = train.play_wave(evaluator, variant, [random.Random(s) for s in range(6)])
    exact = train.play_wave(evaluator, variant, [random.Random(s) for s in range(6)], exact=True)
    shorter = 0
    for p, e in zip(plain, exact, strict=True):
        assert e.result is not None and p.result is not None
        assert len(e.xs) <= len(p.xs)
        if len(e.xs) < len(p.xs):
            shorter += 1
            # Stopped with both sides home (the side on roll to play): the last mover's
            # result is the database's exact chances, not a finished game's.
            on, off = np.array([list(e.mine)]), np.array([list(e.theirs)])
            assert bearoff.all_home(on)[0] and bearoff.all_home(off)[0]
            assert off[0, OFF] < 15 and on[0, OFF] < 15
            expected = flip(variant, bearoff.race_probs(variant, on, off)[0])
            np.testing.assert_allclose(e.result, expected, atol=1e-6)
    assert shorter >= 3  # most self-play games end in a bear-off race


def test_race_starts_are_races_not_yet_bearoffs(variant: Variant) -> None:
    rng = random.Random(3)
    shapes = set()
    for _ in range(300):
        mine, theirs = train.race_start(variant, rng)
        on, off = np.array([list(mine)]), np.array([list(theirs)])
        assert on.sum() == 15 and off.sum() == 15
        assert bool(no_contact(variant, on, off)[0])
        assert not (bearoff.all_home(on)[0] and bearoff.all_home(off)[0])
        shapes.add(mine)
    assert len(shapes) > 250  # random spreads, hardly ever the same
    assert train.race_start(variant, random.Random(9)) == train.race_start(
        variant, random.Random(9)
    )


def test_race_start_training_moves_only_the_race_network(tmp_path: Path) -> None:
    out = tmp_path / "race.npz"
    run(out, 4, "--race-starts", "--exact-bearoff")
    trained = np.load(out)
    start = train.fresh(Variant.CLASSIC, 8, seed=4)  # what the run started from
    np.testing.assert_array_equal(trained["w1"], start.contact.w1)
    assert start.race is not None
    assert not np.array_equal(trained["race_w1"], start.race.w1)
