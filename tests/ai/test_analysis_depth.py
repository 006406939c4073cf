"""How deep the analysis compares checker plays: a play that is not the best one roll
ahead is judged again, with the best, two rolls ahead (as GNU Backgammon's 2-ply); cube
decisions read the chances two plies deep."""

from __future__ import annotations

import numpy as np
import pytest

from benchmarks.analysis_gnubg import played
from engine import position_id_for
from engine.ai import DecisionKind, Level
from engine.ai.analysis import cubeful_play_equities, play_equities, review_decision
from engine.ai.levels import cube_analysis, reply_rules
from engine.ai.search import ReplyRules, two_ply, zero_ply
from engine.moves import Play
from engine.types import Variant

from .test_analysis import scripted_game


def test_a_play_not_best_one_roll_ahead_is_judged_two_rolls_ahead(variant: Variant) -> None:
    choices, planted = scripted_game(variant, seed=3, plant_at=2)
    state = choices[planted].state
    plays = state.legal_plays()
    first = review_decision(0, state, None)
    assert first is not None and isinstance(first.best, Play)
    # The runner-up at 0-ply is among the candidates looked at, and not the best.
    order = np.argsort(-play_equities(state, zero_ply(variant, plays)), kind="stable")
    other = next(plays[i] for i in order if plays[i].key != first.best.key)
    review = review_decision(0, state, other)
    assert review is not None and isinstance(review.best, Play)
    pair = [review.best, other]
    deeper = two_ply(variant, pair, reply_rules(state), ReplyRules(variant))
    assert deeper is not None
    best, made = cubeful_play_equities(state, pair, deeper)
    assert review.best_equity == pytest.approx(float(best), abs=1e-9)
    assert review.loss == pytest.approx(max(0.0, float(best - made)), abs=1e-9)


def test_the_best_play_one_roll_ahead_keeps_its_one_ply_value(variant: Variant) -> None:
    choices, planted = scripted_game(variant, seed=3, plant_at=2)
    state = choices[planted].state
    review = review_decision(0, state, None)
    assert review is not None and isinstance(review.best, Play)
    again = review_decision(0, state, review.best)
    assert again is not None and again.loss == 0.0
    assert again.best_equity == pytest.approx(review.best_equity, abs=1e-12)


def test_cube_decisions_read_the_chances_two_plies_deep() -> None:
    """A take from a stored 5-point match (2-2, Secondo doubled by Primo): one ply ahead
    the take looks like a blunder, two plies ahead (the depth GNU Backgammon's analysis
    reads, which says "double, take" here) it is right, and so the analysis says."""
    record = played("5-point", 5, 1003).records[4]
    decision = next(
        d
        for d in record.decisions()
        if d.kind is DecisionKind.TAKE and position_id_for(d.state) == "o87ggCiYt8EATA"
    )
    assert decision.chosen is True
    assert not cube_analysis(decision.state, Level.DIFFICILE).take  # one ply: a pass
    review = review_decision(0, decision.state, True)
    assert review is not None and review.best is True and review.loss == 0.0
