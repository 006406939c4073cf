"""The money game and its Jacoby rule in every way a game is set: /sfida's words, the
challenge card's buttons, the stored challenge, inline cards and the /gioca set-up."""

from __future__ import annotations

import pytest

from bot.adapters import inline_cards
from bot.adapters.inline_cards import CardAction, InlineChallenge
from bot.game import setup_wizard as wizard
from bot.game.challenge import BadSettingError, Setting, Terms, parse_setting
from bot.game.options import OptionsError, parse_options
from bot.handlers.challenge_card import draft_markup
from bot.texts import messages as T
from engine import MatchConfig, Variant

SECRET = inline_cards.signing_key("123:ABC")


def test_libera_is_the_money_game_with_jacoby_unless_refused() -> None:
    config = parse_options(["libera"], 600).config
    assert config.money and config.cube_in_play and config.jacoby
    assert not parse_options(["libera", "senza", "jacoby"], 600).config.jacoby
    assert not parse_options(["soldi", "nojacoby"], 600).config.jacoby
    # "senza cubo" cannot make a money game without its cube
    assert parse_options(["libera", "senza", "cubo"], 600).config.cube_in_play
    assert parse_options(["a", "punti", "5"], 600).config.length == 5


def test_the_long_game_has_no_money_game() -> None:
    with pytest.raises(OptionsError) as err:
        parse_options(["lungo", "libera"], 600)
    assert str(err.value) == T.OPTIONS_MONEY_CLASSIC_ONLY


def test_the_card_cycles_to_libera_and_back_to_a_match() -> None:
    terms = Terms(MatchConfig(Variant.CLASSIC, 3, cube=False), 120)
    money = terms.with_setting(Setting.LENGTH, "0")
    assert money.config.money and money.config.cube_in_play
    off = money.with_setting(Setting.JACOBY, money.toggled(Setting.JACOBY))
    assert not off.config.jacoby
    assert Terms.from_payload(off.to_payload()) == off
    assert off.with_setting(Setting.LENGTH, "5").config.length == 5
    # Choosing the long game leaves the money game for a single game.
    assert money.with_setting(Setting.VARIANT, "l").config == MatchConfig(Variant.LONG, 1)
    with pytest.raises(BadSettingError):
        Terms(MatchConfig(Variant.LONG, 3), None).with_setting(Setting.LENGTH, "0")
    with pytest.raises(BadSettingError):
        parse_setting(Setting.JACOBY, "2")
    with pytest.raises(BadSettingError):  # a stale "Cubo: no" on a money game's card
        money.with_setting(Setting.CUBE, "0")


def test_a_challenge_stored_before_jacoby_reads_it_on() -> None:
    payload = Terms(MatchConfig(Variant.CLASSIC, 0), None).to_payload()
    del payload["jc"]
    assert Terms.from_payload(payload).config.jacoby


def _labels(terms: Terms) -> list[str]:
    return [b.text for row in draft_markup(1, terms).inline_keyboard for b in row]


def test_the_card_shows_libera_in_classic_and_jacoby_for_the_money_game() -> None:
    classic = Terms(MatchConfig(Variant.CLASSIC, 1), None)
    assert T.BTN_CARD_MONEY in _labels(classic)
    assert T.btn_card_jacoby(False) not in _labels(classic)
    money = classic.with_setting(Setting.LENGTH, "0")
    labels = _labels(money)
    assert f"{T.CARD_CHOSEN}{T.BTN_CARD_MONEY}" in labels
    assert T.btn_card_jacoby(True) in labels
    assert T.btn_card_cube(True) not in labels  # the money game always has its cube
    assert T.BTN_CARD_MONEY not in _labels(Terms(MatchConfig(Variant.LONG, 1), None))
    assert T.MONEY_GAME in T.settings_summary(money.config, None)
    assert T.JACOBY_ON in T.settings_summary(money.config, None)


@pytest.mark.parametrize("words", ["libera", "libera senza jacoby 5m"])
def test_an_inline_card_carries_the_money_game(words: str) -> None:
    card = InlineChallenge(7, 1_790_000_000, parse_options(words.split(), 600), "n0nce-_A")
    press = inline_cards.decode(SECRET, inline_cards.encode(SECRET, card, CardAction.ACCEPT))
    assert press.config == card.options.config


def test_the_computer_set_up_offers_the_money_game_in_classic_only() -> None:
    setup = wizard.parse(["classic", "facile", "0"])
    assert setup.question is wizard.Question.MONEY_OPTIONS  # the Jacoby rule comes next
    started = setup.started()
    assert started.question is None and started.config() == MatchConfig(Variant.CLASSIC, 0)
    assert wizard.parse(list(started.codes())) == started
    with pytest.raises(wizard.BadSetupError):
        wizard.parse(["long", "facile", "0"])


def test_statistics_show_money_points_apart() -> None:
    text = T.stats_text(T.PlayerStats("Anna", 3, 2, 1, 0, 2, 1, 2, 5, 1))
    assert "Punti vinti: 2 · persi: 1" in text
    assert "Partite libere: 2 · punti vinti: 5 · persi: 1" in text
    only_money = T.stats_text(T.PlayerStats("Anna", 1, 1, 0, 0, 0, 0, 1, 4, 0))
    assert "Punti vinti: 0" not in only_money
