"""The bear-off database: indexing, known values, agreement with a brute force over the
engine's own legal plays, determinism, the cache file and the two-sided race odds."""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from pathlib import Path

import numpy as np
import pytest

from engine import Variant
from engine.ai import bearoff
from engine.ai.arrays import sides_of
from engine.ai.outcomes import equity, flip
from engine.ai.search import ROLLS, ReplyRules
from engine.board import OFF

Home = tuple[int, int, int, int, int, int]


def _index(home: Home) -> int:
    return int(bearoff.rank(np.array([home]))[0])


def _expect(dist: np.ndarray) -> float:
    return float(dist @ np.arange(len(dist)))


def _checkers(home: Home, total: int = 15) -> tuple[int, ...]:
    """A 26-count array: ``home`` on points 1..6, the rest of ``total`` borne off."""
    return (total - sum(home), *home, *([0] * 19))


#: The opponent, out of the way: all home in their own numbering.
_THEIRS = _checkers((0, 0, 0, 0, 0, 15))


def test_ranks_are_a_bijection_onto_the_table() -> None:
    table = bearoff.positions(15)
    assert len(table) == bearoff.size() == 54_264
    assert np.array_equal(bearoff.rank(table), np.arange(len(table)))
    assert table[0].sum() == 0  # index 0: everything off
    # positions of at most t checkers come first
    counts = table.sum(axis=1)
    for t in range(15):
        assert counts[: bearoff.size(t)].max() == t
        assert counts[bearoff.size(t)] == t + 1


def test_known_values() -> None:
    db = bearoff.tables()
    ace = db.off[_index((1, 0, 0, 0, 0, 0))]
    assert ace[1] == pytest.approx(1.0)
    two_on_six = db.off[_index((0, 0, 0, 0, 0, 2))]
    assert two_on_six[1] == pytest.approx(4 / 36)  # 3-3, 4-4, 5-5, 6-6
    # exact value, checked against GNU Backgammon's one-sided database
    assert _expect(two_on_six) == pytest.approx(2.10961, abs=1e-5)
    assert db.first[_index((0, 0, 0, 0, 0, 15))][0] == 0.0
    assert db.first[_index((0, 0, 0, 0, 0, 14))][0] == 1.0  # one already off
    assert np.allclose(db.off.sum(axis=1), 1.0)
    assert np.allclose(db.first.sum(axis=1), 1.0)


def test_more_checkers_never_bear_off_faster() -> None:
    e = bearoff.expected_rolls(bearoff.positions(15))
    table = bearoff.positions(15)
    for p in range(6):
        has = table[:, p] > 0
        fewer = table[has].copy()
        fewer[:, p] -= 1
        assert np.all(bearoff.expected_rolls(fewer) <= e[has] + 1e-12)


def _home(counts: Iterable[int]) -> Home:
    """Points 1..6 of a 26-count array, or a 6-count row, as a tuple of ints."""
    c = [int(x) for x in counts]
    a, b, c_, d, e, f = c[1:7] if len(c) == 26 else c
    return (a, b, c_, d, e, f)


def _brute(variant: Variant, checkers: int, first: bool) -> dict[Home, float]:
    """Expected rolls by plain recursion over the engine's legal plays."""
    rules = ReplyRules(variant)

    @cache
    def value(home: Home) -> float:
        n = sum(home)
        if n == 0 or (first and n < checkers):
            return 0.0
        total = 1.0
        for d1, d2, w in ROLLS:
            results = rules.replies(d1, d2, _checkers(home, checkers), _THEIRS)
            best = min(value(_home(sides_of(row)[0])) for row in results)
            total += w / 36.0 * best
        return total

    return {_home(row): value(_home(row)) for row in bearoff.positions(checkers)}


@pytest.mark.parametrize("first", [False, True], ids=["all off", "first off"])
def test_matches_a_brute_force_over_the_engine_plays(variant: Variant, first: bool) -> None:
    checkers = 4
    small = bearoff.build(checkers)
    dist = small.first if first else small.off
    for home, expected in _brute(variant, checkers, first).items():
        assert _expect(dist[_index(home)]) == pytest.approx(expected, abs=1e-12), home


