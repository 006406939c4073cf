"""The painter's Bot API calls, answered with the few fields it reads.

PTB's methods turn every answer into a ``telegram.Message`` (its chat, sender, photo sizes,
caption entities, keyboard...), which costs more CPU than the request itself once the
connection is warm; the painter reads only the message id and the picture's ``file_id``.
These calls go through PTB's ``Bot.do_api_request`` with no return type: the same request,
the same rate limiter and the same errors (``RetryAfter``, ``BadRequest``, ``ChatMigrated``,
``Forbidden``...), only the answer is left as the JSON Telegram sent.

``do_api_request`` warns when it is used for a method PTB has: the warning is silenced for
these calls alone.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from typing import Any

from telegram import Bot, InlineKeyboardMarkup, InputFile, InputMediaPhoto
from telegram.warnings import PTBUserWarning

#: The methods called here by name although PTB has them.
_METHODS = ("sendPhoto", "editMessageMedia", "editMessageCaption")
warnings.filterwarnings(
    "ignore",
    message=r"Please use 'Bot\.(" + "|".join(_METHODS) + r")' instead of",
    category=PTBUserWarning,
)


@dataclass(frozen=True, slots=True)
class Sent:
    """What the painter needs of a message Telegram sent or edited: its id and, when it
    shows a picture, the largest size's ``file_id`` (to send the picture again by id)."""

    message_id: int
    file_id: str | None


def sent(result: object) -> Sent | None:
    """The message of an answer; None for an inline message's edit (Telegram answers True)."""
    if not isinstance(result, dict):
        return None
    photo = result.get("photo")
    file_id = photo[-1]["file_id"] if photo else None
    return Sent(int(result["message_id"]), file_id)


async def _call(bot: Bot, method: str, params: dict[str, Any]) -> Sent | None:
    kwargs = {key: value for key, value in params.items() if value is not None}
    return sent(await bot.do_api_request(method, api_kwargs=kwargs))


async def send_photo(bot: Bot, chat_id: int | str, photo: str | bytes, **fields: Any) -> Sent:
    """``sendPhoto`` of a ``file_id`` or of a picture's bytes; ``fields``: the method's other
    parameters by their Bot API names (``caption``, ``reply_markup``, ``message_thread_id``...)."""
    upload = InputFile(photo) if isinstance(photo, bytes) else photo
    result = await _call(bot, "sendPhoto", {"chat_id": chat_id, "photo": upload, **fields})
    assert result is not None  # a sent message is always answered with the message
    return result


async def edit_message_media(
    bot: Bot,
    media: InputMediaPhoto,
    *,
    chat_id: int | None = None,
    message_id: int | None = None,
    inline_message_id: str | None = None,
    reply_markup: InlineKeyboardMarkup | None = None,
) -> Sent | None:
    """``editMessageMedia``: the edited message, or None for an inline message."""
    return await _call(
        bot,
        "editMessageMedia",
        {
            "media": media,
            "chat_id": chat_id,
            "message_id": message_id,
            "inline_message_id": inline_message_id,
            "reply_markup": reply_markup,
        },
    )


async def edit_message_caption(
    bot: Bot,
    chat_id: int,
    message_id: int,
    *,
    caption: str,
    parse_mode: str | None = None,
    reply_markup: InlineKeyboardMarkup | None = None,
) -> Sent | None:
    """``editMessageCaption`` of a chat's message."""
    return await _call(
        bot,
        "editMessageCaption",
        {
            "chat_id": chat_id,
            "message_id": message_id,
            "caption": caption,
            "parse_mode": parse_mode,
            "reply_markup": reply_markup,
        },
    )
