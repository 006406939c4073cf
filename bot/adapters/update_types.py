"""Which updates to ask Telegram for: exactly those the registered handlers handle.

Telegram delivers only the update types listed in ``allowed_updates`` (getUpdates and
setWebhook alike); a handler whose type is missing from the list is never called. So the
list is derived here from the handlers the application registers, in one place, and both
polling and the webhook use it.

Message handlers take their types from their filters: ``filters.UpdateType`` leaves are
asked about a sample of each message-like update (new, edited, channel post...), with
PTB's own checks; any other filter is about the content and does not narrow the type.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from typing import Any

from telegram import Chat, Message, Update
from telegram.ext import (
    BaseHandler,
    CallbackQueryHandler,
    ChatJoinRequestHandler,
    ChatMemberHandler,
    ChosenInlineResultHandler,
    CommandHandler,
    ConversationHandler,
    InlineQueryHandler,
    MessageHandler,
    PollAnswerHandler,
    PollHandler,
    PreCheckoutQueryHandler,
    ShippingQueryHandler,
    TypeHandler,
    filters,
)

from bot.adapters.ptb_types import BotApp

#: Updates that carry a Message, which PTB's message filters look at.
MESSAGE_TYPES = (
    Update.MESSAGE,
    Update.EDITED_MESSAGE,
    Update.CHANNEL_POST,
    Update.EDITED_CHANNEL_POST,
    Update.BUSINESS_MESSAGE,
    Update.EDITED_BUSINESS_MESSAGE,
    Update.GUEST_MESSAGE,
)

#: Handlers that always handle one kind of update.
_FIXED_TYPES: dict[type[Any], tuple[str, ...]] = {
    CallbackQueryHandler: (Update.CALLBACK_QUERY,),
    InlineQueryHandler: (Update.INLINE_QUERY,),
    ChosenInlineResultHandler: (Update.CHOSEN_INLINE_RESULT,),
    ChatJoinRequestHandler: (Update.CHAT_JOIN_REQUEST,),
    PollHandler: (Update.POLL,),
    PollAnswerHandler: (Update.POLL_ANSWER,),
    PreCheckoutQueryHandler: (Update.PRE_CHECKOUT_QUERY,),
    ShippingQueryHandler: (Update.SHIPPING_QUERY,),
}


class UnknownHandlerError(TypeError):
    """A handler whose update types this module cannot tell: teach it rather than guess."""


def _sample(kind: str) -> Update:
    message = Message(1, dt.datetime.now(dt.UTC), Chat(1, Chat.PRIVATE))
    return Update.de_json({"update_id": 0, kind: message.to_dict()}, None)


def _may_match(flt: object, sample: Update) -> bool:
    """Whether the filter may accept this kind of update, whatever the message says."""
    if isinstance(flt, filters._MergedFilter):  # PTB's combinators (private classes)
        left = _may_match(flt.base_filter, sample)
        if flt.and_filter is not None:
            return left and _may_match(flt.and_filter, sample)
        return left or _may_match(flt.or_filter, sample)
    if isinstance(flt, filters._InvertedFilter):
        inner = flt.inv_filter
        return not _is_update_type(inner) or not inner.check_update(sample)
    if _is_update_type(flt):
        assert isinstance(flt, filters.UpdateFilter)
        return bool(flt.check_update(sample))
    return True  # a filter on the content (text, chat type, reply...): any type may match


def _is_update_type(flt: object) -> bool:
    return type(flt).__qualname__.startswith("UpdateType.")


def message_types(flt: filters.BaseFilter) -> frozenset[str]:
    """The message-like update types a message filter may accept."""
    return frozenset(kind for kind in MESSAGE_TYPES if _may_match(flt, _sample(kind)))


def handler_types(handler: BaseHandler[Any, Any, Any]) -> frozenset[str]:
    """The update types that can reach this handler."""
    if isinstance(handler, TypeHandler):
        return frozenset()  # sees whatever the other handlers asked for (claim_once)
    if isinstance(handler, (MessageHandler, CommandHandler)):
        return message_types(handler.filters)
    if isinstance(handler, ChatMemberHandler):
        member_types = {
            ChatMemberHandler.MY_CHAT_MEMBER: {Update.MY_CHAT_MEMBER},
            ChatMemberHandler.CHAT_MEMBER: {Update.CHAT_MEMBER},
            ChatMemberHandler.ANY_CHAT_MEMBER: {Update.MY_CHAT_MEMBER, Update.CHAT_MEMBER},
        }
        chosen = handler.chat_member_types
        return frozenset(
            member_types[ChatMemberHandler.MY_CHAT_MEMBER if chosen is None else chosen]
        )
    if isinstance(handler, ConversationHandler):
        inner = [*handler.entry_points, *handler.fallbacks]
        inner += [h for state in handler.states.values() for h in state]
        return frozenset().union(*(handler_types(h) for h in inner))
    for kind, types in _FIXED_TYPES.items():
        if isinstance(handler, kind):
            return frozenset(types)
    raise UnknownHandlerError(f"which updates does {type(handler).__name__} handle?")


def ordered(types: Iterable[str]) -> list[str]:
    """Update types in the Bot API's order (stable lists, readable logs)."""
    wanted = set(types)
    return [str(kind) for kind in Update.ALL_TYPES if kind in wanted]


def allowed_updates(app: BotApp) -> list[str]:
    """Every update type some registered handler handles, for getUpdates and setWebhook."""
    found: set[str] = set()
    for handlers in app.handlers.values():
        for handler in handlers:
            found |= handler_types(handler)
    return ordered(found)
