"""The game flow between two decisions, without Telegram and without waiting.

After a player acts, ``advance`` plays everything that needs no decision: the opening
roll (re-rolling ties), rolling when doubling is not possible, passing a turn with no legal
play, a forced play. It stops where a person or the computer must choose (or the game is
over) and leaves notes for the caption. The computer's choices are made elsewhere, off the
event loop (``bot.computer``), and come back through ``apply_decision``.

``apply_action`` turns one button into an engine action through a table of small handlers
and reports refusals as the Italian alert to show, never as an exception.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from bot.game import step_reasons
from bot.game.actions import RESIGN_ACTIONS, Action
from bot.game.decisions import Decision, ResignQuestion
from bot.game.dice import DiceSource
from bot.game.table import OfferStage, Player, ResignOffer, Table
from bot.texts import messages as T
from bot.texts import refusals as R
from engine import (
    CLASSIC_POINTS,
    DecisionKind,
    EndReason,
    GameState,
    IllegalActionError,
    IllegalMoveError,
    Phase,
    Play,
    Side,
    format_play,
    format_steps,
)

MAX_AUTOMATIC_TURNS = 200  # a safety net against a loop of passes; real games never hit it


@dataclass(frozen=True, slots=True)
class Refusal:
    """An action refused: the alert text for the presser; nothing changed."""

    alert: str


def _name(table: Table, side: Side) -> str:
    return table.player_at(side).name


def _computer_on_turn(table: Table) -> bool:
    return table.vs_computer and table.actor.is_computer


def result_notes(table: Table, state: GameState) -> list[str]:
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
        r = replace(r, kind=T.kind_shown(r.kind, state.config))
        if r.reason is EndReason.RESIGNED:
            notes.append(T.resigned(loser, winner, r.points, r.kind))
        elif r.reason is EndReason.TIMEOUT:
            notes.append(T.timeout_loss(loser, winner, r.points, r.kind))
        elif r.reason is EndReason.DROPPED:
            notes.append(T.double_dropped(loser, winner, r.points))
        else:
            notes.append(T.game_won(winner, r.kind, r.points))
        if (
            state.config.jacoby_in_force
            and r.cube == 1
            and r.kind in state.rules.big_results
            and r.points == 1
        ):
            notes.append(T.JACOBY_NOTE)  # why a gammon scored one point
    if state.phase is Phase.MATCH_OVER and state.config.length > 1:
        # A single game is the whole contest: the game's line above already names the winner.
        w = state.match_winner
        assert w is not None
        notes.append(
            T.match_won(
                table.players[w].name,
                state.variant,
                state.config.length,
                state.score[w],
                state.score[1 - w],
            )
        )
    return notes


def resign_question(table: Table) -> ResignQuestion | None:
    """The offer to resign the computer must answer now, if there is one."""
    offer = table.open_offer
    if (
        offer is None
        or offer.stage is not OfferStage.OFFERED
        or offer.kind is None
        or not table.players[1 - offer.player].is_computer
    ):
        return None
    side = table.state.side_of(offer.player)
    return ResignQuestion(int(side), CLASSIC_POINTS.get(offer.kind, 1))


def computer_question(table: Table) -> DecisionKind | None:
    """The kind of decision the computer owes now, or None when it is nobody's or a
    person's (the worker makes it: ``bot.computer.decide``)."""
    state = table.state
    if state.is_over:
        return None
    if resign_question(table) is not None:
        return DecisionKind.RESIGN
    if not _computer_on_turn(table):
        return None
    if state.phase is Phase.DOUBLED:
        return DecisionKind.TAKE
    if state.phase is Phase.ROLL and state.cube_available:
        return DecisionKind.DOUBLE
    if state.phase is Phase.MOVE and state.legal_plays():
        return DecisionKind.PLAY
    return None


