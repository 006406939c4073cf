"""The version-2 inputs: exact hit chances, the race test, each version the next one's prefix."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from engine import Variant
from engine.ai.arrays import Counts
from engine.ai.features import encode
from engine.ai.race import no_contact as is_race
from engine.board import classic_start, long_start

from .helpers import HIT, checkers

STORED = Path(__file__).resolve().parents[1] / "data" / "stored"


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


def test_each_version_is_the_prefix_of_the_next() -> None:
    on, off = counts({10: 1, 6: 14}), counts({19: 1, 1: 14})
    v1 = encode(Variant.CLASSIC, on, off, 1)
    v2 = encode(Variant.CLASSIC, on, off, 2)
    v3 = encode(Variant.CLASSIC, on, off, 3)
    assert v2.shape[1] == v1.shape[1] + 8
    assert v3.shape[1] == v2.shape[1] + 16
    np.testing.assert_array_equal(v2[:, : v1.shape[1]], v1)
    np.testing.assert_array_equal(v3[:, : v2.shape[1]], v2)
    # Long has no hitting: every version is the same encoding.
    start = np.array([long_start()])
    np.testing.assert_array_equal(
        encode(Variant.LONG, start, start, 1), encode(Variant.LONG, start, start, 3)
    )


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


def test_classic_inputs_are_those_the_networks_were_trained_on() -> None:
    """The shipped networks read exactly these inputs: a stored set of 500 positions met by
    the search (half of them with the sides swapped: checkers on the bar, borne off,
    blots, races), encoded by the first version-3 encoder. A faster encoder must give
    the same floats, bit for bit."""
    stored = np.load(STORED / "classic_inputs_v3.npz")
    got = encode(Variant.CLASSIC, stored["on"], stored["off"], 3)
    np.testing.assert_array_equal(got, stored["inputs"])
    for version in (1, 2):
        width = encode(Variant.CLASSIC, stored["on"][:1], stored["off"][:1], version).shape[1]
        np.testing.assert_array_equal(
            encode(Variant.CLASSIC, stored["on"], stored["off"], version),
            stored["inputs"][:, :width],
        )
