"""The full-rollout study: positions read as GNU Backgammon shows them, every game played
to its end, and the same dice for every candidate (common random numbers)."""

from __future__ import annotations

import numpy as np
import pytest

from benchmarks.rollout import POSITIONS, VARIANT, cube_at_the_leaves, roll_out, state_of
from engine import format_play, match_id_for, position_id_for
from engine.ai.outcomes import flip


@pytest.mark.parametrize(("position_id", "match_id", "dice"), POSITIONS)
def test_the_positions_are_read_as_gnubg_shows_them(
    position_id: str, match_id: str, dice: tuple[int, int] | None
) -> None:
    state = state_of(position_id, match_id, dice)
    assert (position_id_for(state), match_id_for(state)) == (position_id, match_id)


def test_every_game_ends_and_the_same_play_rolls_the_same_games() -> None:
    state = state_of(*POSITIONS[0])
    by_name = {format_play(p): p for p in state.legal_plays()}
    same = by_name["13/2"]
    outcomes = roll_out([same, same, by_name["23/17 13/8"]], games=4, seed=3)
    assert outcomes.shape == (3, 4, VARIANT.rules.n_outcomes)
    np.testing.assert_array_equal(outcomes[0], outcomes[1])
    for row in outcomes.reshape(-1, outcomes.shape[-1]):
        winner = row if row[0] == 1.0 else flip(VARIANT, row)
        assert winner[0] == 1.0 and not winner[3:].any()  # a finished game, won by one side
        assert winner[1] >= winner[2]  # a backgammon is a gammon too


def test_valuing_the_cube_after_the_reply_sees_the_loose_hits_cost() -> None:
    """GNU Backgammon 2-ply: 8/5 8/4 1.002, 8/4 5/2* 0.819. Valued once from the average
    chances, the loose hit keeps the cube leverage of a near-cash; valued after each reply
    it loses it when the hit is returned."""
    state = state_of(*POSITIONS[1])
    by_name = {format_play(p): p for p in state.legal_plays()}
    plays = [by_name["8/5 8/4"], by_name["8/4 5/2*"]]
    quiet, loose = cube_at_the_leaves(state, plays)
    assert quiet - loose > 0.1
