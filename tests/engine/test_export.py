"""Match files: written from a transcript, read back to the same moves, refused when wrong."""

from __future__ import annotations

import contextlib
import datetime
from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from match_support import CLASSIC_MATCH, LONG_SERIES, random_match, random_states

from engine import GameRecord, InvalidInputError, MatchConfig, Variant
from engine.export import parse, safe_name, write
from engine.transcript import (
    ActionKind,
    MatchTranscript,
    game_transcript,
    record_transcript,
    replay_match,
)


def same_moves(a: MatchTranscript, b: MatchTranscript) -> None:
    """Equal games: same players, kinds, dice, steps (points and hits), cube and results."""
    assert len(a.games) == len(b.games)
    for ga, gb in zip(a.games, b.games, strict=True):
        assert (ga.number, ga.score, ga.winner, ga.points) == (
            gb.number,
            gb.score,
            gb.winner,
            gb.points,
        )
        assert [(x.player, x.kind, sorted(x.dice or ()), x.moves, x.cube) for x in ga.actions] == [
            (y.player, y.kind, sorted(y.dice or ()), y.moves, y.cube) for y in gb.actions
        ]


@pytest.mark.parametrize("seed", range(6))
def test_classic_match_round_trip(seed: int) -> None:
    match, final = random_match(CLASSIC_MATCH, seed)
    back = parse(write(match))
    same_moves(match, back)
    assert back.config == CLASSIC_MATCH
    assert back.names == match.names
    *_, (_, last, _) = replay_match(back)
    assert last.score == final.score


@pytest.mark.parametrize("seed", range(4))
def test_long_series_round_trip(seed: int) -> None:
    match, final = random_match(LONG_SERIES, seed)
    text = write(match)
    assert text.startswith("; Long nardy (backgammon lungo)")
    back = parse(text)
    same_moves(match, back)
    assert back.config == LONG_SERIES
    *_, (_, last, _) = replay_match(back)
    assert last.score == final.score


def test_parsed_steps_carry_the_dice_that_played_them() -> None:
    match, _ = random_match(CLASSIC_MATCH, 3)
    back = parse(write(match))
    for game in back.games:
        for action in game.plays:
            assert all(1 <= step.die <= 6 for step in action.steps)


def test_the_layout_is_the_jellyfish_one() -> None:
    match, _ = random_match(CLASSIC_MATCH, 1, names=("Anna Maria", "Bruno"))
    match = MatchTranscript(match.config, match.names, match.games, datetime.date(2026, 3, 1))
    lines = write(match).splitlines()
    assert '; [Player 1 "Anna Maria"]' in lines
    assert '; [EventDate "2026.03.01"]' in lines
    assert " 5 point match" in lines
    assert lines[lines.index(" Game 1") + 1].startswith(" Anna_Maria : 0 ")
    first = next(line for line in lines if line.startswith("  1) "))
    second_half = first[5 + 28 :]
    assert second_half[:1] != " " or first[5:].strip() == second_half.strip()
    kinds = {a.kind for g in match.games for a in g.actions}
    text = "\n".join(lines)
    if ActionKind.DOUBLE in kinds:
        assert " Doubles => 2" in text
    assert "Wins " in text


def test_a_player_who_cannot_move_gets_an_empty_play() -> None:
    config = MatchConfig(Variant.CLASSIC, 3)
    for seed in range(40):
        match, _ = random_match(config, seed)
        if any(not a.steps for g in match.games for a in g.plays):
            same_moves(match, parse(write(match)))
            return
    pytest.skip("no dance in these seeds")


def test_names_become_one_word_without_colons() -> None:
    assert safe_name("Anna Maria: la terribile") == "Anna_Maria_la_terribile"
    assert safe_name("  ") == "Player"
    assert safe_name('x"y') == "xy"


def test_same_names_are_told_apart() -> None:
    match, _ = random_match(CLASSIC_MATCH, 2, names=("Tu", "Tu"))
    back = parse(write(match))
    same_moves(match, back)


def _tamper(text: str, old: str, new: str) -> str:
    assert old in text
    return text.replace(old, new, 1)


