"""Playing: the board's buttons, typed moves (/mossa or a reply to the board), resigning,
re-posting the board (/partita) and exporting the position (/posizione)."""

from __future__ import annotations

import contextlib
import logging
from dataclasses import replace

from telegram import CallbackQuery, InlineKeyboardMarkup, Message, Update
from telegram.constants import ParseMode
from telegram.error import BadRequest, TelegramError
from telegram.ext import ContextTypes

from bot import pipeline, reach
from bot.adapters import callback_data as cd
from bot.adapters import places
from bot.adapters.places import Place
from bot.game import flow
from bot.game.actions import EXACT_VERSION, FRESH_NOTES, PROMPT_ACTIONS, Action
from bot.game.table import Table
from bot.handlers import analysis, challenge, hints, settings
from bot.handlers.common import acknowledge, alert, reply
from bot.services import Services, services
from bot.texts import messages as T
from bot.views import inline_board, presenter
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


async def on_game_button(  # noqa: C901 - the whole tap, in order: read, decide, save, answer, show
    update: Update, context: ContextTypes.DEFAULT_TYPE
) -> None:
    """A board button: decide at once, save, answer once saved, then show."""
    query = update.callback_query
    place = places.of_update(update)
    assert query is not None and place is not None
    svc = services(context)
    try:
        btn = cd.decode_game(cd.split(query.data))
    except cd.BadCallbackDataError:
        await alert(query, T.ALERT_STALE_BUTTON)
        return
    if btn.action is Action.ANALYSIS:  # on a final board: the game is over, nothing changes
        await analysis.on_analysis_button(update, context)
        return
    chat_id = place.key
    try:
        loaded = await pipeline.load(svc, chat_id)
    except NewerGameError:
        await alert(query, T.GAME_TOO_NEW)
        return
    except CorruptGameError:
        log.exception("corrupted game in chat %s", chat_id)
        await alert(query, T.GENERIC_ERROR)
        return
    if btn.action is Action.REMATCH and (loaded is None or loaded.stored.game_id != btn.game_id):
        await challenge.rematch(update, context, btn)  # the match was archived: a new one
        return
    if loaded is None or loaded.stored.game_id != btn.game_id:
        await alert(query, T.ALERT_STALE_BUTTON)  # a finished or replaced game
        return
    stored, table = loaded.stored, loaded.table
    index = table.index_of(query.from_user.id)
    if index is None:
        await alert(query, T.ALERT_NOT_A_PLAYER)
        return
    # An inline message is the board itself (and carries the resign prompt too).
    pressed_on = (
        places.INLINE_BOARD_ID
        if place.is_inline
        else (None if query.message is None else query.message.message_id)
    )
    if btn.action in PROMPT_ACTIONS:
        # The resign prompt is a message of its own that outlives the board's versions: its
        # buttons act while the offer they were drawn for is open (flow checks the stage).
        offer = table.open_offer
        if pressed_on is None or offer is None or offer.message_id != pressed_on:
            await alert(query, T.ALERT_STALE_BUTTON)
            return
    elif not place.is_inline and pressed_on is not None and pressed_on != stored.board_message_id:
        adopted = None
        if _is_board_of(query, stored.game_id):
            adopted = await _adopt_board(svc, stored, btn, pressed_on)
        if adopted is None:
            await alert(query, T.ALERT_STALE_BUTTON)  # an old board, replaced by /partita
            return
        stored = adopted
        loaded = replace(loaded, stored=adopted)
    if btn.action not in PROMPT_ACTIONS and not _usable(btn, table, stored.version):
        # The board this button came from is not the saved game (behind it, or ahead of it
        # after a storage rollback): show the saved one.
        await alert(query, T.ALERT_BOARD_UPDATED)
        shows = _version_on_screen(query)
        # A board ahead of the saved game is redrawn whatever was recorded; one behind it
        # may have been redrawn since the press (the painter knows).
        svc.painter.show(stored, table, force=shows is not None and shows > stored.version)
        await _resume_computer(context, stored, table)
        return
    if btn.action is Action.HINT:
        await hints.on_hint_button(query, context, table, index)
        return
    base = table.fresh_notes() if btn.action in FRESH_NOTES else table
    result = flow.apply_action(base, index, btn.action, btn.args)
    if isinstance(result, flow.Refusal):
        await alert(query, result.alert)
        if btn.version != stored.version:
            svc.painter.show(stored, table)
        await _resume_computer(context, stored, table)
        return
    if btn.action is Action.RESIGN:
        await acknowledge(query, None)
        if place.is_inline:
            await _open_offer_on_board(context, loaded, result)
        else:
            await _open_offer(context, place, loaded, result, reply_to=None)
        return
    if btn.action in (Action.NEXT_GAME, Action.REMATCH):
        result = await pipeline.with_fresh_dice(svc, chat_id, result, query.id)
    auto = btn.action in (Action.STEP, Action.STEPS) and await settings.auto_confirm(
        svc, query.from_user.id
    )
    on_screen = _keyboard_on_screen(query, place, btn, loaded, svc)

    def redo(fresh: pipeline.Loaded) -> Table | None:
        return _decide_again(svc, fresh, btn, query.from_user.id, auto=auto)

    async def answer(saved: Table) -> bool:
        quiet = _keyboard_still_serves(on_screen, saved)
        state = saved.state
        await acknowledge(
            query, T.step_noted(format_steps(state.steps), state.dice_left) if quiet else None
        )
        return not quiet

    after = _decided(svc, btn, result, auto=auto)
    saved = await pipeline.commit_then_answer(
        context, stored, table, after, redo=redo, answer=answer
    )
    if saved is None:
        # Another writer changed the game and this press no longer applies: show it.
        await alert(query, T.ALERT_BOARD_UPDATED)
        await _show_current(svc, chat_id)


