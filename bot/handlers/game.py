"""Playing: the board's buttons, typed moves (/mossa or a reply to the board), resigning,
re-posting the board (/partita) and exporting the position (/posizione)."""

from __future__ import annotations

import contextlib
import logging
from dataclasses import dataclass, replace

from telegram import CallbackQuery, Message, Update
from telegram.constants import ParseMode
from telegram.error import BadRequest, TelegramError
from telegram.ext import ContextTypes

from bot import callback_data as cd
from bot import flow, pipeline, places, presenter, reach
from bot.actions import EXACT_VERSION, FRESH_NOTES, PROMPT_ACTIONS, Action
from bot.game import redraw
from bot.handlers import analysis, challenge, hints, settings
from bot.handlers.common import acknowledge, alert, reply
from bot.places import Place
from bot.services import Services, services
from bot.table import Table
from bot.texts import messages as T
from engine import (
    AmbiguousMoveError,
    EngineError,
    IllegalMoveError,
    NotationError,
    Phase,
    format_steps,
    long_position_id,
    match_id_for,
    position_id_for,
    read_play,
)
from storage import (
    CorruptGameError,
    GameNotFoundError,
    NewerGameError,
    StoredGame,
    VersionConflictError,
)

log = logging.getLogger(__name__)


class _RefusedError(Exception):
    """A press refused with a short alert; nothing changed."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.text = text


@dataclass(frozen=True, slots=True)
class _Press:
    """A board button press, decoded and checked: who pressed what, on which game."""

    query: CallbackQuery
    place: Place
    btn: cd.GameButton
    loaded: pipeline.Loaded
    index: int  # the presser's seat at the table


def _usable(btn: cd.GameButton, table: Table, stored_version: int) -> bool:
    """May a button drawn for ``btn.version`` act on the game as it is stored now?

    The exact version always may. An older one may only for a step or a take-back within
    the turn that is still being played: two quick taps on a board that has not been
    redrawn yet are both meant. Anything that ends a turn or a game needs the exact version,
    so a double click never repeats it.
    """
    if btn.version == stored_version:
        return True
    return (
        btn.action not in EXACT_VERSION
        and table.turn_version <= btn.version < stored_version
        and table.state.phase is Phase.MOVE
    )


async def on_game_button(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """A board button: decoded once, checked (game, player, message, version), then acted
    on by its typed action: saved, answered once saved, then shown."""
    query = update.callback_query
    place = places.of_update(update)
    assert query is not None and place is not None
    try:
        btn = cd.decode_game(cd.split(query.data))
    except cd.BadCallbackDataError:
        await alert(query, T.ALERT_STALE_BUTTON)
        return
    if btn.action is Action.ANALYSIS:  # on a final board: the game is over, nothing changes
        await analysis.on_analysis_button(update, context)
        return
    try:
        press = await _checked(update, context, btn, place)
    except _RefusedError as refused:
        await alert(query, refused.text)
        return
    if press is None:
        return
    if btn.action is Action.HINT:  # not a move: nothing changes
        await hints.on_hint_button(query, context, press.loaded.table, press.index)
        return
    await _act(context, press)


async def _load_pressed(svc: Services, chat_id: int) -> pipeline.Loaded | None:
    """The place's game for a press; a record that cannot be read refuses the press."""
    try:
        return await pipeline.load(svc, chat_id)
    except NewerGameError:
        raise _RefusedError(T.GAME_TOO_NEW) from None
    except CorruptGameError:
        log.exception("corrupted game in chat %s", chat_id)
        raise _RefusedError(T.GENERIC_ERROR) from None


async def _checked(
    update: Update, context: ContextTypes.DEFAULT_TYPE, btn: cd.GameButton, place: Place
) -> _Press | None:
    """The press on the game it names, by one of its players, on a message where that
    button acts, drawn for a version it may act on; None when handled already (a rematch
    of an archived match, a stale board shown again). _RefusedError otherwise."""
    query = update.callback_query
    assert query is not None
    svc = services(context)
    loaded = await _load_pressed(svc, place.key)
    if loaded is None or loaded.stored.game_id != btn.game_id:
        if btn.action is Action.REMATCH:  # the match was archived: a new one
            await challenge.rematch(update, context, btn)
            return None
        raise _RefusedError(T.ALERT_STALE_BUTTON)  # a finished or replaced game
    index = loaded.table.index_of(query.from_user.id)
    if index is None:
        raise _RefusedError(T.ALERT_NOT_A_PLAYER)
    loaded = await _on_its_message(svc, query, place, btn, loaded)
    if btn.action not in PROMPT_ACTIONS and not _usable(btn, loaded.table, loaded.stored.version):
        await _show_saved(context, query, place, btn, loaded)
        return None
    return _Press(query, place, btn, loaded, index)


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
            raise _RefusedError(T.ALERT_STALE_BUTTON)
        return loaded
    if place.is_inline or pressed_on is None or pressed_on == stored.board_message_id:
        return loaded
    adopted = None
    if _is_board_of(query, stored.game_id):
        adopted = await _adopt_board(svc, stored, btn, pressed_on)
    if adopted is None:
        raise _RefusedError(T.ALERT_STALE_BUTTON)  # an old board, replaced by /partita
    return replace(loaded, stored=adopted)


