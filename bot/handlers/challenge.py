"""Challenges in groups (/sfida): the card that sets them up, their Accetta / Rifiuta /
Ritira buttons, the invitation from a private chat, and the rematch after a match.

The decisions are `bot.game.challenge`'s (a typed `Challenge`, the card's presses as a state
machine); this module is their Telegram glue. Games against the computer: `bot.handlers.play`.
"""

from __future__ import annotations

import contextlib
import logging
from dataclasses import replace
from typing import NotRequired, TypedDict, cast

from telegram import CallbackQuery, InlineKeyboardButton, InlineKeyboardMarkup, Message, Update
from telegram.constants import ChatType
from telegram.error import BadRequest
from telegram.ext import ContextTypes

from bot import dice_words, pipeline, tables
from bot.adapters import callback_data as cd
from bot.adapters import identities, places
from bot.adapters.card_edits import Render
from bot.game.actions import Action
from bot.game.challenge import (
    Accept,
    Adjust,
    Challenge,
    Close,
    Launch,
    Refuse,
    Stage,
    Terms,
    on_answer,
    on_card,
    on_its_card,
)
from bot.game.options import OptionsError, parse_options
from bot.game.table import Player, Table
from bot.handlers import challenge_card as cards
from bot.handlers import inline_rematch
from bot.handlers.common import (
    acknowledge,
    alert,
    display_name,
    edit_text,
    reply,
    text_message,
)
from bot.services import Services, bot_data, services
from bot.texts import messages as T
from bot.texts import tables as TT
from engine import GameState
from storage import ChallengeGoneError, GameAlreadyActiveError

log = logging.getLogger(__name__)


def _place(update: Update) -> places.Place:
    """Where the update happened: its chat, or its forum topic (a table of its own)."""
    place = places.of_update(update)
    assert place is not None
    return place


def _press(query: CallbackQuery, challenge_id: int | None = None) -> pipeline.Press:
    """The press that starts a game, for the pipeline; with the challenge whose card
    showed the dice commitment (else the chat's own, shown with the last result)."""
    card = "" if challenge_id is None else _dice_card(challenge_id)
    return pipeline.Press(query.id, lambda: acknowledge(query), card)


def _dice_card(challenge_id: int) -> str:
    """The name of a challenge card's own dice seed: each card shows its own commitment."""
    return f"c{challenge_id}"


async def _launched_card(
    context: ContextTypes.DEFAULT_TYPE, place: places.Place, challenge_id: int, challenge: Challenge
) -> tuple[str, InlineKeyboardMarkup]:
    """The launched card, with its own dice commitment and the challenger's word (and the
    tables in play in its chat)."""
    svc = services(context)
    key = place.key
    commitment = await pipeline.next_commitment(svc, key, _dice_card(challenge_id))
    text, markup = cards.launched(challenge_id, challenge, commitment)
    if commitment is not None:
        word = await dice_words.word_of(svc, challenge.by_id)
        text += "\n" + T.dice_words_on_card(challenge.by_name, word)
    return await _with_tables(svc, place, text), markup


async def _with_tables(svc: Services, room: places.Place, text: str) -> str:
    """A card's text, with the tables already in play in its chat (or topic) below it."""
    lines = await tables.lines(svc, room)
    return text if not lines else f"{text}\n\n{TT.tables_in_play(lines)}"


async def _seat_refusal(svc: Services, place: places.Place, challenge: Challenge) -> str | None:
    """Why ``challenge`` may not be posted in ``place``: its challenger, or the member it
    is for, already plays at a table of it (None: both are free)."""
    mine = await tables.seat(svc, place, challenge.by_id)
    if mine is not None:
        # A table a newer version of the bot runs is its own to answer for: NewerGameError
        # propagates, and the chat is told to try again shortly.
        await pipeline.busy(svc, mine.key)
        return TT.you_play_already(await tables.opponent_of(svc, mine, challenge.by_id))
    if challenge.to_id is None:
        return None
    theirs = await tables.seat(svc, place, challenge.to_id)
    if theirs is None:
        return None
    opponent = await tables.opponent_of(svc, theirs, challenge.to_id)
    return TT.plays_already(challenge.to_name or "?", opponent)


async def _seat_taken_alert(
    svc: Services, exc: tables.SeatTakenError, user_id: int, names: dict[int, str]
) -> str:
    """The alert of a game that cannot start because someone (``user_id``, the presser,
    or another of ``names``) plays at another table: who, and with whom."""
    opponent = await tables.opponent_of(svc, exc.table, exc.user_id)
    if exc.user_id == user_id:
        return TT.you_play_already_alert(opponent)
    return TT.plays_already_alert(names.get(exc.user_id, "?"), opponent)


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


