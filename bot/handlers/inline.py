"""Inline mode: challenge someone from any chat, and play in the message that carries it.

Typing the bot's name in a chat's message field asks for inline results: challenge cards
(the usual formats, and first the one the typed words describe, read like /sfida's words).
The chosen card is posted by the challenger, in that chat, with Accetta. Whoever else
presses it (or only the user the words named) becomes the opponent, and the same message
turns into the board: the game is then played with the board buttons as in a group
(``bot.adapters.places`` keys it by the inline message).

Inline boards need the operator's media chat (``TAVOLA_MEDIA_CHAT``, see the painter);
without it inline mode is off: no inline query handler is registered, so the bot does not
ask Telegram for inline queries at all (``bot.adapters.update_types``), and a card posted earlier
answers that inline games are off.
"""

from __future__ import annotations

import contextlib
import logging
import time

from telegram import (
    Bot,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InlineQueryResultArticle,
    InputTextMessageContent,
    Update,
    User,
)
from telegram.constants import ParseMode
from telegram.error import BadRequest, TelegramError
from telegram.ext import ContextTypes

from bot import pipeline
from bot.adapters import inline_cards, places
from bot.adapters.callback_data import BadCallbackDataError
from bot.adapters.inline_cards import CardAction, InlineChallenge
from bot.game.options import ChallengeOptions, OptionsError, parse_options
from bot.game.table import Player, Table
from bot.handlers.common import acknowledge, alert, display_name
from bot.services import Services, services
from bot.texts import messages as T
from engine import GameState, MatchConfig, Variant, dice_commitment
from storage import GameAlreadyActiveError

log = logging.getLogger(__name__)

#: The formats offered whatever is typed: (variant, length).
STANDARD_CARDS = (
    (Variant.CLASSIC, 1),
    (Variant.CLASSIC, 3),
    (Variant.CLASSIC, 5),
    (Variant.CLASSIC, 7),
    (Variant.LONG, 1),
    (Variant.LONG, 3),
)
#: Results carry the asker's id: Telegram may keep them briefly, for that user only.
RESULTS_CACHE_SECONDS = 10
#: A card's message is remembered this long past the card's expiry.
BINDING_GRACE_SECONDS = 3600


def inline_enabled(svc: Services) -> bool:
    return svc.settings.media_chat is not None


def _secret(svc: Services) -> bytes:
    return inline_cards.signing_key(svc.settings.token)


def _cards(words: list[str], default_turn: int) -> list[ChallengeOptions]:
    """The typed challenge first (when the words read), then the standard formats, each once;
    an @user in the words addresses all of them to that user."""
    typed: ChallengeOptions | None
    try:
        typed = parse_options(words, default_turn) if words else None
    except OptionsError:
        typed = None
    username = typed.username if typed is not None else None
    cards = [] if typed is None else [typed]
    for variant, length in STANDARD_CARDS:
        config = MatchConfig(variant, length)
        turn = default_turn
        if not any(c.config == config and c.turn_seconds == turn for c in cards):
            cards.append(ChallengeOptions(config, turn, username))
    return cards


def card(
    svc: Services, challenge: InlineChallenge, challenger_name: str
) -> tuple[str, InlineKeyboardMarkup]:
    """The card's text and buttons, as posted in the chat."""
    opts = challenge.options
    secret = _secret(svc)
    settings = T.settings_summary(opts.config, opts.turn_seconds)

    def button(label: str, action: CardAction) -> InlineKeyboardButton:
        return InlineKeyboardButton(
            label, callback_data=inline_cards.encode(secret, challenge, action)
        )

    accept = button(T.BTN_ACCEPT_CHALLENGE, CardAction.ACCEPT)
    withdraw = button(T.BTN_CANCEL_CHALLENGE, CardAction.WITHDRAW)
    if opts.username is None:
        text = T.open_challenge(challenger_name, settings)
        markup = InlineKeyboardMarkup([[accept], [withdraw]])
    else:
        decline = button(T.BTN_DECLINE_CHALLENGE, CardAction.DECLINE)
        text = T.personal_challenge(challenger_name, f"@{opts.username}", settings)
        markup = InlineKeyboardMarkup([[accept, decline], [withdraw]])
    if pipeline.verifiable(svc):  # as on a group's challenge: the dice are fixed already
        text += "\n" + T.dice_commitment(dice_commitment(_seed(svc, challenge.nonce)))
    return text, markup


