"""The checker plays the analysis counts are GNU Backgammon 1.07's "Unforced moves": a roll
with more than one legal play, plays that reach the same position being one play (so a
6-6 whose every order ends alike is forced), a dance no decision at all."""

from __future__ import annotations

from benchmarks.analysis_gnubg import CACHE, GnuGame, references, self_play
from engine import Play
from engine.ai import DecisionKind
from engine.ai.analysis import review_decision


def test_the_plays_counted_are_gnubgs_unforced_moves_in_every_stored_game() -> None:
    """Over the 60 sides of the stored self-play games GNU Backgammon analysed (its
    statistics cached), the plays with a choice are exactly as many as its unforced
    moves, side by side."""
    assert CACHE.exists()
    matches = self_play(30, 1)
    refs = references(matches, 2)
    sides = 0
    for match in matches:
        games: list[GnuGame] = refs[match.key]
        for record, gnu in zip(match.records, games, strict=True):
            counted = [0, 0]
            for d in record.decisions():
                if d.kind is DecisionKind.PLAY and len(d.state.legal_plays()) > 1:
                    counted[d.state.player_of(d.state.turn)] += 1
            assert counted == gnu.unforced
            sides += 2
    assert sides == 60


def test_a_roll_whose_orders_all_reach_one_position_is_no_decision() -> None:
    """Doubles recorded in stored games that leave a single legal play (the engine lists
    one play per position reached, whatever the order of the steps): the analysis counts
    none of them."""
    matches = self_play(30, 1)
    forced = [
        d
        for match in matches[:3]
        for record in match.records
        for d in record.decisions()
        if d.kind is DecisionKind.PLAY and d.state.dice[0] == d.state.dice[1]
    ]
    single = [d for d in forced if len(d.state.legal_plays()) == 1]
    assert single
    for d in single:
        assert isinstance(d.chosen, Play)
        assert review_decision(0, d.state, d.chosen) is None
