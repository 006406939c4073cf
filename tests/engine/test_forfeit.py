"""Leaving a whole match or series: the opponent wins it, whatever the score."""

from __future__ import annotations

import pytest

from engine import (
    EndReason,
    GameState,
    IllegalActionError,
    MatchConfig,
    Phase,
    Variant,
    from_dict,
    to_dict,
)


def _opened(length: int, variant: Variant = Variant.CLASSIC) -> GameState:
    return GameState.new_match(MatchConfig(variant, length)).roll_opening(3, 1)


@pytest.mark.parametrize("variant", list(Variant))
def test_forfeit_during_a_game_ends_the_match_for_the_opponent(variant: Variant) -> None:
    state = _opened(5, variant)
    leaver = state.turn
    left = state.forfeit(leaver)
    assert left.phase is Phase.MATCH_OVER
    assert left.match_winner == state.player_of(leaver.other)
    assert left.score[state.player_of(leaver.other)] >= 5
    assert left.result is not None and left.result.reason is EndReason.RESIGNED
    assert from_dict(to_dict(left)) == left


def test_forfeit_on_time_is_a_timeout_and_between_games_ends_only_the_match() -> None:
    state = _opened(5)
    timed = state.forfeit(state.turn, on_time=True)
    assert timed.result is not None and timed.result.reason is EndReason.TIMEOUT
    over = state.drop() if state.phase is Phase.DOUBLED else state.resign(state.turn)
    assert over.phase is Phase.GAME_OVER
    left = over.forfeit(state.turn.other)
    assert left.phase is Phase.MATCH_OVER and left.result == over.result
    assert left.match_winner == state.player_of(state.turn)
    with pytest.raises(IllegalActionError):
        left.forfeit(state.turn)
