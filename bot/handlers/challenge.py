"""Challenges in groups (/sfida), their Accetta / Rifiuta / Ritira buttons, games against
the computer (/gioca) and the rematch after a match."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable
from dataclasses import replace
from typing import Any, NotRequired, TypedDict, cast

from telegram import CallbackQuery, InlineKeyboardButton, InlineKeyboardMarkup, Message, Update
from telegram.constants import ChatType
from telegram.error import BadRequest
from telegram.ext import ContextTypes

from bot import callback_data as cd
from bot import identities, pipeline, places, timeouts
from bot.handlers.common import (
    acknowledge,
    alert,
    carries_family,
    display_name,
    edit_text,
    reply,
    text_message,
)
from bot.options import ChallengeOptions, OptionsError, parse_options
from bot.services import Services, services
from bot.table import COMPUTER_ID, Player, Table
from bot.texts import messages as T
from bot.texts import review as R
from engine import GameState, MatchConfig, SeriesStart, Variant
from engine.ai import Level
from storage import (
    ChallengeGoneError,
    CorruptGameError,
    GameAlreadyActiveError,
    NewerGameError,
    StoredGame,
)

log = logging.getLogger(__name__)

LEVELS = tuple(level.value for level in Level)  # "facile", "medio", "difficile"
COMPUTER_LENGTHS = (1, 3, 5, 7)


def _number(text: str) -> int | None:
    """A non-negative number as our buttons write it; None for anything else in forged
    data ("²" and "٣" pass isdigit() but int() refuses or misreads them)."""
    return int(text) if text.isascii() and text.isdigit() and len(text) <= 18 else None


def _settings_line(
    config: MatchConfig, turn_seconds: int | None, aids: tuple[bool, bool] = (False, False)
) -> str:
    """The settings in one line; the hints and the shared analysis when chosen."""
    extra = [word for word, on in zip((R.HINTS_ON, R.SHARED_ANALYSIS_ON), aids, strict=True) if on]
    return " · ".join([T.settings_summary(config, turn_seconds), *extra])


def _place(update: Update) -> places.Place:
    """Where the update happened: its chat, or its forum topic (a table of its own)."""
    place = places.of_update(update)
    assert place is not None
    return place


async def _chat_busy(update: Update, context: ContextTypes.DEFAULT_TYPE) -> bool:
    try:
        stored = await services(context).repo.load_game(_place(update).key)
    except NewerGameError:
        raise  # a newer version's game: it stays (and the chat is told, see bot.app)
    except CorruptGameError:
        return False  # a broken record must not lock the chat for ever: start() replaces it
    return stored is not None


async def on_challenge_command(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/sfida [@utente] [classico|lungo] [N] [senza cubo] [oin|mars] [ultimo] [a turno] [5m]

    In a group it opens the challenge card, pre-filled by the words; in private it offers a
    link that opens the challenge in a group.
    """
    chat = update.effective_chat
    assert chat is not None
    if chat.type == ChatType.PRIVATE:
        await invite_to_group(update, context, context.args or [])
        return
    await open_challenge(update, context, context.args or [], card=True)


