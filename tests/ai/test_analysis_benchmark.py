"""The analysis benchmark's plumbing: GNU Backgammon's text export read back decision by
decision (plays, cube turns, doubles, takes) with its statistics, and a self-play match
analysed by GNU Backgammon itself matched with the engine's decisions."""

from __future__ import annotations

import pytest

from benchmarks.analysis_gnubg import (
    NAMES,
    GnuDecision,
    GnuGame,
    Totals,
    _collect_gaps,
    ask_gnubg,
    decision_key,
    gnubg_path,
    parse_game,
    played,
)
from engine.ai import Analysis, PlayerReport
from engine.ai.analysis import review_decision
from engine.types import Side

EXPORT = """\
Move number 8:  Primo to play 31

 GNU Backgammon  Position ID: tjOGQSBwz+ABMA
                 Match ID   : MIGlAAAAAAAE

* Primo moves 13/10 8/7*

Cube analysis
Cubeful equities:
1. No double           -0.268
2. Double, pass        +1.000  (+1.268)
3. Double, take        -0.754  (-0.486)
Proper cube action: No double, take (27.7%)
Alert: bad move ( -0.082)

Rolled 31 (-0.286):
     1. Cubeful 2-ply    8/7* 8/5                     Eq.: -0.428
*    2. Cubeful 2-ply    13/10 8/7*                   Eq.: -0.510 (-0.082)


Move number 9:  Secondo on roll, cube decision?

 GNU Backgammon  Position ID: cK/EATC2M4YBUA
                 Match ID   : cAmgAAAAAAAE

* Secondo doubles

Alert: wrong double (-0.010)!

Cube analysis
Cubeful equities:
1. No double           +0.510
2. Double, pass        +1.000  (+0.490)
3. Double, take        +0.499  (-0.010)
Proper cube action: No double, take (2.1%)
Move number 10:  Secondo doubles to 2

 GNU Backgammon  Position ID: cK/EATC2M4YBUA
                 Match ID   : cBGgAAAAAAAE

* Primo rejects


Cube analysis
Cubeful equities:
1. No double           -0.510
2. Double, pass        -1.000  (-0.490)
3. Double, take        -0.499  (+0.010)
Proper cube action: No double, take (2.1%)
Game statistics for game 1

Player                                   Primo                   Secondo

Chequerplay statistics

Unforced moves                            23                      21
Error rate mEMG (MWC)                        -62.5   ( -1.123%)      -59.8   ( -1.074%)

Cube statistics

Close or actual cube decisions             1                       3
Error rate mEMG (MWC)                         -2.0   ( -0.017%)       -0.5   ( -0.004%)

Overall statistics

Error total EMG (MWC)                         -1.646 (-23.866%)       -0.955 (-11.003%)
Error rate mEMG (MWC)                        -68.6   ( -0.994%)      -41.5   ( -0.478%)
"""


def test_a_text_export_is_read_decision_by_decision_with_its_statistics() -> None:
    game = parse_game(EXPORT, NAMES)
    kinds = [(d.kind, d.player, d.position) for d in game.decisions]
    assert kinds == [
        ("nodouble", 0, "tjOGQSBwz+ABMA"),
        ("play", 0, "tjOGQSBwz+ABMA"),
        ("double", 1, "cK/EATC2M4YBUA"),
        ("take", 0, "cK/EATC2M4YBUA"),
    ]
    nodouble, play, double, drop = game.decisions
    assert nodouble.error == 0.0 and not nodouble.close  # no double by 1.022: not close
    assert play.error == pytest.approx(0.082)
    assert double.error == pytest.approx(0.010, abs=0.002)  # three decimals shown
    assert drop.error == pytest.approx(0.501)  # the pass gives 1.000, the take 0.499
    assert game.unforced == [23, 21] and game.close_cube == [1, 3]
    assert game.counted(0) == 24
    assert game.rate == [68.6, 41.5] and game.mwc_rate == [0.994, 0.478]


@pytest.mark.skipif(gnubg_path() is None, reason="GNU Backgammon (gnubg) is not installed")
def test_gnubg_analyses_an_exported_game_whose_decisions_match_the_engines() -> None:
    """A 1-point self-play game through GNU Backgammon (0-ply: plumbing only): one game
    back, every play of the record found among its decisions, and its count of unforced
    plays equal to the engine's rolls with more than one play."""
    match = played("cubeless", 1, 3)
    (game,) = ask_gnubg([match], plies=0)[match.key]
    (record,) = match.records
    theirs = {(d.kind, d.player, d.position) for d in game.decisions}
    decisions = record.decisions()
    assert all(decision_key(d) in theirs for d in decisions)
    for player in (0, 1):
        choices = [
            d
            for d in decisions
            if d.state.player_of(d.state.turn) == player and len(d.state.legal_plays()) > 1
        ]
        assert game.unforced[player] == len(choices)


def test_the_details_list_each_decision_with_both_figures_largest_gap_first() -> None:
    """``--details``: a play both count (Tavola's loss and gnubg's error side by side,
    with the roll, the play made and Tavola's best) and a no-double turn only gnubg counts
    ("-" for Tavola), ordered by how far apart the two are."""
    (record,) = played("cubeless", 1, 1002).records
    index, decision = next(
        (i, d) for i, d in enumerate(record.decisions()) if len(d.state.legal_plays()) > 1
    )
    review = review_decision(index, decision.state, decision.chosen)
    assert review is not None
    what, player, position = decision_key(review)
    gnu = GnuGame(
        decisions=[
            GnuDecision(what, player, position, review.loss + 0.25),
            GnuDecision("nodouble", 1 - player, "cK/EATC2M4YBUA", 0.04, close=True),
        ]
    )
    mine = Analysis((PlayerReport(Side.WHITE), PlayerReport(Side.BLACK)), reviews=(review,))
    totals = Totals()
    _collect_gaps("cubeless", 1, mine, gnu, totals)
    first, second = sorted(totals.gaps, key=lambda t: -t[0])
    assert first[0] == pytest.approx(0.25, abs=1e-3)
    assert f"Tavola {review.loss:.3f}, gnubg {review.loss + 0.25:.3f}" in first[1]
    assert f"{decision.state.dice}: made " in first[1] and "Tavola's best" in first[1]
    assert second[0] == pytest.approx(0.04) and "Tavola   -  , gnubg 0.040" in second[1]