def advance(table: Table, dice: DiceSource) -> Table:
    """Play automatically until a person or the computer must decide, or the game is over.

    What needs no decision is played here: the opening roll (re-rolling ties), rolling when
    doubling is not possible, passing a turn with no legal play and a forced play. The
    computer's own decisions are not: they take real CPU time, so the caller obtains them
    off the event loop (``bot.computer``) and feeds them back through ``apply_decision``.
    """
    for _ in range(MAX_AUTOMATIC_TURNS):
        state = table.state
        if state.is_over or computer_question(table) is not None:
            return table
        if state.phase is Phase.OPENING:
            d0, d1 = dice.die(), dice.die()
            state = state.roll_opening(d0, d1)
            if state.phase is Phase.OPENING:
                table = table.with_state(state, T.opening_tie(d0))
                continue
            table = table.rolled(state)
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
            return table  # a person must take or drop
        if state.phase is Phase.ROLL:
            if state.cube_available and not _computer_on_turn(table):
                return table  # a person may double: wait for Tira / Raddoppia
            table = roll(table, dice)
            continue
        # Phase.MOVE
        plays = state.legal_plays()
        who = table.actor.name
        d1, d2 = state.dice or (0, 0)
        if not plays and not state.steps:
            table = table.with_state(state.confirm(), T.no_moves(who, d1, d2))
        elif len(plays) == 1 and not state.steps:
            table = _forced(
                table, state.play(plays[0]), who, f"{T.dice(d1, d2)} {format_play(plays[0])}"
            )
        else:
            return table
        table = _after_turn(table)
    return table


def _forced(table: Table, state: GameState, who: str, notation: str) -> Table:
    """The table after a forced play made for ``who``: forced plays in a row share one
    caption line instead of a line each."""
    if table.notes and table.notes[-1].startswith(T.FORCED_HEAD):
        merged = T.more_forced(table.notes[-1], who, notation)
        return replace(table, notes=table.notes[:-1]).with_state(state, merged)
    return table.with_state(state, T.forced_move(who, notation))


def apply_decision(table: Table, decision: Decision, dice: DiceSource) -> Table:
    """Play the computer's decision (made off the event loop) on the table."""
    state = table.state
    who = table.actor.name
    if decision.kind is DecisionKind.RESIGN:
        offer = table.open_offer
        assert offer is not None
        if decision.yes:
            result = _resigned(table, offer)
            assert not isinstance(result, Refusal), result
            return result
        return table.with_offer_stage(OfferStage.DECLINED)
    if decision.kind is DecisionKind.TAKE:
        if decision.yes:
            new = state.take()
            return table.with_state(new, T.double_taken(who, new.cube_value))
        new = state.drop()
        return table.with_state(new, *result_notes(table, new))
    if decision.kind is DecisionKind.DOUBLE:
        if decision.yes:
            return table.with_state(state.double(), T.double_offered(who, state.cube_value * 2))
        return roll(table, dice)  # no double: roll, as anyone who does not double
    play = decision.play
    assert play is not None
    d1, d2 = state.dice or (0, 0)
    table = table.with_state(
        state.play(play), T.move_played(who, f"{T.dice(d1, d2)}: {format_play(play)}")
    )
    return _after_turn(table)


def _after_turn(table: Table) -> Table:
    """Notes that follow a finished turn: the result, or the offer of the last roll."""
    state = table.state
    if state.is_over:
        return table.with_state(state, *result_notes(table, state))
    if state.last_roll_turn and state.phase is Phase.ROLL:
        return table.with_state(state, T.last_roll_offered(table.actor.name))
    return table


# --------------------------------------------------------------------------- one press
Handler = Callable[[Table, Player, tuple[int, ...]], "Table | Refusal"]


def _roll(table: Table, me: Player, args: tuple[int, ...]) -> Table | Refusal:
    if table.state.phase is Phase.DOUBLED:  # a stale board's roll: the double comes first
        return Refusal(T.ALERT_DOUBLE_PENDING)
    if table.state.phase is not Phase.ROLL:
        return Refusal(T.ALERT_ALREADY_ROLLED)
    return table  # the caller rolls with real dice (``roll``): this stays pure


