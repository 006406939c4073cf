"""A challenge as a typed value (bot.game.challenge): its settings read by one parser, its
record as every release stored it, and the card's presses as a state machine."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from bot.game.challenge import (
    Accept,
    Adjust,
    Answer,
    BadSettingError,
    Challenge,
    Close,
    Launch,
    Refuse,
    Setting,
    Stage,
    Terms,
    on_answer,
    on_card,
    on_its_card,
)
from bot.game.options import parse_options
from bot.texts import messages as T
from engine import MatchConfig, SeriesStart, Variant

ANNA, BRUNO, CARLA = 101, 102, 103
TERMS = Terms(MatchConfig(Variant.CLASSIC, 3), 300)
DRAFT = Challenge(ANNA, "Anna", TERMS, Stage.DRAFT, message_id=9)
OPEN = replace(DRAFT, stage=Stage.OPEN)


def test_the_words_and_the_codes_give_the_same_terms() -> None:
    words = ["lungo", "5", "oin", "ultimo", "a", "turno", "2m", "analisi"]
    typed = Terms.of_options(parse_options(words, 600))
    codes = Terms.of_codes(
        {
            Setting.VARIANT: "l",
            Setting.LENGTH: "5",
            Setting.SCORING: "o",
            Setting.LAST_ROLL: "1",
            Setting.SERIES: "a",
            Setting.TIME: "120",
            Setting.ANALYSIS: "1",
        }
    )
    assert typed == codes
    assert codes.config == MatchConfig(Variant.LONG, 5, True, False, True, SeriesStart.ALTERNATE)


@pytest.mark.parametrize("setting", list(Setting))
def test_each_settings_code_reads_back(setting: Setting) -> None:
    terms = Terms(MatchConfig(Variant.LONG, 7, False, False, True), 60, True, False)
    assert Terms.of_codes({setting: terms.code(setting)}).code(setting) == terms.code(setting)


@pytest.mark.parametrize(
    ("setting", "text"),
    [
        (Setting.LENGTH, "-1"),
        (Setting.LENGTH, "26"),
        (Setting.LENGTH, "+3"),
        (Setting.TIME, "29"),
        (Setting.TIME, "86401"),
        (Setting.VARIANT, "x"),
        (Setting.CUBE, "2"),
    ],
)
def test_a_value_no_button_carries_is_refused(setting: Setting, text: str) -> None:
    with pytest.raises(BadSettingError):
        TERMS.with_setting(setting, text)


def test_an_inline_card_may_carry_the_operators_shorter_default() -> None:
    assert TERMS.with_setting(Setting.TIME, "10", any_turn=True).turn_seconds == 10


def test_the_record_reads_back_and_keeps_every_releases_keys() -> None:
    personal = replace(OPEN, to_id=BRUNO, to_name="Bruno")
    payload = json.loads(json.dumps(personal.to_payload()))
    assert Challenge.from_payload(payload) == personal
    assert payload["by"] == [ANNA, "Anna"] and payload["msg"] == 9 and payload["draft"] is False
    old = {  # written before hints and the shared analysis existed, not yet posted
        "by": [ANNA, "Anna"],
        "to": None,
        "to_name": None,
        "to_user": "bruno",
        "draft": True,
        **Terms(MatchConfig(), None).to_payload(),
    }
    del old["hi"], old["an"]
    read = Challenge.from_payload(old)
    assert (read.stage, read.to_user, read.message_id, read.terms.hints) == (
        Stage.DRAFT,
        "bruno",
        None,
        False,
    )


def test_only_the_challenger_adjusts_and_launches_the_draft() -> None:
    adjusted = on_card(DRAFT, ANNA, Setting.VARIANT, "l")
    assert isinstance(adjusted, Adjust)
    assert adjusted.challenge.terms.config.variant is Variant.LONG
    assert on_card(DRAFT, BRUNO, Setting.VARIANT, "l") == Refuse(T.ALERT_NOT_YOUR_CARD)
    assert on_card(DRAFT, ANNA, Setting.LENGTH, "99") == Refuse(T.ALERT_STALE_BUTTON)
    launched = on_card(DRAFT, ANNA, None)
    assert isinstance(launched, Launch) and launched.challenge.stage is Stage.OPEN
    assert on_card(OPEN, ANNA, None) == Refuse(T.ALERT_STALE_BUTTON)  # launched already


def test_who_may_answer_an_open_challenge() -> None:
    assert on_answer(OPEN, Answer.ACCEPT, BRUNO, "bruno") == Accept(OPEN)
    assert on_answer(OPEN, Answer.ACCEPT, ANNA, "anna") == Refuse(T.ALERT_OWN_CHALLENGE)
    assert on_answer(OPEN, Answer.DECLINE, BRUNO, None) == Refuse(T.ALERT_STALE_BUTTON)
    assert on_answer(OPEN, Answer.WITHDRAW, BRUNO, None) == Refuse(T.ALERT_NOT_CHALLENGER)
    assert on_answer(OPEN, Answer.WITHDRAW, ANNA, None) is Close.WITHDRAWN


def test_a_personal_challenge_is_for_its_person_only() -> None:
    for_bruno = replace(OPEN, to_user="bruno")
    assert on_answer(for_bruno, Answer.ACCEPT, CARLA, "carla") == Refuse(T.ALERT_NOT_FOR_YOU)
    assert on_answer(for_bruno, Answer.DECLINE, BRUNO, "Bruno") is Close.DECLINED
    replied = replace(OPEN, to_id=BRUNO, to_name="Bruno")
    assert on_answer(replied, Answer.ACCEPT, CARLA, "bruno") == Refuse(T.ALERT_NOT_FOR_YOU)
    assert replied.opponent == "Bruno" and for_bruno.opponent == "@bruno"


def test_a_draft_is_only_withdrawn_and_only_on_its_card() -> None:
    assert on_answer(DRAFT, Answer.ACCEPT, BRUNO, None) == Refuse(T.ALERT_STALE_BUTTON)
    assert on_answer(DRAFT, Answer.WITHDRAW, ANNA, None) is Close.WITHDRAWN
    assert on_its_card(DRAFT, 9) and not on_its_card(DRAFT, 10)
    assert on_its_card(replace(DRAFT, message_id=None), 10)  # not recorded yet
