"""The turn clock's words and timing: the caption's deadline line, the reminders' leads and
the picture of a game lost on time."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from bot import timeouts
from bot.game.table import Player, Table
from bot.texts import messages as T
from bot.views import presenter
from engine import GameState, MatchConfig, Variant

ROME = ZoneInfo("Europe/Rome")


def at(hour: int, minute: int, second: int = 0, day: int = 1) -> datetime:
    return datetime(2026, 12, day, hour, minute, second, tzinfo=ROME)


def test_a_long_turn_shows_the_hour_and_a_short_one_the_time_left() -> None:
    assert T.turn_deadline(at(21, 34), at(21, 4)) == "⏱ Tempo per il turno: entro le 21:34"
    assert T.turn_deadline(at(9, 5, day=2), at(21, 4)) == (
        "⏱ Tempo per il turno: entro domani alle 09:05"
    )
    assert T.turn_deadline(at(9, 5, day=5), at(21, 4)) == (
        "⏱ Tempo per il turno: entro il 5/12 alle 09:05"
    )
    assert T.turn_deadline(at(21, 34), at(21, 31, 30)) == (
        "⏱ Restano 3 minuti per il turno (entro le 21:34)"
    )
    assert T.turn_deadline(at(21, 34), at(21, 33)) == (
        "⏱ Restano 1 minuto per il turno (entro le 21:34)"
    )
    assert T.turn_deadline(at(21, 34), at(21, 33, 20)) == (
        "⏱ Restano 40 secondi per il turno (entro le 21:34)"
    )


def test_the_caption_reads_the_deadline_in_italian_time() -> None:
    table = Table(
        GameState.new_match(MatchConfig(Variant.CLASSIC, 1)), (Player(1, "A"), Player(2, "B"))
    )
    table = replace(table, state=table.state.roll_opening(3, 1))
    # 20:34 UTC is 21:34 in Rome in winter.
    due = datetime(2026, 12, 1, 20, 34, tzinfo=ZoneInfo("UTC")).timestamp()
    shown = presenter.caption(replace(table, deadline=due), now=due - 1800)
    assert "⏱ Tempo per il turno: entro le 21:34" in shown
    assert "⏱" not in presenter.caption(table, now=due - 1800)  # no limit, no clock


@pytest.mark.parametrize(
    ("turn", "leads"),
    [(30, (15.0,)), (60, (30.0, 15.0)), (600, (300.0, 120.0)), (8, (4.0,)), (None, ())],
)
def test_reminders_at_half_and_a_fifth_never_closer_than_15_seconds(
    turn: int | None, leads: tuple[float, ...]
) -> None:
    table = Table(
        GameState.new_match(MatchConfig(Variant.CLASSIC, 1)),
        (Player(1, "A"), Player(2, "B")),
        turn_seconds=turn,
    )
    assert timeouts.reminder_leads(table) == leads


def test_the_picture_of_a_game_lost_on_time_says_time_first() -> None:
    table = Table(
        GameState.new_match(MatchConfig(Variant.CLASSIC, 1)), (Player(1, "Anna"), Player(2, "Ugo"))
    )
    state = table.state.roll_opening(3, 1)
    loser = state.turn
    lost = table.with_state(state.timeout(loser))
    banner = presenter.result_banner(lost)
    assert banner[0] == f"Tempo scaduto per {lost.player_at(loser).name}"
    assert banner[1].startswith(f"{lost.player_at(loser.other).name} vince ")
