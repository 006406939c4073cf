"""Inline challenge cards carry their challenge in signed callback data; places key inline
messages apart from every chat."""

from __future__ import annotations

import datetime as dt

import pytest
from telegram import CallbackQuery, Chat, ChosenInlineResult, Message, Update, User

from bot.adapters import inline_cards
from bot.adapters.callback_data import MAX_BYTES, BadCallbackDataError
from bot.adapters.inline_cards import CardAction, InlineChallenge
from bot.adapters.places import (
    INLINE_KEY_BASE,
    Place,
    inline_key,
    is_inline_key,
    of_game,
    of_update,
)
from bot.game.options import MAX_TURN_SECONDS, ChallengeOptions, parse_options
from bot.updates import chat_key
from engine import MatchConfig, SeriesStart, Variant

SECRET = inline_cards.signing_key("123:ABC")


def challenge(
    words: str, challenger: int = 7_123_456_789, issued: int = 1_790_000_000
) -> InlineChallenge:
    return InlineChallenge(challenger, issued, parse_options(words.split(), 600), "n0nce-_A")


@pytest.mark.parametrize(
    "words",
    ["", "lungo 3 oin ultimo a turno 30s", "classico 25 senza cubo senza limite", "@anna lungo"],
)
def test_a_card_press_reads_back_the_challenge_it_was_drawn_for(words: str) -> None:
    card = challenge(words)
    for action in CardAction:
        press = inline_cards.decode(SECRET, inline_cards.encode(SECRET, card, action))
        assert press.action is action
        assert (press.challenger, press.issued) == (card.challenger, card.issued)
        assert press.config == card.options.config
        assert press.turn_seconds == card.options.turn_seconds
        assert press.nonce == card.nonce
    press = inline_cards.decode(SECRET, inline_cards.encode(SECRET, card, CardAction.ACCEPT))
    if card.options.username is None:
        assert press.for_hash is None and press.is_for(None) and press.is_for("carla")
    else:
        assert press.is_for("Anna") and not press.is_for("carla") and not press.is_for(None)


def test_the_longest_card_fits_telegrams_64_bytes() -> None:
    config = MatchConfig(Variant.LONG, 25, True, True, True, SeriesStart.ALTERNATE)
    widest = ChallengeOptions(config, MAX_TURN_SECONDS, "a" * 32)
    card = InlineChallenge(2**53, 4_102_444_800, widest, inline_cards.new_nonce())
    for action in CardAction:
        assert len(inline_cards.encode(SECRET, card, action).encode()) <= MAX_BYTES


def test_changed_or_foreign_data_is_refused() -> None:
    data = inline_cards.encode(SECRET, challenge("classico 3"), CardAction.ACCEPT)
    forged = [
        data.replace(":c3:", ":c5:"),
        data.replace(":39t4efp:", ":39t4efq:"),  # another challenger (base 36)
        data.replace(":n0nce-_A:", ":n0nce-_B:"),  # another card
        "j:r" + data[3:],  # another button of the same card
        "j:x" + data[3:],
        data[:-1] + ("A" if data[-1] != "A" else "B"),
        data + ":x",
        "j:a:1:2:c1:3:go:-:AAAAAAAA:AAAAAAAAAA",
        "",
        None,
    ]
    for bad in forged:
        with pytest.raises(BadCallbackDataError):
            inline_cards.decode(SECRET, bad)
    with pytest.raises(BadCallbackDataError):  # another bot's key
        inline_cards.decode(inline_cards.signing_key("456:DEF"), data)


def test_inline_keys_never_meet_chat_ids() -> None:
    keys = {inline_key(f"BAAAA{i:06d}") for i in range(2000)}
    assert len(keys) == 2000
    assert all(is_inline_key(k) and INLINE_KEY_BASE <= k < 2**62 for k in keys)
    assert not is_inline_key(-1001234567890) and not is_inline_key(2**52)
    assert of_game(inline_key("x"), "x") == Place.inline("x")
    assert of_game(-100, "x") == Place.chat(-100)  # a chat's table never turns inline
    assert Place.inline("x").message(5) == {"inline_message_id": "x"}
    assert Place.chat(-100).message(5) == {"chat_id": -100, "message_id": 5}


def test_a_press_on_an_inline_message_is_ordered_with_its_game_not_the_user() -> None:
    user = User(5, "Anna", False)
    inline = Update(
        1, callback_query=CallbackQuery("q", user, "ci", inline_message_id="BAAAQ", data="g")
    )
    assert of_update(inline) == Place.inline("BAAAQ")
    assert chat_key(inline) == inline_key("BAAAQ")
    chat = Chat(-100, "group")
    message = Message(3, dt.datetime.now(dt.UTC), chat, from_user=user)
    in_chat = Update(2, callback_query=CallbackQuery("q", user, "ci", message=message, data="g"))
    assert of_update(in_chat) == Place.chat(-100) and chat_key(in_chat) == -100


def test_the_operators_short_default_turn_limit_reads_back() -> None:
    options = ChallengeOptions(MatchConfig(Variant.CLASSIC), 10)
    card = InlineChallenge(5, 1_790_000_000, options, inline_cards.new_nonce())
    press = inline_cards.decode(SECRET, inline_cards.encode(SECRET, card, CardAction.ACCEPT))
    assert press.turn_seconds == 10


def test_each_card_has_its_own_dice_seed_known_only_with_the_key() -> None:
    seeds = {inline_cards.dice_seed(SECRET, inline_cards.new_nonce()) for _ in range(200)}
    assert len(seeds) == 200 and all(len(s) == 64 for s in seeds)
    assert inline_cards.dice_seed(SECRET, "n0nce-_A") == inline_cards.dice_seed(SECRET, "n0nce-_A")
    other_key = inline_cards.signing_key("456:DEF")
    assert inline_cards.dice_seed(other_key, "n0nce-_A") != inline_cards.dice_seed(
        SECRET, "n0nce-_A"
    )
    assert inline_cards.is_nonce(inline_cards.new_nonce()) and not inline_cards.is_nonce("0")


def test_a_chosen_card_is_ordered_with_the_presses_on_its_message() -> None:
    """chosen_inline_result records the card before any press on its message is handled."""
    user = User(5, "Anna", False)
    chosen = Update(
        3, chosen_inline_result=ChosenInlineResult("n", user, "", inline_message_id="BAAAQ")
    )
    assert of_update(chosen) == Place.inline("BAAAQ")
    assert chat_key(chosen) == inline_key("BAAAQ")
    unnamed = Update(4, chosen_inline_result=ChosenInlineResult("n", user, ""))
    assert of_update(unnamed) is None and chat_key(unnamed) == 5
