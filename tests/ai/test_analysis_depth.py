"""How deep the analysis compares checker plays: a play that is not the best one roll
ahead is judged again, with the best, two rolls ahead (as GNU Backgammon's 2-ply)."""

from __future__ import annotations

import numpy as np
import pytest

from engine.ai.analysis import cubeful_play_equities, play_equities, review_decision
from engine.ai.levels import reply_rules
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