def _addressed(challenge: Challenge, replied: Message | None, username: str | None) -> Challenge:
    """The challenge for the replied-to member (not a bot, not a channel's post), else for
    the @user the words named, else for anyone."""
    if (
        replied is not None
        and replied.from_user is not None
        and not replied.from_user.is_bot
        and not identities.speaks_as_a_chat(replied)  # a channel's post: nobody to challenge
    ):
        to = replied.from_user
        return replace(challenge, to_id=to.id, to_name=display_name(to))
    return replace(challenge, to_user=username)


async def open_challenge(
    update: Update, context: ContextTypes.DEFAULT_TYPE, words: list[str], *, card: bool = False
) -> None:
    """Post a challenge in a group: for the replied-to member, an @user, or anyone.

    With ``card`` it is first a card whose settings the challenger adjusts with buttons and
    then launches; without, the challenge is posted as the words set it (an invitation
    link whose settings were already shown in private).
    """
    user, msg = update.effective_user, update.effective_message
    assert user is not None and msg is not None
    place = _place(update)
    svc = services(context)
    try:
        opts = parse_options(words, svc.settings.turn_seconds)
    except OptionsError as exc:
        await reply(update, str(exc))
        return
    me = display_name(user)
    challenge = _addressed(
        Challenge(user.id, me, Terms.of_options(opts), Stage.DRAFT if card else Stage.OPEN),
        places.real_reply(msg),  # in a topic, not the topic's first message
        opts.username,
    )
    if challenge.to_id == user.id:
        await reply(update, T.ALERT_OWN_CHALLENGE)
        return
    refusal = await _may_open(svc, place, challenge)
    if refusal is not None:
        await reply(update, refusal)
        return
    await svc.repo.set_player_name(user.id, me)
    topic = place.topic_ref
    if topic is not None:  # the group can find its tables (see places)
        await svc.repo.remember_topic(topic[0], place.key, topic[1])
    created = await svc.repo.create_challenge(
        place.key, challenge.to_payload(), svc.settings.challenge_ttl
    )
    challenge_id = created.challenge_id
    if card:
        text, markup = (
            await _with_tables(svc, place, cards.draft_text(challenge)),
            cards.draft_markup(challenge_id, challenge.terms),
        )
    else:
        text, markup = await _launched_card(context, place, challenge_id, challenge)
    posted = await msg.reply_html(text, reply_markup=markup)
    # The card's presses are honoured on this message only.
    challenge = replace(challenge, message_id=posted.message_id)
    await svc.repo.update_challenge(place.key, challenge_id, challenge.to_payload())
    _schedule_expiry(context, place, challenge_id, posted.message_id, me, draft=card)


async def _may_open(svc: Services, place: places.Place, challenge: Challenge) -> str | None:
    """Why a challenge may not be opened here now (None: it may). In a group any pair may
    play while others play, one table each; elsewhere one game at a time."""
    if not tables.hosts_tables(place):
        if await pipeline.busy(svc, place.key):
            return T.GAME_ALREADY_RUNNING
        if await svc.repo.list_challenges(place.key):
            return T.CHALLENGE_ALREADY_OPEN
        return None
    refusal = await _seat_refusal(svc, place, challenge)
    if refusal is not None:
        return refusal
    for open_one in await svc.repo.list_challenges(place.key):
        if _challenger(open_one.payload) == challenge.by_id:
            return TT.OWN_CHALLENGE_OPEN
    return None


def _challenger(payload: dict[str, object]) -> int | None:
    """Who posted a stored challenge (None: not readable)."""
    try:
        return Challenge.from_payload(payload).by_id
    except (KeyError, TypeError, ValueError):
        return None


