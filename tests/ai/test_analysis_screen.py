"""Which plays the analysis looks at beyond 0-ply: GNU Backgammon's analysis filter (the
best 16 within 0.32 at 0-ply), so that a play the network ranks low at 0-ply and best one
roll ahead is not screened out before the look-ahead."""

from __future__ import annotations

import numpy as np

from engine.ai import DecisionKind
from engine.ai.analysis import (
    DEEP_CANDIDATES,
    DEEP_MARGIN,
    Severity,
    cubeful_play_equities,
    play_equities,
    review_decision,
)
from engine.ai.levels import reply_rules
from engine.ai.search import look_ahead, zero_ply
from engine.moves import Play

from .helpers import stored_decision


def test_the_screen_is_gnubgs_analysis_filter() -> None:
    assert (DEEP_CANDIDATES, DEEP_MARGIN) == (16, 0.32)


def test_a_play_best_one_roll_ahead_but_fourth_at_0_ply_is_compared() -> None:
    """A 6-6 of a stored cubeless game that GNU Backgammon's 2-ply analysis calls very
    bad (0.128): the play the network prefers one roll ahead is only fourth at 0-ply, so
    a screen of the best three dropped it and the play made lost 0.115 to a lesser play,
    an error; compared with it, the play made is a blunder."""
    decision = stored_decision(("cubeless", 1, 1011), 0, DecisionKind.PLAY, "f28ABALWszkgAA")
    state, made = decision.state, decision.chosen
    assert isinstance(made, Play) and state.dice == (6, 6)
    plays = state.legal_plays()
    order0 = np.argsort(-play_equities(state, zero_ply(state.variant, plays)), kind="stable")
    ahead = look_ahead(state.variant, plays, reply_rules(state))
    best1 = int(np.argmax(cubeful_play_equities(state, plays, ahead.probs)))
    assert list(order0).index(best1) == 3  # fourth at 0-ply, first at 1-ply
    review = review_decision(0, state, made)
    assert review is not None and isinstance(review.best, Play)
    assert review.best.key == plays[best1].key
    assert review.severity is Severity.BLUNDER