def _card_markup(challenge_id: int, payload: dict[str, Any]) -> InlineKeyboardMarkup:
    """The card's buttons: every setting of the chosen game, the launch and the withdrawal.

    Each button sets a value (the one in force is ticked), so a double click is harmless.
    """
    config, turn_seconds = ChallengeOptions.config_from_payload(payload)

    def button(
        label: str, setting: str, value: str = "", chosen: bool = False
    ) -> InlineKeyboardButton:
        data = cd.CardButton(challenge_id, setting, value).encode()
        return InlineKeyboardButton(
            f"{T.CARD_CHOSEN}{label}" if chosen else label, callback_data=data
        )

    long = config.variant is Variant.LONG
    rows = [
        [
            button(T.VARIANT_SHORT_NAMES[Variant.CLASSIC], "v", "c", not long),
            button(T.VARIANT_SHORT_NAMES[Variant.LONG], "v", "l", long),
        ],
        [
            button(T.btn_card_length(n), cd.CARD_LENGTH, str(n), n == config.length)
            for n in sorted({*T.CARD_LENGTHS, config.length})
        ],
    ]
    if long:
        rows.append(
            [
                button(
                    T.btn_card_scoring(config.mars),
                    "s",
                    "o" if config.mars else "m",
                ),
                button(
                    T.btn_card_last_roll(config.last_roll), "l", "0" if config.last_roll else "1"
                ),
            ]
        )
        if config.length > 1:
            alternate = config.series_start is SeriesStart.ALTERNATE
            rows.append(
                [
                    button(
                        T.btn_card_series_start(config.series_start),
                        "f",
                        "l" if alternate else "a",
                    )
                ]
            )
    elif config.length > 1:  # no cube in a 1-point match (docs/RULES.md): nothing to choose
        rows.append([button(T.btn_card_cube(config.cube), "k", "0" if config.cube else "1")])
    hints, shared = ChallengeOptions.aids_from_payload(payload)
    rows.append(
        [
            button(R.btn_card_hints(hints), "h", "0" if hints else "1"),
            button(R.btn_card_shared_analysis(shared), "y", "0" if shared else "1"),
        ]
    )
    seconds = turn_seconds or 0
    times = [
        button(T.btn_card_time(t), cd.CARD_TIME, str(t), t == seconds)
        for t in sorted({*T.CARD_TIMES, seconds}, key=lambda t: t or 10**9)
    ]
    rows.extend([times[:4], times[4:]])
    rows.append([button(T.BTN_START_CHALLENGE, cd.CARD_LAUNCH)])
    rows.append(
        [
            InlineKeyboardButton(
                T.BTN_CANCEL_CHALLENGE, callback_data=cd.challenge(challenge_id, "x")
            )
        ]
    )
    return InlineKeyboardMarkup(rows)


def _card_text(payload: dict[str, Any]) -> str:
    config, turn_seconds = ChallengeOptions.config_from_payload(payload)
    aids = ChallengeOptions.aids_from_payload(payload)
    return T.challenge_card(
        payload["by"][1], _opponent(payload), _settings_line(config, turn_seconds, aids)
    )


def _opponent(payload: dict[str, Any]) -> str | None:
    """Whom a challenge is for, as shown: a replied-to member's name, an @user, or nobody."""
    if payload.get("to_name"):
        return str(payload["to_name"])
    if payload.get("to_user"):
        return f"@{payload['to_user']}"
    return None


def _challenge_card(
    challenge_id: int, payload: dict[str, Any], commitment: str | None
) -> tuple[str, InlineKeyboardMarkup]:
    """The launched challenge: its text and Accetta (Rifiuta) / Ritira buttons, with the
    commitment of the dice of the game that Accetta starts."""
    config, turn_seconds = ChallengeOptions.config_from_payload(payload)
    settings = _settings_line(config, turn_seconds, ChallengeOptions.aids_from_payload(payload))
    me = payload["by"][1]
    accept = InlineKeyboardButton(
        T.BTN_ACCEPT_CHALLENGE, callback_data=cd.challenge(challenge_id, "a")
    )
    opponent = _opponent(payload)
    if opponent is not None:
        text = T.personal_challenge(me, opponent, settings)
        decline = InlineKeyboardButton(
            T.BTN_DECLINE_CHALLENGE, callback_data=cd.challenge(challenge_id, "r")
        )
        buttons = [accept, decline]
    else:
        text = T.open_challenge(me, settings)
        buttons = [accept]
    cancel = InlineKeyboardButton(
        T.BTN_CANCEL_CHALLENGE, callback_data=cd.challenge(challenge_id, "x")
    )
    if commitment is not None:
        text += "\n" + T.dice_commitment(commitment)
    return text, InlineKeyboardMarkup([buttons, [cancel]])


def _schedule_expiry(
    context: ContextTypes.DEFAULT_TYPE,
    place: places.Place,
    challenge_id: int,
    message_id: int,
    by: str,
    *,
    draft: bool,
) -> None:
    if context.job_queue is None:
        return
    chat_id = place.key
    _cancel_expiry_job(context, chat_id, challenge_id)
    data = ChallengeExpiry(
        chat=chat_id, id=challenge_id, msg=message_id, by=by, draft=draft, to=place.chat_id
    )
    context.job_queue.run_once(
        on_challenge_expired,
        services(context).settings.challenge_ttl + 1,
        data=data,
        name=f"challenge:{chat_id}:{challenge_id}",
    )


