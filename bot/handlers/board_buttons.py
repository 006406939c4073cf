"""The board's buttons: a press decoded once into a typed `GameButton`, checked (its game,
its player, the message it came from, the version it was drawn for), then acted on by its
action in small steps: decided by the rules, saved, answered once saved, then shown.

Whether the board is redrawn is decided from the game's states (`bot.game.redraw`).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, replace

from telegram import CallbackQuery, Message, Update
from telegram.ext import ContextTypes

from bot import dice_words, pipeline, tables
from bot.adapters import callback_data as cd
from bot.adapters import places
from bot.adapters.places import Place
from bot.game import flow, redraw
from bot.game.actions import EXACT_VERSION, FRESH_NOTES, PROMPT_ACTIONS, Action
from bot.game.table import Table
from bot.handlers import analysis, challenge, game, hints, settings
from bot.handlers.common import acknowledge, alert
from bot.services import Services, services
from bot.texts import messages as T
from bot.texts import refusals as R
from engine import Phase, format_steps
from storage import CorruptGameError, NewerGameError, PressReads, StoredGame

log = logging.getLogger(__name__)


class _RefusedError(Exception):
    """A press refused with a short alert; nothing changed."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.text = text


#: Actions decided by the phase alone (see ``_usable``).
PHASE_DECIDED = frozenset({Action.ROLL, Action.DOUBLE, Action.TAKE, Action.DROP})


@dataclass(frozen=True, slots=True)
class _Press:
    """A board button press, decoded and checked: who pressed what, on which game."""

    query: CallbackQuery
    place: Place
    btn: cd.GameButton
    loaded: pipeline.Loaded
    index: int  # the presser's seat at the table
    preferences: dict[str, str]  # the presser's settings, read with the game


def _usable(btn: cd.GameButton, table: Table, stored_version: int) -> bool:
    """May a button drawn for ``btn.version`` act on the game as it is stored now?

    The exact version always may. An older one may only for a step or a take-back within
    the turn that is still being played: two quick taps on a board that has not been
    redrawn yet are both meant. Rolling, doubling and answering a double are decided by
    the phase, which nothing but those actions changes within a turn: an older board of the
    same turn (redrawn since for a resign offer, say) may do them, and a double click finds
    them done. Anything else that ends a turn or a game needs the exact version, so a double
    click never repeats it.
    """
    if btn.version == stored_version:
        return True
    if table.board_base is not None and btn.version == table.board_base:
        return True  # the board on screen, left untouched while a resign prompt was answered
    if not table.turn_version <= btn.version < stored_version:
        return False  # a roll or a turn came since the board was drawn (or a forged one)
    if btn.action in PHASE_DECIDED:
        return True
    return btn.action not in EXACT_VERSION and table.state.phase is Phase.MOVE