async def _stored(
    context: ContextTypes.DEFAULT_TYPE, key: int, challenge_id: int
) -> Challenge | None:
    """The place's challenge, or None when it is gone (or not a record we can read)."""
    stored = await services(context).repo.get_challenge(key, challenge_id)
    if stored is None:
        return None
    try:
        return Challenge.from_payload(stored.payload)
    except (KeyError, TypeError, ValueError):
        log.warning("unreadable challenge %s in chat %s", challenge_id, key)
        return None


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
    challenge = await _stored(context, place.key, btn.challenge_id)
    if message is None or challenge is None or challenge.message_id != message.message_id:
        await alert(query, T.ALERT_STALE_BUTTON)
        return
    outcome = on_card(challenge, query.from_user.id, btn.setting, btn.value)
    if isinstance(outcome, Refuse):
        await alert(query, outcome.alert)
        return
    changed = outcome.challenge
    ttl = svc.settings.challenge_ttl if isinstance(outcome, Launch) else None
    if (
        await svc.repo.update_challenge(place.key, btn.challenge_id, changed.to_payload(), ttl=ttl)
        is None
    ):
        await alert(query, T.ALERT_STALE_BUTTON)
        return
    await acknowledge(query)
    edits = bot_data(context.application).card_edits
    if isinstance(outcome, Adjust):
        await edits.edit(
            context.bot, message.chat_id, message.message_id, _draft_now(context, place, btn)
        )
        return
    edits.settled(message.chat_id, message.message_id)
    _schedule_expiry(
        context, place, btn.challenge_id, message.message_id, changed.by_name, draft=False
    )
    await edit_text(query, *await _launched_card(context, place, btn.challenge_id, changed))


def _draft_now(
    context: ContextTypes.DEFAULT_TYPE, place: places.Place, btn: cd.CardButton
) -> Render:
    """The card as stored when its coalesced edit goes out; None once it is no draft."""

    async def render() -> tuple[str, InlineKeyboardMarkup] | None:
        now = await _stored(context, place.key, btn.challenge_id)
        if now is None or now.stage is not Stage.DRAFT:
            return None
        text = await _with_tables(services(context), place, cards.draft_text(now))
        return text, cards.draft_markup(btn.challenge_id, now.terms)

    return render


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
    settings = cards.settings_line(Terms.of_options(opts), aids=False)
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


