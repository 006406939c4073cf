"""How deep the analysis compares checker plays: a play that is not the best one roll
ahead is judged again, with the best, two rolls ahead (as GNU Backgammon's 2-ply); cube
decisions read the chances two plies deep."""

from __future__ import annotations

import numpy as np
import pytest

from engine.ai import DecisionKind, Level
from engine.ai.analysis import Severity, cubeful_play_equities, play_equities, review_decision
from engine.ai.cube_tree import cube_at_every_node
from engine.ai.hints import normalised
from engine.ai.levels import cube_analysis, reply_rules
from engine.ai.search import ReplyRules, grow, look_ahead, two_ply, zero_ply
from engine.moves import Play
from engine.types import Variant

from .helpers import stored_decision
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
    decision = stored_decision(("5-point", 5, 1003), 4, DecisionKind.TAKE, "o87ggCiYt8EATA")
    assert decision.chosen is True
    assert not cube_analysis(decision.state, Level.DIFFICILE).take  # one ply: a pass
    review = review_decision(0, decision.state, True)
    assert review is not None and review.best is True and review.loss == 0.0


def test_two_rolls_ahead_the_cube_is_decided_at_every_node() -> None:
    """A 3-4 played in a stored 5-point match (its first game) that GNU
    Backgammon's 2-ply analysis calls very bad (0.175): valuing the cube once, from the
    chances averaged over both rolls, the analysis charged it 0.117, a mere error; with
    the cube decided where each side is on roll (``cube_tree``, as GNU Backgammon's
    cubeful n-ply) it is a blunder, and its loss is the gap between the two plays' values
    in that tree."""
    decision = stored_decision(("5-point", 5, 1009), 0, DecisionKind.PLAY, "zM4A8CjsnFsEAA")
    state, made = decision.state, decision.chosen
    assert isinstance(made, Play) and state.dice == (3, 4)
    review = review_decision(0, state, made)
    assert review is not None and isinstance(review.best, Play)
    assert review.severity is Severity.BLUNDER
    assert review.loss == pytest.approx(0.162, abs=0.002)
    pair = [review.best, made]
    ahead = look_ahead(state.variant, pair, reply_rules(state))
    tree = grow(state.variant, ahead, [0, 1], ReplyRules(state.variant))
    assert tree is not None
    best, worse = (normalised(state, state.turn, v) for v in cube_at_every_node(state, tree))
    assert review.loss == pytest.approx(best - worse, abs=1e-6)
