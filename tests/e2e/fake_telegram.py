"""A fake Telegram Bot API server for end-to-end tests.

Why a fake server instead of mocking PTB: the bot under test must run unchanged, with its real
`Application`, its real HTTP client and PTB's own (de)serialisation. Pointing `base_url` at this
aiohttp server exercises all of that, while the server plays Telegram's part: it hands out
updates through long-polled `getUpdates`, keeps every chat's messages so tests can read what a
user would see, and refuses what Telegram refuses (with Telegram's error texts, so PTB raises
the same `telegram.error.BadRequest` it would in production).

Behaviour worth knowing when writing tests:
- an edit without `reply_markup` removes the inline keyboard, as on Telegram;
- an edit that leaves text/caption, entities, photo bytes and keyboard unchanged fails with
  "message is not modified" (re-uploading identical bytes counts as unchanged);
- lengths are counted after parse_mode markup is removed, in UTF-16 code units;
- updates stay queued until a later getUpdates confirms them with its offset.

Opt-in realism (all off by default, so the functional tests stay fast and exact):
- `latency` seconds are added to every request (half before it is handled, half before the
  answer), and `upload_seconds_per_mb` more per megabyte of uploaded files;
- `enforce_limits=True` applies Telegram's flood limits to sends and edits ("limited
  requests"): per group `group_limit` (20 per rolling 60 s), per private chat `private_limit`
  (a token bucket: a burst of 3, refilled at one a second: about one a second with short
  bursts tolerated), for the whole bot
  `global_limit` (30 per second). Over a limit the answer is HTTP 429 with
  `parameters.retry_after` (PTB raises `RetryAfter`), and the chat stays closed until that
  time has passed, as on Telegram. answerCallbackQuery is never limited;
- `inject_retry_after(chat, seconds, count)` refuses the chat's next limited requests with 429;
- `delay_reply(method, seconds, count)` handles the next calls of a method at once but
  answers them `seconds` later: past the client's timeout, the request took effect (the
  message exists) while the client saw a timeout (PTB raises `TimedOut`);
- `answer_max_age` (seconds from the press; 0 refuses every answer) makes answerCallbackQuery
  fail with "query is too old", as Telegram does after about 15 s;
- counters per chat (`limited_requests`, `photo_uploads`, `retry_afters`), timings per button
  press (`query_timings()`), `StoredMessage.updated_at`, and `wait_chat_event` to follow one
  chat without scanning the whole request log (for the load benchmark).

Typical use::

    async with FakeTelegram() as tg:
        app = (
            ApplicationBuilder().token(tg.token)
            .base_url(tg.base_url).base_file_url(tg.base_file_url).build()
        )
        ...  # start the app and its polling
        alice = tg.user(1, "Alice")
        chat = tg.private_chat(alice)
        tg.send_message(chat, alice, "/start")
        reply = await tg.wait_for("sendPhoto")
        board = tg.message(chat, reply.result["message_id"])
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import itertools
import json
import math
import re
import time
from collections import Counter, deque
from collections.abc import Callable
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Any, ClassVar

from aiohttp import web
from PIL import Image

DEFAULT_TOKEN = "123:ABC"

# Telegram's limits, as documented or as observed from the real server.
MAX_TEXT_LENGTH = 4096
MAX_CAPTION_LENGTH = 1024
MAX_CALLBACK_DATA_BYTES = 64
MAX_INLINE_BUTTONS = 100
MAX_INLINE_BUTTONS_PER_ROW = 8
MAX_REPLY_MARKUP_BYTES = 10 * 1024
MAX_CALLBACK_ANSWER_LENGTH = 200
MAX_BOT_DESCRIPTION = 512  # setMyDescription: 0-512 characters
MAX_BOT_SHORT_DESCRIPTION = 120  # setMyShortDescription: 0-120 characters
MAX_PHOTO_BYTES = 10 * 1024 * 1024
MAX_UPLOAD_BYTES = 50 * 1024 * 1024  # documents and animations sent by a bot
MAX_PHOTO_SIDES_SUM = 10_000
MAX_PHOTO_RATIO = 20

# Telegram's error descriptions, verbatim where known.
NOT_MODIFIED = (
    "Bad Request: message is not modified: specified new message content and reply markup are"
    " exactly the same as a current content and reply markup of the message"
)
QUERY_INVALID = "Bad Request: query is too old and response timeout expired or query ID is invalid"
BUTTON_DATA_INVALID = "Bad Request: BUTTON_DATA_INVALID"
MARKUP_TOO_LONG = "Bad Request: reply markup is too long"
CAPTION_TOO_LONG = "Bad Request: message caption is too long"
TEXT_TOO_LONG = "Bad Request: message is too long"
TEXT_EMPTY = "Bad Request: message text is empty"
CHAT_NOT_FOUND = "Bad Request: chat not found"
# Places the bot can no longer reach (the exact texts of the Bot API's 400 and 403 answers).
GROUP_UPGRADED = "Bad Request: group chat was upgraded to a supergroup chat"
BOT_BLOCKED = "Forbidden: bot was blocked by the user"
CANT_INITIATE = "Forbidden: bot can't initiate conversation with a user"
BOT_KICKED = "Forbidden: bot was kicked from the {} chat"  # group, supergroup
BOT_NOT_MEMBER = "Forbidden: bot is not a member of the {} chat"  # after leaving
#: The user that service messages of a supergroup come from (and anonymous admins write as).
GROUP_ANONYMOUS_BOT_ID = 1087968824
EDIT_NOT_FOUND = "Bad Request: message to edit not found"
DELETE_NOT_FOUND = "Bad Request: message to delete not found"
CANT_EDIT = "Bad Request: message can't be edited"
REPLY_NOT_FOUND = "Bad Request: message to be replied not found"
# A send into a forum topic that was closed, or deleted (or never existed).
TOPIC_CLOSED = "Bad Request: TOPIC_CLOSED"
THREAD_NOT_FOUND = "Bad Request: message thread not found"
WRONG_FILE = "Bad Request: wrong file identifier/HTTP URL specified"
IMAGE_FAILED = "Bad Request: IMAGE_PROCESS_FAILED"
TOO_MANY_REQUESTS = "Too Many Requests: retry after {}"
# Telegram accepts no upload when an inline message is edited: a file_id or a URL only.
INLINE_UPLOAD = "Bad Request: a new file can't be uploaded to an inline message"
MAX_INLINE_RESULTS = 50
# A message older than this can no longer be deleted by a bot (groups and private chats).
DELETE_MAX_AGE = 48 * 3600
CANT_DELETE = "Bad Request: message can't be deleted"
# answerCallbackQuery must come within about 15 s of the press.
ANSWER_MAX_AGE = 15.0

# Update types. With no allowed_updates ever given (or an empty list) Telegram sends every
# type but these; a list sent with getUpdates or setWebhook stays in force until the next.
NOT_SENT_BY_DEFAULT = frozenset({"chat_member", "message_reaction", "message_reaction_count"})

# The stand-in users Telegram puts in `from` when a chat, not a person, writes in a group
# (the real sender is in `sender_chat`).
GROUP_ANONYMOUS_BOT_ID = 1087968824  # an anonymous administrator of the group
CHANNEL_BOT_ID = 136817688  # a channel writing in a group (a user posting as the channel)
TELEGRAM_SERVICE_ID = 777000  # a linked channel's post forwarded to its discussion group
STAND_IN_IDS = frozenset({GROUP_ANONYMOUS_BOT_ID, CHANNEL_BOT_ID, TELEGRAM_SERVICE_ID})

# Keys of a message's content: a message with none of them is a service message (joins,
# migrations, pins...), which every bot receives whatever its privacy mode.
CONTENT_KEYS = frozenset(
    {
        "text",
        "caption",
        "photo",
        "document",
        "animation",
        "sticker",
        "video",
        "video_note",
        "voice",
        "audio",
        "contact",
        "location",
        "venue",
        "poll",
        "dice",
        "game",
        "story",
    }
)

# Flood limits (count, rolling window in seconds), applied when enforce_limits is on.
GROUP_LIMIT = (20, 60.0)
# A private chat's token bucket (burst, seconds to refill it): one a second, bursts of 3.
PRIVATE_LIMIT = (3, 3.0)
GLOBAL_LIMIT = (30, 1.0)

CHAT_ACTIONS = frozenset(
    {
        "typing",
        "upload_photo",
        "record_video",
        "upload_video",
        "record_voice",
        "upload_voice",
        "upload_document",
        "choose_sticker",
        "find_location",
        "record_video_note",
        "upload_video_note",
    }
)

# Form fields that Telegram reads as plain strings; PTB sends them unencoded, so a text such as
# "42" must not be mistaken for a JSON number. Every other field is JSON-decoded when possible.
STRING_FIELDS = frozenset(
    {
        "text",
        "caption",
        "parse_mode",
        "callback_query_id",
        "title",
        "description",
        "short_description",
        "name",
        "url",
        "action",
        "language_code",
        "file_id",
        "photo",
        "emoji",
        "inline_message_id",
        "business_connection_id",
        "message_effect_id",
    }
)


class ApiError(Exception):
    """A refusal of the Bot API, sent back as `{"ok": false, ...}` with the same HTTP status."""

    def __init__(
        self, description: str, code: int = 400, parameters: dict[str, Any] | None = None
    ) -> None:
        super().__init__(description)
        self.description = description
        self.code = code
        self.parameters = parameters


def too_many_requests(retry_after: float) -> ApiError:
    """Telegram's 429; `retry_after` is whole seconds on Telegram, any number here for tests."""
    value: float = int(retry_after) if float(retry_after).is_integer() else retry_after
    return ApiError(TOO_MANY_REQUESTS.format(value), 429, {"retry_after": value})


def is_limited_method(method: str) -> bool:
    """Sends and edits: the requests Telegram's per-chat flood limits count."""
    name = method.lower()
    if name == "sendchataction":
        return False
    return name.startswith(("send", "edit", "copymessage", "forwardmessage"))


class FakeTelegramUsageError(AssertionError):
    """A test asked the fake for something no real user could do (e.g. press a missing button)."""


def utf16_length(text: str) -> int:
    """Length in UTF-16 code units: the unit Telegram uses for entity offsets and limits."""
    return len(text.encode("utf-16-le")) // 2


def command_entities(text: str) -> list[dict[str, Any]]:
    """The `bot_command` entities Telegram finds in a text (`/cmd` or `/cmd@somebot`)."""
    return [
        {
            "type": "bot_command",
            "offset": utf16_length(text[: m.start()]),
            "length": utf16_length(m.group()),
        }
        for m in re.finditer(r"(?<!\S)/[A-Za-z0-9_]{1,32}(?:@[A-Za-z0-9_]{3,32})?", text)
    ]


def update_type(update: dict[str, Any]) -> str:
    """The type of an update: its one field besides update_id ("message", "inline_query"...)."""
    kinds = [key for key in update if key != "update_id"]
    if len(kinds) != 1:
        raise FakeTelegramUsageError(f"an update has exactly one type, not {kinds}")
    return kinds[0]


@dataclass(frozen=True)
class FakeUser:
    """A Telegram user (or the bot itself) as it appears in `from` fields."""

    id: int
    first_name: str
    username: str | None = None
    is_bot: bool = False
    language_code: str | None = "it"

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"id": self.id, "is_bot": self.is_bot, "first_name": self.first_name}
        if self.username:
            data["username"] = self.username
        if self.language_code and not self.is_bot:
            data["language_code"] = self.language_code
        return data


GROUP_ANONYMOUS_BOT = FakeUser(
    GROUP_ANONYMOUS_BOT_ID, "Group", "GroupAnonymousBot", is_bot=True, language_code=None
)
CHANNEL_BOT = FakeUser(CHANNEL_BOT_ID, "Channel", "Channel_Bot", is_bot=True, language_code=None)
TELEGRAM_SERVICE = FakeUser(TELEGRAM_SERVICE_ID, "Telegram", language_code=None)


