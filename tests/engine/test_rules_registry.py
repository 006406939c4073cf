"""The variant registry: every Variant has a rules object, and the rules objects answer
the questions of docs/RULES.md consistently. Also: no code in engine/ or engine/ai/ outside
the registry compares variants (``engine/rules.py`` is "the only place in the engine that
tells the variants apart")."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine import GameState, MatchConfig, ResultKind, SeriesStart, Side, Variant
from engine.board import BAR, CHECKERS, OFF, SIZE
from engine.rules import RULES, ClassicRules, LongRules, Rules, roll_dice, rules_for

ROOT = Path(__file__).resolve().parents[2]
ROLLS = [(a, b) for a in range(1, 7) for b in range(1, 7)]


def empty(**points: int) -> tuple[int, ...]:
    c = [0] * SIZE
    for name, n in points.items():
        c[{"off": OFF, "bar": BAR}[name] if name in ("off", "bar") else int(name[1:])] = n
    return tuple(c)


@pytest.mark.parametrize("variant", list(Variant))
def test_every_variant_has_its_rules_through_every_door(variant: Variant) -> None:
    rules = rules_for(variant)
    assert isinstance(rules, Rules) and rules.variant is variant
    assert RULES[variant] is rules and variant.rules is rules
    config = MatchConfig(variant)
    assert config.rules is rules
    assert GameState.new_match(config).rules is rules
    assert set(RULES) == set(Variant)


def test_an_unknown_variant_has_no_rules() -> None:
    with pytest.raises(ValueError, match="chess"):
        rules_for("chess")  # type: ignore[arg-type]


@pytest.mark.parametrize("variant", list(Variant))
def test_shared_core(variant: Variant) -> None:
    rules = variant.rules
    start = rules.start()
    assert len(start) == SIZE and sum(start) == CHECKERS and not start[OFF] and not start[BAR]
    # The opposite-point mapping is an involution of 1..24 that leaves off and bar alone.
    opp = rules.opposite
    assert sorted(opp[1:25]) == list(range(1, 25)) and opp[0] == opp[25] == 0
    assert all(opp[opp[p]] == p for p in range(1, 25))
    assert rules.n_outcomes == 1 + 2 * len(rules.big_results)
    # Outside the first turn: the plain dice (four of a double); classic has no head rule.
    for d1, d2 in ROLLS:
        dice, head = rules.turn_dice(d1, d2)
        assert dice == roll_dice(d1, d2)
        assert head == (1 if rules.head_rule else CHECKERS)
    # Results grow from the single win, and a draw is worth nothing.
    assert rules.points(ResultKind.DRAW, MatchConfig(variant)) == 0
    assert rules.points(rules.single, MatchConfig(variant)) == 1


def test_classic_answers_as_rules_md_says() -> None:
    rules = Variant.CLASSIC.rules
    assert isinstance(rules, ClassicRules)
    assert rules.start() == empty(p24=2, p13=5, p8=3, p6=5)
    assert all(rules.opposite[p] == 25 - p for p in range(1, 25))
    assert rules.hits and rules.has_bar and rules.closes_at == 2
    assert not rules.head_rule and not rules.block_rule
    assert rules.has_cube and not rules.has_last_roll
    assert rules.opening_is_played and rules.gnubg_ids and rules.offers_resign_levels
    assert rules.single is ResultKind.SINGLE
    assert rules.big_results == (ResultKind.GAMMON, ResultKind.BACKGAMMON)
    config = MatchConfig(Variant.CLASSIC, 5)
    assert rules.value(empty(off=1, p3=14), config) == (ResultKind.SINGLE, 1)
    assert rules.value(empty(p3=15), config) == (ResultKind.GAMMON, 2)
    assert rules.value(empty(p3=14, p20=1), config) == (ResultKind.BACKGAMMON, 3)
    assert rules.value(empty(p3=14, bar=1), config) == (ResultKind.BACKGAMMON, 3)
    # The cube: only in matches longer than one point, and only when switched on.
    assert rules.cube_in_play(config) and config.cube_in_play
    assert not rules.cube_in_play(MatchConfig(Variant.CLASSIC, 1))
    assert not rules.cube_in_play(MatchConfig(Variant.CLASSIC, 5, cube=False))
    # The opening roll decides every game's starter: no series setting.
    assert rules.next_white_player(config, 0, 1) is None
    # First turns change nothing.
    for d1, d2 in ROLLS:
        assert rules.turn_dice(d1, d2, True, True) == (roll_dice(d1, d2), CHECKERS)


def test_long_answers_as_rules_md_says() -> None:
    rules = Variant.LONG.rules
    assert isinstance(rules, LongRules)
    assert rules.start() == empty(p24=15)
    assert rules.opposite[24] == 12 and rules.opposite[12] == 24
    assert not rules.hits and not rules.has_bar and rules.closes_at == 1
    assert rules.head_rule and rules.block_rule
    assert not rules.has_cube and rules.has_last_roll
    assert not rules.opening_is_played and not rules.gnubg_ids
    assert not rules.offers_resign_levels
    assert rules.single is ResultKind.OIN and rules.big_results == (ResultKind.MARS,)
    mars, oin = MatchConfig(Variant.LONG, 3), MatchConfig(Variant.LONG, 3, mars=False)
    assert rules.value(empty(off=1, p5=14), mars) == (ResultKind.OIN, 1)
    assert rules.value(empty(p5=15), mars) == (ResultKind.MARS, 2)
    assert rules.value(empty(p5=15), oin) == (ResultKind.MARS, 1)
    assert rules.resign_kinds(empty(p5=15), empty(off=15)) is None
    assert not rules.cube_in_play(MatchConfig(Variant.LONG, 5, cube=True))
    # Head rule: one checker a turn; two on the first turn with 3-3, 4-4 or 6-6; Black's
    # first 4-4 after White's first 5-5 plays one step of 4.
    for d1, d2 in ROLLS:
        dice, head = rules.turn_dice(d1, d2, first_turn=True)
        assert dice == roll_dice(d1, d2)
        assert head == (2 if d1 == d2 and d1 in (3, 4, 6) else 1)
        dice, head = rules.turn_dice(d1, d2, first_turn=True, after_white_five_five=True)
        if (d1, d2) == (4, 4):
            assert (dice, head) == ((4,), 1)
        else:
            assert dice == roll_dice(d1, d2)
        assert rules.turn_dice(d1, d2, False, True) == (roll_dice(d1, d2), 1)
    # Later games of a series: "Al perdente" and "A turno".
    loser = MatchConfig(Variant.LONG, 5, series_start=SeriesStart.LOSER)
    turns = MatchConfig(Variant.LONG, 5, series_start=SeriesStart.ALTERNATE)
    assert rules.next_white_player(loser, 0, 0) == 1
    assert rules.next_white_player(loser, 0, 1) == 0
    assert rules.next_white_player(loser, 1, None) == 1  # a draw: the same starter
    assert rules.next_white_player(turns, 0, 0) == 1
    assert rules.next_white_player(turns, 1, 0) == 0


def test_the_game_and_its_rules_agree_on_the_special_first_turn() -> None:
    """GameState takes the dice and the head allowance from the rules object."""
    state = GameState.new_match(MatchConfig(Variant.LONG)).roll_opening(6, 1).roll(5, 5)
    assert state.rules.turn_dice(5, 5, True, False) == (state.turn_dice, state.head_limit)
    state = state.play(state.legal_plays()[0]).roll(4, 4)
    assert state.turn is Side.BLACK
    assert (state.turn_dice, state.head_limit) == ((4,), 1)


# --------------------------------------------------------------------------- the grep
#: A comparison with a Variant member (``is``, ``is not``, ``==``, ``!=``, either side),
#: membership in a tuple/set of members, or a table keyed by members.
_COMPARISON = re.compile(
    r"(\bis\s+not|\bis|[=!]=|\bin)\s*[\(\[{]?\s*Variant\.[A-Z_]+"
    r"|Variant\.[A-Z_]+\s*(\bis\b|[=!]=)"
    r"|Variant\.[A-Z_]+\s*:"
)
_ALLOWED = {"engine/rules.py", "engine/types.py"}


def _offending_lines() -> list[str]:
    found = []
    for folder in ("engine", "engine/ai"):
        for path in sorted((ROOT / folder).glob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            if rel in _ALLOWED:
                continue
            for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                code = line.split("#", 1)[0]
                if _COMPARISON.search(code):
                    found.append(f"{rel}:{n}: {line.strip()}")
    return found


def test_the_grep_sees_a_comparison() -> None:
    for line in (
        "if variant is Variant.CLASSIC:",
        "x = state.variant is not Variant.LONG",
        "if v == Variant.LONG or w != Variant.CLASSIC:",
        "if Variant.LONG == v:",
        "if v in (Variant.CLASSIC, Variant.LONG):",
        "TABLE = {Variant.CLASSIC: 5}",
    ):
        assert _COMPARISON.search(line), line
    for line in ("variant: Variant = Variant.CLASSIC", "MatchConfig(Variant.LONG, 3)"):
        assert not _COMPARISON.search(line), line


def test_no_variant_comparison_outside_the_rules_module() -> None:
    assert _offending_lines() == []
