"""The SGF export of classic matches played without the cube, and the long record's
length line that keeps ``.mat`` readers from misreading it."""

from __future__ import annotations

import datetime

import pytest
from match_support import random_match
from test_export import same_moves

from engine import MatchConfig, Variant, parse_match, wants_sgf, write_match, write_sgf
from engine.export import LONG_SERIES_WORDS

CUBELESS = MatchConfig(Variant.CLASSIC, 3, cube=False)
NAMES = ("Anna Maria", "Bru]no")


def test_only_classic_games_with_the_cube_turned_off_go_to_sgf() -> None:
    assert wants_sgf(CUBELESS)
    assert wants_sgf(MatchConfig(Variant.CLASSIC, 0, cube=False))  # a money game
    assert not wants_sgf(MatchConfig(Variant.CLASSIC, 3))
    assert not wants_sgf(MatchConfig(Variant.CLASSIC, 1, cube=False))  # gnubg: dead cube
    assert not wants_sgf(MatchConfig(Variant.LONG, 3))


def test_the_sgf_text_says_no_cube_and_writes_each_move_in_gnubg_coordinates() -> None:
    match, _ = random_match(CUBELESS, 3, names=NAMES)
    match = type(match)(match.config, match.names, match.games, datetime.date(2026, 5, 4))
    text = write_sgf(match)
    trees = text.split("(;")[1:]
    assert len(trees) == len(match.games)
    root = trees[0].splitlines()[0]
    assert root.startswith("FF[4]GM[6]CA[UTF-8]AP[Tavola]MI[length:3][game:0][ws:0][bs:0]")
    assert "PW[Anna Maria]PB[Bru\\]no]DT[2026-05-04]" in root
    assert "RU[NoCube:Crawford]" in root
    first = match.games[0]
    assert root.endswith(f"RE[{'WB'[first.winner or 0]}+{first.points}R]")  # resigned
    # The first action of the game, letter by letter: White's p is letter p-1, Black's 24-p.
    action = first.actions[0]
    nodes = trees[0].splitlines()[1:]
    colour = "WB"[action.player]
    letter = "abcdefghijklmnopqrstuvwx"

    def point(p: int) -> str:
        if p == 25:
            return "y"
        if p == 0:
            return "z"
        return letter[p - 1] if action.player == 0 else letter[24 - p]

    assert action.dice is not None
    steps = "".join(point(s.src) + point(s.dst) for s in action.steps)
    assert nodes[0] == f";{colour}[{max(action.dice)}{min(action.dice)}{steps}]"
    dances = [n for n in text.splitlines() if len(n) == 6 and n[3:5].isdigit()]
    assert dances, "a roll without a play is its dice alone"
    assert "double" not in text


def test_a_money_game_without_cube_is_no_cube_and_no_crawford() -> None:
    match, _ = random_match(MatchConfig(Variant.CLASSIC, 0, cube=False), 3)
    root = write_sgf(match).splitlines()[0]
    assert "MI[length:0]" in root and "RU[NoCube]" in root


def test_sgf_is_refused_for_long_nardy() -> None:
    match, _ = random_match(MatchConfig(Variant.LONG, 1), 1)
    with pytest.raises(ValueError, match="classic"):
        write_sgf(match)


def test_the_long_record_has_no_point_match_line_and_reads_back() -> None:
    match, _ = random_match(MatchConfig(Variant.LONG, 3, last_roll=True), 2)
    text = write_match(match)
    assert " 3 point match" not in text
    assert f"\n 3 {LONG_SERIES_WORDS}\n" in text
    back = parse_match(text)
    same_moves(match, back)
    assert back.config == match.config
    # Without its tags the length line alone still says long nardy.
    bare = "\n".join(line for line in text.splitlines() if not line.startswith(";"))
    assert parse_match(bare).config.variant is Variant.LONG
