"""The game flow between two human decisions, without Telegram.

After a player acts, ``advance`` plays everything that needs no decision: the opening
roll (re-rolling ties), rolling when doubling is not possible, passing a turn with no legal
play, playing a forced play, and the computer's turns and cube answers. It stops where a
person must choose (or the game is over) and leaves notes for the caption.

``apply_action`` turns one button into an engine action and reports refusals as the
Italian alert to show, never as an exception.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace

from bot.dice import DiceSource
from bot.table import VARIANT_KEYS, Table
from bot.texts import messages as T
from engine import (
    EndReason,
    GameState,
    IllegalActionError,
    IllegalMoveError,
    Phase,
    Play,
    Side,
    Variant,
)
from engine.ai import Level, accept_double, choose_play, cube_decision
from engine.notation import format_play, format_steps

MAX_AUTOMATIC_TURNS = 200  # a safety net against a loop of passes; real games never hit it


@dataclass(frozen=True, slots=True)
class Refusal:
    """An action refused: the alert text for the presser; nothing changed."""

    alert: str


def _name(table: Table, side: Side) -> str:
    return table.player_at(side).name


def _computer_on_turn(table: Table) -> bool:
    return table.vs_computer and table.actor.is_computer


def _result_notes(table: Table, state: GameState) -> list[str]:
    r = state.result
    assert r is not None
    notes: list[str] = []
    if r.winner is None:
        # A draw only comes from the last roll: the player who made it saved the game.
        roller = state.last_play.side if state.last_play else Side.BLACK
        notes.append(T.draw_last_roll(_name(table, roller)))
    else:
        winner = _name(table, r.winner)
        loser = _name(table, r.winner.other)
        if r.reason is EndReason.RESIGNED:
            notes.append(T.resigned(loser, winner, r.points, r.kind.value))
        elif r.reason is EndReason.TIMEOUT:
            notes.append(T.timeout_loss(loser, winner, r.points, r.kind.value))
        elif r.reason is EndReason.DROPPED:
            notes.append(T.double_dropped(loser, r.points))
        else:
            notes.append(T.game_won(winner, r.kind.value, r.points))
    if state.phase is Phase.MATCH_OVER:
        w = state.match_winner
        assert w is not None
        notes.append(
            T.match_won(
                table.players[w].name,
                VARIANT_KEYS[state.variant],
                state.score[w],
                state.score[1 - w],
            )
        )
    return notes


def advance(table: Table, dice: DiceSource, rng: random.Random | None = None) -> Table:
    """Play automatically until a person must decide, or the game is over."""
    rng = rng or random.Random()
    for _ in range(MAX_AUTOMATIC_TURNS):
        state = table.state
        if state.is_over:
            return table
        if state.phase is Phase.OPENING:
            d0, d1 = dice.die(), dice.die()
            state = state.roll_opening(d0, d1)
            if state.phase is Phase.OPENING:
                table = table.with_state(state, T.opening_tie(d0))
                continue
            first = state.player_of(state.turn)
            rolls = (d0, d1)
            note = T.opening_roll(
                table.players[first].name,
                rolls[first],
                table.players[1 - first].name,
                rolls[1 - first],
            )
            table = table.with_state(state, note)
            continue
        if state.phase is Phase.DOUBLED:
            if not _computer_on_turn(table):
                return table
            taker = table.actor.name
            if accept_double(state, Level(table.ai_level)):
                new = state.take()
                table = table.with_state(new, T.double_taken(taker, new.cube_value))
            else:
                table = table.with_state(state.drop())
                table = table.with_state(table.state, *_result_notes(table, table.state))
            continue
        if state.phase is Phase.ROLL:
            if _computer_on_turn(table):
                if state.cube_available and cube_decision(state, Level(table.ai_level)):
                    table = table.with_state(
                        state.double(), T.double_offered(table.actor.name, state.cube_value * 2)
                    )
                    continue
            elif state.cube_available:
                return table  # a person may double: wait for Tira / Raddoppia
            d1, d2 = dice.roll()
            table = table.with_state(state.roll(d1, d2))
            continue
        # Phase.MOVE
        plays = state.legal_plays()
        who = table.actor.name
        d1, d2 = state.dice or (0, 0)
        if not plays and not state.steps:
            table = table.with_state(state.confirm(), T.no_moves(who, d1, d2))
        elif _computer_on_turn(table):
            play = choose_play(state, Level(table.ai_level), rng)
            assert play is not None
            table = table.with_state(
                state.play(play), T.move_played(who, f"{T.dice(d1, d2)}: {format_play(play)}")
            )
        elif len(plays) == 1 and not state.steps:
            table = table.with_state(
                state.play(plays[0]),
                T.forced_move(who, f"{T.dice(d1, d2)}: {format_play(plays[0])}"),
            )
        else:
            return table
        if table.state.is_over:
            table = table.with_state(table.state, *_result_notes(table, table.state))
        elif table.state.last_roll_turn and table.state.phase is Phase.ROLL:
            table = table.with_state(table.state, T.last_roll_offered(table.actor.name))
    return table


def apply_action(
    table: Table, player_index: int, action: str, args: tuple[int, ...]
) -> Table | Refusal:
    """One button press by ``player_index``: the new table, or a Refusal."""
    state = table.state
    me = table.players[player_index]
    if action in ("x", "m"):
        return _between_games(table, action)
    if action == "a":
        if state.is_over or state.phase is Phase.OPENING:
            return Refusal(T.ALERT_GAME_OVER)
        return replace(table, resign_pending=player_index)
    if action == "n":
        if table.resign_pending != player_index:
            return Refusal(T.ALERT_STALE_BUTTON)
        return replace(table, resign_pending=None)
    if action == "y":
        if table.resign_pending != player_index:
            return Refusal(T.ALERT_STALE_BUTTON)
        side = state.side_of(player_index)
        new = state.resign(side)
        table = replace(table, resign_pending=None).with_state(new)
        return table.with_state(new, *_result_notes(table, new))
    if state.is_over:
        return Refusal(T.ALERT_GAME_OVER)
    if table.actor.user_id != me.user_id or (table.actor.is_computer):
        return Refusal(T.ALERT_NOT_YOUR_TURN)
    table = replace(table, resign_pending=None)
    try:
        if action == "r":
            if state.phase is not Phase.ROLL:
                return Refusal(T.ALERT_ALREADY_ROLLED)
            return table  # the caller rolls through advance-like code with real dice
        if action == "d":
            if state.phase is not Phase.ROLL:
                return Refusal(T.ALERT_DOUBLE_AFTER_ROLL)
            if not state.cube_available:
                return Refusal(_why_no_double(state))
            new = state.double()
            return table.with_state(new, T.double_offered(me.name, state.cube_value * 2))
        if action == "t":
            if state.phase is not Phase.DOUBLED:
                return Refusal(T.ALERT_STALE_BUTTON)
            new = state.take()
            return table.with_state(new, T.double_taken(me.name, new.cube_value))
        if action == "p":
            if state.phase is not Phase.DOUBLED:
                return Refusal(T.ALERT_STALE_BUTTON)
            new = state.drop()
            return table.with_state(new, *_result_notes(table, new))
        if state.phase is Phase.ROLL:
            return Refusal(T.ALERT_ROLL_FIRST)
        if state.phase is not Phase.MOVE:
            return Refusal(T.ALERT_STALE_BUTTON)
        if action == "s":
            src, dst, die = args
            return table.with_state(state.step((src, dst, die)))
        if action == "u":
            if not state.steps:
                return Refusal(T.ALERT_NOTHING_TO_UNDO)
            return table.with_state(state.undo())
        if action == "c":
            if not state.play_complete:
                return Refusal(T.ALERT_MOVE_INCOMPLETE)
            return confirm(table)
    except IllegalMoveError:
        return Refusal(T.ALERT_ILLEGAL_STEP)
    except IllegalActionError:
        return Refusal(T.ALERT_STALE_BUTTON)
    return Refusal(T.ALERT_STALE_BUTTON)


def confirm(table: Table) -> Table:
    """Confirm the current play and note it in the caption."""
    state = table.state
    who = table.actor.name
    d1, d2 = state.dice or (0, 0)
    notation = format_steps(state.steps)
    new = state.confirm()
    table = table.with_state(new, T.move_played(who, f"{T.dice(d1, d2)}: {notation}"))
    if new.is_over:
        table = table.with_state(new, *_result_notes(table, new))
    elif new.last_roll_turn:
        table = table.with_state(new, T.last_roll_offered(table.actor.name))
    return table


def play_whole(table: Table, play: Play) -> Table:
    """Play a whole typed play (replacing any steps made with the buttons) and confirm."""
    state = table.state.reset_turn()
    for step in play.steps:
        state = state.step(step)
    return confirm(table.with_state(state))


def roll(table: Table, dice: DiceSource) -> Table:
    d1, d2 = dice.roll()
    return table.with_state(table.state.roll(d1, d2))


def _why_no_double(state: GameState) -> str:
    if state.variant is Variant.LONG or not state.config.cube_in_play:
        return T.ALERT_CUBE_OFF
    if state.crawford:
        return T.ALERT_CRAWFORD
    if state.cube_value >= 64:
        return T.ALERT_CUBE_MAX
    if state.cube_owner is not None and state.cube_owner is not state.turn:
        return T.ALERT_CUBE_NOT_YOURS
    return T.ALERT_DOUBLE_AFTER_ROLL


def _between_games(table: Table, action: str) -> Table | Refusal:
    state = table.state
    if action == "x":
        if state.phase is not Phase.GAME_OVER:
            return Refusal(T.ALERT_STALE_BUTTON)
        new = state.next_game()
        return table.fresh_notes().with_state(new)
    if state.phase is not Phase.MATCH_OVER:
        return Refusal(T.ALERT_STALE_BUTTON)
    return table.fresh_notes().with_state(GameState.new_match(state.config))
