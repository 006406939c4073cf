"""The version-2 inputs: exact hit chances, the race test, and version 1 as their prefix."""

from __future__ import annotations

import numpy as np

from engine import Variant
from engine.ai.arrays import Counts
from engine.ai.features import encode, input_size
from engine.ai.race import no_contact as is_race
from engine.board import classic_start, long_start

from .helpers import checkers

# Column of the first side's hit chance in a classic version-2 row (after version 1).
HIT = input_size(Variant.CLASSIC, 1)


def counts(spec: dict[int, int]) -> Counts:
    return np.array([checkers(spec)])


def hit_chance_of_on(on: Counts, off: Counts) -> float:
    """The chance that ``off`` hits a blot of ``on``, in 36ths."""
    return float(encode(Variant.CLASSIC, on, off)[0, HIT]) * 36


def test_a_blot_four_away_is_hit_by_fifteen_rolls() -> None:
    # My blot on my 10 point, an opposing checker on my 6 point (their 19): any 4, 3-1,
    # 2-2 and 1-1 hit it.
    me = counts({10: 1, 6: 14})
    them = counts({19: 1, 1: 14})
    assert round(hit_chance_of_on(me, them)) == 15


def test_blocked_landings_stop_combined_shots() -> None:
    # Eight away (my 14 point, the opposing checker on my 6): 6-2, 5-3, 4-4 and 2-2 hit.
    me = counts({14: 1, 1: 14})
    them = counts({19: 1, 1: 14})
    assert round(hit_chance_of_on(me, them)) == 6
    # Holding my 10 point stops 4-4 and 2-2 (both must land there); 6-2 still hits by
    # playing the 2 first, whatever my 12 point does.
    me_blocking = counts({14: 1, 12: 2, 10: 2, 1: 10})
    assert round(hit_chance_of_on(me_blocking, them)) == 4


def test_no_blot_no_shot() -> None:
    start = np.array([classic_start()])
    assert hit_chance_of_on(start, start) == 0


def test_version_one_is_the_prefix_of_version_two() -> None:
    on, off = counts({10: 1, 6: 14}), counts({19: 1, 1: 14})
    v1 = encode(Variant.CLASSIC, on, off, 1)
    v2 = encode(Variant.CLASSIC, on, off)
    assert v2.shape[1] == v1.shape[1] + 8
    np.testing.assert_array_equal(v2[:, : v1.shape[1]], v1)


def test_race_means_no_contact() -> None:
    start = np.array([classic_start()])
    assert not is_race(Variant.CLASSIC, start, start)[0]
    home = counts({1: 5, 2: 5, 3: 5})
    assert is_race(Variant.CLASSIC, home, counts({12: 15}))[0]
    assert not is_race(Variant.CLASSIC, counts({13: 15}), counts({13: 15}))[0]
    head = np.array([long_start()])
    assert not is_race(Variant.LONG, head, head)[0]
    assert is_race(Variant.LONG, counts({12: 15}), counts({1: 15}))[0]
    assert not is_race(Variant.LONG, counts({13: 1, 1: 14}), counts({1: 15}))[0]


def brute_hit_chance(me: list[int], them: list[int]) -> int:
    """Rolls out of 36 with which ``them`` hits a blot of ``me``, one roll at a time.

    The definition the encoding follows: an opposing checker (on the bar or a point)
    reaches my point ``t`` with one die, with both dice through an open intermediate
    point, or with a double through open points at every step; my point ``p`` is the
    opponent's point 25 - p, open when I hold fewer than two checkers there.
    """
    starts = [0] * (them[25] > 0) + [25 - q for q in range(1, 25) if them[q] > 0]
    blots = {p for p in range(1, 25) if me[p] == 1}

    def is_open(r: int) -> bool:
        return r == 0 or (1 <= r <= 24 and me[r] < 2)

    hits = 0
    for d1 in range(1, 7):
        for d2 in range(1, 7):
            targets: set[int] = set()
            for s in starts:
                if d1 == d2:
                    for k in range(1, 5):
                        if all(is_open(s + j * d1) for j in range(1, k)):
                            targets.add(s + k * d1)
                else:
                    targets |= {s + d1, s + d2}
                    if is_open(s + d1) or is_open(s + d2):
                        targets.add(s + d1 + d2)
            hits += bool(targets & blots)
    return hits


def test_hit_chances_match_a_roll_by_roll_count() -> None:
    rng = np.random.default_rng(11)
    rows_on, rows_off = [], []
    for _ in range(400):
        sides = []
        for _ in range(2):
            c = [0] * 26
            for p in rng.choice(26, size=15, p=[0.1] + [0.035] * 24 + [0.06]):
                c[int(p)] += 1
            sides.append(c)
        rows_on.append(sides[0])
        rows_off.append(sides[1])
    on, off = np.array(rows_on), np.array(rows_off)
    got = np.rint(encode(Variant.CLASSIC, on, off)[:, HIT] * 36).astype(int)
    expected = [brute_hit_chance(a, b) for a, b in zip(rows_on, rows_off, strict=True)]
    assert (got > 0).sum() > 100  # the sample has many shots to count
    assert got.tolist() == expected