@pytest.mark.parametrize(
    "change",
    [
        lambda t: _tamper(t, " 5 point match", " five point match"),
        lambda t: t.replace(" Game 1", " Partita"),
        lambda t: _tamper(t, "Wins", "Wins 9"),
        lambda t: "",
        lambda t: t.split(" Game 1")[0],
    ],
)
def test_broken_files_are_refused(change: object) -> None:
    match, _ = random_match(CLASSIC_MATCH, 0)
    text = write(match)
    assert callable(change)
    with pytest.raises(InvalidInputError):
        parse(change(text))


def test_an_illegal_move_is_refused() -> None:
    match, _ = random_match(CLASSIC_MATCH, 0)
    text = write(match)
    line = next(line for line in text.splitlines() if line.startswith("  2) "))
    dice = line[5:7]
    broken = line.replace(f"{dice}: ", f"{dice}: 1/24 ", 1)
    with pytest.raises(InvalidInputError):
        parse(text.replace(line, broken))


def test_a_wrong_result_is_refused() -> None:
    match, _ = random_match(CLASSIC_MATCH, 0)
    game = match.games[0]
    text = write(match)
    wrong = f"Wins {game.points + 1} point"
    with pytest.raises(InvalidInputError):
        parse(text.replace(f"Wins {game.points} point", wrong, 1))


def test_not_text_is_refused() -> None:
    with pytest.raises(InvalidInputError):
        parse(b"5 point match")  # type: ignore[arg-type]


@pytest.mark.parametrize("config", [CLASSIC_MATCH, LONG_SERIES], ids=["classic", "long"])
def test_a_game_record_exports_and_reads_back_to_its_moves(config: MatchConfig) -> None:
    """A record followed along a random game gives the same transcript as the game's states,
    and its file reads back to the same moves."""
    games = random_states(config, 11)
    transcripts = []
    for states in games:
        record = GameRecord.start(states[0])
        for before, after in pairwise(states):
            record = record.follow(before, after)
        record = GameRecord.from_doc(record.to_doc())  # as stored
        start, transcript = record_transcript(record)
        first = states[0]
        assert (start.phase, start.score, start.white_player, start.checkers) == (
            first.phase,
            first.score,
            first.white_player,
            first.checkers,
        )
        assert transcript == game_transcript(states)
        transcripts.append(transcript)
    match = MatchTranscript(config, ("Anna", "Bruno"), tuple(transcripts))
    same_moves(match, parse(write(match)))


#: Characters a match file is made of, a few words, and digits int() reads differently.
_ALPHABET = ' 0123456789:/*()=>;[]"abcdefgDoublesTakesDropsWinsGamepointmatchbaroff\u00b2\u0663'
_LINES = [
    " 5 point match",
    " Game 1",
    " Anna : 0      Bruno : 0",
    "  1) 31: 8/5 6/5",
    "  2)  Doubles => 2",
    "      Wins 1 point",
    " Game 99999999999999999999",
    "  1) 31: 8/5 6/5   " + "9" * 5000 + ": 1/0",
    " Anna : " + "9" * 5000 + "    Bruno : 0",
    "      Wins \u00b2 points",
]


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.one_of(st.text(alphabet=_ALPHABET, max_size=60), st.sampled_from(_LINES)),
        max_size=12,
    )
)
def test_any_text_is_read_or_refused_with_invalid_input(lines: list[str]) -> None:
    with contextlib.suppress(InvalidInputError):  # anything else fails the test
        parse("\n".join(lines))


@pytest.mark.parametrize(
    "text",
    [
        " 5 point match\n Game 1\n Anna : " + "9" * 5000 + "    Bruno : 0\n",
        " 5 point match\n Game 1\n Anna : 0  Bruno : 0\n  1) 31: 8/5 6/5\n  Wins \u0663 points\n",
        " 5 point match\n Game 1\n Anna : 0    Bruno : 0\n  1)  Doubles => \u0663\n",
        " " + "9" * 5000 + " point match\n Game 1\n",
    ],
)
def test_numbers_int_cannot_read_are_invalid_input(text: str) -> None:
    with pytest.raises(InvalidInputError):
        parse(text)
