"""Shots at blots and escapes past held points, checked against counts one roll at a time."""

from __future__ import annotations

import numpy as np
import pytest

from engine import Variant
from engine.ai.escapes import back_escapes, containment, escape_table, held_ahead
from engine.ai.features import encode
from engine.ai.shots import shots
from engine.board import classic_start

from .helpers import HIT, checkers, scattered_sides


def brute_shots(me: list[int], them: list[int]) -> tuple[int, int, int]:
    """Rolls (out of 36) hitting a blot, rolls hitting two, pips lost summed over the 36.

    The definitions the encoding follows: an opposing checker (on the bar or a point)
    reaches my point ``t`` with one die, with both dice through an open intermediate
    point, or with a double through open points at every step; my point ``p`` is the
    opponent's point 25 - p, open when I hold fewer than two checkers there. Two blots
    are hit when one is reached with each die (from anywhere), when one checker hits with
    one die and moves on to hit with the other, or, with a double, when two are in reach.
    The most advanced blot hit is the one lost: 25 - p pips.
    """
    starts = [0] * (them[25] > 0) + [25 - q for q in range(1, 25) if them[q] > 0]
    blots = {p for p in range(1, 25) if me[p] == 1}

    def is_open(r: int) -> bool:
        return r == 0 or (1 <= r <= 24 and me[r] < 2)

    hits = doubles = pips = 0
    for d1 in range(1, 7):
        for d2 in range(1, 7):
            targets: set[int] = set()
            two = False
            for s in starts:
                if d1 == d2:
                    for k in range(1, 5):
                        if all(is_open(s + j * d1) for j in range(1, k)):
                            targets.add(s + k * d1)
                else:
                    targets |= {s + d1, s + d2}
                    if is_open(s + d1) or is_open(s + d2):
                        targets.add(s + d1 + d2)
                    two |= any(s + d in blots and s + d1 + d2 in blots for d in (d1, d2))
            hit = targets & blots
            if d1 == d2:
                two = len(hit) >= 2
            else:
                with_1 = {s + d1 for s in starts} & blots
                with_2 = {s + d2 for s in starts} & blots
                two |= bool(with_1) and bool(with_2) and len(with_1 | with_2) >= 2
            hits += bool(hit)
            doubles += two
            pips += 25 - min(hit) if hit else 0
    return hits, doubles, pips


def test_shots_match_a_roll_by_roll_count() -> None:
    rows_on, rows_off = scattered_sides(11, 400)
    on, off = np.array(rows_on), np.array(rows_off)
    got = shots(on, off)
    expected = np.array([brute_shots(a, b) for a, b in zip(rows_on, rows_off, strict=True)])
    assert (expected[:, 0] > 0).sum() > 100  # the sample has many shots to count
    assert (expected[:, 1] > 0).sum() > 50  # and many double shots
    assert np.rint(got.hit * 36).astype(int).tolist() == expected[:, 0].tolist()
    assert np.rint(got.double_hit * 36).astype(int).tolist() == expected[:, 1].tolist()
    np.testing.assert_allclose(got.pip_loss * 36, expected[:, 2], atol=1e-3)
    # The encoding's hit column is the same count.
    column = encode(Variant.CLASSIC, on, off)[:, HIT]
    assert np.rint(column * 36).astype(int).tolist() == expected[:, 0].tolist()


def test_two_blots_in_direct_range() -> None:
    # Blots on my 9 and 10 points, 3 and 4 away from an opposing checker on my 6: 4-3 hits
    # one with each die, 3-1 hits the 9 and goes on to the 10, 1-1 walks over both.
    me = np.array([checkers({10: 1, 9: 1, 1: 13})])
    them = np.array([checkers({19: 1, 1: 14})])
    got = shots(me, them)
    assert round(float(got.double_hit[0]) * 36) == 5  # 4-3 and 3-1 two ways each, 1-1
    assert got.pip_loss[0] > 0
    none = shots(np.array([classic_start()]), np.array([classic_start()]))
    assert float(none.hit[0]) == float(none.double_hit[0]) == float(none.pip_loss[0]) == 0


def escapes_of(held_ahead: list[int]) -> int:
    """The table's count for points held at these distances (1 = the next point)."""
    return int(escape_table()[sum(1 << (d - 1) for d in held_ahead)])


def test_escape_table() -> None:
    assert escapes_of([]) == 36
    assert escapes_of([1, 2, 3, 4, 5, 6]) == 0  # a full prime in front
    assert escapes_of([1]) == 35  # only 1-1 is stuck
    # Holding the point 6 away: 6-x can still play the x first unless x + 6 is held...
    # the rolls stuck are 6-6 (the 6 is held) and every roll summing to 6 (5-1, 4-2, 3-3).
    assert escapes_of([6]) == 36 - 1 - 2 - 2 - 1


def brute_escapes(held: set[int], start: int, step: int) -> int:
    """Rolls letting a checker on ``start`` move its whole roll (direction ``step``)."""
    count = 0
    for d1 in range(1, 7):
        for d2 in range(1, 7):
            land = start + step * (d1 + d2)
            via = [start + step * d1, start + step * d2]
            count += land not in held and any(v not in held for v in via)
    return count


def test_back_escapes_and_containment_match_direct_counts() -> None:
    rows_on, rows_off = scattered_sides(5, 200)
    on, off = np.array(rows_on), np.array(rows_off)
    back = back_escapes(held_ahead(on, off))
    contain, actual = containment(on, off)
    for i, (me, them) in enumerate(zip(rows_on, rows_off, strict=True)):
        theirs = {25 - q for q in range(1, 25) if them[q] >= 2}  # in my numbering
        rear = max([p for p in range(1, 26) if me[p] > 0], default=0)
        assert round(float(back[i]) * 36) == brute_escapes(theirs, rear, -1)
        mine = {p for p in range(1, 25) if me[p] >= 2}
        counts = {r: brute_escapes(mine, r, +1) for r in range(10)}
        assert round((1 - float(contain[i])) * 36) == min(counts.values())
        there = [counts[r] for r in range(10) if them[25 - r] > 0]
        expected = 1 - min(there) / 36 if there else 0.0
        assert float(actual[i]) == pytest.approx(expected, abs=1e-6)


def test_contact_inputs_at_the_start() -> None:
    start = np.array([classic_start()])
    row = encode(Variant.CLASSIC, start, start, 3)[0, -16:]
    mine = row[:8]
    np.testing.assert_array_equal(mine, row[8:])  # the start is symmetric
    # To break contact each side moves its checkers past the other's back checkers on
    # its 1 point: 2 x 23 + 5 x 12 + 3 x 7 + 5 x 5 = 152 pips.
    assert round(float(mine[5]) * 100) == 152
    assert round(float(mine[6]) * 3) == 1  # one anchor in the opponent's home
    assert round(float(mine[7]) * 36) == 1  # the opponent holds one home point