async def on_challenge_button(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Accetta, Rifiuta or Ritira on a challenge's card."""
    query, key = update.callback_query, _place(update).key
    assert query is not None
    message = text_message(query)  # a card is a text message: on the board photo, forged
    try:
        btn = cd.decode_challenge(cd.split(query.data))
    except cd.BadCallbackDataError:
        btn = None
    if btn is None or message is None:
        await alert(query, T.ALERT_STALE_BUTTON)
        return
    challenge = await _stored(context, key, btn.challenge_id)
    # Only on its own card: the same data pressed on another message (a settings message,
    # say) would close the challenge there.
    if challenge is None or not on_its_card(challenge, message.message_id):
        await alert(query, T.ALERT_STALE_BUTTON)
        return
    user = query.from_user
    outcome = on_answer(challenge, btn.answer, user.id, user.username)
    if isinstance(outcome, Refuse):
        await alert(query, outcome.alert)
        return
    if outcome is Close.WITHDRAWN:
        text = T.challenge_cancelled(challenge.by_name)
        await _close_challenge(update, context, btn.challenge_id, text)
        return
    me = display_name(user)
    if outcome is Close.DECLINED:
        text = T.challenge_declined(challenge.by_name, me)
        await _close_challenge(update, context, btn.challenge_id, text)
        return
    assert isinstance(outcome, Accept)
    await _accept(update, context, btn.challenge_id, challenge, Player(user.id, me))


async def _accept(
    update: Update,
    context: ContextTypes.DEFAULT_TYPE,
    challenge_id: int,
    challenge: Challenge,
    opponent: Player,
) -> None:
    """Accetta: the challenge's game starts, and its card says who accepted."""
    query, place = update.callback_query, _place(update)
    assert query is not None
    svc = services(context)
    await svc.repo.set_player_name(opponent.user_id, opponent.name)
    terms = challenge.terms
    table = Table(
        GameState.new_match(terms.config),
        (Player(challenge.by_id, challenge.by_name), opponent),
        turn_seconds=terms.turn_seconds,
        hints=terms.hints,
        shared_analysis=terms.shared_analysis,
    )
    try:
        await pipeline.start_game(
            context, place, table, challenge_id=challenge_id, press=_press(query, challenge_id)
        )
    except ChallengeGoneError:
        await alert(query, T.ALERT_STALE_BUTTON)
        return
    except GameAlreadyActiveError:
        await alert(query, T.GAME_ALREADY_RUNNING)
        return
    except tables.SeatTakenError as exc:
        names = {challenge.by_id: challenge.by_name, opponent.user_id: opponent.name}
        await alert(query, await _seat_taken_alert(svc, exc, opponent.user_id, names))
        return
    except tables.RoomFullError:
        await alert(query, TT.ROOM_FULL)
        return
    _cancel_expiry_job(context, place.key, challenge_id)
    await edit_text(query, T.challenge_accepted(challenge.by_name, opponent.name))


async def rematch(update: Update, context: ContextTypes.DEFAULT_TYPE, btn: cd.GameButton) -> None:
    """Rivincita: a new match with the same players and settings as a finished one."""
    query, room = update.callback_query, places.of_update(update)
    assert query is not None and room is not None
    svc = services(context)
    place = await tables.for_game(svc, room, btn.game_id)  # the table the board was on
    finished = await svc.repo.load_finished_game(place.key, btn.game_id)
    if finished is None or finished.version != btn.version:
        await alert(query, T.ALERT_STALE_BUTTON)
        return
    old = Table.from_doc(finished.doc)
    index = old.index_of(query.from_user.id)
    if index is None:
        await alert(query, T.ALERT_NOT_A_PLAYER)
        return
    if not old.vs_computer and not place.is_inline:
        await _offer_rematch(update, context, old, index)
        return
    between_people = not old.vs_computer and place.is_inline
    if btn.action is Action.REMATCH_DECLINE:
        if between_people:
            await inline_rematch.on_decline(query, context, place, btn, old, index)
        else:
            await alert(query, T.ALERT_BUTTON_UNKNOWN)
        return
    if between_people and not await inline_rematch.on_rematch(
        query, context, place, btn, old, index
    ):
        return  # an offer made, or one already waiting: nothing starts yet
    table = Table(
        GameState.new_match(old.state.config),
        old.players,
        old.ai_level,
        old.turn_seconds,
        hints=old.hints,
        shared_analysis=old.shared_analysis,
    )
    press = replace(_press(query), seed_place=place.key)  # the final board's commitment
    try:
        await pipeline.start_game(context, room, table, press=press)
    except GameAlreadyActiveError:
        await alert(query, T.GAME_ALREADY_RUNNING)
        return
    except tables.SeatTakenError as exc:
        names = {p.user_id: p.name for p in old.players}
        await alert(query, await _seat_taken_alert(svc, exc, query.from_user.id, names))
        return
    except tables.RoomFullError:
        await alert(query, TT.ROOM_FULL)
        return
    if query.message is not None and not place.is_inline:  # inline: the same message goes on
        await svc.painter.retire_keyboard(place.chat_id, query.message.message_id)


async def _offer_rematch(
    update: Update, context: ContextTypes.DEFAULT_TYPE, old: Table, index: int
) -> None:
    """Rivincita between people: an offer to the opponent, who accepts or refuses it on a
    card of its own (a personal challenge with the finished match's terms, expiring as any
    challenge does). Nothing starts, and nothing is played, until the opponent accepts."""
    query, place, msg = update.callback_query, _place(update), update.effective_message
    assert query is not None and msg is not None
    svc = services(context)
    me, opponent = old.players[index], old.players[1 - index]
    if not tables.hosts_tables(place):
        if await pipeline.busy(svc, place.key):
            await alert(query, T.GAME_ALREADY_RUNNING)
            return
        if await svc.repo.list_challenges(place.key):
            await alert(query, T.CHALLENGE_ALREADY_OPEN)
            return
    try:  # in a group, the offer concerns its two players only: others play on
        await tables.seated(svc, place, old)
    except tables.SeatTakenError as exc:
        names = {p.user_id: p.name for p in old.players}
        await alert(query, await _seat_taken_alert(svc, exc, me.user_id, names))
        return
    terms = Terms(old.state.config, old.turn_seconds, old.hints, old.shared_analysis)
    offer = Challenge(
        me.user_id, me.name, terms, Stage.OPEN, to_id=opponent.user_id, to_name=opponent.name
    )
    created = await svc.repo.create_challenge(
        place.key, offer.to_payload(), svc.settings.challenge_ttl
    )
    await acknowledge(query)
    commitment = await pipeline.next_commitment(svc, place.key, _dice_card(created.challenge_id))
    _, markup = cards.launched(created.challenge_id, offer, commitment)
    text = T.rematch_offered(me.name, opponent.name, cards.settings_line(terms))
    if commitment is not None:
        text += "\n" + T.dice_commitment(commitment)
    posted = await context.bot.send_message(
        text=text,
        parse_mode="HTML",
        reply_markup=markup,
        reply_to_message_id=msg.message_id,
        **place.send(),
    )
    offer = replace(offer, message_id=posted.message_id)
    await svc.repo.update_challenge(place.key, created.challenge_id, offer.to_payload())
    _schedule_expiry(context, place, created.challenge_id, posted.message_id, me.name, draft=False)
