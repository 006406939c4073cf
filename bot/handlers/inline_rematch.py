"""Rivincita on an inline board: an offer the other player accepts or refuses.

An inline board has no chat of its own to post an offer card in, so the offer lives on the
board itself: the first player's "Rivincita" stores a personal challenge for the other
(expiring as any challenge does) and turns the board's buttons into "Accetta la rivincita"
and "Rifiuta", the caption saying who offers it. The other player's Accetta (or their own
Rivincita) starts the rematch in the same message; Rifiuta (from the other player, or the
offerer withdrawing) and the expiry give the finished board back, Rivincita included.
Nothing starts, and nothing is played, for a player who has not accepted.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from telegram import CallbackQuery, InlineKeyboardButton, InlineKeyboardMarkup
from telegram.constants import ParseMode
from telegram.error import BadRequest, TelegramError
from telegram.ext import ContextTypes

from bot.adapters import callback_data as cd
from bot.adapters import places
from bot.game.actions import Action
from bot.game.challenge import Challenge, Stage, Terms
from bot.game.table import Table
from bot.handlers.common import acknowledge, alert
from bot.services import services
from bot.texts import messages as T
from bot.views import inline_board
from storage import Challenge as StoredChallenge

log = logging.getLogger(__name__)


async def _open_offer(
    context: ContextTypes.DEFAULT_TYPE, place: places.Place, presser: int | None = None
) -> tuple[StoredChallenge, Challenge] | None:
    """The rematch offer waiting on this inline board, if any: the other player's first
    when both offered at once (then the press accepts it)."""
    offers = []
    for stored in await services(context).repo.list_challenges(place.key):
        try:
            offers.append((stored, Challenge.from_payload(stored.payload)))
        except (KeyError, ValueError, TypeError):
            continue
    offers.sort(key=lambda offer: offer[1].by_id == presser)
    return offers[0] if offers else None


async def on_rematch(
    query: CallbackQuery,
    context: ContextTypes.DEFAULT_TYPE,
    place: places.Place,
    btn: cd.GameButton,
    old: Table,
    index: int,
) -> bool:
    """Rivincita (or Accetta la rivincita) on an inline board by player ``index``. True
    when the rematch may start now (the other player offered it); otherwise the press is
    answered here (an offer made, or one already waiting)."""
    svc = services(context)
    if await svc.repo.load_game(place.key) is not None:
        await alert(query, T.ALERT_BUTTON_GAME_OVER)  # the rematch is under way already
        return False
    me, opponent = old.players[index], old.players[1 - index]
    waiting = await _open_offer(context, place, me.user_id)
    if waiting is not None:
        stored, offer = waiting
        if offer.by_id == me.user_id:
            await alert(query, T.ALERT_REMATCH_WAITING)
            return False
        if await svc.repo.take_challenge(place.key, stored.challenge_id) is None:
            await alert(query, T.ALERT_PROMPT_CLOSED)  # refused or expired meanwhile
            return False
        _cancel_expiry(context, place, stored.challenge_id)
        return True
    terms = Terms(old.state.config, old.turn_seconds, old.hints, old.shared_analysis)
    offer = Challenge(
        me.user_id, me.name, terms, Stage.OPEN, to_id=opponent.user_id, to_name=opponent.name
    )
    ttl = svc.settings.challenge_ttl
    created = await svc.repo.create_challenge(place.key, offer.to_payload(), ttl)
    await acknowledge(query, T.ALERT_REMATCH_OFFERED)
    note = T.rematch_offered_inline(me.name, opponent.name, max(1, round(ttl / 60)))
    await _show(context, place, btn, old, note, _offer_keyboard(btn))
    if context.job_queue is not None:
        expiry = _Expiry(place, btn, old, created.challenge_id, me.name)
        name = _job_name(place, created.challenge_id)
        context.job_queue.run_once(_on_expired, ttl + 1, data=expiry, name=name)
    return False


def _job_name(place: places.Place, challenge_id: int) -> str:
    return f"rematch:{place.key}:{challenge_id}"


def _cancel_expiry(
    context: ContextTypes.DEFAULT_TYPE, place: places.Place, challenge_id: int
) -> None:
    """The offer was answered: its expiry (in this process) has nothing left to do."""
    if context.job_queue is not None:
        for job in context.job_queue.get_jobs_by_name(_job_name(place, challenge_id)):
            job.schedule_removal()


async def on_decline(
    query: CallbackQuery,
    context: ContextTypes.DEFAULT_TYPE,
    place: places.Place,
    btn: cd.GameButton,
    old: Table,
    index: int,
) -> None:
    """Rifiuta: the other player refuses the offer, or the offerer withdraws it; the
    finished board comes back (with Rivincita, for a later offer)."""
    waiting = await _open_offer(context, place)
    if waiting is None:
        await alert(query, T.ALERT_PROMPT_CLOSED)
        return
    stored, offer = waiting
    if await services(context).repo.take_challenge(place.key, stored.challenge_id) is None:
        await alert(query, T.ALERT_PROMPT_CLOSED)
        return
    _cancel_expiry(context, place, stored.challenge_id)
    await acknowledge(query)
    me = old.players[index]
    note = (
        T.rematch_withdrawn(offer.by_name)
        if offer.by_id == me.user_id
        else T.rematch_declined(offer.by_name, me.name)
    )
    await _show(context, place, btn, old, note, None)


def _offer_keyboard(btn: cd.GameButton) -> InlineKeyboardMarkup:
    def button(label: str, action: Action) -> InlineKeyboardButton:
        data = cd.GameButton(btn.game_id, btn.version, action, ()).encode()
        return InlineKeyboardButton(label, callback_data=data)

    return InlineKeyboardMarkup(
        [
            [
                button(T.BTN_ACCEPT_REMATCH, Action.REMATCH),
                button(T.BTN_DECLINE_REMATCH, Action.REMATCH_DECLINE),
            ]
        ]
    )


async def _show(
    context: ContextTypes.DEFAULT_TYPE,
    place: places.Place,
    btn: cd.GameButton,
    old: Table,
    note: str,
    markup: InlineKeyboardMarkup | None,
) -> None:
    """The finished board's caption with ``note`` under it, and ``markup`` (None: the
    finished board's own buttons). Best effort: the message may be gone."""
    caption = inline_board.caption(old, btn.game_id, btn.version)
    joined = f"{caption}\n\n{note}"
    if T.telegram_length(joined) > T.MAX_CAPTION_CHARS:
        joined = note
    keyboard = markup or inline_board.keyboard(old, btn.game_id, btn.version)
    try:
        await context.bot.edit_message_caption(
            caption=joined,
            parse_mode=ParseMode.HTML,
            reply_markup=keyboard,
            **place.message(places.INLINE_BOARD_ID),
        )
    except BadRequest as exc:
        if "not modified" not in str(exc).lower():
            log.info("inline board %s: rematch note not shown: %s", place.key, exc)
    except TelegramError as exc:
        log.info("inline board %s: rematch note not shown: %s", place.key, exc)


@dataclass(frozen=True, slots=True)
class _Expiry:
    place: places.Place
    btn: cd.GameButton
    old: Table
    challenge_id: int
    by_name: str


async def _on_expired(context: ContextTypes.DEFAULT_TYPE) -> None:
    """The offer's time is up: if nobody answered it, the finished board comes back."""
    job = context.job
    assert job is not None
    expiry = job.data
    assert isinstance(expiry, _Expiry)
    # The challenge has expired in storage by now. An answer cancels this job in the
    # process that got it; in another worker the checks below keep a started rematch's
    # board and a newer offer in place.
    svc = services(context)
    if await svc.repo.load_game(expiry.place.key) is not None:
        return  # accepted: the message is the rematch's board now
    if await svc.repo.list_challenges(expiry.place.key):
        return  # answered, and a newer offer waits: its own expiry will speak
    note = T.rematch_expired(expiry.by_name)
    await _show(context, expiry.place, expiry.btn, expiry.old, note, None)