def _double(table: Table, me: Player, args: tuple[int, ...]) -> Table | Refusal:
    state = table.state
    if state.phase is not Phase.ROLL:
        return Refusal(T.ALERT_DOUBLE_AFTER_ROLL)
    if not state.cube_available:
        return Refusal(_why_no_double(state))
    return table.with_state(state.double(), T.double_offered(me.name, state.cube_value * 2))


def _take(table: Table, me: Player, args: tuple[int, ...]) -> Table | Refusal:
    if table.state.phase is not Phase.DOUBLED:
        return Refusal(R.NO_DOUBLE_OFFERED)
    new = table.state.take()
    return table.with_state(new, T.double_taken(me.name, new.cube_value))


def _drop(table: Table, me: Player, args: tuple[int, ...]) -> Table | Refusal:
    if table.state.phase is not Phase.DOUBLED:
        return Refusal(R.NO_DOUBLE_OFFERED)
    new = table.state.drop()
    return table.with_state(new, *result_notes(table, new))


def _moving(table: Table) -> Refusal | None:
    phase = table.state.phase
    if phase is Phase.ROLL:
        return Refusal(T.ALERT_ROLL_FIRST)
    if phase is Phase.DOUBLED:
        return Refusal(R.ANSWER_THE_DOUBLE_FIRST)
    if phase is not Phase.MOVE:
        return Refusal(T.ALERT_STALE_BUTTON)
    return None


def _step(table: Table, me: Player, args: tuple[int, ...]) -> Table | Refusal:
    if refusal := _moving(table):
        return refusal
    src, dst, die = args
    try:
        return table.with_state(table.state.step((src, dst, die)))
    except IllegalMoveError:
        return Refusal(step_reasons.refusal(table.state, src, dst, die))


def _steps(table: Table, me: Player, args: tuple[int, ...]) -> Table | Refusal:
    """A shortcut: several steps in one tap, each checked by the engine.

    A shortcut goes on from the state its board was drawn for. Pressed on a board not
    redrawn since some of its own steps were made one by one, it plays the steps it has
    left; one that goes on from nothing made is refused with what was made instead.
    """
    if refusal := _moving(table):
        return refusal
    state = table.state
    wanted = [tuple(args[i : i + 3]) for i in range(0, len(args), 3)]
    played = _stepped(state, wanted)
    if isinstance(played, GameState):
        return table.with_state(played)
    if state.steps:
        rest = list(wanted)
        for made in ((s.src, s.dst, s.die) for s in state.steps):
            if made in rest:
                rest.remove(made)
        if len(rest) < len(wanted):
            continued = _stepped(state, rest)
            if isinstance(continued, GameState):
                return table.with_state(continued)
        return Refusal(step_reasons.shortcut_refusal(state))
    return played


def _stepped(state: GameState, steps: list[tuple[int, ...]]) -> GameState | Refusal:
    """The state after ``steps``, or the refusal of the first one that is not legal."""
    for src, dst, die in steps:
        try:
            state = state.step((src, dst, die))
        except IllegalMoveError:
            return Refusal(step_reasons.refusal(state, src, dst, die))
    return state


def _undo(table: Table, me: Player, args: tuple[int, ...]) -> Table | Refusal:
    if refusal := _moving(table):
        return refusal
    if not table.state.steps:
        return Refusal(T.ALERT_NOTHING_TO_UNDO)
    return table.with_state(table.state.undo())


def _confirm(table: Table, me: Player, args: tuple[int, ...]) -> Table | Refusal:
    if refusal := _moving(table):
        return refusal
    if not table.state.play_complete:
        return Refusal(T.ALERT_MOVE_INCOMPLETE)
    return confirm(table)


#: The actions of the player on turn, each a small pure function.
TURN_ACTIONS: dict[Action, Handler] = {
    Action.ROLL: _roll,
    Action.DOUBLE: _double,
    Action.TAKE: _take,
    Action.DROP: _drop,
    Action.STEP: _step,
    Action.STEPS: _steps,
    Action.UNDO: _undo,
    Action.CONFIRM: _confirm,
}


