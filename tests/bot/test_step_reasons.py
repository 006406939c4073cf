"""Why a step button is refused (bot.game.step_reasons): every refusal names its reason
and the steps legal now, in the player's words."""

from __future__ import annotations

from bot.game import step_reasons
from engine import Variant
from tests.engine.engine_support import ck, classic, long_, move_state

START = {24: 2, 13: 5, 8: 3, 6: 5}


def test_a_die_already_played_is_named_with_the_die_left() -> None:
    state = classic(START, START, (5, 3)).step((13, 8, 5))
    text = step_reasons.refusal(state, 13, 8, 5)
    assert text.startswith("Il 5 l'hai già giocato: ora muovi col 3. Ora puoi: ")
    assert "8/5" in text and "13/10" in text


def test_a_checker_moved_away_says_so() -> None:
    state = classic({8: 1, 6: 14}, START, (5, 3)).step((8, 3, 5))
    text = step_reasons.refusal(state, 8, 5, 3)
    assert text.startswith("Quella pedina l'hai già mossa: ora muovi col 3.")
    assert "6/3" in text


def test_checkers_on_the_bar_enter_first() -> None:
    state = classic({25: 1, 6: 14}, {1: 2, 2: 2}, (5, 3))
    assert step_reasons.reason(state, 6, 1, 5) == "devi prima rientrare dalla barra"


def test_bearing_off_with_a_larger_die_waits_for_the_higher_checkers() -> None:
    state = classic({6: 2, 3: 13}, START, (5, 4))
    text = step_reasons.refusal(state, 3, 0, 5)
    assert text.startswith("Col 5 non puoi ancora portare fuori: prima le pedine più alte.")
    assert "Ora puoi: 6/2" in text


def test_bearing_off_needs_every_checker_home() -> None:
    state = classic({8: 1, 3: 14}, START, (5, 3))
    assert step_reasons.reason(state, 3, 0, 3).startswith("non puoi ancora portare fuori")


def test_a_closed_point_is_named() -> None:
    state = classic(START, START, (5, 2))
    assert step_reasons.reason(state, 24, 19, 5) == "il punto 19 è chiuso dall'avversario"


def test_long_head_rule() -> None:
    state = long_({24: 15}, {24: 15}, (5, 3)).step((24, 19, 5))
    assert step_reasons.reason(state, 24, 21, 3) == (
        "dalla testa puoi muovere una sola pedina per turno"
    )


def test_long_block_rule() -> None:
    # Five points held (21..17): a sixth at 16 would shut in the opponent's checkers on
    # their head, none of which has passed it.
    mine = ck({24: 5, 21: 2, 20: 2, 19: 2, 18: 2, 17: 2})
    state = move_state(Variant.LONG, mine, ck({24: 15}), (5, 1))
    assert step_reasons.reason(state, 21, 16, 5) == (
        "in lungo non puoi formare un blocco di sei davanti alle pedine avversarie"
    )


def test_a_die_not_rolled_is_simply_not_allowed() -> None:
    state = classic(START, START, (4, 1))
    assert step_reasons.reason(state, 13, 8, 5) == "non hai un 5: muovi col 4 e 1"
    assert step_reasons.reason(state, 13, 8, 9) == "quel passo non è permesso qui"


def test_a_long_alert_names_at_most_five_steps() -> None:
    mine = ck({24: 5, 21: 2, 20: 2, 19: 2, 18: 2, 17: 2})
    state = move_state(Variant.LONG, mine, ck({24: 15}), (5, 1))
    text = step_reasons.refusal(state, 21, 16, 5)
    assert len(text) <= 200 and text.endswith("20/15, …")


def test_the_redraw_wait_is_named_when_worth_saying() -> None:
    from bot.texts import refusals as R

    assert R.redraw_soon(3.6) == "✔ Fatto: la tavola si aggiorna tra 4 s"
    assert R.board_updated(4.2) == "Il tavolo è cambiato: la tavola si aggiorna tra 4 s."
    assert R.board_updated(0.2).startswith("Il tavolo è cambiato: guarda")
    assert R.with_redraw_wait("Hai già tirato i dadi.", 2) == (
        "Hai già tirato i dadi. La tavola si aggiorna tra 2 s."
    )
    assert R.with_redraw_wait("Hai già tirato i dadi.", 0) == "Hai già tirato i dadi."
