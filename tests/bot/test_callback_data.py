"""Callback data: what the bot encodes fits Telegram's 64 bytes and decodes back; anything
else is refused with BadCallbackDataError (which the handlers turn into a polite alert)."""

from __future__ import annotations

import pytest

from bot.adapters import callback_data as cd
from bot.adapters.callback_data import MAX_BYTES, BadCallbackDataError, GameButton
from bot.game.actions import ARITY as GAME_ACTIONS
from bot.game.challenge import Setting

BIG_GAME = 10**12  # far more games than one server will ever store
BIG_VERSION = 10**6


def decode(data: str) -> GameButton:
    return cd.decode_game(cd.split(data))


@pytest.mark.parametrize("action", sorted(GAME_ACTIONS))
def test_every_game_action_round_trips_within_64_bytes(action: str) -> None:
    args = {"s": (25, 0, 6), "w": (25, 0, 6) * 4, "o": (3,)}.get(action, ())
    button = GameButton(BIG_GAME, BIG_VERSION, action, args)
    data = button.encode()
    assert len(data.encode()) <= MAX_BYTES
    assert decode(data) == button


def test_step_button_layout() -> None:
    data = GameButton(42, 7, "s", (13, 7, 6)).encode()
    assert data == "g:42:7:s:13:7:6"
    assert decode(data).args == (13, 7, 6)


def test_encoding_refuses_data_longer_than_telegram_allows() -> None:
    with pytest.raises(BadCallbackDataError):
        GameButton(10**40, 10**20, "s", (25, 0, 6)).encode()


@pytest.mark.parametrize(
    "data",
    [
        "g",
        "g:1:2",
        "g:1:2:j",  # unknown action
        "g:1:2:s:13:7",  # a step needs three numbers
        "g:1:2:c:5",  # confirm takes none
        "g:a:2:c",
        "g:1:b:c",
        "g:1:2:s:13:x:6",
        "g:1:2:s:1.5:7:6",
        "g:" + "9" * 20 + ":2:c",  # longer than any 64-bit number
    ],
)
def test_malformed_game_data_is_refused(data: str) -> None:
    with pytest.raises(BadCallbackDataError):
        decode(data)


@pytest.mark.parametrize("data", [None, "", "g:1:2:c" + "x" * MAX_BYTES])
def test_empty_or_oversized_data_is_refused_before_splitting(data: str | None) -> None:
    with pytest.raises(BadCallbackDataError):
        cd.split(data)


def test_other_families() -> None:
    assert cd.challenge(12, "a") == "c:12:a"
    assert cd.rules("classico", "cubo") == "r:classico:cubo"
    assert cd.setup("long", "medio", "5") == "p:long:medio:5"
    assert cd.menu("regole") == "m:regole"
    assert cd.split("r:classico:cubo") == ["r", "classico", "cubo"]


def test_other_families_refuse_oversized_data() -> None:
    with pytest.raises(BadCallbackDataError):
        cd.rules("x" * 40, "y" * 40)


@pytest.mark.parametrize(
    "button",
    [
        cd.CardButton(BIG_GAME, None),
        cd.CardButton(7, Setting.VARIANT, "l"),
        cd.CardButton(7, Setting.LENGTH, "25"),
        cd.CardButton(7, Setting.TIME, "0"),
        cd.CardButton(7, Setting.TIME, "86400"),
        cd.CardButton(7, Setting.SERIES, "a"),
        cd.CardButton(7, Setting.HINTS, "1"),
        cd.CardButton(7, Setting.ANALYSIS, "0"),
    ],
)
def test_card_buttons_round_trip_within_64_bytes(button: cd.CardButton) -> None:
    data = button.encode()
    assert len(data.encode()) <= MAX_BYTES
    assert cd.decode_card(cd.split(data)) == button


@pytest.mark.parametrize(
    "data",
    [
        "k:7",
        "k:7:go:1",
        "k:-7:go",
        "k:7:v",
        "k:7:v:x",
        "k:7:n:-1",
        "k:7:n:26",
        "k:7:n:03",
        "k:7:t:29",
        "k:7:t:86401",
        "k:7:t:-0",
        "k:7:k:2",
        "k:7:z:1",
        "k:7:h:2",
        "k:7:y",
        "k:²:go",
        "c:7:go",
        "k:7:v:l:l",
    ],
)
def test_malformed_card_data_is_refused(data: str) -> None:
    with pytest.raises(BadCallbackDataError):
        cd.decode_card(cd.split(data))