async def _show_saved(
    context: ContextTypes.DEFAULT_TYPE,
    query: CallbackQuery,
    place: Place,
    btn: cd.GameButton,
    loaded: pipeline.Loaded,
) -> None:
    """The board this button came from is not the saved game (behind it, or ahead of it
    after a storage rollback): say so and show the saved one."""
    await alert(query, T.ALERT_BOARD_UPDATED)
    stored, table = loaded.stored, loaded.table
    # A board ahead of the saved game is redrawn whatever was recorded; one behind it may
    # have been redrawn since the press (the painter knows). Only a button really on the
    # pressed message tells what the board shows: forged data is no evidence.
    ahead = btn.version > stored.version and _on_pressed_message(query)
    services(context).painter.show(stored, table, force=ahead)
    await _resume_computer(context, stored, table)


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
            await _open_offer_on_board(context, press.loaded, result)
        else:
            await _open_offer(context, press.place, press.loaded, result, reply_to=None)
        return
    await _play(context, press, result)


async def _play(context: ContextTypes.DEFAULT_TYPE, press: _Press, result: Table) -> None:
    """Save a decided press, answer it once saved, then show it (unless the board on
    screen still serves the rest of the turn: see ``bot.game.redraw``)."""
    svc = services(context)
    query, btn, loaded = press.query, press.btn, press.loaded
    if btn.action in (Action.NEXT_GAME, Action.REMATCH):
        result = await pipeline.with_fresh_dice(svc, press.place.key, result, query.id)
    auto = btn.action in (Action.STEP, Action.STEPS) and await settings.auto_confirm(
        svc, query.from_user.id
    )
    shown = loaded.stored.shown_version
    drawn = redraw.drawn_state(loaded.table, loaded.stored.version, btn.version, shown)

    def redo(fresh: pipeline.Loaded) -> Table | None:
        return _decide_again(svc, fresh, btn, query.from_user.id, auto=auto)

    async def answer(saved: Table) -> bool:
        quiet = redraw.board_serves(drawn, saved)
        state = saved.state
        await acknowledge(
            query, T.step_noted(format_steps(state.steps), state.dice_left) if quiet else None
        )
        return not quiet

    after = _decided(svc, btn, result, auto=auto)
    saved = await pipeline.commit_then_answer(
        context, loaded.stored, loaded.table, after, redo=redo, answer=answer
    )
    if saved is None:
        # Another writer changed the game and this press no longer applies: show it.
        await alert(query, T.ALERT_BOARD_UPDATED)
        await _show_current(svc, press.place.key)


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


def _here(update: Update) -> Place:
    """Where a command was written: its chat, or its forum topic (a table of its own)."""
    place = places.of_update(update)
    assert place is not None
    return place


async def _show_current(svc: Services, chat_id: int) -> None:
    """Redraw whatever the chat's game is now (after losing a race to another writer)."""
    with contextlib.suppress(CorruptGameError):
        loaded = await pipeline.load(svc, chat_id)
        if loaded is not None:
            svc.painter.show(loaded.stored, loaded.table)


async def _load_for_player(
    update: Update, context: ContextTypes.DEFAULT_TYPE
) -> tuple[pipeline.Loaded, int] | None:
    """The chat's game and the index of the user who wrote, or None after explaining why."""
    assert update.effective_user is not None
    loaded = await _load_or_explain(update, context)
    if loaded is None:
        return None
    index = loaded.table.index_of(update.effective_user.id)
    if index is None:
        await reply(update, T.ALERT_NOT_A_PLAYER)
        return None
    return loaded, index