@dataclass(frozen=True)
class FakeChat:
    """A private chat, group or supergroup known to the fake server."""

    id: int
    type: str
    title: str | None = None
    first_name: str | None = None
    username: str | None = None
    is_forum: bool = False  # a supergroup with topics

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"id": self.id, "type": self.type}
        for key in ("title", "first_name", "username"):
            value = getattr(self, key)
            if value:
                data[key] = value
        if self.is_forum:
            data["is_forum"] = True
        return data


@dataclass
class FakeTopic:
    """A topic of a forum supergroup: its id is the id of the message that created it."""

    chat: FakeChat
    thread_id: int
    name: str
    closed: bool = False
    deleted: bool = False


@dataclass
class StoredMessage:
    """The current state of one message, as a Telegram client would display it."""

    chat: FakeChat
    message_id: int
    sender: FakeUser
    date: int
    text: str | None = None
    entities: list[dict[str, Any]] = field(default_factory=list)
    caption: str | None = None
    caption_entities: list[dict[str, Any]] = field(default_factory=list)
    photo: bytes | None = None
    photo_sizes: list[dict[str, Any]] = field(default_factory=list)
    document: bytes | None = None  # a file sent with sendDocument or sendAnimation
    document_meta: dict[str, Any] = field(default_factory=dict)
    animation: dict[str, Any] | None = None  # sendAnimation: the Animation object
    reply_markup: dict[str, Any] | None = None
    reply_to: StoredMessage | None = None
    sender_chat: FakeChat | None = None  # the chat a message was sent on behalf of
    is_automatic_forward: bool = False
    edit_date: int | None = None
    edits: int = 0
    deleted: bool = False
    updated_at: float = 0.0  # time.monotonic() of the last send, edit or delete
    thread_id: int | None = None  # the forum topic it was sent in (None: General, no forum)
    # Service fields (forum_topic_created, migrate_to_chat_id, sender_chat...), as sent.
    service: dict[str, Any] = field(default_factory=dict)

    @property
    def keyboard(self) -> list[list[dict[str, Any]]]:
        """Rows of inline buttons (empty when the message has no inline keyboard)."""
        if not self.reply_markup:
            return []
        return self.reply_markup.get("inline_keyboard", [])

    @property
    def buttons(self) -> list[dict[str, Any]]:
        return [button for row in self.keyboard for button in row]

    @property
    def callback_data(self) -> list[str]:
        return [b["callback_data"] for b in self.buttons if "callback_data" in b]

    @property
    def button_texts(self) -> list[str]:
        return [b["text"] for b in self.buttons]

    def data_for(self, button_text: str) -> str:
        """The callback data of the button labelled `button_text` (so tests can press by label)."""
        matches = [b for b in self.buttons if b["text"] == button_text and "callback_data" in b]
        if len(matches) != 1:
            raise FakeTelegramUsageError(
                f"expected one button {button_text!r} on message {self.message_id}, "
                f"found {len(matches)}; buttons: {self.button_texts}"
            )
        return matches[0]["callback_data"]

    def snapshot(self) -> tuple[Any, ...]:
        """What a user sees; equal snapshots before and after an edit mean 'not modified'."""
        markup = json.dumps(self.reply_markup, sort_keys=True) if self.reply_markup else None
        return (
            self.text,
            json.dumps(self.entities, sort_keys=True),
            self.caption,
            json.dumps(self.caption_entities, sort_keys=True),
            self.photo,
            markup,
        )

    def to_dict(self, *, with_reply: bool = True) -> dict[str, Any]:
        data: dict[str, Any] = {
            "message_id": self.message_id,
            "from": self.sender.to_dict(),
            "chat": self.chat.to_dict(),
            "date": self.date,
        }
        if self.sender_chat is not None:
            data["sender_chat"] = self.sender_chat.to_dict()
        if self.is_automatic_forward:
            data["is_automatic_forward"] = True
        if self.edit_date is not None:
            data["edit_date"] = self.edit_date
        if self.text is not None:
            data["text"] = self.text
            if self.entities:
                data["entities"] = self.entities
        if self.photo_sizes:
            data["photo"] = self.photo_sizes
        if self.document_meta:
            data["document"] = self.document_meta
        if self.animation is not None:
            data["animation"] = self.animation
        if self.caption is not None:
            data["caption"] = self.caption
            if self.caption_entities:
                data["caption_entities"] = self.caption_entities
        if self.reply_markup and "inline_keyboard" in self.reply_markup:
            data["reply_markup"] = self.reply_markup
        if self.thread_id is not None:
            data["message_thread_id"] = self.thread_id
            data["is_topic_message"] = True
        data.update(self.service)
        if with_reply and self.reply_to is not None:
            data["reply_to_message"] = self.reply_to.to_dict(with_reply=False)
        return data


@dataclass
class RecordedRequest:
    """One call the bot made, recorded on arrival; the outcome is filled in when it is answered."""

    index: int
    method: str
    params: dict[str, Any]
    files: dict[str, bytes]
    ok: bool | None = None
    result: Any = None
    error: str | None = None
    photo: bytes | None = None

    @property
    def done(self) -> bool:
        return self.ok is not None

    @property
    def is_polling(self) -> bool:
        return self.method.lower() == "getupdates"


@dataclass
class _CallbackQuery:
    chat_id: int
    message_id: int
    data: str
    answer: dict[str, Any] | None = None
    pressed_at: float = 0.0
    answered_at: float | None = None
    clock_at_press: float = 0.0  # the fake clock's advance when pressed (see advance_clock)


@dataclass(frozen=True)
class QueryTiming:
    """When a button was pressed and when the bot answered it (time.monotonic(), None: not)."""

    query_id: str
    chat_id: int
    data: str
    pressed_at: float
    answered_at: float | None


# ---------------------------------------------------------------------------------------------
# Formatted text: Telegram parses parse_mode markup into plain text plus entities, and refuses
# malformed markup. Limits apply to the plain text, so the fake has to parse too.
# ---------------------------------------------------------------------------------------------

_HTML_ENTITY_TYPES = {
    "b": "bold",
    "strong": "bold",
    "i": "italic",
    "em": "italic",
    "u": "underline",
    "ins": "underline",
    "s": "strikethrough",
    "strike": "strikethrough",
    "del": "strikethrough",
    "tg-spoiler": "spoiler",
    "span": "spoiler",
    "a": "text_link",
    "code": "code",
    "pre": "pre",
    "blockquote": "blockquote",
    "tg-emoji": "custom_emoji",
}


class _HtmlEntityParser(HTMLParser):
    """Telegram's HTML subset: allowed tags only, properly nested and closed."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.length = 0
        self.stack: list[tuple[str, int, dict[str, str | None]]] = []
        self.entities: list[dict[str, Any]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in _HTML_ENTITY_TYPES:
            raise ApiError(f'Bad Request: can\'t parse entities: Unsupported start tag "{tag}"')
        attributes = dict(attrs)
        if tag == "span" and attributes.get("class") != "tg-spoiler":
            raise ApiError('Bad Request: can\'t parse entities: Tag "span" must have class')
        self.stack.append((tag, self.length, attributes))

    def handle_endtag(self, tag: str) -> None:
        if not self.stack or self.stack[-1][0] != tag:
            expected = f'"</{self.stack[-1][0]}>"' if self.stack else "no end tag"
            raise ApiError(
                f'Bad Request: can\'t parse entities: Unmatched end tag "</{tag}>", '
                f"expected {expected}"
            )
        name, start, attributes = self.stack.pop()
        if self.length == start:
            return
        entity: dict[str, Any] = {
            "type": _HTML_ENTITY_TYPES[name],
            "offset": start,
            "length": self.length - start,
        }
        if name == "a":
            entity["url"] = attributes.get("href") or ""
        if name == "blockquote" and "expandable" in attributes:
            entity["type"] = "expandable_blockquote"
        self.entities.append(entity)

    def handle_data(self, data: str) -> None:
        self.parts.append(data)
        self.length += utf16_length(data)


def _parse_html(text: str) -> tuple[str, list[dict[str, Any]]]:
    stray = re.search(r"<(?![a-zA-Z/])", text)
    if stray:
        offset = len(text[: stray.start()].encode())
        raise ApiError(
            "Bad Request: can't parse entities: Unsupported start tag at byte offset "
            f"{offset}; escape '<' as &lt;"
        )
    parser = _HtmlEntityParser()
    parser.feed(text)
    parser.close()
    if parser.stack:
        raise ApiError(
            "Bad Request: can't parse entities: Can't find end tag corresponding to start tag "
            f'"{parser.stack[-1][0]}"'
        )
    return "".join(parser.parts), parser.entities


_MARKDOWN_V2_RESERVED = frozenset("_*[]()~`>#+-=|{}.!")


def _parse_markdown(text: str, *, v2: bool) -> tuple[str, list[dict[str, Any]]]:
    """Markdown and MarkdownV2 markup, including V2's rule that reserved characters be escaped."""
    out: list[str] = []
    length = 0
    open_entities: dict[str, int] = {}
    entities: list[dict[str, Any]] = []
    link_start: int | None = None
    i = 0

    def emit(chunk: str) -> None:
        nonlocal length
        out.append(chunk)
        length += utf16_length(chunk)

    def toggle(kind: str) -> None:
        if kind in open_entities:
            start = open_entities.pop(kind)
            if length > start:
                entities.append({"type": kind, "offset": start, "length": length - start})
        else:
            open_entities[kind] = length

    while i < len(text):
        char = text[i]
        byte_offset = len(text[:i].encode())
        if char == "\\" and v2:
            if i + 1 >= len(text):
                raise ApiError("Bad Request: can't parse entities: Unexpected end of text")
            emit(text[i + 1])
            i += 2
        elif char == "`":
            fence = "```" if text.startswith("```", i) else "`"
            end = text.find(fence, i + len(fence))
            if end < 0:
                raise ApiError(
                    "Bad Request: can't parse entities: Can't find end of the entity starting "
                    f"at byte offset {byte_offset}"
                )
            body = text[i + len(fence) : end]
            if fence == "```" and "\n" in body:
                body = body.split("\n", 1)[1]
            if v2:
                body = re.sub(r"\\(.)", r"\1", body)
            start = length
            emit(body)
            kind = "pre" if fence == "```" else "code"
            entities.append({"type": kind, "offset": start, "length": length - start})
            i = end + len(fence)
        elif v2 and text.startswith("__", i):
            toggle("underline")
            i += 2
        elif v2 and text.startswith("||", i):
            toggle("spoiler")
            i += 2
        elif char in "*_" or (v2 and char == "~"):
            kind = {"*": "bold", "_": "italic", "~": "strikethrough"}[char]
            toggle(kind)
            i += 1
        elif char == "[" and link_start is None:
            link_start = length
            i += 1
        elif char == "]" and link_start is not None:
            match = re.match(r"\]\(((?:[^)\\]|\\.)*)\)", text[i:])
            if not match:
                raise ApiError(
                    "Bad Request: can't parse entities: Can't find end of a URL at byte offset "
                    f"{byte_offset}"
                )
            entities.append(
                {
                    "type": "text_link",
                    "offset": link_start,
                    "length": length - link_start,
                    "url": match.group(1),
                }
            )
            link_start = None
            i += match.end()
        elif v2 and char == ">" and (i == 0 or text[i - 1] == "\n"):
            i += 1  # blockquote marker; the entity itself is not modelled
        elif v2 and char in _MARKDOWN_V2_RESERVED:
            raise ApiError(
                f"Bad Request: can't parse entities: Character '{char}' is reserved and must be "
                "escaped with the preceding '\\'"
            )
        else:
            emit(char)
            i += 1
    if open_entities or link_start is not None:
        raise ApiError(
            "Bad Request: can't parse entities: Can't find end of the entity starting at byte "
            "offset 0"
        )
    return "".join(out), entities