def _is_board_of(query: CallbackQuery, game_id: int) -> bool:
    """Is the pressed message a board picture of this game (a photo whose own keyboard,
    which the presser cannot change, has this game's buttons)? Only such a message may be
    adopted as the board: game data forged onto a card or a text must change nothing."""
    message = query.message
    if not isinstance(message, Message) or not message.photo or message.reply_markup is None:
        return False
    for row in message.reply_markup.inline_keyboard:
        for button in row:
            data = button.callback_data
            if isinstance(data, str) and data.startswith("g:"):
                with contextlib.suppress(cd.BadCallbackDataError):
                    return cd.decode_game(cd.split(data)).game_id == game_id
    return False


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
    if auto and _finished_roll(after):
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


def _version_on_screen(query: CallbackQuery) -> int | None:
    """The game version the pressed message's buttons were drawn for (None: unknown)."""
    message = query.message
    if not isinstance(message, Message) or message.reply_markup is None:
        return None
    for row in message.reply_markup.inline_keyboard:
        for button in row:
            with contextlib.suppress(cd.BadCallbackDataError):
                return cd.decode_game(cd.split(str(button.callback_data or ""))).version
    return None


def _keyboard_on_screen(
    query: CallbackQuery, place: Place, btn: cd.GameButton, loaded: pipeline.Loaded, svc: Services
) -> InlineKeyboardMarkup | None:
    """The keyboard the press came from, when it is known.

    A press in a chat carries its message; a press on an inline message does not: its
    keyboard is the one drawn for the version the board shows, when the button belongs to
    that version (redrawn from the table when it is the stored one, else remembered by the
    painter that drew it)."""
    if not place.is_inline:
        message = query.message
        return message.reply_markup if isinstance(message, Message) else None
    stored = loaded.stored
    if btn.version != stored.shown_version:
        return None
    if btn.version == stored.version:
        return inline_board.keyboard(loaded.table, stored.game_id, stored.version)
    return svc.painter.inline_keyboard(place.key, stored.game_id, btn.version)


def _keyboard_still_serves(markup: InlineKeyboardMarkup | None, after: Table) -> bool:
    """Can the keyboard on screen play the rest of this turn, so no redraw is needed yet?

    In a group every redraw spends one of about 20 edits a minute. A first step whose every
    possible next step already has its button on the board (pressed there, it is applied
    as a quick second tap) is told with the press's answer alone; the board is drawn once
    the turn ends. Anything else (an undo, a last step, a choice the keyboard lacks) draws.
    """
    state = after.state
    if state.phase is not Phase.MOVE or not state.steps or _finished_roll(after):
        return False
    if markup is None:
        return False
    shown: set[tuple[int, ...]] = set()
    for row in markup.inline_keyboard:
        for button in row:
            with contextlib.suppress(cd.BadCallbackDataError):
                pressed = cd.decode_game(cd.split(str(button.callback_data or "")))
                if pressed.action is Action.STEP:
                    shown.add(pressed.args)
    return all((s.src, s.dst, s.die) in shown for s in state.legal_steps())


def _finished_roll(table: Table) -> bool:
    """Have the dice of this turn all been used (so the play could be confirmed)?"""
    state = table.state
    return state.phase is Phase.MOVE and state.play_complete and not state.legal_steps()


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