def test_the_small_build_is_a_prefix_of_the_full_one() -> None:
    small = bearoff.build(5).off
    full = bearoff.tables().off
    width = small.shape[1]
    assert np.allclose(full[: len(small), :width], small)
    assert not full[: len(small), width:].any()


def test_build_is_deterministic_and_survives_the_cache_file(tmp_path: Path) -> None:
    a, b = bearoff.build(6), bearoff.build(6)
    assert np.array_equal(a.off, b.off) and np.array_equal(a.first, b.first)
    path = tmp_path / "sub" / "db.npz"
    bearoff._save(path, a)
    with np.load(path) as data:
        assert np.array_equal(data["off"], a.off)
        assert np.array_equal(data["first"], a.first)
    assert not list(path.parent.glob("*.tmp"))


def test_race_odds_from_the_distributions(variant: Variant) -> None:
    def probs(mine: Home, theirs: Home) -> np.ndarray:
        p: np.ndarray = bearoff.race_probs(
            variant, np.array([_checkers(mine)]), np.array([_checkers(theirs)])
        )[0]
        return p

    k = len(variant.rules.big_results)
    # one checker on the ace against anything: a sure win, a gammon if they have all 15
    p = probs((1, 0, 0, 0, 0, 0), (0, 0, 0, 0, 0, 15))
    assert p[0] == pytest.approx(1.0) and p[1] == pytest.approx(1.0)
    # the same position for both: the side on roll is the favourite
    same = probs((2, 2, 2, 2, 2, 2), (2, 2, 2, 2, 2, 2))
    assert 0.5 < same[0] < 1.0
    # seen from the other side (after a pass of the roll) the odds mirror
    a, b = (3, 0, 2, 0, 1, 4), (0, 5, 0, 0, 0, 1)
    ab, ba = probs(a, b), probs(b, a)
    assert ab[0] + ba[0] >= 1.0  # being on roll never hurts
    # nobody wins a gammon against a side that has already borne a checker off
    assert probs((0, 0, 0, 0, 0, 2), (0, 0, 0, 0, 0, 13))[1] == 0.0
    assert -1.0 - k <= float(equity(variant, flip(variant, ab[None, :]))[0]) <= 1.0 + k


def test_matches_gnu_backgammon_one_sided_database() -> None:
    gnubg = pytest.importorskip("gnubg_nn", reason="GNU Backgammon's net (bench extra) absent")
    db = bearoff.tables()
    table = bearoff.positions(15)
    rng = np.random.default_rng(7)
    for i in rng.choice(len(table), 400, replace=False):
        theirs = np.array(gnubg.bearoff_probabilities(tuple(int(x) for x in table[i])))
        ours = db.off[i][1:]
        n = max(len(theirs), len(ours))
        a, b = np.zeros(n), np.zeros(n)
        a[: len(theirs)], b[: len(ours)] = theirs, ours
        # GNU Backgammon stores 16-bit probabilities
        assert np.abs(a - b).max() < 1e-3
        assert _expect(np.r_[0.0, a]) == pytest.approx(_expect(np.r_[0.0, b]), abs=5e-4)


def test_all_home() -> None:
    assert bearoff.all_home(np.array([_checkers((1, 2, 3, 0, 0, 4))]))[0]
    outside = list(_checkers((1, 2, 3, 0, 0, 4)))
    outside[OFF] -= 1
    outside[7] += 1
    assert not bearoff.all_home(np.array([outside]))[0]


def test_race_odds_symmetries() -> None:
    """Against itself, the side on roll wins when the other needs as many rolls or more:
    1/2 + 1/2 * sum P(n)^2. Both variants read the same one-sided tables."""
    homes = [(2, 2, 2, 2, 2, 2), (0, 0, 3, 0, 1, 4), (1, 0, 0, 0, 0, 0), (0, 0, 0, 0, 0, 15)]
    on = np.array([_checkers(h) for h in homes])
    classic = bearoff.race_probs(Variant.CLASSIC, on, on)
    long = bearoff.race_probs(Variant.LONG, on, on)
    dist = bearoff.tables().off[bearoff.rank(on[:, 1:7])]
    assert np.allclose(classic[:, 0], 0.5 + 0.5 * (dist**2).sum(axis=1))
    assert np.array_equal(classic[:, [0, 1, 3]], long)
    assert not classic[:, [2, 4]].any()  # no backgammons once both are home
