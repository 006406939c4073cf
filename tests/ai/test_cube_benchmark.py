"""The cube benchmark's plumbing: GNU Backgammon's answers read back with their ids, and
positions handed to it the right way round (the same clear decisions on both sides)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from benchmarks.cube import SCORES, Reference, Score, ask_gnubg, at_score, key_of, parse_analyses
from engine import Variant
from engine.ai import Level, accept_double, cube_decision

from .helpers import position

C = Variant.CLASSIC
GNUBG = shutil.which("gnubg") or next((p for p in ("/usr/games/gnubg",) if Path(p).exists()), None)
#: White bears off its last two checkers next roll; Black has none off: a sure single win.
HOPELESS = ({1: 2}, {6: 5, 5: 5})
START = {24: 2, 13: 5, 8: 3, 6: 5}

ANALYSIS = """\
 GNU Backgammon  Position ID: 4HPwATDgc/ABMA
                 Match ID   : MAHgACAAIAAE
Cube analysis
2-ply cubeless MWC  39.42% (Money: +0.601)
  0.801 0.010 0.000 - 0.199 0.020 0.000
Cubeful equities:
1. Redouble, take         42.37%
2. Redouble, pass         42.85%  ( +0.48%)
3. No redouble            41.60%  ( -0.77%)
Proper cube action: Redouble, take
"""


def test_an_analysis_is_read_with_the_ids_shown_before_it() -> None:
    ref = parse_analyses(ANALYSIS)["4HPwATDgc/ABMA:MAHgACAAIAAE"]
    assert ref.no_double == pytest.approx(0.4160)
    assert ref.double_take == pytest.approx(0.4237)
    assert ref.double_pass == pytest.approx(0.4285)
    assert ref.probs == pytest.approx((0.801, 0.010, 0.0, 0.020, 0.0))
    assert ref.double and ref.take


def test_an_analysis_without_its_three_values_is_left_out() -> None:
    cut = ANALYSIS.replace("3. No redouble            41.60%  ( -0.77%)\n", "")
    assert parse_analyses(cut) == {}


@pytest.mark.skipif(GNUBG is None, reason="GNU Backgammon (gnubg) is not installed")
@pytest.mark.parametrize(
    ("score", "at_start"),
    [
        (SCORES[0], (False, True)),  # money-like: no double, take
        (SCORES[2], (False, True)),  # 3-away/3-away
        (SCORES[7], (True, True)),  # post-Crawford: the trailer doubles at once
    ],
    ids=lambda v: v.name if isinstance(v, Score) else "",
)
def test_gnubg_and_the_computer_agree_on_clear_decisions(
    score: Score, at_start: tuple[bool, bool]
) -> None:
    hopeless = at_score(position(C, *HOPELESS), score)
    start = at_score(position(C, START, START), score)
    refs: dict[str, Reference] = ask_gnubg([hopeless, start], plies=0)
    cash, even = refs[key_of(hopeless)], refs[key_of(start)]
    assert (cash.double, cash.take) == (True, False)
    assert (even.double, even.take) == at_start
    for state, (double, take) in ((hopeless, (True, False)), (start, at_start)):
        assert cube_decision(state, Level.MEDIO) is double
        assert accept_double(state.double(), Level.MEDIO) is take