async def open_challenge(
    update: Update, context: ContextTypes.DEFAULT_TYPE, words: list[str], *, card: bool = False
) -> None:
    """Post a challenge in a group: for the replied-to member, an @user, or anyone.

    With ``card`` it is first a card whose settings the challenger adjusts with buttons and
    then launches; without, the challenge is posted as the words set it (an invitation
    link whose settings were already shown in private).
    """
    chat, user, msg = update.effective_chat, update.effective_user, update.effective_message
    assert chat is not None and user is not None and msg is not None
    place = _place(update)
    svc = services(context)
    try:
        opts = parse_options(words, svc.settings.turn_seconds)
    except OptionsError as exc:
        await reply(update, str(exc))
        return
    if await _chat_busy(update, context):
        await reply(update, T.GAME_ALREADY_RUNNING)
        return
    if await svc.repo.list_challenges(place.key):
        await reply(update, T.CHALLENGE_ALREADY_OPEN)
        return
    target_id = target_name = None
    target_username = opts.username
    replied = places.real_reply(msg)  # in a topic, not the topic's first message
    if (
        replied is not None
        and replied.from_user is not None
        and not replied.from_user.is_bot
        and not identities.speaks_as_a_chat(replied)  # a channel's post: nobody to challenge
    ):
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
        "draft": card,
        **opts.to_payload(),
    }
    topic = place.topic_ref
    if topic is not None:  # the group can find its tables (see places)
        await svc.repo.remember_topic(topic[0], place.key, topic[1])
    challenge = await svc.repo.create_challenge(place.key, payload, svc.settings.challenge_ttl)
    if card:
        text, markup = _card_text(payload), _card_markup(challenge.challenge_id, payload)
    else:
        commitment = await pipeline.next_commitment(svc, place.key)
        text, markup = _challenge_card(challenge.challenge_id, payload, commitment)
    posted = await msg.reply_html(text, reply_markup=markup)
    # The card's presses are honoured on this message only.
    await svc.repo.update_challenge(
        place.key, challenge.challenge_id, {**payload, "msg": posted.message_id}
    )
    _schedule_expiry(context, place, challenge.challenge_id, posted.message_id, me, draft=card)


def _with_setting(payload: dict[str, Any], btn: cd.CardButton) -> dict[str, Any]:
    """The card's payload with one setting changed (values already checked by decode_card)."""
    key, value = btn.setting, btn.value
    changed: dict[str, Any] = {}
    if key == "v":
        changed["v"] = (Variant.CLASSIC if value == "c" else Variant.LONG).value
    elif key == cd.CARD_LENGTH:
        changed["n"] = int(value)
    elif key == "k":
        changed["cube"] = value == "1"
    elif key == "s":
        changed["mars"] = value == "m"
    elif key == "l":
        changed["lr"] = value == "1"
    elif key == "f":
        changed["ss"] = (SeriesStart.LOSER if value == "l" else SeriesStart.ALTERNATE).value
    elif key == cd.CARD_TIME:
        changed["ts"] = int(value) or None
    elif key == "h":
        changed["hi"] = value == "1"
    elif key == "y":
        changed["an"] = value == "1"
    return {**payload, **changed}


