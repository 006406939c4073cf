"""The button protocol decoded once into typed values: every family the bot draws decodes
back to what it encoded, within Telegram's 64 bytes, and data no button of ours carries is
refused with BadCallbackDataError (which the handlers turn into a polite alert)."""

from __future__ import annotations

import pytest

from bot.adapters import callback_data as cd
from bot.adapters import inline_cards
from bot.adapters.inline_cards import CardAction, InlineChallenge
from bot.game.actions import Action
from bot.game.challenge import Answer, Setting
from bot.game.options import ChallengeOptions
from bot.game.setup_wizard import LongOptions, Setup
from engine import MatchConfig, SeriesStart, Variant
from engine.ai import Level

SECRET = inline_cards.signing_key("123:token")


def fits(data: str) -> str:
    assert 1 <= len(data.encode()) <= cd.MAX_BYTES
    return data


@pytest.mark.parametrize(
    "button",
    [
        cd.GameButton(10**12, 10**6, Action.STEPS, (25, 19, 6) * 4),
        cd.GameButton(3, 9, Action.RESIGN_LEVEL, (2,)),
        cd.GameButton(3, 9, Action.REMATCH),
    ],
)
def test_game_buttons_round_trip(button: cd.GameButton) -> None:
    assert cd.decode_game(cd.split(fits(button.encode()))) == button


@pytest.mark.parametrize("answer", list(Answer))
def test_challenge_answers_round_trip_as_every_release_wrote_them(answer: Answer) -> None:
    button = cd.ChallengeButton(10**12, answer)
    data = fits(button.encode())
    assert data == f"c:{10**12}:{answer.value}"  # the cards already in chats keep working
    assert cd.decode_challenge(cd.split(data)) == button


CARD_VALUES = {
    Setting.VARIANT: ("c", "l"),
    Setting.LENGTH: ("0", "1", "7", "25"),
    Setting.CUBE: ("0", "1"),
    Setting.SCORING: ("o", "m"),
    Setting.LAST_ROLL: ("0", "1"),
    Setting.SERIES: ("l", "a"),
    Setting.HINTS: ("0", "1"),
    Setting.ANALYSIS: ("0", "1"),
    Setting.TIME: ("0", "30", "86400"),
    Setting.JACOBY: ("0", "1"),
}


@pytest.mark.parametrize(
    "button",
    [cd.CardButton(10**12, None)]
    + [cd.CardButton(7, s, v) for s, values in CARD_VALUES.items() for v in values],
)
def test_card_buttons_round_trip(button: cd.CardButton) -> None:
    assert cd.decode_card(cd.split(fits(button.encode()))) == button


def test_every_card_setting_has_a_tested_value() -> None:
    assert set(CARD_VALUES) == set(Setting)


@pytest.mark.parametrize(
    "setup",
    [
        Setup(),
        Setup(Variant.CLASSIC),
        Setup(Variant.LONG, Level.DIFFICILE),
        Setup(Variant.CLASSIC, Level.FACILE, 7),
        Setup(Variant.LONG, Level.MEDIO, 5, LongOptions(False, True)),
        Setup(Variant.LONG, Level.MEDIO, 1, LongOptions(), start=True),
    ],
)
def test_setup_buttons_round_trip(setup: Setup) -> None:
    data = fits(cd.setup(*setup.codes()))
    assert cd.decode_setup(cd.split(data)) == setup


def test_settings_records_and_inline_cards_round_trip() -> None:
    assert cd.decode_preference(cd.split(fits(cd.preference("hints", "1", 42)))) == (
        "hints",
        "1",
        42,
    )
    assert cd.decode_records(cd.split(fits(cd.records_button(cd.REPLAY, 5, 2)))) == ("r", 5, 2)
    assert cd.decode_records(cd.split(fits(cd.records_button(cd.EXPORT, 5)))) == ("e", 5, 0)
    config = MatchConfig(Variant.LONG, 25, False, True, True, SeriesStart.ALTERNATE)
    card = InlineChallenge(10**10, 1_800_000_000, ChallengeOptions(config, 45, "anna"), "A" * 8)
    for action in CardAction:
        press = inline_cards.decode(SECRET, fits(inline_cards.encode(SECRET, card, action)))
        assert (press.action, press.config, press.turn_seconds) == (action, config, 45)


@pytest.mark.parametrize(
    "data",
    [
        None,
        "",
        "g:1:2:c" + "x" * 64,
        "c:7",
        "c:7:a:1",
        "c:-7:a",
        "c:7:q",
        "c:²:a",
        "c:7:A",
        "k:7:go:1",
        "k:7:n:03",
        "k:7:t:29",
        "k:7:v:x",
        "k:7:q:1",
        "p:classic:facile:2",
        "p:classic:facile:1:m0",
        "p:long:facile:1:x1",
        "p:long:facile:1:m0:no",
        "p:long:esperto",
        "p:chess",
        "p:long:facile:1:m0:go:go",
    ],
)
def test_forged_data_is_refused(data: str | None) -> None:
    decoders = {
        "c": cd.decode_challenge,
        "k": cd.decode_card,
        "p": cd.decode_setup,
        "g": cd.decode_game,
    }

    def decode() -> object:
        parts = cd.split(data)
        return decoders[parts[0]](parts)

    with pytest.raises(cd.BadCallbackDataError):
        decode()


def test_a_forged_inline_card_is_refused() -> None:
    card = InlineChallenge(7, 1_800_000_000, ChallengeOptions(MatchConfig(), 60), "B" * 8)
    data = inline_cards.encode(SECRET, card, CardAction.ACCEPT)
    forged = data.replace(":c1:", ":l1:")  # another game, the signature kept
    with pytest.raises(cd.BadCallbackDataError):
        inline_cards.decode(SECRET, forged)
