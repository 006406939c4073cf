"""Challenges in groups (/sfida), their Accetta / Rifiuta / Ritira buttons, games against
the computer (/gioca) and the rematch after a match."""

from __future__ import annotations

import contextlib
import logging
from dataclasses import replace

from telegram import CallbackQuery, InlineKeyboardButton, InlineKeyboardMarkup, Message, Update
from telegram.constants import ChatType
from telegram.error import BadRequest
from telegram.ext import ContextTypes

from bot import callback_data as cd
from bot import pipeline, timeouts
from bot.handlers.common import acknowledge, alert, display_name, edit_text, reply, text_message
from bot.options import ChallengeOptions, OptionsError, parse_options
from bot.services import Services, services
from bot.table import COMPUTER_ID, Player, Table
from bot.texts import messages as T
from engine import GameState, MatchConfig, Variant
from engine.ai import Level
from storage import (
    ChallengeGoneError,
    CorruptGameError,
    GameAlreadyActiveError,
    StoredGame,
)

log = logging.getLogger(__name__)

LEVELS = tuple(level.value for level in Level)  # "facile", "medio", "difficile"
COMPUTER_LENGTHS = (1, 3, 5, 7)


def _number(text: str) -> int | None:
    """A non-negative number as our buttons write it; None for anything else in forged
    data ("²" and "٣" pass isdigit() but int() refuses or misreads them)."""
    return int(text) if text.isascii() and text.isdigit() and len(text) <= 18 else None


def _settings_line(config: MatchConfig, turn_seconds: int | None) -> str:
    return T.settings_summary(config, turn_seconds)


async def _chat_busy(update: Update, context: ContextTypes.DEFAULT_TYPE) -> bool:
    assert update.effective_chat is not None
    try:
        stored = await services(context).repo.load_game(update.effective_chat.id)
    except CorruptGameError:
        return False  # a broken record must not lock the chat for ever: start() replaces it
    return stored is not None