async def on_card_button(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """A press on the challenge card: the challenger changes a setting or launches it."""
    query, place = update.callback_query, _place(update)
    assert query is not None
    svc = services(context)
    try:
        btn = cd.decode_card(cd.split(query.data))
    except cd.BadCallbackDataError:
        await alert(query, T.ALERT_STALE_BUTTON)
        return
    message = text_message(query)
    challenge = await svc.repo.get_challenge(place.key, btn.challenge_id)
    if (
        message is None
        or challenge is None
        or not challenge.payload.get("draft")
        or challenge.payload.get("msg") != message.message_id
    ):
        await alert(query, T.ALERT_STALE_BUTTON)
        return
    payload = challenge.payload
    if query.from_user.id != payload["by"][0]:
        await alert(query, T.ALERT_NOT_YOUR_CARD)
        return
    if btn.setting == cd.CARD_LAUNCH:
        launched = {**payload, "draft": False}
        ttl = svc.settings.challenge_ttl
        if await svc.repo.update_challenge(place.key, btn.challenge_id, launched, ttl=ttl) is None:
            await alert(query, T.ALERT_STALE_BUTTON)
            return
        await acknowledge(query)
        _schedule_expiry(
            context, place, btn.challenge_id, message.message_id, payload["by"][1], draft=False
        )
        commitment = await pipeline.next_commitment(svc, place.key)
        await edit_text(query, *_challenge_card(btn.challenge_id, launched, commitment))
        return
    changed = _with_setting(payload, btn)
    if await svc.repo.update_challenge(place.key, btn.challenge_id, changed) is None:
        await alert(query, T.ALERT_STALE_BUTTON)
        return
    await acknowledge(query)
    await edit_text(query, _card_text(changed), _card_markup(btn.challenge_id, changed))


INVITE_PREFIX = "sfida"
#: ``/start gioca``: what the private chat receives from the button of /gioca in a group.
PLAY_START = "gioca"


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


class ChallengeExpiry(TypedDict):
    """The data of the job that closes an unanswered challenge's card."""

    chat: int
    id: int  # the challenge
    msg: int  # the card's message
    by: str  # the challenger's name
    draft: bool  # a card still being set up (not yet sent to the chat as a challenge)
    to: NotRequired[int]  # the card's chat, when ``chat`` is a forum topic's key


async def on_challenge_expired(context: ContextTypes.DEFAULT_TYPE) -> None:
    assert context.job is not None and isinstance(context.job.data, dict)
    data = cast(ChallengeExpiry, context.job.data)
    if await services(context).repo.get_challenge(data["chat"], data["id"]) is not None:
        return  # still pending (clock skew): Redis expires it a moment later
    text = T.challenge_card_expired if data.get("draft") else T.challenge_expired
    with contextlib.suppress(BadRequest):  # already accepted, declined or deleted
        await context.bot.edit_message_text(
            text(data["by"]),
            chat_id=data.get("to", data["chat"]),
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
    query, key = update.callback_query, _place(update).key
    assert query is not None
    if await services(context).repo.take_challenge(key, challenge_id) is None:
        await alert(query, T.ALERT_STALE_BUTTON)
        return
    await acknowledge(query)
    _cancel_expiry_job(context, key, challenge_id)
    await edit_text(query, text)


def _on_its_card(payload: dict[str, Any], message: Message | None) -> bool:
    """Was the press made on the challenge's own card (recorded once it was posted)?"""
    return message is not None and payload.get("msg", message.message_id) == message.message_id


async def on_challenge_button(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    query, key = update.callback_query, _place(update).key
    assert query is not None
    svc = services(context)
    parts = cd.split(query.data)
    challenge_id = _number(parts[1]) if len(parts) == 3 else None
    # A card is a text message: the same data on the board photo is forged.
    if challenge_id is None or parts[2] not in ("a", "r", "x") or text_message(query) is None:
        await alert(query, T.ALERT_STALE_BUTTON)
        return
    action = parts[2]
    challenge = await svc.repo.get_challenge(key, challenge_id)
    # A card is accepted once it is launched, and only on itself: the same data pressed on
    # another message (a settings message, say) would close the challenge there.
    if (
        challenge is None
        or (challenge.payload.get("draft") and action != "x")
        or not _on_its_card(challenge.payload, text_message(query))
    ):
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
    hints, shared_analysis = ChallengeOptions.aids_from_payload(p)
    await svc.repo.set_player_name(user.id, me)
    table = Table(
        GameState.new_match(config),
        (Player(by_id, by_name), Player(user.id, me)),
        turn_seconds=turn_seconds,
        hints=hints,
        shared_analysis=shared_analysis,
    )
    try:
        await start_game(update, context, table, challenge_id=challenge_id, query=query)
    except ChallengeGoneError:
        await alert(query, T.ALERT_STALE_BUTTON)
        return
    except GameAlreadyActiveError:
        await alert(query, T.GAME_ALREADY_RUNNING)
        return
    _cancel_expiry_job(context, key, challenge_id)
    await edit_text(query, T.challenge_accepted(by_name, me))


async def _discard_if_corrupted(svc: Services, chat_id: int) -> bool:
    """A record nobody can read must not lock the chat for ever: a new game replaces it.

    Returns whether such a record was dropped."""
    try:
        await svc.repo.load_game(chat_id)
    except NewerGameError:
        raise  # written by a newer version of the bot: never replaced by an older one
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
    place = places.of_update(update)
    assert place is not None
    svc = services(context)
    chat_id = place.key
    if place.is_inline:
        table = replace(table, inline_message=place.inline_message_id)
    topic = place.topic_ref
    if topic is not None:  # a forum topic: the group can find its tables (see places)
        table = replace(table, topic=topic)
        await svc.repo.remember_topic(topic[0], chat_id, topic[1])
    if query is not None:
        table = await pipeline.with_fresh_dice(svc, chat_id, table, query.id)
    table = await pipeline.settle(svc, table)
    deadline = pipeline.deadline_for(table)
    table = replace(table, deadline=deadline)
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
        # The first turn's clock starts when its board can be seen, not before it is drawn.
        deadline = pipeline.deadline_for(table) or deadline
        await svc.repo.set_deadline(chat_id, deadline)
        await timeouts.schedule(svc.repo, stored, table, deadline)
    return stored


async def rematch(update: Update, context: ContextTypes.DEFAULT_TYPE, btn: cd.GameButton) -> None:
    """Rivincita: a new match with the same players and settings as a finished one."""
    query, place = update.callback_query, places.of_update(update)
    assert query is not None and place is not None
    svc = services(context)
    finished = await svc.repo.load_finished_game(place.key, btn.game_id)
    if finished is None or finished.version != btn.version:
        await alert(query, T.ALERT_STALE_BUTTON)
        return
    old = Table.from_doc(finished.doc)
    if old.index_of(query.from_user.id) is None:
        await alert(query, T.ALERT_NOT_A_PLAYER)
        return
    table = Table(
        GameState.new_match(old.state.config),
        old.players,
        old.ai_level,
        old.turn_seconds,
        hints=old.hints,
        shared_analysis=old.shared_analysis,
    )
    try:
        await start_game(update, context, table, query=query)
    except GameAlreadyActiveError:
        await alert(query, T.GAME_ALREADY_RUNNING)
        return
    if query.message is not None and not place.is_inline:  # inline: the same message goes on
        await svc.painter.retire_keyboard(place.chat_id, query.message.message_id)


# ------------------------------------------------------------------ against the computer
#: The long game's options on the set-up: scoring (m Mars, o Oin) and last roll (1, 0).
LONG_OPTIONS = ("m0", "m1", "o0", "o1")
SETUP_START = "go"


SETUP_FIRST = "_"  # ``p:_``: the first question, reached back from the second


def _back(*chosen: str) -> list[InlineKeyboardButton]:
    """The row that returns to the previous question."""
    return [InlineKeyboardButton(T.BTN_BACK, callback_data=cd.setup(*(chosen or [SETUP_FIRST])))]


def _setup_page(*chosen: str) -> tuple[str, InlineKeyboardMarkup]:
    """The set-up's page after the choices so far (already validated)."""
    variant = Variant(chosen[0]) if chosen else None
    level = Level(chosen[1]) if len(chosen) > 1 else None
    if not chosen:
        return T.PLAY_MENU, InlineKeyboardMarkup(
            [
                [
                    InlineKeyboardButton(T.VARIANT_NAMES[v], callback_data=cd.setup(v.value))
                    for v in Variant
                ]
            ]
        )
    if len(chosen) == 1:
        levels = [
            InlineKeyboardButton(T.LEVEL_NAMES[Level(lv)], callback_data=cd.setup(*chosen, lv))
            for lv in LEVELS
        ]
        text = T.computer_setup(T.SETUP_CHOOSE_LEVEL, variant)
        return text, InlineKeyboardMarkup([levels, _back()])
    if len(chosen) == 2:
        lengths = [
            InlineKeyboardButton(T.btn_card_length(n), callback_data=cd.setup(*chosen, str(n)))
            for n in COMPUTER_LENGTHS
        ]
        text = T.computer_setup(T.SETUP_CHOOSE_LENGTH, variant, level)
        return text, InlineKeyboardMarkup([lengths, _back(chosen[0])])
    # The long game's options: scoring and last roll, then the start.
    options = chosen[3] if len(chosen) > 3 else LONG_OPTIONS[0]
    scoring, last_roll = options[0], options[1] == "1"
    other_scoring = ("o" if scoring == "m" else "m") + options[1]
    other_last_roll = scoring + ("0" if last_roll else "1")
    base = chosen[:3]
    rows = [
        [
            InlineKeyboardButton(
                T.btn_card_scoring(scoring == "m"),
                callback_data=cd.setup(*base, other_scoring),
            ),
            InlineKeyboardButton(
                T.btn_card_last_roll(last_roll), callback_data=cd.setup(*base, other_last_roll)
            ),
        ],
        [
            InlineKeyboardButton(
                T.BTN_START_GAME, callback_data=cd.setup(*base, options, SETUP_START)
            )
        ],
        _back(*chosen[:2]),
    ]
    text = T.computer_setup(T.SETUP_CHOOSE_LONG_OPTIONS, variant, level, int(chosen[2]))
    return text, InlineKeyboardMarkup(rows)


def _valid_setup(parts: list[str]) -> bool:
    """Only the data the set-up's own buttons carry (strict: forged data is refused)."""
    if len(parts) > 5:
        return False
    checks: tuple[Callable[[str], bool], ...] = (
        lambda p: p in ("classic", "long"),
        lambda p: p in LEVELS,
        lambda p: _number(p) in COMPUTER_LENGTHS and str(_number(p)) == p,
        lambda p: parts[0] == "long" and p in LONG_OPTIONS,
        lambda p: p == SETUP_START,
    )
    return all(check(part) for check, part in zip(checks, parts, strict=False))


async def on_play_command(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/gioca: a game against the computer (variant, level, length chosen by buttons)."""
    chat = update.effective_chat
    assert chat is not None
    if chat.type != ChatType.PRIVATE:
        link = f"https://t.me/{context.bot.username}?start={PLAY_START}"
        button = InlineKeyboardButton(T.BTN_PLAY_IN_PRIVATE, url=link)
        assert update.effective_message is not None
        await update.effective_message.reply_html(
            T.PLAY_IN_PRIVATE, reply_markup=InlineKeyboardMarkup([[button]]), do_quote=True
        )
        return
    if await _chat_busy(update, context):
        await reply(update, T.GAME_ALREADY_RUNNING)
        return
    assert update.effective_message is not None
    await send_play_menu(update.effective_message)


async def send_play_menu(message: Message) -> None:
    """The first question of a game against the computer: which variant."""
    text, markup = _setup_page()
    await message.reply_html(text, reply_markup=markup)


async def on_setup_button(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """A step of the set-up: the next question, the previous one (« Indietro), or the game.

    Classic starts once the length is chosen; long first offers its scoring and last roll.
    """
    query, chat = update.callback_query, update.effective_chat
    assert query is not None and chat is not None
    parts = cd.split(query.data)[1:]
    if parts == [SETUP_FIRST]:
        parts = []
    if not _valid_setup(parts) or chat.type != ChatType.PRIVATE or not carries_family(query, "p:"):
        await alert(query, T.ALERT_STALE_BUTTON)
        return
    starts = (len(parts) == 3 and parts[0] == "classic") or len(parts) == 5
    if not starts:
        await acknowledge(query)
        text, markup = _setup_page(*parts)
        commitment = await pipeline.next_commitment(services(context), chat.id)
        if commitment is not None:
            text += "\n\n" + T.dice_commitment(commitment)
        await edit_text(query, text, markup)
        return
    variant, level, length = Variant(parts[0]), parts[1], int(parts[2])
    options = parts[3] if len(parts) > 3 else LONG_OPTIONS[0]
    config = MatchConfig(variant, length, mars=options[0] == "m", last_roll=options[1] == "1")
    user = query.from_user
    me = display_name(user)
    table = Table(
        GameState.new_match(config),
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
