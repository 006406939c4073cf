"""The updates asked of Telegram are derived from the registered handlers: none is missing
(Telegram would never deliver it), none is asked for that nothing handles."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from typing import Any

import pytest
import redis.asyncio as aioredis
from telegram import Bot, Chat, Message, MessageEntity, Update, User
from telegram.ext import (
    BaseHandler,
    CallbackQueryHandler,
    ChatMemberHandler,
    CommandHandler,
    ConversationHandler,
    InlineQueryHandler,
    MessageHandler,
    TypeHandler,
    filters,
)

from bot.adapters import identities
from bot.adapters.ptb_types import BotApp
from bot.adapters.update_types import (
    MESSAGE_TYPES,
    UnknownHandlerError,
    allowed_updates,
    handler_types,
    message_types,
)
from bot.app import build_application
from bot.computer import ComputerPool
from bot.config import Settings
from engine.serialize import SCHEMA_VERSION
from storage import GameRepository, SchemaRegistry


async def _noop(update: object, context: object) -> None:
    return None


def _app(media_chat: int | None) -> BotApp:
    # Never started: no request, no connection (the client connects on first use).
    repo = GameRepository(
        aioredis.Redis.from_url("redis://127.0.0.1:1"), SchemaRegistry(current=SCHEMA_VERSION)
    )
    settings = Settings(token="1:x", media_chat=media_chat, rate_limit=False)
    return build_application(settings, repo, computer=ComputerPool(1))


def _handlers(app: BotApp) -> Iterator[BaseHandler[Any, Any, Any]]:
    for group in app.handlers.values():
        yield from group


@pytest.mark.parametrize("media_chat", [None, -100123], ids=["inline off", "inline on"])
def test_every_registered_handler_gets_its_updates(media_chat: int | None) -> None:
    app = _app(media_chat)
    asked = set(allowed_updates(app))
    for handler in _handlers(app):
        missing = handler_types(handler) - asked
        assert not missing, f"{handler} would never receive {missing}"
    inline = ["inline_query", "chosen_inline_result"] if media_chat is not None else []
    # Joins and kicks arrive as my_chat_member; edited messages are not commands or moves.
    assert allowed_updates(app) == [
        "message",
        *inline,
        "callback_query",
        "my_chat_member",
    ]


class _NamedBot(Bot):
    """A bot that knows its name without asking Telegram (CommandHandler reads it)."""

    @property
    def bot(self) -> User:
        return User(1, "Tavola", is_bot=True, username="tavola_bot")


def _command_update(kind: str) -> Update:
    text = "/sfida lungo"
    message = Message(
        1,
        dt.datetime.now(dt.UTC),
        Chat(-1, Chat.GROUP),
        from_user=User(5, "Anna", False),
        text=text,
        entities=(MessageEntity(MessageEntity.BOT_COMMAND, 0, 6),),
    )
    return Update.de_json({"update_id": 1, kind: message.to_dict()}, _NamedBot("1:x"))


@pytest.mark.parametrize(
    "handler",
    [
        CommandHandler("sfida", _noop),
        CommandHandler("sfida", _noop, filters=filters.UpdateType.MESSAGE),
        MessageHandler(filters.TEXT, _noop),
        MessageHandler(filters.UpdateType.MESSAGE & filters.TEXT, _noop),
        MessageHandler(~filters.UpdateType.EDITED & filters.TEXT, _noop),
        MessageHandler(filters.UpdateType.CHANNEL_POSTS | filters.UpdateType.MESSAGE, _noop),
    ],
    ids=["command", "command, new only", "text", "text, new only", "not edited", "or"],
)
def test_message_types_agree_with_what_ptb_accepts(handler: BaseHandler[Any, Any, Any]) -> None:
    """The types derived from a handler's filters are those its own check accepts."""
    derived = handler_types(handler)
    accepted = {kind for kind in MESSAGE_TYPES if handler.check_update(_command_update(kind))}
    assert derived == accepted
    assert "message" in derived


@pytest.mark.filterwarnings("ignore::telegram.warnings.PTBUserWarning")
def test_other_handlers_and_unknown_ones() -> None:
    assert handler_types(CallbackQueryHandler(_noop)) == {"callback_query"}
    assert handler_types(InlineQueryHandler(_noop)) == {"inline_query"}
    assert handler_types(ChatMemberHandler(_noop)) == {"my_chat_member"}
    assert handler_types(ChatMemberHandler(_noop, ChatMemberHandler.ANY_CHAT_MEMBER)) == {
        "my_chat_member",
        "chat_member",
    }
    assert handler_types(TypeHandler(Update, _noop)) == frozenset()
    conversation = ConversationHandler(
        [CommandHandler("a", _noop, filters=filters.UpdateType.MESSAGE)],
        {1: [CallbackQueryHandler(_noop)]},
        [],
    )
    assert handler_types(conversation) == {"message", "callback_query"}
    assert message_types(filters.UpdateType.EDITED_MESSAGE) == {"edited_message"}

    class Custom(BaseHandler[Update, Any, None]):
        def check_update(self, update: object) -> bool:
            return True

    with pytest.raises(UnknownHandlerError):
        handler_types(Custom(_noop))


def test_every_command_is_either_personal_or_read_only() -> None:
    # A new command must say whether an anonymous admin or a channel may use it.
    registered = {
        command
        for handler in _handlers(_app(None))
        if isinstance(handler, CommandHandler)
        for command in handler.commands
    }
    assert registered == identities.PERSONAL_COMMANDS | identities.READ_ONLY_COMMANDS
    assert not identities.PERSONAL_COMMANDS & identities.READ_ONLY_COMMANDS