async def on_challenge_command(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/sfida [@utente] [classico|lungo] [N] [senza cubo] [oin|mars] [ultimo] [a turno] [5m]"""
    chat = update.effective_chat
    assert chat is not None
    if chat.type == ChatType.PRIVATE:
        await invite_to_group(update, context, context.args or [])
        return
    await open_challenge(update, context, context.args or [])


async def open_challenge(
    update: Update, context: ContextTypes.DEFAULT_TYPE, words: list[str]
) -> None:
    """Post a challenge card in a group: for the replied-to member, an @user, or anyone."""
    chat, user, msg = update.effective_chat, update.effective_user, update.effective_message
    assert chat is not None and user is not None and msg is not None
    svc = services(context)
    try:
        opts = parse_options(words, svc.settings.turn_seconds)
    except OptionsError as exc:
        await reply(update, str(exc))
        return
    if await _chat_busy(update, context):
        await reply(update, T.GAME_ALREADY_RUNNING)
        return
    if await svc.repo.list_challenges(chat.id):
        await reply(update, T.CHALLENGE_ALREADY_OPEN)
        return
    target_id = target_name = None
    target_username = opts.username
    replied = msg.reply_to_message
    if replied is not None and replied.from_user is not None and not replied.from_user.is_bot:
        if replied.from_user.id == user.id:
            await reply(update, T.ALERT_OWN_CHALLENGE)
            return
        target_id, target_name = replied.from_user.id, display_name(replied.from_user)
        target_username = None
    me = display_name(user)
    await svc.repo.set_player_name(user.id, me)
    payload = {
        "by": [user.id, me],
        "to": target_id,
        "to_name": target_name,
        "to_user": target_username,
        **opts.to_payload(),
    }
    challenge = await svc.repo.create_challenge(chat.id, payload, svc.settings.challenge_ttl)
    settings = _settings_line(opts.config, opts.turn_seconds)
    if target_id is not None or target_username is not None:
        text = T.personal_challenge(me, target_name or f"@{target_username}", settings)
        buttons = [
            InlineKeyboardButton(
                T.BTN_ACCEPT_CHALLENGE, callback_data=cd.challenge(challenge.challenge_id, "a")
            ),
            InlineKeyboardButton(
                T.BTN_DECLINE_CHALLENGE, callback_data=cd.challenge(challenge.challenge_id, "r")
            ),
        ]
    else:
        text = T.open_challenge(me, settings)
        buttons = [
            InlineKeyboardButton(
                T.BTN_ACCEPT_CHALLENGE, callback_data=cd.challenge(challenge.challenge_id, "a")
            )
        ]
    markup = InlineKeyboardMarkup(
        [
            buttons,
            [
                InlineKeyboardButton(
                    T.BTN_CANCEL_CHALLENGE, callback_data=cd.challenge(challenge.challenge_id, "x")
                )
            ],
        ]
    )
    card = await msg.reply_html(text, reply_markup=markup)
    if context.job_queue is not None:
        context.job_queue.run_once(
            on_challenge_expired,
            svc.settings.challenge_ttl + 1,
            data={"chat": chat.id, "id": challenge.challenge_id, "msg": card.message_id, "by": me},
            name=f"challenge:{chat.id}:{challenge.challenge_id}",
        )


INVITE_PREFIX = "sfida"


async def invite_to_group(
    update: Update, context: ContextTypes.DEFAULT_TYPE, words: list[str]
) -> None:
    """/sfida in a private chat: a deep link that opens the challenge in a chosen group.

    Telegram's ``?startgroup=`` link lets the user pick a group (adding the bot if needed)
    and then sends ``/start <payload>`` there on their behalf; the payload carries the
    options, so the challenge appears in the group exactly as if typed there.
    """
    try:
        opts = parse_options(words, services(context).settings.turn_seconds)
    except OptionsError as exc:
        await reply(update, str(exc))
        return
    payload = "_".join([INVITE_PREFIX, *(w.lower() for w in words if not w.startswith("@"))])
    if len(payload) > 64 or not all(c.isalnum() or c in "_-" for c in payload):
        await reply(update, T.INVITE_TOO_LONG)
        return
    link = f"https://t.me/{context.bot.username}?startgroup={payload}"
    settings = _settings_line(opts.config, opts.turn_seconds)
    markup = InlineKeyboardMarkup([[InlineKeyboardButton(T.BTN_CHOOSE_GROUP, url=link)]])
    assert update.effective_message is not None
    await update.effective_message.reply_html(T.invite_to_group(settings), reply_markup=markup)


def invitation_words(payload: str) -> list[str] | None:
    """The /sfida words carried by a ``/start sfida_...`` deep link, or None."""
    parts = payload.split("_")
    return parts[1:] if parts[0] == INVITE_PREFIX else None


async def on_challenge_expired(context: ContextTypes.DEFAULT_TYPE) -> None:
    assert context.job is not None
    data = context.job.data
    if await services(context).repo.get_challenge(data["chat"], data["id"]) is not None:
        return  # still pending (clock skew): Redis expires it a moment later
    with contextlib.suppress(BadRequest):  # already accepted, declined or deleted
        await context.bot.edit_message_text(
            T.challenge_expired(data["by"]),
            chat_id=data["chat"],
            message_id=data["msg"],
            parse_mode="HTML",
        )


def _cancel_expiry_job(context: ContextTypes.DEFAULT_TYPE, chat_id: int, challenge_id: int) -> None:
    if context.job_queue is None:
        return
    for job in context.job_queue.get_jobs_by_name(f"challenge:{chat_id}:{challenge_id}"):
        job.schedule_removal()


async def _close_challenge(
    update: Update, context: ContextTypes.DEFAULT_TYPE, challenge_id: int, text: str
) -> None:
    """Withdraw or decline: remove the challenge (once) and say so on its card."""
    query, chat = update.callback_query, update.effective_chat
    assert query is not None and chat is not None
    if await services(context).repo.take_challenge(chat.id, challenge_id) is None:
        await alert(query, T.ALERT_STALE_BUTTON)
        return
    await acknowledge(query)
    _cancel_expiry_job(context, chat.id, challenge_id)
    await edit_text(query, text)


async def on_challenge_button(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    query, chat = update.callback_query, update.effective_chat
    assert query is not None and chat is not None
    svc = services(context)
    parts = cd.split(query.data)
    challenge_id = _number(parts[1]) if len(parts) == 3 else None
    # A card is a text message: the same data on the board photo is forged.
    if challenge_id is None or parts[2] not in ("a", "r", "x") or text_message(query) is None:
        await alert(query, T.ALERT_STALE_BUTTON)
        return
    action = parts[2]
    challenge = await svc.repo.get_challenge(chat.id, challenge_id)
    if challenge is None:
        await alert(query, T.ALERT_STALE_BUTTON)
        return
    p = challenge.payload
    user = query.from_user
    by_id, by_name = p["by"]
    if action == "x":
        if user.id != by_id:
            await alert(query, T.ALERT_NOT_CHALLENGER)
            return
        await _close_challenge(update, context, challenge_id, T.challenge_cancelled(by_name))
        return
    if user.id == by_id:
        await alert(query, T.ALERT_OWN_CHALLENGE)
        return
    if p.get("to") is not None and user.id != p["to"]:
        await alert(query, T.ALERT_NOT_FOR_YOU)
        return
    if p.get("to_user") and (user.username or "").lower() != p["to_user"]:
        await alert(query, T.ALERT_NOT_FOR_YOU)
        return
    me = display_name(user)
    if action == "r":
        if p.get("to") is None and not p.get("to_user"):
            await alert(query, T.ALERT_STALE_BUTTON)  # open challenges have no Rifiuta
            return
        await _close_challenge(update, context, challenge_id, T.challenge_declined(by_name, me))
        return
    config, turn_seconds = ChallengeOptions.config_from_payload(p)
    await svc.repo.set_player_name(user.id, me)
    table = Table(
        GameState.new_match(config),
        (Player(by_id, by_name), Player(user.id, me)),
        turn_seconds=turn_seconds,
    )
    try:
        await start_game(update, context, table, challenge_id=challenge_id, query=query)
    except ChallengeGoneError:
        await alert(query, T.ALERT_STALE_BUTTON)
        return
    except GameAlreadyActiveError:
        await alert(query, T.GAME_ALREADY_RUNNING)
        return
    _cancel_expiry_job(context, chat.id, challenge_id)
    await edit_text(query, T.challenge_accepted(by_name, me))


async def _discard_if_corrupted(svc: Services, chat_id: int) -> bool:
    """A record nobody can read must not lock the chat for ever: a new game replaces it.

    Returns whether such a record was dropped."""
    try:
        await svc.repo.load_game(chat_id)
    except CorruptGameError:
        log.warning("replacing a corrupted game in chat %s", chat_id)
        return await svc.repo.discard_game(chat_id)
    return False


async def start_game(
    update: Update,
    context: ContextTypes.DEFAULT_TYPE,
    table: Table,
    *,
    challenge_id: int | None = None,
    query: CallbackQuery | None = None,
) -> StoredGame:
    """Create the chat's game from a fresh table, play the opening, post the board.

    The button ``query`` that asked for the game is answered as soon as the game exists,
    before the board is drawn and sent.
    """
    assert update.effective_chat is not None
    svc = services(context)
    chat_id = update.effective_chat.id
    table = await pipeline.settle(svc, table)
    deadline = pipeline.deadline_for(table)
    doc = table.to_doc()
    try:
        stored = await svc.repo.create_game(
            chat_id, doc, deadline_at=deadline, challenge_id=challenge_id
        )
    except GameAlreadyActiveError:
        # Only when the chat seems busy is it worth a look at what occupies it.
        if not await _discard_if_corrupted(svc, chat_id):
            raise
        stored = await svc.repo.create_game(
            chat_id, doc, deadline_at=deadline, challenge_id=challenge_id
        )
    if query is not None:
        await acknowledge(query)
    message_id = await svc.painter.post(stored, table)
    stored = replace(stored, board_message_id=message_id, shown_version=stored.version)
    if deadline is not None:
        timeouts.schedule(context.job_queue, stored, table, deadline)
    return stored


async def rematch(update: Update, context: ContextTypes.DEFAULT_TYPE, btn: cd.GameButton) -> None:
    """Rivincita: a new match with the same players and settings as a finished one."""
    query, chat = update.callback_query, update.effective_chat
    assert query is not None and chat is not None
    svc = services(context)
    finished = await svc.repo.load_finished_game(chat.id, btn.game_id)
    if finished is None or finished.version != btn.version:
        await alert(query, T.ALERT_STALE_BUTTON)
        return
    old = Table.from_doc(finished.doc)
    if old.index_of(query.from_user.id) is None:
        await alert(query, T.ALERT_NOT_A_PLAYER)
        return
    table = Table(
        GameState.new_match(old.state.config), old.players, old.ai_level, old.turn_seconds
    )
    try:
        await start_game(update, context, table, query=query)
    except GameAlreadyActiveError:
        await alert(query, T.GAME_ALREADY_RUNNING)
        return
    if query.message is not None:
        await svc.painter.retire_keyboard(chat.id, query.message.message_id)


# ------------------------------------------------------------------ against the computer
def _setup_markup(*chosen: str) -> InlineKeyboardMarkup:
    if not chosen:
        rows = [
            [
                InlineKeyboardButton(T.VARIANT_NAMES[v], callback_data=cd.setup(v.value))
                for v in Variant
            ]
        ]
    elif len(chosen) == 1:
        rows = [
            [
                InlineKeyboardButton(T.LEVEL_NAMES[Level(lv)], callback_data=cd.setup(*chosen, lv))
                for lv in LEVELS
            ]
        ]
    else:
        rows = [
            [
                InlineKeyboardButton(T.computer_length(n), callback_data=cd.setup(*chosen, str(n)))
                for n in COMPUTER_LENGTHS
            ]
        ]
    return InlineKeyboardMarkup(rows)


async def on_play_command(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/gioca: a game against the computer (variant, level, length chosen by buttons)."""
    chat = update.effective_chat
    assert chat is not None
    if chat.type != ChatType.PRIVATE:
        await reply(update, T.PRIVATE_ONLY_HINT)
        return
    if await _chat_busy(update, context):
        await reply(update, T.GAME_ALREADY_RUNNING)
        return
    assert update.effective_message is not None
    await send_play_menu(update.effective_message)


async def send_play_menu(message: Message) -> None:
    """The first question of a game against the computer: which variant."""
    await message.reply_html(T.PLAY_MENU, reply_markup=_setup_markup())


async def on_setup_button(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    query, chat = update.callback_query, update.effective_chat
    assert query is not None and chat is not None
    parts = cd.split(query.data)[1:]
    valid = (
        1 <= len(parts) <= 3
        and parts[0] in ("classic", "long")
        and (len(parts) < 2 or parts[1] in LEVELS)
        and (len(parts) < 3 or _number(parts[2]) in COMPUTER_LENGTHS)
    )
    if not valid or chat.type != ChatType.PRIVATE or text_message(query) is None:
        await alert(query, T.ALERT_STALE_BUTTON)
        return
    if len(parts) == 1:
        await acknowledge(query)
        await edit_text(query, T.CHOOSE_LEVEL, _setup_markup(*parts))
        return
    if len(parts) == 2:
        await acknowledge(query)
        await edit_text(query, T.CHOOSE_LENGTH, _setup_markup(*parts))
        return
    variant, level, length = Variant(parts[0]), parts[1], int(parts[2])
    user = query.from_user
    me = display_name(user)
    table = Table(
        GameState.new_match(MatchConfig(variant, length)),
        (Player(user.id, me), Player(COMPUTER_ID, T.COMPUTER_NAME)),
        ai_level=level,
        turn_seconds=None,
    )
    try:
        await start_game(update, context, table, query=query)
    except GameAlreadyActiveError:
        await alert(query, T.GAME_ALREADY_RUNNING)
        return
    await edit_text(query, T.computer_game_started(me, Level(level)))
