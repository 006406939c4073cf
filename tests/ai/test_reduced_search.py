"""The two-ply look-ahead started from a kept one-ply layer, and the reduced roll sets of
its deepest layer (``training.rollfit``)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest

from engine import Variant
from engine.ai.model import REFERENCE_DIR, evaluating_with, load
from engine.ai.outcomes import equity
from engine.ai.search import (
    ROLLS,
    ReplyRules,
    deepen,
    look_ahead,
    one_ply,
    two_ply,
)
from engine.ai.tuning import SearchTuning, tuning
from engine.game import Phase
from engine.moves import Play
from training.rollfit import fit, main, roll_values, self_play_positions

from .helpers import opening

WEIGHTS = np.array([w for _, _, w in ROLLS]) / 36.0


def _plays(variant: Variant, n: int) -> list[Play]:
    """``n`` legal plays of the first position with that many in a game played by taking
    the first play each turn (long's opening rolls allow few)."""
    state = opening(variant, 1)
    dice = random.Random(1)
    while len(state.legal_plays()) < n:
        state = state.play(state.legal_plays()[0]) if state.legal_plays() else state.confirm()
        if state.phase is Phase.ROLL:
            state = state.roll(dice.randint(1, 6), dice.randint(1, 6))
    return state.legal_plays()[:n]


def test_deepen_on_some_plays_is_two_ply_of_those_plays(variant: Variant) -> None:
    plays = _plays(variant, 3)
    rules, mine = ReplyRules(variant), ReplyRules(variant)
    ahead = look_ahead(variant, plays, rules)
    assert np.allclose(ahead.probs, one_ply(variant, plays, rules))
    kept = deepen(variant, ahead, [2, 0], mine)
    fresh = two_ply(variant, [plays[2], plays[0]], rules, mine)
    assert kept is not None and fresh is not None
    assert np.allclose(kept, fresh)


def test_deepen_reads_the_rolls_it_is_given(variant: Variant) -> None:
    """One roll of weight 36 is that roll alone; the reduced set lands near the full one."""
    plays = _plays(variant, 2)
    rules = ReplyRules(variant)
    ahead = look_ahead(variant, plays, rules)
    full = deepen(variant, ahead, [0, 1], rules)
    only_66 = deepen(variant, ahead, [0, 1], rules, rolls=((6, 6, 36.0),))
    reduced = deepen(variant, ahead, [0, 1], rules, rolls=tuning(variant).reduced_rolls)
    assert full is not None and only_66 is not None and reduced is not None
    assert not np.allclose(full, only_66)
    assert np.allclose(equity(variant, reduced), equity(variant, full), atol=0.1)


def test_shipped_search_settings(variant: Variant) -> None:
    settings = tuning(variant)
    rolls = settings.reduced_rolls
    assert sum(w for _, _, w in rolls) == pytest.approx(36.0, abs=0.02)
    assert all(1 <= b <= a <= 6 and w > 0 for a, b, w in rolls)
    assert len({(a, b) for a, b, _ in rolls}) == len(rolls)
    assert 0 < settings.two_ply_margin < 1 and settings.two_ply_limit > 0


def test_search_settings_files(tmp_path: Path) -> None:
    path = tmp_path / "x-search.json"
    path.write_text('{"two_ply_margin": 0.05, "two_ply_limit": 9, "reduced_rolls": null}')
    assert SearchTuning.read(path) == SearchTuning(0.05, 9, ROLLS)
    path.write_text('{"two_ply_margin": 0.05, "two_ply_limit": 9, "reduced_rolls": [[6, 6, 35]]}')
    with pytest.raises(ValueError, match="weigh 36"):
        SearchTuning.read(path)


def test_roll_values_average_to_the_one_ply_value(variant: Variant) -> None:
    """Each column is one roll of the look-ahead: their weighted mean is ``one_ply``."""
    plays = _plays(variant, 4)
    positions = [(bytes(p.mine), bytes(p.theirs)) for p in plays]
    values = roll_values(variant, positions)
    assert values.shape == (4, 21)
    expected = equity(variant, one_ply(variant, plays, ReplyRules(variant)))
    assert np.allclose(values @ WEIGHTS, expected, atol=1e-6)


def test_fit_finds_a_set_that_stands_for_all_rolls_exactly() -> None:
    """When the rolls fall into three groups of equal values, one roll per group with the
    group's total weight is exact, and the fit must find such a set."""
    rng = np.random.default_rng(0)
    group = np.arange(21) % 3
    base = rng.normal(size=(200, 3))
    values = base[:, group]
    subset, w = fit(values, 3)
    assert sorted(group[subset]) == [0, 1, 2]
    for r, x in zip(subset, w, strict=True):
        assert x == pytest.approx(WEIGHTS[group == group[r]].sum(), abs=1e-9)
    everything, w21 = fit(rng.normal(size=(100, 21)), 21)
    assert everything == list(range(21))
    assert np.allclose(w21, WEIGHTS)


def test_self_play_positions_are_pre_roll_positions(variant: Variant) -> None:
    found = self_play_positions(variant, 12, seed=3)
    assert len(found) == 12
    for waiting, roller in found:
        assert len(waiting) == len(roller) == 26
        assert sum(waiting) == sum(roller) == 15


def test_rollfit_prints_a_roll_set(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--variant", "classic", "--positions", "30", "--rolls", "4", "--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert "held-out RMSE" in out
    rolls = json.loads(out.split('"reduced_rolls": ', 1)[1])
    assert len(rolls) == 4 and sum(w for _, _, w in rolls) == pytest.approx(36.0, abs=0.05)


def test_rollfit_fits_to_the_weights_it_is_given(capsys: pytest.CaptureFixture[str]) -> None:
    """``--weights`` fits the set to another network, exactly as if it were the shipped one."""
    args = ["--variant", "classic", "--positions", "30", "--rolls", "4", "--seed", "2"]
    other = REFERENCE_DIR / "classic.npz"
    main([*args, "--weights", str(other)])
    given = capsys.readouterr().out
    with evaluating_with(Variant.CLASSIC, load(other)):
        main(args)
    overridden = capsys.readouterr().out
    main(args)
    shipped = capsys.readouterr().out
    assert given == overridden != shipped