def apply_action(
    table: Table, player_index: int, action: Action | str, args: tuple[int, ...]
) -> Table | Refusal:
    """One button press by ``player_index``: the new table, or a Refusal (nothing changed).

    Resigning and moving between games may come from either player; every other action
    belongs to the player on turn and is found in ``TURN_ACTIONS``.
    """
    try:
        action = Action(action)
    except ValueError:
        return Refusal(T.ALERT_BUTTON_UNKNOWN)
    state = table.state
    if action in (Action.NEXT_GAME, Action.REMATCH):
        return _between_games(table, action)
    if action in RESIGN_ACTIONS:
        return _resign(table, player_index, action, args)
    if state.is_over:
        return Refusal(T.ALERT_GAME_OVER)
    me = table.players[player_index]
    if table.actor.user_id != me.user_id or table.actor.is_computer:
        return Refusal(T.ALERT_NOT_YOUR_TURN)
    handler = TURN_ACTIONS.get(action)
    if handler is None:
        return Refusal(T.ALERT_BUTTON_UNKNOWN)
    try:
        return handler(played_on(table, player_index), me, args)
    except IllegalMoveError:
        return Refusal(T.ALERT_ILLEGAL_STEP)
    except (IllegalActionError, ValueError):
        return Refusal(T.ALERT_STALE_BUTTON)


def played_on(table: Table, player_index: int) -> Table:
    """A player acting on their turn withdraws their own open offer to resign."""
    offer = table.open_offer
    if offer is not None and offer.player == player_index:
        return table.with_offer_stage(OfferStage.WITHDRAWN)
    return table


def close_moot_offer(table: Table) -> Table:
    """An offer still open when its game has ended some other way is moot (an offer to
    leave a match made between two games, once the next game has started)."""
    offer = table.open_offer
    if offer is None:
        return table
    waiting = offer.between_games and table.state.phase is Phase.GAME_OVER
    if (table.state.is_over and not waiting) or offer.game_number != table.state.game_number:
        return table.with_offer_stage(OfferStage.MOOT)
    return table


def _resign(  # noqa: C901 - one flat table of the resignation prompt's cases
    table: Table, player_index: int, action: Action, args: tuple[int, ...]
) -> Table | Refusal:
    state = table.state
    offer = table.open_offer
    if action is Action.RESIGN:
        between = state.phase is Phase.GAME_OVER
        if (state.is_over and not between) or state.phase is Phase.OPENING:
            return Refusal(T.ALERT_GAME_OVER)
        if offer is not None:
            mine = offer.player == player_index
            return Refusal(T.ALERT_RESIGN_OPEN if mine else T.ALERT_RESIGN_PENDING)
        if between:  # only the match is left to leave
            ask = ResignOffer(player_index, OfferStage.ASKED, state.game_number, between_games=True)
            return replace(table, resign=ask)
        return _ask(table, player_index)
    if offer is None or (state.is_over and not offer.between_games):
        return Refusal(T.ALERT_PROMPT_CLOSED)
    mine = offer.player == player_index
    if action is Action.LEAVE_MATCH:
        if not mine:
            return Refusal(T.ALERT_RESIGN_NOT_YOURS)
        if offer.stage is not OfferStage.ASKED or state.config.length < 2:
            return Refusal(T.ALERT_PROMPT_CLOSED)
        return left_match(table, offer.player)
    if action in (Action.RESIGN_ACCEPT, Action.RESIGN_DECLINE):
        if mine:
            return Refusal(T.ALERT_RESIGN_FOR_OPPONENT)
        if offer.stage is not OfferStage.OFFERED:
            return Refusal(T.ALERT_PROMPT_CLOSED)
        if action is Action.RESIGN_DECLINE:
            return table.with_offer_stage(OfferStage.DECLINED)
        return _resigned(table, offer)
    if not mine:
        return Refusal(T.ALERT_RESIGN_NOT_YOURS)
    if offer.stage is not OfferStage.ASKED:
        return Refusal(T.ALERT_PROMPT_CLOSED)
    if action is Action.RESIGN_NO:
        return table.with_offer_stage(OfferStage.CANCELLED)
    if action is Action.RESIGN_YES:
        if offer.kind is None:  # classic: a level must be offered to the opponent
            return Refusal(T.ALERT_STALE_BUTTON)
        return _resigned(table, offer)
    # Action.RESIGN_LEVEL (classic): offer the level worth args[0] points before the cube.
    side, rules = state.side_of(offer.player), state.rules
    for level in state.resign_levels(side):
        if rules.offers_resign_levels and rules.points(level.kind, state.config) == args[0]:
            offered = replace(offer, stage=OfferStage.OFFERED, kind=level.kind, points=level.points)
            return replace(table, resign=offered)
    return Refusal(T.ALERT_STALE_BUTTON)


