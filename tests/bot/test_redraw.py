"""The redraw decision from the game's states (bot.game.redraw): a first step the board on
screen can finish is answered alone; anything else, or a board whose state is not known,
is drawn."""

from __future__ import annotations

from collections import deque
from dataclasses import replace

from bot.game import flow, redraw
from bot.game.table import Player, Table
from engine import GameState, MatchConfig, Variant


class Dice:
    def __init__(self, *dice: int) -> None:
        self.dice = deque(dice)

    def die(self) -> int:
        return self.dice.popleft()

    def roll(self) -> tuple[int, int]:
        return self.die(), self.die()


def opened(d0: int, d1: int) -> Table:
    """A classic game whose opening roll ``d0``-``d1`` Anna plays (turn saved at version 4)."""
    table = Table(
        GameState.new_match(MatchConfig(Variant.CLASSIC, 1)),
        (Player(1, "Anna"), Player(2, "Bruno")),
    )
    return replace(flow.advance(table, Dice(d0, d1)), turn_version=4)


def stepped(table: Table, *steps: tuple[int, int, int]) -> Table:
    state = table.state
    for step in steps:
        state = state.step(step)
    return table.with_state(state)


def test_the_drawn_state_is_the_saved_one_for_the_saved_version() -> None:
    table = opened(5, 2)
    assert redraw.drawn_state(table, 4, pressed=4, shown=4) is table.state


def test_an_older_board_of_the_turn_shows_the_turns_start() -> None:
    table = stepped(opened(5, 2), (13, 8, 5))
    drawn = redraw.drawn_state(table, 5, pressed=4, shown=4)
    assert drawn is not None and drawn.steps == () and drawn.dice == (5, 2)


def test_a_board_not_recorded_as_shown_or_of_another_version_is_unknown() -> None:
    table = stepped(opened(5, 2), (13, 8, 5))
    assert redraw.drawn_state(table, 5, pressed=5, shown=4) is None  # not drawn yet
    assert redraw.drawn_state(table, 5, pressed=5, shown=None) is None
    later = replace(table, turn_version=3)
    assert redraw.drawn_state(later, 5, pressed=4, shown=4) is None  # mid-turn: not kept


def test_a_first_step_the_board_can_finish_is_answered_alone() -> None:
    table = opened(5, 2)
    after = stepped(table, (13, 8, 5))  # every step of the 2 was already a button
    assert redraw.board_serves(table.state, after)


def test_a_step_that_opens_new_choices_draws() -> None:
    table = opened(6, 5)
    after = stepped(table, (24, 18, 6))  # 18/13 was not a button of the opening board
    assert not redraw.board_serves(table.state, after)


def test_a_finished_roll_an_undo_or_an_unknown_board_draws() -> None:
    table = opened(5, 2)
    finished = stepped(table, (13, 8, 5), (13, 11, 2))
    assert redraw.finished_roll(finished)
    assert not redraw.board_serves(table.state, finished)
    assert not redraw.board_serves(table.state, table)  # no step made (an undo)
    assert not redraw.board_serves(None, stepped(table, (13, 8, 5)))


def test_a_board_whose_button_of_the_die_left_would_be_refused_is_drawn() -> None:
    """After 13/8 with 5-3 the lone checker has left 13: the board's 13/10 would be
    refused, so the board is redrawn instead of answering "ora muovi col 3"."""
    from tests.engine.engine_support import classic

    start = classic({13: 1, 24: 14}, {20: 2, 1: 13}, (5, 3))
    table = Table(start, (Player(1, "Anna"), Player(2, "Bruno")))
    after = table.with_state(start.step((13, 8, 5)))
    assert {(s.src, s.dst) for s in after.state.legal_steps()} == {(24, 21)}
    assert (24, 21, 3) in {(s.src, s.dst, s.die) for s in start.legal_steps()}  # shown
    assert not redraw.board_serves(start, after)
