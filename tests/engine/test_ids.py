"""GNU Backgammon Position ID / Match ID (classic) and the compact long id: fixed vectors
from RULES.md and gnubg 1.07, round trips, and bad ids refused with a reason."""

from __future__ import annotations

import random

import pytest
from engine_support import move_state

from engine import InvalidInputError, Variant, longid
from engine.board import BAR, start
from engine.gnubg import MatchInfo, decode_match, decode_position, encode_match, encode_position

CLASSIC = start(Variant.CLASSIC)


def test_position_id_of_the_start_is_gnubgs():
    assert encode_position(CLASSIC, CLASSIC) == "4HPwATDgc/ABMA"
    assert decode_position("4HPwATDgc/ABMA") == (CLASSIC, CLASSIC)


def test_position_id_after_the_opening_3_1_in_both_orientations():
    state = move_state(Variant.CLASSIC, CLASSIC, CLASSIC, (3, 1))
    play = next(
        p
        for p in state.legal_plays()
        if str(p.steps[0]) in ("8/5", "6/5")
        and {(s.src, s.dst) for s in p.steps} == {(8, 5), (6, 5)}
    )
    assert encode_position(play.mine, play.theirs) == "sGfwATDgc/ABMA"  # opponent on roll
    assert encode_position(play.theirs, play.mine) == "4HPwATCwZ/ABMA"  # mover kept on roll


def random_classic_position(rng: random.Random) -> tuple[tuple[int, ...], tuple[int, ...]]:
    mine, theirs = [0] * 26, [0] * 26
    for side, other, flip in ((mine, theirs, True), (theirs, mine, True)):
        for _ in range(15):
            p = rng.choice([0, BAR, *range(1, 25)])
            if 1 <= p <= 24 and other[25 - p] and flip:
                p = 0
            side[p] += 1
    return tuple(mine), tuple(theirs)


def test_position_id_round_trips_on_random_positions():
    rng = random.Random(3)
    for _ in range(500):
        mine, theirs = random_classic_position(rng)
        assert decode_position(encode_position(theirs, mine)) == (theirs, mine)


def test_match_id_from_gnubg_decodes_and_round_trips():
    # gnubg 1.07: "new match 7", "set score 2 4", "set dice 5 2".
    info = decode_match("cInqACAAIAAE")
    assert info.match_length == 7 and info.score == (2, 4) and info.dice == (5, 2)
    assert info.cube_value == 1 and info.cube_owner is None and info.game_state == 1
    assert encode_match(info) == "cInqACAAIAAE"


def test_match_id_round_trips_every_field():
    rng = random.Random(4)
    for _ in range(300):
        info = MatchInfo(
            cube_value=1 << rng.randint(0, 6),
            cube_owner=rng.choice([None, 0, 1]),
            on_roll=rng.randint(0, 1),
            crawford=rng.random() < 0.5,
            game_state=rng.randint(0, 4),
            turn=rng.randint(0, 1),
            double_offered=rng.random() < 0.5,
            resignation=rng.randint(0, 3),
            dice=rng.choice([(0, 0), (rng.randint(1, 6), rng.randint(1, 6))]),
            match_length=rng.randint(0, 64),
            score=(rng.randint(0, 70), rng.randint(0, 70)),
            jacoby=rng.random() < 0.5,
        )
        assert decode_match(encode_match(info)) == info


def test_long_id_round_trips_and_has_its_own_prefix():
    long_start = start(Variant.LONG)
    text = longid.encode(long_start, long_start)
    assert text.startswith("L-") and len(text) == 16
    assert longid.decode(text) == (long_start, long_start)
    rng = random.Random(5)
    for _ in range(300):
        mine, theirs = [0] * 26, [0] * 26
        points = rng.sample(range(1, 25), 12)
        for _ in range(15):
            mine[rng.choice([0, *points[:6]])] += 1
        from engine.board import LONG_OPPOSITE

        free = [
            q
            for q in range(1, 25)
            if not any(mine[p] for p in range(1, 25) if LONG_OPPOSITE[p] == q)
        ]
        for _ in range(15):
            theirs[rng.choice([0, *free[:6]])] += 1
        pair = (tuple(theirs), tuple(mine))
        assert longid.decode(longid.encode(*pair)) == pair


@pytest.mark.parametrize(
    ("bad", "words"),
    [
        ("4HPwATDgc/ABM", "14 base64"),
        ("4HPwATDgc/AB!A", "base64"),
        ("//////////////", "middle of a point"),
        (None, "base64"),
        ("4HPwATDgc/ABMAA", "14 base64"),
    ],
)
def test_bad_position_ids_are_refused_with_a_reason(bad, words):
    with pytest.raises(InvalidInputError, match=words):
        decode_position(bad)


def test_position_id_with_both_sides_on_one_point_is_refused():
    mine = [0] * 26
    mine[6], mine[0] = 5, 10
    theirs = [0] * 26
    theirs[19], theirs[0] = 2, 13  # their 19 is my 6
    with pytest.raises(InvalidInputError, match="both sides"):
        decode_position(encode_position(tuple(theirs), tuple(mine)))


@pytest.mark.parametrize(
    ("bad", "words"),
    [
        ("cInqACAAIAA", "12 base64"),
        ("cInqACAAIA/E", "stray bits"),
        (encode_match(MatchInfo(dice=(7, 1))), "invalid dice"),
        (encode_match(MatchInfo(dice=(3, 0))), "invalid dice"),
        (encode_match(MatchInfo(game_state=5)), "invalid game state"),
        (encode_match(MatchInfo(cube_owner=2)), "cube owner"),
    ],
)
def test_bad_match_ids_are_refused_with_a_reason(bad, words):
    with pytest.raises(InvalidInputError, match=words):
        decode_match(bad)


def test_bad_long_ids_are_refused_with_a_reason():
    with pytest.raises(InvalidInputError, match="L-"):
        longid.decode("4HPwATDgc/ABMA")
    with pytest.raises(InvalidInputError):
        longid.decode("L-//////////////")