def _seed(svc: Services, nonce: str) -> str:
    """The dice seed of the card named ``nonce`` (see inline_cards.dice_seed)."""
    return inline_cards.dice_seed(_secret(svc), nonce)


def _binding_ttl(svc: Services) -> float:
    """How long a message's card is remembered: past its expiry, so that a late press is
    told the challenge expired rather than refused as unknown."""
    return svc.settings.challenge_ttl + BINDING_GRACE_SECONDS


async def on_inline_query(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """The challenge cards offered while someone types the bot's name in a chat (registered
    only when inline games are on: otherwise inline queries are not even asked for)."""
    query = update.inline_query
    assert query is not None
    svc = services(context)
    user = query.from_user
    me = display_name(user)
    await svc.repo.set_player_name(user.id, me)  # the name the opponent will play against
    issued = int(time.time())
    results = []
    for opts in _cards(query.query.split(), svc.settings.turn_seconds):
        nonce = inline_cards.new_nonce()  # the result's id: chosen_inline_result names it
        text, markup = card(svc, InlineChallenge(user.id, issued, opts, nonce), me)
        opponent = None if opts.username is None else f"@{opts.username}"
        results.append(
            InlineQueryResultArticle(
                id=nonce,
                title=T.inline_card_title(opts.config),
                description=T.inline_card_description(
                    T.settings_summary(opts.config, opts.turn_seconds), opponent
                ),
                input_message_content=InputTextMessageContent(text, parse_mode=ParseMode.HTML),
                reply_markup=markup,
            )
        )
    await query.answer(results, cache_time=RESULTS_CACHE_SECONDS, is_personal=True)


async def on_chosen_result(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Telegram says which card was sent in which inline message: record it.

    Only then do the card's buttons act, and only that card's: data of another card (every
    card of a query is signed alike) pressed on this message is refused. Needs @BotFather's
    inline feedback (``/setinlinefeedback``, 100%) so that every chosen card is reported.
    """
    chosen = update.chosen_inline_result
    assert chosen is not None
    svc = services(context)
    if chosen.inline_message_id is None or not inline_enabled(svc):
        return  # a card always has buttons, so its message always has an id
    if not inline_cards.is_nonce(chosen.result_id):
        log.warning("chosen inline result with an id we never give: %r", chosen.result_id)
        return
    place = places.Place.inline(chosen.inline_message_id)
    if not await svc.repo.bind_inline_card(place.key, chosen.result_id, _binding_ttl(svc)):
        # The same card sent a second time (a cached result picked again): one card, one
        # message, one game and one dice seed. The copy says so and loses its buttons.
        await _close(context, place, T.INLINE_CARD_SENT_TWICE)


async def on_card_press(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Accetta, Rifiuta or Ritira on a card posted through inline mode."""
    query = update.callback_query
    place = places.of_update(update)
    assert query is not None
    svc = services(context)
    if place is None or not place.is_inline:
        await alert(query, T.ALERT_STALE_BUTTON)  # the data only ever sits on inline cards
        return
    try:
        press = inline_cards.decode(_secret(svc), query.data)
    except BadCallbackDataError:
        await alert(query, T.ALERT_STALE_BUTTON)
        return
    if not inline_enabled(svc):
        await alert(query, T.ALERT_INLINE_OFF)
        return
    if await svc.repo.load_game(place.key) is not None:
        await alert(query, T.ALERT_STALE_BUTTON)  # accepted already: the message is a board
        return
    bound = await svc.repo.inline_card(place.key)
    if bound != press.nonce:
        # None: not reported (yet) by chosen_inline_result, or closed; else another card's
        # data, signed but replayed here. Either way nothing happens.
        await alert(query, T.ALERT_CARD_NOT_RECOGNISED if bound is None else T.ALERT_STALE_BUTTON)
        return
    names = await svc.repo.get_player_names([press.challenger])
    by_name = names.get(press.challenger, str(press.challenger))
    user = query.from_user
    refusal = _refusal(press, user, svc.settings.challenge_ttl)
    if refusal is not None:
        await alert(query, refusal)
        expired = refusal == T.ALERT_CHALLENGE_EXPIRED
        if expired and await svc.repo.close_inline_card(place.key, press.nonce):
            await _close(context, place, T.challenge_expired(by_name))
        return
    me = display_name(user)
    if press.action is CardAction.ACCEPT:
        await _accept(update, context, place, press, Player(press.challenger, by_name))
        return
    if not await svc.repo.close_inline_card(place.key, press.nonce):
        await alert(query, T.ALERT_STALE_BUTTON)  # closed meanwhile by another press
        return
    await acknowledge(query)
    closing = (
        T.challenge_cancelled(by_name)
        if press.action is CardAction.WITHDRAW
        else T.challenge_declined(by_name, me)
    )
    await _close(context, place, closing)


async def _accept(
    update: Update,
    context: ContextTypes.DEFAULT_TYPE,
    place: places.Place,
    press: inline_cards.Press,
    challenger: Player,
) -> None:
    """Accetta: the card's game starts in its message, with the dice the card committed to."""
    query = update.callback_query
    assert query is not None
    svc = services(context)
    user = query.from_user
    me = display_name(user)
    await svc.repo.set_player_name(user.id, me)
    table = Table(
        GameState.new_match(press.config),
        (challenger, Player(user.id, me)),
        turn_seconds=press.turn_seconds,
    )
    if pipeline.verifiable(svc):
        # The seed whose commitment the card showed becomes the message's pending seed,
        # which the game takes (salted with the players' words).
        await svc.repo.take_dice_seed(place.key)
        await svc.repo.pending_dice_seed(place.key, _seed(svc, press.nonce))
    try:
        await pipeline.start_game(
            context, place, table, press=pipeline.Press(query.id, lambda: acknowledge(query))
        )
    except GameAlreadyActiveError:
        await alert(query, T.ALERT_STALE_BUTTON)
        return
    await svc.repo.close_inline_card(place.key, press.nonce)  # one card, one game


def _refusal(press: inline_cards.Press, user: User, ttl: int) -> str | None:
    """Why this user may not press this card's button now, or None."""
    if press.action is CardAction.WITHDRAW:
        return None if user.id == press.challenger else T.ALERT_NOT_CHALLENGER
    if time.time() - press.issued > ttl:
        return T.ALERT_CHALLENGE_EXPIRED
    if user.id == press.challenger:
        return T.ALERT_OWN_CHALLENGE
    if not press.is_for(user.username):
        return T.ALERT_NOT_FOR_YOU
    if press.action is CardAction.DECLINE and press.for_hash is None:
        return T.ALERT_STALE_BUTTON  # open challenges have no Rifiuta
    return None


async def _close(context: ContextTypes.DEFAULT_TYPE, place: places.Place, text: str) -> None:
    """Say on the card how the challenge ended (best effort: it may have changed meanwhile)."""
    with contextlib.suppress(BadRequest):
        await context.bot.edit_message_text(
            text, parse_mode=ParseMode.HTML, reply_markup=None, **place.message(0)
        )


async def announce(bot: Bot, media_chat: int | str | None) -> None:
    """One line for the operator at start-up: whether inline games can be played, and why not."""
    if media_chat is None:
        log.info(
            "inline challenges are off: set TAVOLA_MEDIA_CHAT to a chat where the bot may "
            "post pictures (e.g. a private channel with the bot as admin) to turn them on"
        )
        return
    try:
        await bot.get_chat(media_chat)
    except TelegramError as exc:
        log.warning(
            "TAVOLA_MEDIA_CHAT %s cannot be used (%s): inline boards will fail", media_chat, exc
        )
        return
    if not bot.supports_inline_queries:
        log.warning(
            "TAVOLA_MEDIA_CHAT is set but inline mode is off for this bot: "
            "turn it on with @BotFather's /setinline"
        )
        return
    log.info(
        "inline challenges are on; boards are uploaded to chat %s (the cards need inline "
        "feedback: @BotFather /setinlinefeedback, 100%%)",
        media_chat,
    )