def parse_formatted(
    text: str, parse_mode: str | None, entities: list[dict[str, Any]] | None = None
) -> tuple[str, list[dict[str, Any]]]:
    """Plain text and entities of a text or caption, as Telegram would store them."""
    if entities:
        return text, list(entities)
    mode = (parse_mode or "").lower()
    if mode == "html":
        plain, found = _parse_html(text)
    elif mode == "markdownv2":
        plain, found = _parse_markdown(text, v2=True)
    elif mode == "markdown":
        plain, found = _parse_markdown(text, v2=False)
    elif mode:
        raise ApiError(f"Bad Request: unsupported parse_mode {parse_mode}")
    else:
        plain, found = text, []
    found.sort(key=lambda e: (e["offset"], -e["length"]))
    return plain, found


# ---------------------------------------------------------------------------------------------
# The server
# ---------------------------------------------------------------------------------------------


class FakeTelegram:
    """A local Bot API server holding users, chats, messages, updates and the request log.

    Every request is appended to `requests` on arrival (so their order is the bot's order);
    its outcome is filled in once answered. Helpers (`send_message`, `press`) enqueue updates
    as Telegram would deliver them; `wait_for` and `settle` let a test wait for the bot.
    """

    def __init__(
        self,
        token: str = DEFAULT_TOKEN,
        *,
        bot_username: str = "tavola_test_bot",
        bot_name: str = "Tavola",
        host: str = "127.0.0.1",
        port: int = 0,
        max_long_poll: float = 2.0,
        max_buttons_per_row: int = MAX_INLINE_BUTTONS_PER_ROW,
        latency: float = 0.0,
        upload_seconds_per_mb: float = 0.0,
        enforce_limits: bool = False,
        group_limit: tuple[int, float] = GROUP_LIMIT,
        private_limit: tuple[int, float] = PRIVATE_LIMIT,
        global_limit: tuple[int, float] = GLOBAL_LIMIT,
        answer_max_age: float | None = ANSWER_MAX_AGE,
        privacy_mode: bool = True,
    ) -> None:
        self.token = token
        self.latency = latency
        self.upload_seconds_per_mb = upload_seconds_per_mb
        self.enforce_limits = enforce_limits
        self.group_limit = group_limit
        self.private_limit = private_limit
        self.global_limit = global_limit
        self.answer_max_age = answer_max_age
        # Counters per chat id: sends and edits admitted, those carrying an upload, 429s sent.
        self.limited_requests: Counter[int] = Counter()
        self.photo_uploads: Counter[int] = Counter()
        self.retry_afters: Counter[int] = Counter()
        self._windows: dict[int, deque[float]] = {}
        self._global_window: deque[float] = deque()
        self._private_buckets: dict[int, tuple[float, float]] = {}  # chat -> (tokens, at)
        #: (time.monotonic(), chat id) of every send or edit admitted, in order of arrival:
        #: the rates the bot's requests reached, as Telegram would count them.
        self.admissions: list[tuple[float, int]] = []
        self._closed_until: dict[int, float] = {}
        self._injected: dict[int, deque[float]] = {}
        self._reply_delays: dict[str, deque[float]] = {}  # method (lower case) -> delays
        self._chat_events: dict[int, asyncio.Event] = {}
        # What Telegram delivers: the bot's allowed_updates (None: never set, Telegram's
        # default), its privacy mode (@BotFather's /setprivacy) and the groups where it is
        # an administrator (which see every message); updates it would not get are dropped.
        self.allowed_updates: frozenset[str] | None = None
        self.privacy_mode = privacy_mode
        self.dropped_updates: list[dict[str, Any]] = []
        self._admin_in: set[int] = set()
        self._last_bot_in: dict[int, int] = {}  # group id -> id of the last bot that wrote
        self._clock_offset = 0.0  # seconds added to the fake's clock by advance_clock
        self.host = host
        self.port = port
        self.max_long_poll = max_long_poll
        self.max_buttons_per_row = max_buttons_per_row
        self.bot_user = FakeUser(
            int(token.split(":", 1)[0]), bot_name, bot_username, is_bot=True, language_code=None
        )
        self.requests: list[RecordedRequest] = []
        self.commands: dict[str, list[dict[str, Any]]] = {}
        #: (description or short_description, language code or "") -> the bot's text.
        self.descriptions: dict[tuple[str, str], str] = {}
        self.menu_buttons: dict[int | None, dict[str, Any]] = {}
        self.chat_actions: list[tuple[int, str]] = []
        self._users: dict[int, FakeUser] = {}
        self._chats: dict[int, FakeChat] = {}
        self._blocked: set[int] = set()
        self._removed: dict[int, str] = {}  # group id -> "kicked" or "left": the bot is out
        self._migrated: dict[int, int] = {}  # basic group id -> its supergroup's id
        self._messages: dict[int, dict[int, StoredMessage]] = {}
        self._topics: dict[int, dict[int, FakeTopic]] = {}  # chat -> thread id -> topic
        self._next_message_id: dict[int, int] = {}
        self._files: dict[str, bytes] = {}
        self._file_counter = itertools.count(1)
        self._upload_names: dict[str, str] = {}  # form field -> file name, of the last upload
        self._file_names: dict[str, str] = {}  # file id -> name, of documents and animations
        self._pending: list[dict[str, Any]] = []
        self.webhook: dict[str, Any] | None = None  # set by setWebhook
        self._next_update_id = 100_000
        self._queries: dict[str, _CallbackQuery] = {}
        # Inline mode: the answers to inline queries, and the messages posted "via" the bot.
        self.supports_inline_queries = False  # as set with @BotFather's /setinline
        self.inline_answers: dict[str, dict[str, Any]] = {}
        self._inline_queries: dict[str, tuple[FakeUser, str]] = {}
        self._inline_messages: dict[str, StoredMessage] = {}
        self.inline_requests: Counter[str] = Counter()  # sends and edits per inline message
        self._query_counter = itertools.count(1)
        self._turn_start = 0
        self._inflight = 0
        self._last_activity = 0.0
        self._changed = asyncio.Event()
        self._closing = False
        self._runner: web.AppRunner | None = None
        self._handlers: dict[str, Callable[[dict[str, Any], RecordedRequest], Any]] = {
            name[len("_api_") :].lower(): getattr(self, name)
            for name in dir(self)
            if name.startswith("_api_")
        }

    # -- lifecycle ---------------------------------------------------------------------------

    async def start(self) -> None:
        app = web.Application(client_max_size=2 * MAX_PHOTO_BYTES)
        app.router.add_route("*", "/bot{token}/{method}", self._handle_api)
        app.router.add_get("/file/bot{token}/{path:.+}", self._handle_file)
        # handler_cancellation: a long poll abandoned by the client must not linger.
        self._runner = web.AppRunner(
            app, shutdown_timeout=1.0, handler_cancellation=True, access_log=None
        )
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        await site.start()
        self.port = self._runner.addresses[0][1]
        self._last_activity = asyncio.get_running_loop().time()

    async def stop(self) -> None:
        self._closing = True
        self._notify()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> FakeTelegram:
        await self.start()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.stop()

    @property
    def base_url(self) -> str:
        """For `ApplicationBuilder().base_url(...)`; PTB appends the token."""
        return f"http://{self.host}:{self.port}/bot"

    @property
    def base_file_url(self) -> str:
        return f"http://{self.host}:{self.port}/file/bot"

    # -- the world: users, chats, messages ---------------------------------------------------

    def user(
        self, id: int, first_name: str, username: str | None = None, language_code: str = "it"
    ) -> FakeUser:
        user = FakeUser(id, first_name, username, language_code=language_code)
        self._users[id] = user
        return user

    def private_chat(self, user: FakeUser) -> FakeChat:
        """The private chat between `user` and the bot (its id is the user's id, as on Telegram)."""
        chat = FakeChat(user.id, "private", first_name=user.first_name, username=user.username)
        self._chats[chat.id] = chat
        return chat

    def group(
        self, id: int, title: str, *, supergroup: bool = False, forum: bool = False
    ) -> FakeChat:
        """A group chat; Telegram's group ids are negative (supergroups start with -100).

        ``forum``: a supergroup with topics (see `create_topic`)."""
        if id >= 0:
            raise FakeTelegramUsageError("group ids are negative on Telegram")
        if forum and not supergroup:
            raise FakeTelegramUsageError("only supergroups can have topics")
        chat = FakeChat(id, "supergroup" if supergroup else "group", title=title, is_forum=forum)
        self._chats[chat.id] = chat
        return chat

    # -- forum topics ------------------------------------------------------------------------

    def create_topic(self, chat: FakeChat, user: FakeUser, name: str) -> FakeTopic:
        """``user`` creates a topic: a `forum_topic_created` service message, whose id is the
        topic's `message_thread_id`, is posted in it (and delivered to the bot)."""
        if not chat.is_forum:
            raise FakeTelegramUsageError("topics exist only in forum supergroups")
        created = {"forum_topic_created": {"name": name, "icon_color": 7322096}}
        message = self._store(chat, user, service=created)
        message.thread_id = message.message_id
        topic = FakeTopic(chat, message.message_id, name)
        self._topics.setdefault(chat.id, {})[topic.thread_id] = topic
        self.enqueue_update({"message": message.to_dict()})
        return topic

    def topic_creation(self, topic: FakeTopic) -> StoredMessage:
        """The service message that created ``topic``."""
        return self.message(topic.chat, topic.thread_id)

    def close_topic(self, topic: FakeTopic, user: FakeUser) -> None:
        """An admin closes the topic: the bot can no longer send into it (TOPIC_CLOSED)."""
        self._topic_event(topic, user, "forum_topic_closed")
        topic.closed = True

    def reopen_topic(self, topic: FakeTopic, user: FakeUser) -> None:
        self._topic_event(topic, user, "forum_topic_reopened")
        topic.closed = False

    def delete_topic(self, topic: FakeTopic) -> None:
        """An admin deletes the topic with all its messages (no update is delivered)."""
        topic.deleted = True
        for message in self._messages.get(topic.chat.id, {}).values():
            if message.thread_id == topic.thread_id:
                message.deleted = True
                message.updated_at = time.monotonic()
        self._notify_chat(topic.chat.id)

    def _topic_event(self, topic: FakeTopic, user: FakeUser, kind: str) -> None:
        if topic.deleted:
            raise FakeTelegramUsageError(f"topic {topic.thread_id} was deleted")
        message = self._store(
            topic.chat,
            user,
            service={kind: {}},
            thread_id=topic.thread_id,
            reply_to=self.topic_creation(topic),
        )
        self.enqueue_update({"message": message.to_dict()})

    def topic_messages(
        self, topic: FakeTopic, *, from_bot: bool | None = None
    ) -> list[StoredMessage]:
        """Messages still visible in a topic, oldest first (its creation message too)."""
        return [
            m
            for m in self.chat_messages(topic.chat, from_bot=from_bot)
            if m.thread_id == topic.thread_id
        ]

    def _send_thread(
        self, chat: FakeChat, params: dict[str, Any]
    ) -> tuple[int | None, StoredMessage | None]:
        """The topic a bot's new message lands in, and the message it replies to.

        With ``message_thread_id`` the topic named; without it, the topic of the message
        replied to; else General. A closed topic refuses (TOPIC_CLOSED), a deleted or
        unknown one too ("message thread not found"). In a topic a message that replies to
        nothing shows the topic's creation message as its reply, as every topic message does.
        """
        raw = params.get("message_thread_id")
        thread = int(raw) if raw not in (None, "") else None
        if thread is not None:
            self._open_topic(chat, thread)
        reply_to = self._reply_target(chat, params)
        if reply_to is not None:
            if thread is not None and reply_to.thread_id != thread:
                raise ApiError(REPLY_NOT_FOUND)
            thread = reply_to.thread_id
        if thread is None:
            return None, reply_to
        topic = self._open_topic(chat, thread)
        return thread, reply_to or self.topic_creation(topic)

    def _open_topic(self, chat: FakeChat, thread: int) -> FakeTopic:
        topic = self._topics.get(chat.id, {}).get(thread)
        if not chat.is_forum or topic is None or topic.deleted:
            raise ApiError(THREAD_NOT_FOUND)
        if topic.closed:
            raise ApiError(TOPIC_CLOSED)
        return topic

    def channel(self, id: int, title: str) -> FakeChat:
        """A channel the bot may post in (the operator's media chat)."""
        chat = FakeChat(id, "channel", title=title)
        self._chats[chat.id] = chat
        return chat

    def block(self, user: FakeUser, *, notify: bool = True) -> None:
        """The user blocked the bot: sending to their private chat now fails with 403, and
        Telegram tells the bot with a ``my_chat_member`` update (status ``kicked``) in that
        chat; ``notify=False`` leaves the update out (one the bot missed)."""
        self._blocked.add(user.id)
        if notify:
            self._private_member_update(user, "member", "kicked")

    def unblock(self, user: FakeUser) -> None:
        """The user restarts the bot: ``my_chat_member`` back to ``member`` in the private
        chat. (Writing to a blocked bot does this first, as Telegram's Restart button does.)"""
        if user.id not in self._blocked:
            raise FakeTelegramUsageError(f"{user.first_name} has not blocked the bot")
        self._blocked.discard(user.id)
        self._private_member_update(user, "kicked", "member")

    def _private_member_update(self, user: FakeUser, old: str, new: str) -> None:
        chat = self._chats.get(user.id) or self.private_chat(user)
        self.enqueue_update(
            {
                "my_chat_member": {
                    "chat": chat.to_dict(),
                    "from": user.to_dict(),
                    "date": int(time.time()),
                    "old_chat_member": self._bot_member(old),
                    "new_chat_member": self._bot_member(new),
                }
            }
        )

    def message(self, chat: FakeChat | int, message_id: int) -> StoredMessage:
        """The current state of a message (deleted ones too: check `.deleted`)."""
        chat_id = chat if isinstance(chat, int) else chat.id
        try:
            return self._messages[chat_id][message_id]
        except KeyError:
            raise FakeTelegramUsageError(f"no message {message_id} in chat {chat_id}") from None

    def chat_messages(
        self, chat: FakeChat | int, *, from_bot: bool | None = None
    ) -> list[StoredMessage]:
        """Messages still visible in a chat, oldest first; optionally only the bot's or users'."""
        chat_id = chat if isinstance(chat, int) else chat.id
        return [
            m
            for m in self._messages.get(chat_id, {}).values()
            if not m.deleted and (from_bot is None or m.sender.is_bot == from_bot)
        ]

    def last_bot_message(self, chat: FakeChat | int) -> StoredMessage:
        messages = self.chat_messages(chat, from_bot=True)
        if not messages:
            raise FakeTelegramUsageError("the bot has no visible message in this chat")
        return messages[-1]

    def callback_answer(self, query_id: str) -> dict[str, Any] | None:
        """How the bot answered a callback query (text, show_alert, ...), or None if not yet."""
        return self._queries[query_id].answer

    def query_timings(self) -> list[QueryTiming]:
        """Press and answer times of every callback query so far, in press order."""
        return [
            QueryTiming(query_id, q.chat_id, q.data, q.pressed_at, q.answered_at)
            for query_id, q in self._queries.items()
        ]

    def inject_retry_after(self, chat: FakeChat | int, seconds: float, count: int = 1) -> None:
        """Refuse the chat's next `count` sends or edits with a 429 "retry after `seconds`".

        With enforce_limits on, the chat also stays closed for `seconds` after each refusal.
        """
        chat_id = chat if isinstance(chat, int) else chat.id
        self._injected.setdefault(chat_id, deque()).extend([seconds] * count)

    def forget_files(self) -> int:
        """Forget every file id given out so far, as Telegram now and then does (after long
        idle times): a send or edit naming one is refused with "wrong file identifier", and
        getFile with "invalid file_id". Returns how many ids were forgotten."""
        forgotten = len(self._files)
        self._files.clear()
        self._file_names.clear()
        return forgotten

    def delay_reply(self, method: str, seconds: float, count: int = 1) -> None:
        """Handle the next `count` calls of `method` as usual, but send each answer only
        `seconds` later. Past the client's read timeout the client gives up (PTB raises
        `TimedOut`) although the request took effect, as when Telegram's reply is lost."""
        self._reply_delays.setdefault(method.lower(), deque()).extend([seconds] * count)

    async def wait_chat_event(self, chat: FakeChat | int, timeout: float) -> bool:
        """Wait until a message of the chat is sent, edited or deleted, or one of its callback
        queries is answered; False after `timeout` seconds without any."""
        chat_id = chat if isinstance(chat, int) else chat.id
        event = self._chat_events.setdefault(chat_id, asyncio.Event())
        try:
            await asyncio.wait_for(event.wait(), timeout)
        except TimeoutError:
            return False
        return True

    # -- driving the conversation ------------------------------------------------------------

    def send_message(
        self,
        chat: FakeChat,
        user: FakeUser,
        text: str,
        reply_to: StoredMessage | int | None = None,
        *,
        topic: FakeTopic | None = None,
    ) -> StoredMessage:
        """A user writes in a chat; commands get `bot_command` entities as Telegram sends them.

        In a ``topic`` the message carries `message_thread_id` and `is_topic_message`, and
        replies to the topic's creation message unless it replies to another one."""
        self._chats.setdefault(chat.id, chat)
        self._check_user_can_act(chat)
        if chat.type == "private" and chat.id in self._blocked:
            self.unblock(user)  # Telegram's Restart button: unblocked, then the message
        entities = command_entities(text)
        replied = None
        if reply_to is not None:
            replied = self.message(
                chat, reply_to if isinstance(reply_to, int) else reply_to.message_id
            )
        thread = None
        if topic is not None:
            if topic.chat.id != chat.id or topic.deleted:
                raise FakeTelegramUsageError(f"no topic {topic.thread_id} in chat {chat.id}")
            if replied is not None and replied.thread_id != topic.thread_id:
                raise FakeTelegramUsageError("a reply stays in the topic of its message")
            thread, replied = topic.thread_id, replied or self.topic_creation(topic)
        message = self._store(
            chat, user, text=text, entities=entities, reply_to=replied, thread_id=thread
        )
        if chat.id not in self._removed:  # a group the bot left tells it nothing
            self.enqueue_update({"message": message.to_dict()})
        return message

    def send_as_anonymous_admin(
        self, group: FakeChat, text: str, reply_to: StoredMessage | int | None = None
    ) -> StoredMessage:
        """An anonymous administrator writes in a group: `from` is @GroupAnonymousBot and
        `sender_chat` the group itself, as Telegram sends it."""
        return self._send_on_behalf(group, GROUP_ANONYMOUS_BOT, group, text, reply_to)

    def send_as_channel(
        self,
        group: FakeChat,
        channel: FakeChat,
        text: str,
        reply_to: StoredMessage | int | None = None,
        *,
        automatic_forward: bool = False,
    ) -> StoredMessage:
        """A channel's identity writes in a group: a user posting as the channel (`from` is
        @Channel_Bot), or with `automatic_forward` the linked channel's post forwarded to its
        discussion group (`from` is Telegram, 777000); `sender_chat` is the channel."""
        sender = TELEGRAM_SERVICE if automatic_forward else CHANNEL_BOT
        return self._send_on_behalf(
            group, sender, channel, text, reply_to, automatic_forward=automatic_forward
        )

    def _send_on_behalf(
        self,
        chat: FakeChat,
        sender: FakeUser,
        sender_chat: FakeChat,
        text: str,
        reply_to: StoredMessage | int | None,
        *,
        automatic_forward: bool = False,
    ) -> StoredMessage:
        self._chats.setdefault(chat.id, chat)
        replied = None
        if reply_to is not None:
            replied = self.message(
                chat, reply_to if isinstance(reply_to, int) else reply_to.message_id
            )
        message = self._store(
            chat,
            sender,
            text=text,
            entities=command_entities(text),
            reply_to=replied,
            sender_chat=sender_chat,
            is_automatic_forward=automatic_forward,
        )
        self.enqueue_update({"message": message.to_dict()})
        return message

    def other_bot(self, id: int, first_name: str, username: str) -> FakeUser:
        """Another bot, member of the same groups: its messages there never reach this bot,
        and a general command (`/start` without @name) goes to whichever bot wrote last."""
        return FakeUser(id, first_name, username, is_bot=True, language_code=None)

    def other_bot_writes(self, group: FakeChat, bot: FakeUser, text: str) -> StoredMessage:
        """Another bot posts in a group (not delivered to this bot: bots do not see bots)."""
        return self.send_message(group, bot, text)

    def now(self) -> float:
        """The fake's clock (Unix time, plus what `advance_clock` added): message dates."""
        return time.time() + self._clock_offset

    def advance_clock(self, seconds: float) -> None:
        """Let time pass for Telegram's time limits (the age of a message to delete, of a
        callback query to answer) without waiting."""
        self._clock_offset += seconds

    def pop_updates(self) -> list[dict[str, Any]]:
        """Take the queued updates away from getUpdates, to deliver them by webhook instead."""
        updates, self._pending = self._pending, []
        return updates

    def press(
        self,
        chat: FakeChat,
        user: FakeUser,
        message_id: StoredMessage | int,
        data: str,
        *,
        forge: bool = False,
    ) -> str:
        """A user presses an inline button; returns the callback query id.

        Only buttons on the message's current keyboard can be pressed, as in a real client;
        `forge=True` skips the check to simulate stale or hand-crafted callback data.
        """
        if isinstance(message_id, StoredMessage):
            message_id = message_id.message_id
        self._check_user_can_act(chat)
        if chat.id in self._removed or chat.id in self._blocked:
            raise FakeTelegramUsageError(f"the bot is no longer in chat {chat.id}")
        stored = self._messages.get(chat.id, {}).get(message_id)
        if not forge:
            if stored is None or stored.deleted:
                raise FakeTelegramUsageError(f"no visible message {message_id} in chat {chat.id}")
            if data not in stored.callback_data:
                raise FakeTelegramUsageError(
                    f"message {message_id} has no button with callback data {data!r}; "
                    f"its buttons: {stored.callback_data}"
                )
        query_id = f"{user.id}{next(self._query_counter):08d}"
        self._queries[query_id] = _CallbackQuery(
            chat.id,
            message_id,
            data,
            pressed_at=time.monotonic(),
            clock_at_press=self._clock_offset,
        )
        if stored is not None and not stored.deleted:
            message_dict = stored.to_dict()
        else:  # an InaccessibleMessage: Telegram sends date 0
            message_dict = {"message_id": message_id, "chat": chat.to_dict(), "date": 0}
        self.enqueue_update(
            {
                "callback_query": {
                    "id": query_id,
                    "from": user.to_dict(),
                    "message": message_dict,
                    "chat_instance": str(abs(chat.id) * 7919),
                    "data": data,
                }
            }
        )
        return query_id

    def inline_query(self, user: FakeUser, query: str, *, chat_type: str = "private") -> str:
        """A user types the bot's name and `query` in a chat's message field; returns the
        inline query id (the bot's answer lands in `inline_answers`)."""
        query_id = f"iq{user.id}{next(self._query_counter):08d}"
        self._inline_queries[query_id] = (user, query)
        self.enqueue_update(
            {
                "inline_query": {
                    "id": query_id,
                    "from": user.to_dict(),
                    "query": query,
                    "offset": "",
                    "chat_type": chat_type,
                }
            }
        )
        return query_id

    def choose_inline_result(
        self, query_id: str, result_id: str, chat: FakeChat, *, feedback: bool = False
    ) -> str:
        """The user picks a result: its message is posted in `chat` "via" the bot; returns its
        inline_message_id. With `feedback` (@BotFather's /setinlinefeedback) the bot also
        receives a chosen_inline_result update."""
        answer = self.inline_answers.get(query_id)
        if answer is None:
            raise FakeTelegramUsageError(f"inline query {query_id} was not answered")
        found = [r for r in answer["results"] if r["id"] == result_id]
        if not found:
            raise FakeTelegramUsageError(f"no result {result_id!r} in the answer to {query_id}")
        result, user = found[0], self._inline_queries[query_id][0]
        content = result["input_message_content"]
        text, entities = parse_formatted(
            content["message_text"], content.get("parse_mode"), content.get("entities")
        )
        inline_id = f"BAAAA{len(self._inline_messages) + 1:06d}{user.id}"
        bot_is_member = self._bot_is_in(chat, user)
        self._chats.setdefault(chat.id, chat)
        message = StoredMessage(
            chat,
            -(len(self._inline_messages) + 1),  # never a message id the bot could name
            user,
            int(time.time()),
            text=text,
            entities=entities,
            reply_markup=result.get("reply_markup"),
        )
        message.updated_at = time.monotonic()
        self._inline_messages[inline_id] = message
        if bot_is_member:
            # The bot is a member of that chat: the message posted "via" it reaches it as a
            # message (privacy mode lets messages sent via the bot through).
            message_id = self._next_message_id.get(chat.id, 1)
            self._next_message_id[chat.id] = message_id + 1
            posted = {
                **message.to_dict(with_reply=False),
                "message_id": message_id,
                "via_bot": self.bot_user.to_dict(),
            }
            self.enqueue_update({"message": posted})
        if feedback:
            chosen = {"result_id": result_id, "from": user.to_dict(), "query": answer["query"]}
            if result.get("reply_markup"):  # Telegram names the message only when it has one
                chosen["inline_message_id"] = inline_id
            self.enqueue_update({"chosen_inline_result": chosen})
        return inline_id

    def _bot_is_in(self, chat: FakeChat, user: FakeUser) -> bool:
        """Whether the bot sees a chat where `user` posts: the user's own chat with the bot,
        or a group the fake knows (the bot is a member of every group made with `group`)."""
        if chat.type == "private":
            return chat.id == user.id
        return chat.type in ("group", "supergroup") and chat.id in self._chats

    def inline_message(self, inline_message_id: str) -> StoredMessage:
        """The current state of a message posted through inline mode."""
        try:
            return self._inline_messages[inline_message_id]
        except KeyError:
            raise FakeTelegramUsageError(f"no inline message {inline_message_id}") from None

    def press_inline(
        self, user: FakeUser, inline_message_id: str, data: str, *, forge: bool = False
    ) -> str:
        """A user presses a button of an inline message: the callback query carries its
        inline_message_id and no message, as Telegram sends it."""
        stored = self._inline_messages.get(inline_message_id)
        if not forge and (stored is None or data not in stored.callback_data):
            raise FakeTelegramUsageError(
                f"inline message {inline_message_id} has no button with callback data {data!r}"
            )
        query_id = f"{user.id}{next(self._query_counter):08d}"
        chat_id = stored.chat.id if stored is not None else 0
        self._queries[query_id] = _CallbackQuery(
            chat_id, 0, data, pressed_at=time.monotonic(), clock_at_press=self._clock_offset
        )
        self.enqueue_update(
            {
                "callback_query": {
                    "id": query_id,
                    "from": user.to_dict(),
                    "inline_message_id": inline_message_id,
                    "chat_instance": str(abs(chat_id) * 7919),
                    "data": data,
                }
            }
        )
        return query_id

    def add_bot_to_group(
        self, chat: FakeChat, by: FakeUser, *, old: str = "left", new: str = "member"
    ) -> int:
        """A member adds the bot to a group (or changes its status there): Telegram sends the
        bot a ``my_chat_member`` update. Returns its update id.

        A new status ``kicked`` or ``left`` takes the bot out of the group: every request
        there is refused with 403 and the group's messages no longer reach the bot, until it
        is added back (``member`` or ``administrator``)."""
        self._chats.setdefault(chat.id, chat)
        if new in ("administrator", "creator"):
            self._admin_in.add(chat.id)  # bot admins see every message of the group
        else:
            self._admin_in.discard(chat.id)
        self._set_membership(chat, new)
        return self.enqueue_update(
            {
                "my_chat_member": {
                    "chat": chat.to_dict(),
                    "from": by.to_dict(),
                    "date": int(time.time()),
                    "old_chat_member": self._bot_member(old),
                    "new_chat_member": self._bot_member(new),
                }
            }
        )

    def _bot_member(self, status: str) -> dict[str, Any]:
        """The bot as a ChatMember of the given status (an administrator with no rights)."""
        member: dict[str, Any] = {"status": status, "user": self.bot_user.to_dict()}
        if status == "kicked":
            member["until_date"] = 0  # ChatMemberBanned: 0 means for ever
        if status == "administrator":
            member.update(can_be_edited=False, is_anonymous=False, can_manage_chat=True)
            for right in (
                "can_delete_messages",
                "can_manage_video_chats",
                "can_restrict_members",
                "can_promote_members",
                "can_change_info",
                "can_invite_users",
                "can_post_stories",
                "can_edit_stories",
                "can_delete_stories",
            ):
                member[right] = False
        return member

    # -- places the bot loses: removal, blocking, a group upgraded to a supergroup ----------

    def remove_bot_from_group(
        self, chat: FakeChat, by: FakeUser, *, status: str = "kicked", notify: bool = True
    ) -> None:
        """The bot is removed (``kicked``) or leaves (``left``); ``notify=False`` leaves out
        the ``my_chat_member`` update (one the bot missed): only the 403s tell it then."""
        if status not in ("kicked", "left"):
            raise FakeTelegramUsageError(f"the bot is removed as kicked or left, not {status}")
        if notify:
            self.add_bot_to_group(chat, by, old="member", new=status)
        else:
            self._set_membership(chat, status)

    def bot_is_in(self, chat: FakeChat | int) -> bool:
        """Can the bot reach this chat (not removed, not blocked, not an upgraded group)?"""
        chat_id = chat if isinstance(chat, int) else chat.id
        return not (
            chat_id in self._removed or chat_id in self._blocked or chat_id in self._migrated
        )

    def migrate_group(
        self, chat: FakeChat, by: FakeUser, *, new_id: int | None = None, notify: bool = True
    ) -> FakeChat:
        """Telegram upgrades a basic group to a supergroup, which gets a new id (-100...).

        The old chat gets a service message with ``migrate_to_chat_id``, the new one (its
        first message, from GroupAnonymousBot with ``sender_chat`` the supergroup, as Telegram
        sends it) ``migrate_from_chat_id``; both reach the bot (service messages do, even in
        privacy mode) unless ``notify`` is False. From then on every request to the old id is
        refused with 400 and ``parameters.migrate_to_chat_id``. Members, and the bot if it was
        there, are in the new chat. Returns the supergroup."""
        if chat.type != "group":
            raise FakeTelegramUsageError("only a basic group is upgraded to a supergroup")
        if chat.id in self._migrated:
            raise FakeTelegramUsageError(f"group {chat.id} was already upgraded")
        new_id = new_id if new_id is not None else -(10**12 + abs(chat.id))
        if new_id in self._chats:
            raise FakeTelegramUsageError(f"chat {new_id} exists already")
        supergroup = FakeChat(new_id, "supergroup", title=chat.title, username=chat.username)
        self._chats[new_id] = supergroup
        if chat.id in self._removed:
            self._removed[new_id] = self._removed[chat.id]
        left_behind = self._store(chat, by, service={"migrate_to_chat_id": new_id})
        anonymous = FakeUser(GROUP_ANONYMOUS_BOT_ID, "Group", "GroupAnonymousBot", is_bot=True)
        arrived = self._store(
            supergroup,
            anonymous,
            service={"sender_chat": supergroup.to_dict(), "migrate_from_chat_id": chat.id},
        )
        self._migrated[chat.id] = new_id
        if notify and chat.id not in self._removed:
            self.enqueue_update({"message": left_behind.to_dict()})
            self.enqueue_update({"message": arrived.to_dict()})
        return supergroup

    def _set_membership(self, chat: FakeChat, status: str) -> None:
        if status in ("kicked", "left"):
            self._removed[chat.id] = status
        else:
            self._removed.pop(chat.id, None)

    def _refuse_unreachable(self, chat: FakeChat) -> None:
        """Telegram's answers for a chat the bot is no longer in, or that moved."""
        new_id = self._migrated.get(chat.id)
        if new_id is not None:
            raise ApiError(GROUP_UPGRADED, 400, {"migrate_to_chat_id": new_id})
        status = self._removed.get(chat.id)
        if status is not None:
            template = BOT_KICKED if status == "kicked" else BOT_NOT_MEMBER
            raise ApiError(template.format(chat.type), 403)

    def _refuse_unstarted(self, chat_id: Any) -> None:
        """A known user whose private chat with the bot was never opened: 403."""
        try:
            user_id = int(chat_id)
        except (TypeError, ValueError):
            return
        if user_id > 0 and user_id in self._users:
            raise ApiError(CANT_INITIATE, 403)

    def _check_user_can_act(self, chat: FakeChat) -> None:
        """What no real user can do: act in an upgraded group, or press a button in a
        group the bot is no longer in (its messages no longer reach the bot)."""
        if chat.id in self._migrated:
            raise FakeTelegramUsageError(f"group {chat.id} was upgraded: it is read-only")

    def enqueue_update(self, update: dict[str, Any]) -> int:
        """Queue any raw update (without update_id); returns the id it was given.

        An update the bot would not get from Telegram (a type outside its allowed_updates,
        group chatter hidden by privacy mode) is dropped, as Telegram drops it: it goes to
        `dropped_updates` and is never delivered, not even after allowed_updates changes.
        """
        update_id = self._next_update_id
        self._next_update_id += 1
        if not self.would_deliver(update):
            self.dropped_updates.append({"update_id": update_id, **update})
            return update_id
        self._pending.append({"update_id": update_id, **update})
        self._turn_start = len(self.requests)
        self._notify()
        return update_id

    def would_deliver(self, update: dict[str, Any]) -> bool:
        """Whether Telegram would send this update to the bot now: its type is among the
        allowed updates and, for a group message, privacy mode lets the bot see it."""
        kind = update_type(update)
        if self.allowed_updates is None:
            if kind in NOT_SENT_BY_DEFAULT:
                return False
        elif kind not in self.allowed_updates:
            return False
        if kind in ("message", "edited_message"):
            return self._visible_in_group(update[kind])
        return True

    def _visible_in_group(self, message: dict[str, Any]) -> bool:
        """Telegram's privacy rules for a message: everything in private chats; in groups,
        never other bots' messages, and in privacy mode (unless the bot is an administrator)
        only service messages, commands meant for this bot, replies to its messages and
        messages sent via it."""
        chat = message["chat"]
        if chat["type"] not in ("group", "supergroup"):
            return True
        sender = message.get("from") or {}
        if sender.get("is_bot") and sender.get("id") not in STAND_IN_IDS:
            return False  # bots do not see each other's messages
        if not self.privacy_mode or chat["id"] in self._admin_in:
            return True
        if not CONTENT_KEYS & set(message):
            return True  # a service message
        replied = message.get("reply_to_message") or {}
        if (replied.get("from") or {}).get("id") == self.bot_user.id:
            return True
        if (message.get("via_bot") or {}).get("id") == self.bot_user.id:
            return True
        entities = message.get("entities") or []
        first = entities[0] if entities else {}
        if first.get("type") != "bot_command" or first.get("offset") != 0:
            return False
        command = message["text"][: first["length"]]
        if "@" in command:
            return command.split("@", 1)[1].lower() == (self.bot_user.username or "").lower()
        # A general command goes to the bot that wrote last in the group (any, if none has).
        return self._last_bot_in.get(chat["id"], self.bot_user.id) == self.bot_user.id

    def deliver(self, update: dict[str, Any]) -> None:
        """Queue a raw update exactly as given, update_id included: Telegram delivering the
        same update again (after a timeout, to another webhook worker...)."""
        self._pending.append(update)
        self._turn_start = len(self.requests)
        self._notify()

    @property
    def turn_start(self) -> int:
        """Index in `requests` where the latest injected update's turn begins."""
        return self._turn_start

    @property
    def pending_updates(self) -> int:
        """Updates not yet confirmed by the bot (via a later getUpdates offset)."""
        return len(self._pending)

    # -- waiting for the bot -----------------------------------------------------------------

    def calls(
        self, method: str | None = None, *, since: int = 0, include_polling: bool = False
    ) -> list[RecordedRequest]:
        """Answered requests from index `since` on, without getUpdates unless asked."""
        return [
            r
            for r in self.requests[since:]
            if r.done
            and (include_polling or not r.is_polling)
            and (method is None or r.method.lower() == method.lower())
        ]

    def errors(self, *, since: int = 0) -> list[RecordedRequest]:
        """Requests the fake refused; an e2e test usually expects none."""
        return [r for r in self.requests[since:] if r.ok is False]

    async def wait_for(
        self,
        what: str | Callable[[RecordedRequest], bool],
        *,
        since: int | None = None,
        timeout: float = 5.0,
    ) -> RecordedRequest:
        """The first answered request matching a method name or predicate.

        By default only requests made after the latest injected update count, i.e. "the
        bot's reaction to what the user just did".
        """
        start = self._turn_start if since is None else since
        if isinstance(what, str):
            name = what.lower()

            def matches(r: RecordedRequest) -> bool:
                return r.method.lower() == name
        else:
            matches = what
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            event = self._changed
            for request in self.requests[start:]:
                if request.done and matches(request):
                    return request
            remaining = deadline - loop.time()
            if remaining <= 0:
                seen = [r.method for r in self.requests[start:] if not r.is_polling]
                raise TimeoutError(f"no request matching {what!r} within {timeout}s; saw {seen}")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(event.wait(), remaining)

    async def settle(self, *, quiet: float = 0.15, timeout: float = 10.0) -> None:
        """Wait until every update was fetched and the bot has been silent for `quiet` seconds.

        Silence is judged from the server's side, so a handler busy for longer than `quiet`
        between two requests would look idle: prefer `wait_for` when the awaited request is known.
        """
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            now = loop.time()
            if not self._pending and self._inflight == 0 and now - self._last_activity >= quiet:
                return
            if now >= deadline:
                raise TimeoutError(
                    f"bot not settled after {timeout}s: {len(self._pending)} updates pending, "
                    f"{self._inflight} requests in flight"
                )
            await asyncio.sleep(min(quiet / 3, 0.05))

    # -- HTTP plumbing -----------------------------------------------------------------------

    def _notify(self) -> None:
        event, self._changed = self._changed, asyncio.Event()
        event.set()

    def _notify_chat(self, chat_id: int) -> None:
        event = self._chat_events.pop(chat_id, None)
        if event is not None:
            event.set()

    async def _delay(self, seconds: float) -> None:
        if seconds > 0:
            await asyncio.sleep(seconds)

    def _limited_chat_id(self, params: dict[str, Any]) -> int | None:
        """The chat whose budget a send or edit uses (None: unknown chat, inline message)."""
        chat_id = params.get("chat_id")
        if isinstance(chat_id, str) and chat_id.startswith("@"):
            found = [c.id for c in self._chats.values() if c.username == chat_id[1:]]
            return found[0] if found else None
        try:
            return int(chat_id) if chat_id is not None else None
        except (TypeError, ValueError):
            return None

    def _admit(self, record: RecordedRequest) -> None:
        """Apply injected 429s and, when enforced, the flood limits to a send or edit."""
        if not is_limited_method(record.method):
            return
        inline_id = record.params.get("inline_message_id")
        if inline_id:
            self.inline_requests[str(inline_id)] += 1
        chat_id = self._limited_chat_id(record.params)
        if chat_id is None:
            return
        now = time.monotonic()
        injected = self._injected.get(chat_id)
        if injected:
            self._refuse(chat_id, injected.popleft(), now, close=self.enforce_limits)
        if self.enforce_limits:
            closed = self._closed_until.get(chat_id, 0.0)
            if now < closed:
                self._refuse(chat_id, math.ceil(closed - now), now, close=False)
            window = self._windows.setdefault(chat_id, deque())
            if chat_id < 0:
                count, period = self.group_limit
                while window and window[0] <= now - period:
                    window.popleft()
                if len(window) >= count:
                    self._refuse(chat_id, math.ceil(window[0] + period - now), now, close=True)
            else:
                tokens = self._private_tokens(chat_id, now)
                if tokens < 1:
                    count, period = self.private_limit
                    wait = (1 - tokens) * period / count
                    self._refuse(chat_id, math.ceil(wait), now, close=True)
            total, total_period = self.global_limit
            while self._global_window and self._global_window[0] <= now - total_period:
                self._global_window.popleft()
            if len(self._global_window) >= total:
                wait = self._global_window[0] + total_period - now
                self._refuse(chat_id, math.ceil(wait), now, close=False)
            window.append(now)
            self._global_window.append(now)
            if chat_id > 0:
                self._private_buckets[chat_id] = (self._private_tokens(chat_id, now) - 1, now)
        self.limited_requests[chat_id] += 1
        self.admissions.append((now, chat_id))
        if record.files:
            self.photo_uploads[chat_id] += 1

    def _private_tokens(self, chat_id: int, now: float) -> float:
        """The private chat's token bucket at ``now``: ``private_limit`` (count, period) is a
        burst of ``count`` sends at once, refilled at ``count / period`` per second (about
        one a second, short bursts tolerated, as Telegram asks of a single chat)."""
        count, period = self.private_limit
        tokens, at = self._private_buckets.get(chat_id, (float(count), now))
        return min(float(count), tokens + (now - at) * count / period)

    def _refuse(self, chat_id: int, seconds: float, now: float, *, close: bool) -> None:
        seconds = max(seconds, 1) if isinstance(seconds, int) else seconds
        if close:
            self._closed_until[chat_id] = max(self._closed_until.get(chat_id, 0.0), now + seconds)
        self.retry_afters[chat_id] += 1
        raise too_many_requests(seconds)

    async def _read_params(self, request: web.Request) -> tuple[dict[str, Any], dict[str, bytes]]:
        raw: dict[str, Any] = dict(request.query)
        files: dict[str, bytes] = {}
        if request.content_type == "application/json":
            body = await request.json()
            return {**raw, **body}, files
        if request.method == "POST":
            form = await request.post()
            for key, value in form.items():
                if isinstance(value, web.FileField):
                    files[key] = value.file.read()
                    self._upload_names[key] = value.filename
                else:
                    raw[key] = value
        params: dict[str, Any] = {}
        for key, value in raw.items():
            if key in STRING_FIELDS or not isinstance(value, str):
                params[key] = value
                continue
            try:
                params[key] = json.loads(value)
            except ValueError:
                params[key] = value
        return params, files

    async def _handle_api(self, request: web.Request) -> web.Response:
        method = request.match_info["method"]
        params, files = await self._read_params(request)
        record = RecordedRequest(len(self.requests), method, params, files)
        self.requests.append(record)
        polling = record.is_polling
        loop = asyncio.get_running_loop()
        if not polling:
            self._inflight += 1
            self._last_activity = loop.time()
        self._notify()
        try:
            upload = sum(len(data) for data in files.values()) / 1e6 * self.upload_seconds_per_mb
            await self._delay(self.latency / 2 + upload)
            try:
                if request.match_info["token"] != self.token:
                    raise ApiError("Unauthorized", 401)
                handler = self._handlers.get(method.lower())
                if handler is None:
                    raise ApiError("Not Found", 404)
                self._admit(record)
                self._refuse_web_app_buttons(params)
                result = handler(params, record)
                if asyncio.iscoroutine(result):
                    result = await result
                delays = self._reply_delays.get(method.lower())
                if delays:
                    record.ok, record.result = True, result
                    await self._delay(delays.popleft())
            finally:
                await self._delay(self.latency / 2)
        except ApiError as error:
            record.ok, record.error = False, error.description
            body: dict[str, Any] = {
                "ok": False,
                "error_code": error.code,
                "description": error.description,
            }
            if error.parameters:
                body["parameters"] = error.parameters
            return web.json_response(body, status=error.code)
        else:
            record.ok, record.result = True, result
            return web.json_response({"ok": True, "result": result})
        finally:
            if not polling:
                self._inflight -= 1
                self._last_activity = loop.time()
            self._notify()

    async def _handle_file(self, request: web.Request) -> web.Response:
        file_id = request.match_info["path"].rsplit("/", 1)[-1].split(".", 1)[0]
        if request.match_info["token"] != self.token or file_id not in self._files:
            raise web.HTTPNotFound()
        return web.Response(body=self._files[file_id], content_type="application/octet-stream")

    # -- shared validation -------------------------------------------------------------------

    @staticmethod
    def _require(params: dict[str, Any], name: str) -> Any:
        value = params.get(name)
        if value is None or value == "":
            raise ApiError(f'Bad Request: parameter "{name}" is required')
        return value

    def _chat(self, params: dict[str, Any]) -> FakeChat:
        chat_id = self._require(params, "chat_id")
        if isinstance(chat_id, str) and chat_id.startswith("@"):
            found = [c for c in self._chats.values() if c.username == chat_id[1:]]
            chat = found[0] if found else None
        else:
            try:
                chat = self._chats.get(int(chat_id))
            except (TypeError, ValueError):
                chat = None
        if chat is None:
            self._refuse_unstarted(chat_id)
            raise ApiError(CHAT_NOT_FOUND)
        if chat.type == "private" and chat.id in self._blocked:
            raise ApiError(BOT_BLOCKED, 403)
        self._refuse_unreachable(chat)
        return chat

    def _refuse_web_app_buttons(self, params: dict[str, Any]) -> None:
        """A ``web_app`` button (a Mini App) is allowed in private chats between a user and
        the bot only: in a group, a channel, an inline message or an inline query's result
        Telegram answers 400 BUTTON_TYPE_INVALID. Its address must be HTTPS."""
        results = params.get("results")
        markups = [params.get("reply_markup")]
        if isinstance(results, list):
            markups += [r.get("reply_markup") for r in results if isinstance(r, dict)]
        for markup in markups:
            if not isinstance(markup, dict) or not isinstance(markup.get("inline_keyboard"), list):
                continue
            for row in markup["inline_keyboard"]:
                for button in row if isinstance(row, list) else ():
                    if not isinstance(button, dict) or "web_app" not in button:
                        continue
                    url = str((button["web_app"] or {}).get("url", ""))
                    if not url.startswith("https://"):
                        raise ApiError("Bad Request: BUTTON_URL_INVALID")
                    chat = None
                    with contextlib.suppress(TypeError, ValueError):
                        chat = self._chats.get(int(params.get("chat_id")))  # type: ignore[arg-type]
                    private = chat is not None and chat.type == "private"
                    if results is not None or "inline_message_id" in params or not private:
                        raise ApiError("Bad Request: BUTTON_TYPE_INVALID")

    def _validate_markup(self, markup: Any) -> dict[str, Any] | None:
        if markup is None:
            return None
        if not isinstance(markup, dict):
            raise ApiError("Bad Request: can't parse reply keyboard markup JSON object")
        if len(json.dumps(markup, ensure_ascii=False).encode()) > MAX_REPLY_MARKUP_BYTES:
            raise ApiError(MARKUP_TOO_LONG)
        if "inline_keyboard" not in markup:
            return markup  # reply keyboards, ForceReply, ReplyKeyboardRemove: accepted as is
        rows = markup["inline_keyboard"]
        if not isinstance(rows, list) or not all(isinstance(row, list) for row in rows):
            raise ApiError("Bad Request: can't parse inline keyboard button: array expected")
        buttons = [button for row in rows for button in row]
        if len(buttons) > MAX_INLINE_BUTTONS or any(
            len(row) > self.max_buttons_per_row for row in rows
        ):
            raise ApiError(MARKUP_TOO_LONG)
        for button in buttons:
            if not isinstance(button, dict) or not isinstance(button.get("text"), str):
                raise ApiError("Bad Request: can't parse inline keyboard button: Text not found")
            if not button["text"].strip():
                raise ApiError("Bad Request: BUTTON_TEXT_INVALID")
            if "callback_data" in button:
                data = button["callback_data"]
                size = len(data.encode()) if isinstance(data, str) else 0
                if not 1 <= size <= MAX_CALLBACK_DATA_BYTES:
                    raise ApiError(BUTTON_DATA_INVALID)
            elif "url" in button:
                if not re.match(r"(https?|tg)://\S+$", str(button["url"])):
                    raise ApiError("Bad Request: BUTTON_URL_INVALID")
            elif not set(button) - {"text"}:
                raise ApiError("Bad Request: text buttons are unallowed in the inline keyboard")
        return markup

    @staticmethod
    def _formatted(
        params: dict[str, Any], text_key: str, entities_key: str, limit: int, too_long: str
    ) -> tuple[str, list[dict[str, Any]]]:
        plain, entities = parse_formatted(
            params.get(text_key) or "", params.get("parse_mode"), params.get(entities_key)
        )
        if utf16_length(plain) > limit:
            raise ApiError(too_long)
        return plain, entities

    def _reply_target(self, chat: FakeChat, params: dict[str, Any]) -> StoredMessage | None:
        reply = params.get("reply_parameters") or {}
        message_id = reply.get("message_id", params.get("reply_to_message_id"))
        if message_id is None:
            return None
        stored = self._messages.get(chat.id, {}).get(int(message_id))
        if stored is None or stored.deleted:
            if reply.get("allow_sending_without_reply") or params.get(
                "allow_sending_without_reply"
            ):
                return None
            raise ApiError(REPLY_NOT_FOUND)
        return stored

    def _store(self, chat: FakeChat, sender: FakeUser, **fields: Any) -> StoredMessage:
        message_id = self._next_message_id.get(chat.id, 1)
        self._next_message_id[chat.id] = message_id + 1
        message = StoredMessage(chat, message_id, sender, int(self.now()), **fields)
        if sender.is_bot and sender.id not in STAND_IN_IDS and chat.type != "private":
            self._last_bot_in[chat.id] = sender.id
        message.updated_at = time.monotonic()
        self._messages.setdefault(chat.id, {})[message_id] = message
        self._notify_chat(chat.id)
        return message

    def _editable(self, params: dict[str, Any]) -> StoredMessage:
        inline_id = params.get("inline_message_id")
        if inline_id:
            if params.get("chat_id") or params.get("message_id"):
                raise ApiError("Bad Request: inline_message_id goes without chat_id/message_id")
            inline = self._inline_messages.get(str(inline_id))
            if inline is None:
                raise ApiError("Bad Request: MESSAGE_ID_INVALID")
            return inline
        chat = self._chat(params)
        message_id = self._require(params, "message_id")
        stored = self._messages.get(chat.id, {}).get(int(message_id))
        if stored is None or stored.deleted:
            raise ApiError(EDIT_NOT_FOUND)
        if not stored.sender.is_bot:
            raise ApiError(CANT_EDIT)
        return stored

    def _commit_edit(self, stored: StoredMessage, before: tuple[Any, ...]) -> dict[str, Any]:
        if stored.snapshot() == before:
            raise ApiError(NOT_MODIFIED)
        stored.edit_date = int(time.time())
        stored.edits += 1
        stored.updated_at = time.monotonic()
        self._notify_chat(stored.chat.id)
        if stored.message_id < 0:  # an inline message: the Bot API answers True
            return True  # type: ignore[return-value]
        return stored.to_dict()

    def _photo(
        self, value: Any, files: dict[str, bytes], field_name: str
    ) -> tuple[bytes, list[dict[str, Any]]]:
        """Bytes and PhotoSize array for an upload, an attach:// reference or a known file_id."""
        if value is None and field_name in files:
            data = files[field_name]
        elif isinstance(value, str) and value.startswith("attach://"):
            data = files.get(value[len("attach://") :])
            if data is None:
                raise ApiError(WRONG_FILE)
        elif isinstance(value, str) and value in self._files:
            data = self._files[value]
        else:
            raise ApiError(WRONG_FILE)
        if len(data) > MAX_PHOTO_BYTES:
            raise ApiError("Bad Request: file is too big")
        try:
            with Image.open(io.BytesIO(data)) as image:
                width, height = image.size
        except Exception as exc:
            raise ApiError(IMAGE_FAILED) from exc
        if width + height > MAX_PHOTO_SIDES_SUM or max(width, height) > MAX_PHOTO_RATIO * min(
            width, height
        ):
            raise ApiError("Bad Request: PHOTO_INVALID_DIMENSIONS")
        number = next(self._file_counter)
        sizes = []
        scales = [90 / max(width, height), 1.0] if max(width, height) > 90 else [1.0]
        for variant, scale in enumerate(scales):
            file_id = f"AgACfake{self.bot_user.id}n{number}x{variant}"
            self._files[file_id] = data
            sizes.append(
                {
                    "file_id": file_id,
                    "file_unique_id": f"AQADfake{number}x{variant}",
                    "width": max(1, round(width * scale)),
                    "height": max(1, round(height * scale)),
                    "file_size": len(data),
                }
            )
        return data, sizes

    # -- API methods (name after `_api_` is matched case-insensitively) ----------------------

    def _api_getMe(self, params: dict[str, Any], record: RecordedRequest) -> dict[str, Any]:
        return {
            **self.bot_user.to_dict(),
            "can_join_groups": True,
            "can_read_all_group_messages": False,
            "supports_inline_queries": self.supports_inline_queries,
        }

    async def _api_getUpdates(
        self, params: dict[str, Any], record: RecordedRequest
    ) -> list[dict[str, Any]]:
        self._set_allowed_updates(params)
        offset = params.get("offset")
        if offset is not None:
            offset = int(offset)
            if offset < 0:
                self._pending = self._pending[offset:]
            else:
                self._pending = [u for u in self._pending if u["update_id"] >= offset]
            self._last_activity = asyncio.get_running_loop().time()
        limit = min(max(int(params.get("limit") or 100), 1), 100)
        timeout = min(float(params.get("timeout") or 0), self.max_long_poll)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while not self._pending and not self._closing:
            event = self._changed
            remaining = deadline - loop.time()
            if remaining <= 0:
                break
            try:
                await asyncio.wait_for(event.wait(), remaining)
            except TimeoutError:
                break
        return self._pending[:limit]

    def _api_deleteWebhook(self, params: dict[str, Any], record: RecordedRequest) -> bool:
        self.webhook = None
        if params.get("drop_pending_updates"):
            self._pending.clear()
        return True

    def _api_setWebhook(self, params: dict[str, Any], record: RecordedRequest) -> bool:
        """Remember the webhook; the tests then POST updates to it themselves."""
        self.webhook = {"url": self._require(params, "url"), **params}
        self._set_allowed_updates(params)
        return True

    def _set_allowed_updates(self, params: dict[str, Any]) -> None:
        """allowed_updates as getUpdates and setWebhook take it: a list replaces the setting
        (empty: Telegram's default), no parameter keeps it. It applies to updates created
        from now on (on arrival of the request, before a long poll waits)."""
        value = params.get("allowed_updates")
        if value is None:
            return
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise ApiError("Bad Request: can't parse allowed updates")
        self.allowed_updates = frozenset(value) if value else None

    def _api_getWebhookInfo(self, params: dict[str, Any], record: RecordedRequest) -> dict:
        url = (self.webhook or {}).get("url", "")
        return {"url": url, "has_custom_certificate": False, "pending_update_count": 0}

    @staticmethod
    def _commands_key(params: dict[str, Any]) -> str:
        scope = FakeTelegram._command_scope(params.get("scope"))
        language = FakeTelegram._language_code(params)
        return f"{json.dumps(scope, sort_keys=True)}|{language}"

    #: BotCommandScope types and the fields each one takes besides ``type``.
    COMMAND_SCOPES: ClassVar[dict[str, frozenset[str]]] = {
        "default": frozenset(),
        "all_private_chats": frozenset(),
        "all_group_chats": frozenset(),
        "all_chat_administrators": frozenset(),
        "chat": frozenset({"chat_id"}),
        "chat_administrators": frozenset({"chat_id"}),
        "chat_member": frozenset({"chat_id", "user_id"}),
    }

    @staticmethod
    def _command_scope(scope: Any) -> dict[str, Any]:
        """A BotCommandScope as Telegram checks it: a known type, and the chat (and user)
        the narrow types require."""
        if scope is None or scope == "":
            return {"type": "default"}
        if not isinstance(scope, dict) or scope.get("type") not in FakeTelegram.COMMAND_SCOPES:
            raise ApiError("Bad Request: can't parse BotCommandScope")
        needed = FakeTelegram.COMMAND_SCOPES[scope["type"]]
        if any(scope.get(name) in (None, "") for name in needed):
            raise ApiError("Bad Request: chat not found")
        return {"type": scope["type"], **{name: scope[name] for name in sorted(needed)}}

    @staticmethod
    def _language_code(params: dict[str, Any]) -> str:
        """Empty (every language), or a two-letter ISO 639-1 code."""
        code = params.get("language_code") or ""
        if code and not re.fullmatch(r"[a-z]{2}", str(code)):
            raise ApiError("Bad Request: invalid language code specified")
        return str(code)

    def _api_setMyCommands(self, params: dict[str, Any], record: RecordedRequest) -> bool:
        commands = self._require(params, "commands")
        if not isinstance(commands, list) or len(commands) > 100:
            raise ApiError("Bad Request: too many commands")
        for command in commands:
            if not re.fullmatch(r"[a-z0-9_]{1,32}", str(command.get("command", ""))):
                raise ApiError("Bad Request: BOT_COMMAND_INVALID")
            if not 1 <= len(str(command.get("description", "")).strip()) <= 256:
                raise ApiError("Bad Request: BOT_COMMAND_DESCRIPTION_INVALID")
        self.commands[self._commands_key(params)] = commands
        return True

    def _api_getMyCommands(self, params: dict[str, Any], record: RecordedRequest) -> list:
        return self.commands.get(self._commands_key(params), [])

    def _api_deleteMyCommands(self, params: dict[str, Any], record: RecordedRequest) -> bool:
        self.commands.pop(self._commands_key(params), None)
        return True

    def _api_setMyDescription(self, params: dict[str, Any], record: RecordedRequest) -> bool:
        return self._set_description("description", MAX_BOT_DESCRIPTION, params)

    def _api_setMyShortDescription(self, params: dict[str, Any], record: RecordedRequest) -> bool:
        return self._set_description("short_description", MAX_BOT_SHORT_DESCRIPTION, params)

    def _set_description(self, field: str, most: int, params: dict[str, Any]) -> bool:
        """0 to ``most`` characters for one language (empty: every language); an empty or
        absent text removes it (the bot then shows the one for every language)."""
        language = self._language_code(params)
        text = params.get(field) or ""
        if not isinstance(text, str):
            raise ApiError(f"Bad Request: {field} must be a string")
        if len(text) > most:
            raise ApiError(f"Bad Request: {field.replace('_', ' ')} is too long")
        if text:
            self.descriptions[field, language] = text
        else:
            self.descriptions.pop((field, language), None)
        return True

    def _description(self, field: str, params: dict[str, Any]) -> str:
        language = self._language_code(params)
        return self.descriptions.get((field, language), self.descriptions.get((field, ""), ""))

    def _api_getMyDescription(self, params: dict[str, Any], record: RecordedRequest) -> dict:
        return {"description": self._description("description", params)}

    def _api_getMyShortDescription(self, params: dict[str, Any], record: RecordedRequest) -> dict:
        return {"short_description": self._description("short_description", params)}

    def _api_setChatMenuButton(self, params: dict[str, Any], record: RecordedRequest) -> bool:
        chat_id = params.get("chat_id")
        self.menu_buttons[None if chat_id is None else int(chat_id)] = params.get(
            "menu_button"
        ) or {"type": "default"}
        return True

    def _api_getChatMenuButton(self, params: dict[str, Any], record: RecordedRequest) -> dict:
        chat_id = params.get("chat_id")
        key = None if chat_id is None else int(chat_id)
        return self.menu_buttons.get(key, self.menu_buttons.get(None, {"type": "commands"}))

    def _api_getChat(self, params: dict[str, Any], record: RecordedRequest) -> dict[str, Any]:
        chat = self._chat(params)
        return {
            **chat.to_dict(),
            "accent_color_id": 0,
            "max_reaction_count": 11,
            "accepted_gift_types": {
                "unlimited_gifts": False,
                "limited_gifts": False,
                "unique_gifts": False,
                "premium_subscription": False,
                "gifts_from_channels": False,
            },
        }

    def _api_getChatMember(self, params: dict[str, Any], record: RecordedRequest) -> dict:
        self._chat(params)
        user_id = int(self._require(params, "user_id"))
        user = self.bot_user if user_id == self.bot_user.id else self._users.get(user_id)
        if user is None:
            raise ApiError("Bad Request: user not found")
        return {"status": "member", "user": user.to_dict()}

    def _api_sendChatAction(self, params: dict[str, Any], record: RecordedRequest) -> bool:
        chat = self._chat(params)
        action = self._require(params, "action")
        if action not in CHAT_ACTIONS:
            raise ApiError("Bad Request: wrong parameter action in request")
        self.chat_actions.append((chat.id, action))
        return True

    def _api_sendMessage(self, params: dict[str, Any], record: RecordedRequest) -> dict:
        chat = self._chat(params)
        text, entities = self._formatted(params, "text", "entities", MAX_TEXT_LENGTH, TEXT_TOO_LONG)
        if not text.strip():
            raise ApiError(TEXT_EMPTY)
        markup = self._validate_markup(params.get("reply_markup"))
        thread, reply_to = self._send_thread(chat, params)
        message = self._store(
            chat,
            self.bot_user,
            text=text,
            entities=entities,
            reply_markup=markup,
            reply_to=reply_to,
            thread_id=thread,
        )
        return message.to_dict()

    def _api_sendPhoto(self, params: dict[str, Any], record: RecordedRequest) -> dict:
        chat = self._chat(params)
        caption, entities = self._formatted(
            params, "caption", "caption_entities", MAX_CAPTION_LENGTH, CAPTION_TOO_LONG
        )
        markup = self._validate_markup(params.get("reply_markup"))
        thread, reply_to = self._send_thread(chat, params)
        data, sizes = self._photo(params.get("photo"), record.files, "photo")
        record.photo = data
        message = self._store(
            chat,
            self.bot_user,
            caption=caption or None,
            caption_entities=entities,
            photo=data,
            photo_sizes=sizes,
            reply_markup=markup,
            reply_to=reply_to,
            thread_id=thread,
        )
        return message.to_dict()

    def _upload(
        self, params: dict[str, Any], files: dict[str, bytes], field_name: str
    ) -> tuple[bytes, str]:
        """The bytes and file name of a file the bot sends: a new upload, or the file id of
        one sent before."""
        value = params.get(field_name)
        name = field_name
        if isinstance(value, str) and value in self._files:
            return self._files[value], self._file_names.get(value, name)
        if value is None and field_name in files:
            data = files[field_name]
        elif isinstance(value, str) and value.startswith("attach://"):
            name = value[len("attach://") :]
            found = files.get(name)
            if found is None:
                raise ApiError(WRONG_FILE)
            data = found
        else:
            raise ApiError(WRONG_FILE)
        if not data:
            raise ApiError("Bad Request: file must be non-empty")
        if len(data) > MAX_UPLOAD_BYTES:
            raise ApiError("Bad Request: file is too big")
        return data, self._upload_names.get(field_name, name)

    def _send_file(
        self, params: dict[str, Any], record: RecordedRequest, field_name: str, mime: str
    ) -> StoredMessage:
        chat = self._chat(params)
        caption, entities = self._formatted(
            params, "caption", "caption_entities", MAX_CAPTION_LENGTH, CAPTION_TOO_LONG
        )
        markup = self._validate_markup(params.get("reply_markup"))
        thread, reply_to = self._send_thread(chat, params)
        data, name = self._upload(params, record.files, field_name)
        number = next(self._file_counter)
        file_id = f"BQACfake{self.bot_user.id}n{number}"
        self._files[file_id] = data
        self._file_names[file_id] = name
        meta = {
            "file_id": file_id,
            "file_unique_id": f"AgADfake{number}",
            "file_name": name,
            "mime_type": mime,
            "file_size": len(data),
        }
        return self._store(
            chat,
            self.bot_user,
            caption=caption or None,
            caption_entities=entities,
            document=data,
            document_meta=meta,
            reply_markup=markup,
            reply_to=reply_to,
            thread_id=thread,
        )

    def _api_sendDocument(self, params: dict[str, Any], record: RecordedRequest) -> dict:
        message = self._send_file(params, record, "document", "text/plain")
        return message.to_dict()

    def _api_sendAnimation(self, params: dict[str, Any], record: RecordedRequest) -> dict:
        message = self._send_file(params, record, "animation", "image/gif")
        assert message.document is not None
        try:
            with Image.open(io.BytesIO(message.document)) as image:
                if image.format != "GIF":
                    raise ApiError("Bad Request: wrong type of the web page content")
                width, height, frames = image.width, image.height, image.n_frames
                total = 0
                for i in range(frames):
                    image.seek(i)
                    total += int(image.info.get("duration", 0))
        except ApiError:
            raise
        except Exception as exc:
            raise ApiError(IMAGE_FAILED) from exc
        message.animation = {
            **message.document_meta,
            "width": width,
            "height": height,
            "duration": max(1, round(total / 1000)),
        }
        return message.to_dict()

    def _api_editMessageText(self, params: dict[str, Any], record: RecordedRequest) -> dict:
        stored = self._editable(params)
        text, entities = self._formatted(params, "text", "entities", MAX_TEXT_LENGTH, TEXT_TOO_LONG)
        if not text.strip():
            raise ApiError(TEXT_EMPTY)
        markup = self._validate_markup(params.get("reply_markup"))
        if stored.text is None:
            raise ApiError("Bad Request: there is no text in the message to edit")
        before = stored.snapshot()
        stored.text, stored.entities, stored.reply_markup = text, entities, markup
        return self._commit_edit(stored, before)

    def _api_editMessageCaption(self, params: dict[str, Any], record: RecordedRequest) -> dict:
        stored = self._editable(params)
        caption, entities = self._formatted(
            params, "caption", "caption_entities", MAX_CAPTION_LENGTH, CAPTION_TOO_LONG
        )
        markup = self._validate_markup(params.get("reply_markup"))
        if stored.photo is None:
            raise ApiError("Bad Request: there is no caption in the message to edit")
        before = stored.snapshot()
        stored.caption, stored.caption_entities = caption or None, entities
        stored.reply_markup = markup
        return self._commit_edit(stored, before)

    def _api_editMessageMedia(self, params: dict[str, Any], record: RecordedRequest) -> dict:
        stored = self._editable(params)
        media = self._require(params, "media")
        if not isinstance(media, dict) or media.get("type") != "photo":
            raise ApiError("Bad Request: the fake server models only photo media")
        caption, entities = self._formatted(
            media, "caption", "caption_entities", MAX_CAPTION_LENGTH, CAPTION_TOO_LONG
        )
        markup = self._validate_markup(params.get("reply_markup"))
        inline = stored.message_id < 0
        if inline:
            # A text message posted through inline mode may become a photo, but only from a
            # file Telegram already has.
            value = media.get("media")
            if record.files or not isinstance(value, str) or value not in self._files:
                raise ApiError(INLINE_UPLOAD)
            stored.text, stored.entities = None, []
        elif stored.photo is None:
            raise ApiError("Bad Request: there is no media in the message to edit")
        data, sizes = self._photo(media.get("media"), record.files, "media")
        record.photo = data
        before = stored.snapshot()
        stored.photo, stored.photo_sizes = data, sizes
        stored.caption, stored.caption_entities = caption or None, entities
        stored.reply_markup = markup
        return self._commit_edit(stored, before)

    def _api_editMessageReplyMarkup(self, params: dict[str, Any], record: RecordedRequest) -> dict:
        stored = self._editable(params)
        markup = self._validate_markup(params.get("reply_markup"))
        before = stored.snapshot()
        stored.reply_markup = markup
        return self._commit_edit(stored, before)

    def _api_deleteMessage(self, params: dict[str, Any], record: RecordedRequest) -> bool:
        chat = self._chat(params)
        stored = self._messages.get(chat.id, {}).get(int(self._require(params, "message_id")))
        if stored is None or stored.deleted:
            raise ApiError(DELETE_NOT_FOUND)
        if self.now() - stored.date > DELETE_MAX_AGE:
            raise ApiError(CANT_DELETE)
        stored.deleted = True
        stored.updated_at = time.monotonic()
        self._notify_chat(chat.id)
        return True

    def _api_answerCallbackQuery(self, params: dict[str, Any], record: RecordedRequest) -> bool:
        query = self._queries.get(str(self._require(params, "callback_query_id")))
        if query is None or query.answer is not None:
            raise ApiError(QUERY_INVALID)
        now = time.monotonic()
        age = now - query.pressed_at + self._clock_offset - query.clock_at_press
        if self.answer_max_age is not None and age >= self.answer_max_age:
            raise ApiError(QUERY_INVALID)
        text = params.get("text") or ""
        if utf16_length(text) > MAX_CALLBACK_ANSWER_LENGTH:
            raise ApiError("Bad Request: MESSAGE_TOO_LONG")
        query.answer = {
            "text": text,
            "show_alert": bool(params.get("show_alert")),
            "url": params.get("url"),
            "cache_time": params.get("cache_time"),
        }
        query.answered_at = now
        self._notify_chat(query.chat_id)
        return True

    def _api_answerInlineQuery(self, params: dict[str, Any], record: RecordedRequest) -> bool:
        query_id = str(self._require(params, "inline_query_id"))
        if query_id not in self._inline_queries or query_id in self.inline_answers:
            raise ApiError(QUERY_INVALID)
        results = params.get("results")
        if not isinstance(results, list) or len(results) > MAX_INLINE_RESULTS:
            raise ApiError("Bad Request: RESULTS_TOO_MUCH")
        ids = [str(r.get("id", "")) for r in results]
        if len(set(ids)) != len(ids) or not all(0 < len(i.encode()) <= 64 for i in ids):
            raise ApiError("Bad Request: RESULT_ID_DUPLICATE")
        for result in results:
            if result.get("type") != "article" or not result.get("title"):
                raise ApiError("Bad Request: the fake server models titled articles only")
            content = result.get("input_message_content") or {}
            text, _ = parse_formatted(
                content.get("message_text") or "", content.get("parse_mode"), None
            )
            if not text.strip() or utf16_length(text) > MAX_TEXT_LENGTH:
                raise ApiError("Bad Request: MESSAGE_EMPTY")
            self._validate_markup(result.get("reply_markup"))
        button = params.get("button")
        if button is not None and not (button.get("text") and len(button["text"]) <= 64):
            raise ApiError("Bad Request: BUTTON_TEXT_INVALID")
        self.inline_answers[query_id] = {
            "results": results,
            "button": button,
            "is_personal": bool(params.get("is_personal")),
            "cache_time": params.get("cache_time"),
            "query": self._inline_queries[query_id][1],
        }
        return True

    def _api_getFile(self, params: dict[str, Any], record: RecordedRequest) -> dict[str, Any]:
        file_id = self._require(params, "file_id")
        if file_id not in self._files:
            raise ApiError("Bad Request: invalid file_id")
        return {
            "file_id": file_id,
            "file_unique_id": file_id.replace("AgAC", "AQAD", 1),
            "file_size": len(self._files[file_id]),
            "file_path": f"photos/{file_id}.png",
        }

    def _api_close(self, params: dict[str, Any], record: RecordedRequest) -> bool:
        return True

    def _api_logOut(self, params: dict[str, Any], record: RecordedRequest) -> bool:
        return True