async def on_game_button(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """A board button: decoded once, checked (game, player, message, version), then acted
    on by its typed action: saved, answered once saved, then shown."""
    query = update.callback_query
    place = places.of_update(update)
    assert query is not None and place is not None
    try:
        btn = cd.decode_game(cd.split(query.data))
    except cd.BadCallbackDataError:
        await alert(query, T.ALERT_BUTTON_UNKNOWN)
        return
    if btn.action is Action.ANALYSIS:  # on a final board: the game is over, nothing changes
        await analysis.on_analysis_button(update, context)
        return
    # The board's table, the game there and the presser's settings, in one round trip.
    place, reads = await tables.for_press(services(context), place, btn.game_id, query.from_user.id)
    try:
        press = await _checked(update, context, btn, place, reads)
    except _RefusedError as refused:
        await alert(query, refused.text)
        return
    if press is None:
        return
    if btn.action is Action.HINT:  # not a move: nothing changes
        await hints.on_hint_button(query, context, press.loaded.table, press.index)
        return
    await _act(context, press)


async def _load_pressed(svc: Services, chat_id: int, reads: PressReads) -> pipeline.Loaded | None:
    """The place's game for a press (read with the press's other reads when at the room's
    own table); a record that cannot be read refuses the press."""
    try:
        if reads.place == chat_id:
            return pipeline.as_loaded(reads.stored())
        return await pipeline.load(svc, chat_id)
    except NewerGameError:
        raise _RefusedError(T.GAME_TOO_NEW) from None
    except CorruptGameError:
        log.exception("corrupted game in chat %s", chat_id)
        raise _RefusedError(T.GENERIC_ERROR) from None


async def _checked(
    update: Update,
    context: ContextTypes.DEFAULT_TYPE,
    btn: cd.GameButton,
    place: Place,
    reads: PressReads,
) -> _Press | None:
    """The press on the game it names, by one of its players, on a message where that
    button acts, drawn for a version it may act on; None when handled already (a rematch
    of an archived match, a stale board shown again). _RefusedError otherwise."""
    query = update.callback_query
    assert query is not None
    svc = services(context)
    loaded = await _load_pressed(svc, place.key, reads)
    if loaded is None or loaded.stored.game_id != btn.game_id:
        if btn.action in (Action.REMATCH, Action.REMATCH_DECLINE):  # the match was archived
            await challenge.rematch(update, context, btn)
            return None
        raise _RefusedError(T.ALERT_BUTTON_GAME_OVER)  # a finished or replaced game
    index = loaded.table.index_of(query.from_user.id)
    if index is None:
        raise _RefusedError(T.ALERT_NOT_A_PLAYER)
    loaded = await _on_its_message(svc, query, place, btn, loaded)
    if btn.action not in PROMPT_ACTIONS and not _usable(btn, loaded.table, loaded.stored.version):
        await _show_saved(context, query, place, btn, loaded, index)
        return None
    return _Press(query, place, btn, loaded, index, reads.preferences)


async def _on_its_message(
    svc: Services, query: CallbackQuery, place: Place, btn: cd.GameButton, loaded: pipeline.Loaded
) -> pipeline.Loaded:
    """The game, once the press is known to come from where its button acts: the resign
    prompt of the open offer, or the game's board (adopting a board never recorded)."""
    stored = loaded.stored
    # An inline message is the board itself (and carries the resign prompt too).
    pressed_on = (
        places.INLINE_BOARD_ID
        if place.is_inline
        else (None if query.message is None else query.message.message_id)
    )
    if btn.action in PROMPT_ACTIONS:
        # The resign prompt is a message of its own that outlives the board's versions: its
        # buttons act while the offer they were drawn for is open (flow checks the stage).
        offer = loaded.table.open_offer
        if pressed_on is None or offer is None or offer.message_id != pressed_on:
            raise _RefusedError(T.ALERT_PROMPT_CLOSED)
        return loaded
    if place.is_inline or pressed_on is None or pressed_on == stored.board_message_id:
        return loaded
    adopted = None
    if _is_board_of(query, stored.game_id):
        adopted = await _adopt_board(svc, stored, btn, pressed_on)
    if adopted is None:
        raise _RefusedError(T.ALERT_BUTTON_OLD_BOARD)  # an old board, replaced by /partita
    return replace(loaded, stored=adopted)


async def _show_saved(
    context: ContextTypes.DEFAULT_TYPE,
    query: CallbackQuery,
    place: Place,
    btn: cd.GameButton,
    loaded: pipeline.Loaded,
    index: int,
) -> None:
    """The board this button came from is not the saved game (behind it, or ahead of it
    after a storage rollback): say why the press does nothing on the saved game, and when
    the saved one will be shown, and show it."""
    stored, table = loaded.stored, loaded.table
    svc = services(context)
    await alert(query, _stale_refusal(svc, place, btn, table, index))
    # A board ahead of the saved game is redrawn whatever was recorded; one behind it may
    # have been redrawn since the press (the painter knows). Only a button really on the
    # pressed message tells what the board shows: forged data is no evidence.
    ahead = btn.version > stored.version and _on_pressed_message(query)
    svc.painter.show(stored, table, force=ahead)
    await _resume_computer(context, stored, table)


def _stale_refusal(
    svc: Services, place: Place, btn: cd.GameButton, table: Table, index: int
) -> str:
    """Why a press from a board behind the game does nothing (the saved game's own
    refusal of it when it has one, e.g. the dice already rolled), and when the board on
    screen catches up."""
    decided = flow.apply_action(table, index, btn.action, btn.args)
    wait = svc.painter.redraw_wait(place.key, place)
    if isinstance(decided, flow.Refusal):
        return R.with_redraw_wait(decided.alert, wait)
    return R.board_updated(wait)


async def _act(context: ContextTypes.DEFAULT_TYPE, press: _Press) -> None:
    """Decide the press by the rules, then ask to resign or play it."""
    btn, stored, table = press.btn, press.loaded.stored, press.loaded.table
    base = table.fresh_notes() if btn.action in FRESH_NOTES else table
    result = flow.apply_action(base, press.index, btn.action, btn.args)
    if isinstance(result, flow.Refusal):
        await alert(press.query, result.alert)
        if btn.version != stored.version:
            services(context).painter.show(stored, table)
        await _resume_computer(context, stored, table)
        return
    if btn.action is Action.RESIGN:
        await acknowledge(press.query, None)
        if press.place.is_inline:
            await game.open_offer_on_board(context, press.loaded, result)
        else:
            await game.open_offer(context, press.place, press.loaded, result, reply_to=None)
        return
    await _play(context, press, result)


async def _play(context: ContextTypes.DEFAULT_TYPE, press: _Press, result: Table) -> None:
    """Save a decided press, answer it once saved, then show it (unless the board on
    screen still serves the rest of the turn: see ``bot.game.redraw``)."""
    svc = services(context)
    query, btn, loaded = press.query, press.btn, press.loaded
    if btn.action in (Action.NEXT_GAME, Action.REMATCH):
        result = await pipeline.with_fresh_dice(svc, press.place.key, result)
    auto = btn.action in (Action.STEP, Action.STEPS) and settings.auto_confirm_in(
        svc, press.preferences
    )
    shown = loaded.stored.shown_version
    drawn = redraw.drawn_state(loaded.table, loaded.stored.version, btn.version, shown)

    def redo(fresh: pipeline.Loaded) -> Table | None:
        return _decide_again(svc, fresh, btn, query.from_user.id, auto=auto)

    async def answer(saved: Table) -> bool:
        quiet = redraw.board_serves(drawn, saved)
        state = saved.state
        if quiet:
            await acknowledge(query, T.step_noted(format_steps(state.steps), state.dice_left))
            return False
        wait = svc.painter.redraw_wait(press.place.key, press.place)
        await acknowledge(query, R.redraw_soon(wait) if wait >= R.WAIT_WORTH_SAYING else None)
        return True

    after = _decided(svc, btn, result, auto=auto)
    saved = await pipeline.commit_then_answer(
        context, loaded.stored, loaded.table, after, redo=redo, answer=answer
    )
    if saved is None:
        # Another writer changed the game and this press no longer applies: show it.
        await alert(query, T.ALERT_BOARD_UPDATED)
        await game.show_current(svc, press.place.key)
    elif saved.table.dice is not None and saved.table.dice != loaded.table.dice:
        await dice_words.post_commitment(context.bot, press.place, saved.table)  # a new game


def _on_pressed_message(query: CallbackQuery) -> bool:
    """Is the pressed data one of the pressed message's own buttons (Telegram sends the
    message with its keyboard, which the presser cannot change)? Unknown on inline boards."""
    message = query.message
    if not isinstance(message, Message) or message.reply_markup is None:
        return False
    keyboard = message.reply_markup.inline_keyboard
    return any(button.callback_data == query.data for row in keyboard for button in row)


def _is_board_of(query: CallbackQuery, game_id: int) -> bool:
    """Is the pressed message a board picture of this game (a photo whose own keyboard,
    which the presser cannot change, has this game's buttons)? Only such a message may be
    adopted as the board: game data forged onto a card or a text must change nothing."""
    message = query.message
    if not isinstance(message, Message) or not message.photo or message.reply_markup is None:
        return False
    datas = (b.callback_data for row in message.reply_markup.inline_keyboard for b in row)
    found = cd.first_game_button(datas)
    return found is not None and found.game_id == game_id


async def _resume_computer(
    context: ContextTypes.DEFAULT_TYPE, stored: StoredGame, table: Table
) -> None:
    """Play the move the computer owes when a stop cut it short (it plays after the answer
    to the press before it, and a process can die meanwhile): a press finds it owed."""
    if flow.computer_question(table) is None:
        return
    saved = await pipeline.computer_turn(services(context), stored, table)
    if saved is not None:
        pipeline.follow_up(context.application, saved)


async def _adopt_board(
    svc: Services, stored: StoredGame, btn: cd.GameButton, message_id: int
) -> StoredGame | None:
    """Record a pressed board of the chat's game whose message id was never recorded (a
    crash right after posting it, a reply that timed out), or None for an older board.

    Telegram numbers a chat's messages in order: a board of this game newer than the one
    recorded can only be one the bot posted and did not get to record.
    """
    if btn.game_id != stored.game_id:
        return None
    if stored.board_message_id is not None and message_id < stored.board_message_id:
        return None
    shown = stored.shown_version
    if shown is None:
        shown = min(btn.version, stored.version)
    if not await svc.repo.mark_shown(stored.chat_id, stored.game_id, shown, message_id):
        return None
    log.info("board %s of chat %s adopted", message_id, stored.chat_id)
    svc.painter.adopt(stored.chat_id, stored.game_id, message_id)
    return replace(stored, board_message_id=message_id, shown_version=shown)


def _decided(svc: Services, btn: cd.GameButton, result: Table, *, auto: bool) -> Table:
    """The table a press leads to: dice rolled for a roll, a finished roll confirmed for a
    player who asked for that."""
    after = (
        flow.roll(result, pipeline.dice_for(svc, result)) if btn.action is Action.ROLL else result
    )
    if auto and redraw.finished_roll(after):
        after = flow.confirm(after.fresh_notes())
    return after


def _decide_again(
    svc: Services, fresh: pipeline.Loaded, btn: cd.GameButton, user_id: int, *, auto: bool
) -> Table | None:
    """A press decided anew on a game another writer changed meanwhile, if it still applies
    (a step of the same turn that is still legal); None otherwise."""
    stored, table = fresh.stored, fresh.table
    index = table.index_of(user_id)
    if stored.game_id != btn.game_id or index is None or btn.action in PROMPT_ACTIONS:
        return None
    if not _usable(btn, table, stored.version):
        return None
    base = table.fresh_notes() if btn.action in FRESH_NOTES else table
    result = flow.apply_action(base, index, btn.action, btn.args)
    if isinstance(result, flow.Refusal):
        return None
    return _decided(svc, btn, result, auto=auto)
