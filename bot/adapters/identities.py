"""Who may challenge and play: people, not the chats that write on someone's behalf.

In a group an anonymous administrator writes as the group (``sender_chat`` is the group,
``from`` the stand-in @GroupAnonymousBot), and a user may write as a channel (``sender_chat``
the channel, ``from`` @Channel_Bot; a linked channel's forwarded posts come from Telegram,
777000). Such a message has no person behind it the bot could name, score or wait for, so
a command that would make its sender a challenger or a player, or a move typed in reply to
the board, gets one clear answer instead and changes nothing. Button presses always carry
the real user, and read-only commands (/regole, /classifica, /partita...) work for anyone.
"""

from __future__ import annotations

from telegram import Message, Update
from telegram.ext import ContextTypes, MessageHandler, filters

from bot.texts import messages as T

GROUP_ANONYMOUS_BOT_ID = 1087968824
CHANNEL_BOT_ID = 136817688
TELEGRAM_SERVICE_ID = 777000
STAND_IN_IDS = frozenset({GROUP_ANONYMOUS_BOT_ID, CHANNEL_BOT_ID, TELEGRAM_SERVICE_ID})

#: Commands that act for their sender as a person (a challenger, a player, their settings).
PERSONAL_COMMANDS = frozenset(
    {
        "start",
        "sfida",
        "gioca",
        "mossa",
        "abbandona",
        "suggerimento",
        "analisi",
        "rivedi",
        "esporta",
        "statistiche",
        "impostazioni",
        "seme",
    }
)

#: Commands that only show something (rules, the board, the leaderboard): anyone may ask.
READ_ONLY_COMMANDS = frozenset(
    {"aiuto", "help", "regole", "classifica", "partita", "mosse", "posizione", "verifica"}
)


def speaks_as_a_chat(message: Message) -> bool:
    """Whether a chat (a group's anonymous admin, a channel), not a person, wrote this."""
    sender = message.from_user
    return message.sender_chat is not None or (sender is not None and sender.id in STAND_IN_IDS)


def _command(message: Message) -> tuple[str, str | None] | None:
    """The command a message starts with and the bot it names (None: no command)."""
    entities = message.entities
    text = message.text or ""
    if not entities or entities[0].type != "bot_command" or entities[0].offset != 0:
        return None
    name, _, target = text[1 : entities[0].length].partition("@")
    return name.lower(), target or None


class _PlaysAsAChat(filters.MessageFilter):
    """A message by a chat's identity that would act as a person: one of this bot's personal
    commands, or a reply to one of its messages (a typed move on the board)."""

    def filter(self, message: Message) -> bool:
        if not speaks_as_a_chat(message):
            return False
        me = message.get_bot()
        command = _command(message)
        if command is not None:
            name, target = command
            for_me = target is None or target.lower() == (me.username or "").lower()
            return for_me and name in PERSONAL_COMMANDS
        replied = message.reply_to_message
        return (
            replied is not None
            and replied.from_user is not None
            and replied.from_user.id == me.id
            and message.text is not None
        )


async def on_chat_identity(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Tell whoever hides behind the chat to write as themselves; nothing else happens."""
    message = update.effective_message
    assert message is not None
    await message.reply_text(T.WRITE_AS_YOURSELF)


def guard() -> MessageHandler[ContextTypes.DEFAULT_TYPE, None]:
    """The handler to register first among the message handlers of the default group: it
    takes the messages of chat identities that would play, so no other handler sees them."""
    return MessageHandler(filters.UpdateType.MESSAGE & _PlaysAsAChat(), on_chat_identity)
