"""Shortcut buttons: each is a legal sequence of steps; whole checkers and complete plays
finish the roll, pairs move two checkers alike, and few plays are offered whole."""

from __future__ import annotations

import random

import pytest

from bot.game import shortcuts
from engine import GameState, MatchConfig, Phase, Variant


def classic_after_opening(d1: int, d2: int) -> GameState:
    """White opened 6-1 (13/7 8/7); Black to move with d1-d2."""
    state = GameState.new_match(MatchConfig(Variant.CLASSIC, 1)).roll_opening(6, 1)
    first = state.legal_plays()[0]
    return state.play(first).roll(d1, d2)


def finishes(state: GameState, cut: shortcuts.Shortcut) -> GameState:
    for step in cut.steps:
        state = state.step(step)
    return state


def test_one_checker_with_both_dice() -> None:
    state = classic_after_opening(6, 5)
    cuts = {c.label: c for c in shortcuts.whole_checker(state)}
    assert "24/13" in cuts
    end = finishes(state, cuts["24/13"])
    assert end.play_complete
    assert cuts["24/13"].steps[0].src == 24


def test_pairs_with_doubles() -> None:
    state = classic_after_opening(3, 3)
    labels = {c.label for c in shortcuts.pairs(state)}
    assert {"8/5(2)", "6/3(2)", "24/21(2)", "13/10(2)"} <= labels
    for cut in shortcuts.pairs(state):
        assert len(finishes(state, cut).steps) == 2


def test_no_pairs_without_doubles() -> None:
    assert shortcuts.pairs(classic_after_opening(6, 5)) == []


def test_many_plays_are_not_offered_whole_and_few_are() -> None:
    state = classic_after_opening(6, 5)
    assert shortcuts.complete_plays(state) == []  # too many to offer
    every = shortcuts.complete_plays(state, limit=100)
    keys = {(p.mine, p.theirs) for p in state.legal_plays()}
    assert len(every) == len(keys)
    for cut in every:
        end = finishes(state, cut)
        assert end.play_complete and (end.checkers[end.turn], end.checkers[end.turn.other]) in keys
    # With one die left the single steps are the complete plays: nothing more to offer.
    stepped = state.step(state.legal_steps()[0])
    assert shortcuts.complete_plays(stepped) == []


@pytest.mark.parametrize("variant", list(Variant))
def test_every_shortcut_is_legal_in_random_games(variant: Variant) -> None:
    rng = random.Random(7)
    checked = 0
    for _ in range(6):
        state = GameState.new_match(MatchConfig(variant, 1))
        for _turn in range(60):
            if state.is_over:
                break
            if state.phase is Phase.OPENING:
                state = state.roll_opening(rng.randint(1, 6), rng.randint(1, 6))
                continue
            if state.phase is Phase.ROLL:
                state = state.roll(rng.randint(1, 6), rng.randint(1, 6))
                continue
            plays = state.legal_plays()
            keys = {(p.mine, p.theirs) for p in plays}
            whole = shortcuts.whole_checker(state) + shortcuts.complete_plays(state)
            for cut in whole:
                assert len(cut.steps) >= 2, cut  # one step is a single-step button
                end = finishes(state, cut)
                assert end.play_complete, cut
                assert (end.checkers[end.turn], end.checkers[end.turn.other]) in keys, cut
                checked += 1
            for cut in shortcuts.pairs(state):
                finishes(state, cut)  # raises if a step is illegal
                checked += 1
            state = state.play(rng.choice(plays)) if plays else state.confirm()
    assert checked > 50