async def on_move_command(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/mossa 13/7 8/5"""
    text = " ".join(context.args or [])
    if not text.strip():
        await reply(update, T.MOVE_USAGE)
        return
    await play_typed(update, context, text)


async def on_board_reply(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """A text reply to the board message is a typed move."""
    msg = update.effective_message
    assert msg is not None and msg.reply_to_message is not None
    if (
        msg.reply_to_message.from_user is None
        or msg.reply_to_message.from_user.id != context.bot.id
    ):
        return
    try:
        loaded = await pipeline.load(services(context), _here(update).key)
    except CorruptGameError:
        return
    if loaded is None or loaded.stored.board_message_id != msg.reply_to_message.message_id:
        return  # a reply to some other message of ours: not a move
    await play_typed(update, context, msg.text or "")


async def play_typed(update: Update, context: ContextTypes.DEFAULT_TYPE, text: str) -> None:
    """A typed move (/mossa, a reply to the board, plain text in private) for the whole roll."""
    found = await _load_for_player(update, context)
    if found is None:
        return
    loaded, index = found
    stored, table = loaded.stored, loaded.table
    state = table.state
    if state.phase is not Phase.MOVE or table.actor.user_id != table.players[index].user_id:
        await reply(update, T.MOVE_NOT_NOW)
        return
    assert state.turn_start is not None
    try:
        play = read_play(state, text)
    except NotationError:
        await reply(update, T.move_bad_notation(text))
        return
    except AmbiguousMoveError as exc:
        await reply(update, T.move_ambiguous(text, exc.options))
        return
    except IllegalMoveError as exc:
        assert state.dice is not None
        await reply(
            update,
            T.move_refused(text, exc.problem, state.dice, point=exc.point, need=exc.need),
        )
        return
    except EngineError:
        await reply(update, T.move_illegal(text))
        return
    after = flow.play_whole(flow.played_on(table, index).fresh_notes(), play)
    try:
        await pipeline.save_and_show(context, stored, table, after)
    except (VersionConflictError, GameNotFoundError):
        await reply(update, T.ALERT_BOARD_UPDATED)
        await _show_current(services(context), stored.chat_id)


async def on_resign_command(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/abbandona: open an offer to resign, asked in a short message of its own."""
    found = await _load_for_player(update, context)
    if found is None:
        return
    loaded, index = found
    result = flow.apply_action(loaded.table, index, Action.RESIGN, ())
    if isinstance(result, flow.Refusal):
        await reply(update, result.alert)
        return
    assert update.effective_message is not None
    await _open_offer(
        context,
        _here(update),
        loaded,
        result,
        reply_to=update.effective_message.message_id,
    )


async def _open_offer(
    context: ContextTypes.DEFAULT_TYPE,
    place: Place,
    loaded: pipeline.Loaded,
    after: Table,
    *,
    reply_to: int | None,
) -> None:
    """Post the resign prompt, then save the offer with the prompt's message id (so the
    prompt can be answered, and tidied once the offer is answered or moot)."""
    stored = loaded.stored
    shown = presenter.resign_prompt(after, stored.game_id, stored.version)
    assert shown is not None and after.resign is not None
    text, markup = shown
    sent = await context.bot.send_message(
        text=text,
        parse_mode=ParseMode.HTML,
        reply_markup=markup,
        reply_to_message_id=reply_to,
        **place.send(),
    )
    after = replace(after, resign=replace(after.resign, message_id=sent.message_id))
    try:
        await pipeline.save_and_show(context, stored, loaded.table, after)
    except (VersionConflictError, GameNotFoundError):
        # The game changed meanwhile: this prompt never became an offer.
        with contextlib.suppress(TelegramError):
            await context.bot.edit_message_text(
                T.ALERT_BOARD_UPDATED, chat_id=place.chat_id, message_id=sent.message_id
            )
        await _show_current(services(context), place.key)


async def _open_offer_on_board(
    context: ContextTypes.DEFAULT_TYPE, loaded: pipeline.Loaded, after: Table
) -> None:
    """An inline table cannot post a prompt: the offer is asked on the board itself."""
    assert after.resign is not None
    after = replace(after, resign=replace(after.resign, message_id=places.INLINE_BOARD_ID))
    try:
        await pipeline.save_and_show(context, loaded.stored, loaded.table, after)
    except (VersionConflictError, GameNotFoundError):
        await _show_current(services(context), loaded.stored.chat_id)


async def _load_or_explain(
    update: Update, context: ContextTypes.DEFAULT_TYPE
) -> pipeline.Loaded | None:
    """The chat's game, or None after telling the user why there is none to show."""
    try:
        loaded = await pipeline.load(services(context), _here(update).key)
    except CorruptGameError as exc:
        await reply(update, T.GAME_TOO_NEW if isinstance(exc, NewerGameError) else T.GENERIC_ERROR)
        return None
    if loaded is None:
        await reply(update, T.NO_GAME_RUNNING)
    return loaded


async def on_board_command(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/partita: post the board again at the bottom of the chat; the old one says so.

    A game adjourned because its forum topic was closed (its clock stopped) resumes here:
    once the board is posted again, the player on turn gets a fresh turn clock."""
    loaded = await _load_or_explain(update, context)
    if loaded is None:
        return
    painter = services(context).painter
    old = loaded.stored.board_message_id
    try:
        await painter.post(loaded.stored, loaded.table)
    except BadRequest as exc:
        if not places.topic_gone(exc):
            raise
        await painter.adjourn(loaded.stored.chat_id, str(exc))  # still closed: stays adjourned
        return
    await reach.restart_clock(context.application, loaded.stored, loaded.table)  # adjourned
    if old is not None:  # its caption would still say whose turn it is and what to press
        place = places.of_game(loaded.stored.chat_id, None, loaded.table.topic)
        await painter.retire_board(place.chat_id, old, T.BOARD_MOVED)


async def on_position_command(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/posizione: GNU Backgammon Position ID and Match ID (classic), our id for long."""
    loaded = await _load_or_explain(update, context)
    if loaded is None:
        return
    s = loaded.table.state
    if s.rules.gnubg_ids:
        text = T.position_classic(position_id_for(s), match_id_for(s))
    else:
        text = T.position_long(long_position_id(s.checkers[s.turn.other], s.checkers[s.turn]))
    await reply(update, text)
