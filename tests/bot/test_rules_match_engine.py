"""/regole and /aiuto say what the game does: each statement that can be checked is
compared with the engine's behaviour (or the bot's defaults), so a change of rule or
default that the texts do not follow fails here."""

from __future__ import annotations

import dataclasses
import re

from bot.config import Settings
from bot.texts import VARIANTS, messages
from engine import GameState, MatchConfig, ResultKind, Side, Variant
from engine.game import MAX_CUBE

CLASSIC = VARIANTS["classico"]
LONG = VARIANTS["lungo"]


def _page(variant: str, key: str) -> str:
    section = VARIANTS[variant].section(key)
    assert section is not None
    return section.body


def _plain(text: str) -> str:
    return re.sub(r"</?(?:b|i|code)>", "", text)


def _under_way(variant: Variant, **settings: bool) -> GameState:
    return GameState.new_match(MatchConfig(variant, 3, **settings)).roll_opening(3, 1)


def test_classic_resigning_offers_the_levels_the_engine_offers() -> None:
    state = _under_way(Variant.CLASSIC)
    levels = [level.kind for level in state.resign_levels(state.turn)]
    assert levels == [ResultKind.SINGLE, ResultKind.GAMMON, ResultKind.BACKGAMMON]
    page = _plain(_page("classico", "punteggio"))
    offered = page[page.index("Abbandonare") :]
    # The resigner chooses what to offer: every level the engine allows is named as an offer,
    # with the words of the resign buttons.
    named = ", ".join(messages.RESULT_NAMES[kind] for kind in levels[:-1])
    assert f"offri all'avversario una {named} o un {messages.RESULT_NAMES[levels[-1]]}" in (
        offered.replace("un gammon", "gammon")
    )
    for kind in levels:
        assert messages.resign_level_button(kind, 1).lower().startswith(messages.RESULT_NAMES[kind])
    assert "se accetta" in offered.lower() and "se rifiuta" in offered.lower()


def test_long_resigning_costs_what_the_position_gives_as_the_engine_charges() -> None:
    state = _under_way(Variant.LONG)
    assert len(state.resign_levels(state.turn)) == 1  # no choice: the position decides
    offered = _plain(_page("lungo", "punteggio"))
    assert "secondo la posizione" in offered
    oin_only = _under_way(Variant.LONG, mars=False)
    (level,) = oin_only.resign_levels(oin_only.turn)
    assert level.points == 1  # "Oin: ogni risultato conta 1 punto, anche un Mars"
    assert "ogni risultato conta 1 punto, anche un Mars" in offered
    assert messages.kind_shown(level.kind, oin_only.config) is ResultKind.OIN


def test_the_conferma_button_is_described_as_the_setting_it_is() -> None:
    default = Settings.__dataclass_fields__["auto_confirm"]
    assert isinstance(default, dataclasses.Field) and default.default is True
    # On by default: the turn passes by itself, Conferma comes with the setting turned off.
    for variant in ("classico", "lungo"):
        page = _page(variant, "movimento")
        assert "Finché non premi <b>Conferma</b>" not in page
        assert "spegni la <i>conferma automatica</i>" in page
        assert "il turno passa da solo" in _plain(page)
    help_text = messages.help_text()
    assert "finché non premi <b>Conferma</b>" not in help_text
    assert "spegni la conferma automatica" in help_text


def test_the_classic_setup_is_the_engines() -> None:
    start = GameState.new_match(MatchConfig(Variant.CLASSIC, 1)).checkers[Side.WHITE]
    page = _plain(_page("classico", "prep"))
    stated = {
        int(point): int(count)
        for count, point in re.findall(r"(\d+) (?:pedine )?sul(?:l'| punto | )(\d+)", page)
    }
    assert stated == {point: n for point, n in enumerate(start) if n}


def test_the_cube_and_the_one_point_match_are_the_engines() -> None:
    page = _plain(_page("classico", "cubo"))
    assert f"oltre {MAX_CUBE} non si raddoppia" in page
    assert f"a {MAX_CUBE}" in messages.ALERT_CUBE_MAX
    assert "Un match a 1 punto si gioca senza cubo" in page
    assert not MatchConfig(Variant.CLASSIC, 1, cube=True).cube_in_play


def test_the_money_game_and_jacoby_are_the_engines() -> None:
    money = MatchConfig(Variant.CLASSIC, 0)
    page = _plain(_page("classico", "cubo"))
    assert "Partita libera" in page and f"fino a {MAX_CUBE}" in page and "senza Crawford" in page
    assert money.money and money.cube_in_play and money.jacoby  # the cube, Jacoby by default
    assert "regola Jacoby (attiva se non la togli)" in page
    # "Senza raddoppi valgono 1 punto": a gammon offered with the cube centred costs 1.
    state = GameState.new_match(money).roll_opening(3, 1)
    gammon = state.resign_value(state.turn, ResultKind.GAMMON)
    assert gammon.points == 1
    assert "senza raddoppi valgono 1 punto" in _plain(_page("classico", "punteggio"))
    words = " ".join(messages.CHALLENGE_WORDS_HELP)
    assert "<code>libera</code>" in words and "<code>senza jacoby</code>" in words
