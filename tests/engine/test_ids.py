"""GNU Backgammon Position ID / Match ID (classic) and the compact long id: fixed vectors
from docs/RULES.md#exchange-vectors and gnubg 1.07, round trips, and bad ids refused with a
reason."""

from __future__ import annotations

import random

import pytest
from engine_support import ck, move_state

from engine import GameState, InvalidInputError, MatchConfig, Phase, Side, Variant, gnubg, longid
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
            no_jacoby=rng.random() < 0.5,
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


# --- ids of whole game states, compared with what gnubg 1.07 shows ------------------------
# Each vector was read from gnubg 1.07 (`gnubg -t`, two human players, automatic roll and
# game off) after the commands named in the test; the bot's ids are then decoded with our
# own decoder, field by field, so a failure says which field differs.


def classic_match(length: int) -> GameState:
    return GameState.new_match(MatchConfig(Variant.CLASSIC, length))


def test_a_one_point_match_is_a_match_of_length_1_not_a_money_game():
    # gnubg: "new match 1", opening 5-3 won by player 0.
    state = classic_match(1).roll_opening(5, 3)
    assert gnubg.position_id_for(state) == "4HPwATDgc/ABMA"
    assert gnubg.match_id_for(state) == "MIEuAAAAAAAE"
    info = decode_match(gnubg.match_id_for(state))
    assert info.match_length == 1 and info.dice == (5, 3) and not info.crawford


def _after_black_opens_3_1() -> GameState:
    state = classic_match(5).roll_opening(1, 3)  # Black (gnubg's player 1) opens 3-1
    play = next(
        p for p in state.legal_plays() if {(s.src, s.dst) for s in p.steps} == {(8, 5), (6, 5)}
    )
    return state.play(play)


def test_while_a_double_waits_the_doubler_stays_on_roll():
    # gnubg: "new match 5", player 1 plays 3-1 as 8/5 6/5, player 0 doubles.
    doubled = _after_black_opens_3_1().double()
    assert doubled.phase is Phase.DOUBLED and doubled.turn is Side.BLACK  # Black must answer
    assert gnubg.position_id_for(doubled) == "sGfwATDgc/ABMA"  # seen from White, the doubler
    assert gnubg.match_id_for(doubled) == "MBmgAAAAAAAE"
    info = decode_match(gnubg.match_id_for(doubled))
    assert (info.on_roll, info.turn, info.double_offered) == (0, 1, True)
    assert decode_position(gnubg.position_id_for(doubled))[1] == doubled.checkers[Side.WHITE]


def test_after_a_take_the_taker_owns_the_cube_and_the_doubler_rolls():
    taken = _after_black_opens_3_1().double().take()
    assert gnubg.position_id_for(taken) == "sGfwATDgc/ABMA"
    assert gnubg.match_id_for(taken) == "EQGgAAAAAAAE"


def test_a_dropped_double_ends_the_game_with_the_doubler_on_roll():
    # gnubg: "new match 5", "set turn 0", "double", "pass".
    state = GameState(
        config=MatchConfig(Variant.CLASSIC, 5), checkers=(CLASSIC, CLASSIC), phase=Phase.ROLL
    )
    dropped = state.double().drop()
    assert gnubg.position_id_for(dropped) == "4HPwATDgc/ABMA"
    assert gnubg.match_id_for(dropped) == "MAygABAAAAAE"


def test_a_resignation_keeps_its_value_and_gives_the_decision_to_the_winner():
    # gnubg: "new match 5", "set turn 1", "resign 3", "accept".
    state = GameState(
        config=MatchConfig(Variant.CLASSIC, 5),
        checkers=(CLASSIC, CLASSIC),
        phase=Phase.ROLL,
        turn=Side.BLACK,
    )
    resigned = state.resign(Side.BLACK)
    assert gnubg.match_id_for(resigned) == "cGOgADAAAAAE"


def test_a_game_played_out_leaves_the_loser_on_roll():
    # gnubg: "new match 5", "set turn 1", "set board 4AMAQAAAAAAAAA", "set dice 2 1",
    # then "move 1/off" bears off player 1's last checker.
    white = ck({6: 5})
    black = ck({1: 1})
    state = GameState(
        config=MatchConfig(Variant.CLASSIC, 5),
        checkers=(white, black),
        phase=Phase.ROLL,
        turn=Side.BLACK,
    ).roll(2, 1)
    assert gnubg.position_id_for(state) == "4AMAQAAAAAAAAA"
    assert gnubg.match_id_for(state) == "cAmlAAAAAAAE"
    (play,) = state.legal_plays()
    over = state.play(play)
    assert gnubg.position_id_for(over) == "AAAAwAcAAAAAAA"
    assert gnubg.match_id_for(over) == "MAKgAAAACAAE"


def test_long_games_have_no_gnubg_ids():
    with pytest.raises(InvalidInputError, match="classic"):
        gnubg.match_id_for(GameState.new_match(MatchConfig(Variant.LONG, 3)))