def left_match(table: Table, player_index: int, *, on_time: bool = False) -> Table:
    """``player_index`` leaves the whole match or series: the opponent wins it. A game
    under way ends as if they had resigned it (or run out of time)."""
    state = table.state
    between = state.is_over
    new = state.forfeit(state.side_of(player_index), on_time=on_time)
    loser, winner = table.players[player_index], table.players[1 - player_index]
    table = table.with_offer_stage(OfferStage.LEFT).fresh_notes()
    notes = result_notes(table, new)
    if between:  # the last game's line was said when it ended: the match's line only
        notes = notes[-1:]
    return table.with_state(new, T.match_left(loser.name, winner.name, state.variant), *notes)


def _ask(table: Table, player_index: int) -> Table:
    """Open an offer to resign. Long states its price now: the position decides it, and
    only the resigner's own play (which withdraws the offer) could change it."""
    state = table.state
    offer = ResignOffer(player_index, OfferStage.ASKED, state.game_number)
    if not state.rules.offers_resign_levels:
        value = state.resign_value(state.side_of(player_index))
        offer = replace(offer, kind=value.kind, points=value.points)
    return replace(table, resign=offer)


def _resigned(table: Table, offer: ResignOffer) -> Table | Refusal:
    """End the game with exactly the result the offer announced."""
    assert offer.kind is not None
    state = table.state
    try:
        new = state.resign(state.side_of(offer.player), offer.kind)
    except IllegalActionError:
        return Refusal(T.ALERT_STALE_BUTTON)
    assert new.result is not None
    if new.result.points != offer.points:
        return Refusal(T.ALERT_STALE_BUTTON)  # never expected: the price moved
    table = table.with_offer_stage(OfferStage.ACCEPTED).with_state(new)
    return table.with_state(new, *result_notes(table, new))


def confirm(table: Table) -> Table:
    """Confirm the current play and note it in the caption."""
    state = table.state
    who = table.actor.name
    d1, d2 = state.dice or (0, 0)
    notation = format_steps(state.steps)
    new = state.confirm()
    table = table.with_state(new, T.move_played(who, f"{T.dice(d1, d2)}: {notation}"))
    if new.is_over:
        table = table.with_state(new, *result_notes(table, new))
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
    """Roll for the side on turn (in Phase.ROLL)."""
    d1, d2 = dice.roll()
    return table.rolled(table.state.roll(d1, d2))


def _why_no_double(state: GameState) -> str:
    if not state.rules.has_cube or not state.config.cube_in_play:
        return T.ALERT_CUBE_OFF
    if state.crawford:
        return T.ALERT_CRAWFORD
    if state.cube_value >= 64:
        return T.ALERT_CUBE_MAX
    if state.cube_owner is not None and state.cube_owner is not state.turn:
        return T.ALERT_CUBE_NOT_YOURS
    return T.ALERT_DOUBLE_AFTER_ROLL


def _between_games(table: Table, action: Action) -> Table | Refusal:
    state = table.state
    if action is Action.NEXT_GAME:
        if state.phase is not Phase.GAME_OVER:
            return Refusal(R.GAME_NOT_OVER if not state.is_over else T.ALERT_MATCH_OVER)
        new = state.next_game()
        return table.fresh_notes().with_state(new)
    if state.phase is not Phase.MATCH_OVER:
        return Refusal(R.MATCH_NOT_OVER)
    return table.fresh_notes().with_state(GameState.new_match(state.config))
