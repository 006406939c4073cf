"""The computer set-up as a state machine (bot.game.setup_wizard): its questions in order,
« Indietro, and only the data its own pages carry."""

from __future__ import annotations

import pytest

from bot.game.setup_wizard import (
    BadSetupError,
    LongOptions,
    MoneyOptions,
    Question,
    Setup,
    parse,
)
from engine import MatchConfig, Variant
from engine.ai import Level


def test_classic_asks_variant_level_length_then_starts() -> None:
    setup = Setup()
    assert setup.question is Question.VARIANT and setup.codes() == ("_",)
    setup = setup.choose(Variant.CLASSIC)
    assert setup.question is Question.LEVEL
    setup = setup.choose(Level.MEDIO)
    assert setup.question is Question.LENGTH
    setup = setup.choose(5)
    assert setup.question is None
    assert setup.codes() == ("classic", "medio", "5")
    assert setup.config() == MatchConfig(Variant.CLASSIC, 5)


def test_long_offers_its_options_before_the_start() -> None:
    setup = Setup(Variant.LONG, Level.FACILE, 3)
    assert setup.question is Question.LONG_OPTIONS
    assert setup.options == LongOptions(mars=True, last_roll=False)  # shown first
    setup = setup.choose(LongOptions(mars=False, last_roll=True))
    assert setup.codes() == ("long", "facile", "3", "o1")
    assert setup.question is Question.LONG_OPTIONS
    started = setup.started()
    assert started.question is None and started.codes()[-2:] == ("o1", "go")
    assert started.config() == MatchConfig(Variant.LONG, 3, mars=False, last_roll=True)
    assert Setup(Variant.LONG, Level.FACILE, 3).started().codes()[-2:] == ("m0", "go")


def test_back_returns_to_the_previous_question() -> None:
    options = Setup(Variant.LONG, Level.FACILE, 3, LongOptions())
    assert options.back() == Setup(Variant.LONG, Level.FACILE)
    assert Setup(Variant.LONG, Level.FACILE).back() == Setup(Variant.LONG)
    assert Setup(Variant.LONG).back() == Setup()
    assert Setup(Variant.LONG).choose(Variant.CLASSIC) == Setup(Variant.CLASSIC)


@pytest.mark.parametrize(
    "setup",
    [
        Setup(),
        Setup(Variant.LONG),
        Setup(Variant.LONG, Level.DIFFICILE, 7, LongOptions(True, True), start=True),
    ],
)
def test_parse_reads_what_the_pages_write(setup: Setup) -> None:
    assert parse(list(setup.codes())) == setup


@pytest.mark.parametrize(
    "parts",
    [
        ["chess"],
        ["classic", "expert"],
        ["classic", "facile", "2"],
        ["classic", "facile", "03"],
        ["classic", "facile", "3", "m0"],
        ["long", "facile", "3", "m2"],
        ["long", "facile", "3", "m0", "now"],
        ["long", "facile", "3", "m0", "go", "go"],
    ],
)
def test_forged_setups_are_refused(parts: list[str]) -> None:
    with pytest.raises(BadSetupError):
        parse(parts)


def test_the_money_game_asks_its_jacoby_rule_and_round_trips() -> None:
    money = Setup(Variant.CLASSIC, Level.MEDIO, 0)
    assert money.question is Question.MONEY_OPTIONS
    assert money.back() == Setup(Variant.CLASSIC, Level.MEDIO)
    off = money.choose(MoneyOptions(jacoby=False))
    assert parse(list(off.codes())) == off
    started = off.started()
    assert started.question is None and parse(list(started.codes())) == started
    assert started.config() == MatchConfig(Variant.CLASSIC, 0, jacoby=False)
    assert money.started().config() == MatchConfig(Variant.CLASSIC, 0, jacoby=True)
