"""Fuzzing the whole stack: hostile texts and forged buttons through real PTB and HTTP.

Thousands of inputs a user could type or a modified client could send (random unicode,
control characters, HTML fragments, very long strings, commands with hostile arguments,
random or mutated callback data) go to the bot from players, members who are not playing
and a user whose name is itself markup, in a group with a game running and in private
chats. No handler may raise, every press must be answered (the `bot` fixture checks that,
and that the fake server refused no request, e.g. for malformed HTML), and input that is
not a legal action must leave the stored games exactly as they were.

A seeded generator keeps every run identical, so a failure names an input that replays.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from telegram import Update
from telegram.ext import ContextTypes

from engine import EngineError
from engine.notation import parse_moves

from .conftest import BotUnderTest, post_challenge, start_match, turn_holder
from .fake_telegram import FakeChat, FakeTelegram, FakeUser, StoredMessage, utf16_length

SEED = 20240611
BATCH = 25  # inputs queued before waiting for the bot: fast, and each batch is checked
MAX_MESSAGE = 4096  # Telegram refuses longer messages from users too
MAX_CALLBACK_BYTES = 64

COMMANDS = (
    "/sfida",
    "/mossa",
    "/regole",
    "/start",
    "/gioca",
    "/abbandona",
    "/partita",
    "/posizione",
    "/rivedi",
    "/esporta",
    "/classifica",
    "/statistiche",
    "/aiuto",
)
#: Commands whose whole point is to change the game of a player who sends them.
ACTING_COMMANDS = ("/abbandona",)
MOVE_COMMAND = "/mossa"

HTML_FRAGMENTS = (
    "<",
    ">",
    "&",
    "<b>",
    "</b>",
    "<b>x</b>",
    "<i>",
    "</i>",
    "<code>",
    "</code>",
    "<pre>",
    "</pre>",
    "<script>alert(1)</script>",
    '<a href="javascript:alert(1)">x</a>',
    "<tg-spoiler>",
    "<span>",
    '<span class="tg-spoiler">',
    "<br/>",
    "<!--",
    "-->",
    "<![CDATA[x]]>",
    "<<>>",
    "</",
    "<b",
    "&amp;",
    "&lt;",
    "&gt;",
    "&quot;",
    "&nbsp;",
    "&#0;",
    "&#x1F600;",
    "&#99999999;",
    "&;",
    "&#;",
    "\\",
    "«",
    "»",
    "%s",
    "{0}",
    "${x}",
    "'",
    '"',
)
WORDS = (
    "lungo",
    "classico",
    "3",
    "25",
    "26",
    "0",
    "-1",
    "99999999999999999999",
    "²",
    "٣",
    "senza",
    "cubo",
    "5m",
    "٥m",
    "0m",
    "oin",
    "@",
    "@anna",
    "@<b>",
    "sfida_lungo",
    "sfida",
    "13/7",
    "8/5",
    "6/5",
    "bar/22",
    "6/off",
    "8/5(2)",
    "24/18*",
    "25/1",
    "0/0",
    "13/7/1",
    "8/5(9)",
    "²/1",
    "facile",
    "classic",
    "long",
    "_",
    ":",
    "g",
)
ALPHABETS = (
    (0x20, 0x7E),  # ASCII
    (0x00, 0x1F),  # control characters
    (0x7F, 0x9F),  # DEL and C1 controls
    (0xA0, 0x24F),  # Latin
    (0x300, 0x36F),  # combining marks
    (0x590, 0x6FF),  # Hebrew, Arabic (right to left)
    (0x200B, 0x200F),  # zero width and direction marks
    (0x202A, 0x202E),  # embeddings and overrides
    (0x4E00, 0x4E80),  # CJK
    (0xE000, 0xE010),  # private use
    (0xFFF0, 0xFFFF),  # specials, non-characters
    (0x1F300, 0x1F64F),  # emoji (two UTF-16 units)
    (0x10FFF0, 0x10FFFF),  # the last code points
)
NUMBERS = (
    "0",
    "-1",
    "-0",
    "1",
    "24",
    "25",
    "26",
    "-25",
    "7",
    "64",
    "9" * 19,
    "-" + "9" * 18,
    "9" * 30,
    "²",
    "٣",
    "--5",
    "+5",
    " 5",
    "5 ",
    "",
    "0x10",
    "1e3",
    "1_0",
    "nan",
)


# --------------------------------------------------------------------------- generators
def random_unicode(rng: random.Random, length: int) -> str:
    chars = []
    for _ in range(length):
        low, high = rng.choice(ALPHABETS)
        chars.append(chr(rng.randint(low, high)))
    return "".join(chars)


def fit_message(text: str) -> str:
    """As a Telegram client sends it: trimmed, at most 4096 UTF-16 units, never empty."""
    text = text.strip()
    while utf16_length(text) > MAX_MESSAGE:
        text = text[: len(text) * 9 // 10].strip()
    return text or "x"


def hostile_text(rng: random.Random) -> str:
    kind = rng.randrange(4)
    if kind == 0:
        text = random_unicode(rng, rng.randint(1, 40))
    elif kind == 1:
        pool = HTML_FRAGMENTS + WORDS
        text = rng.choice(("", " ")).join(rng.choice(pool) for _ in range(rng.randint(1, 8)))
    elif kind == 2:
        chunk = rng.choice(HTML_FRAGMENTS + WORDS) + rng.choice(("", " ", "\n"))
        text = chunk * (MAX_MESSAGE // max(1, len(chunk)) + 1)
    else:
        text = " ".join(
            rng.choice((rng.choice(HTML_FRAGMENTS), rng.choice(WORDS), random_unicode(rng, 5)))
            for _ in range(rng.randint(1, 6))
        )
    return fit_message(text)


def hostile_command(rng: random.Random, bot_username: str) -> str:
    command = rng.choice(COMMANDS)
    if rng.random() < 0.1:
        command += f"@{bot_username}"
    if command.startswith("/start") and rng.random() < 0.5:
        words = "_".join(rng.choice(WORDS + HTML_FRAGMENTS) for _ in range(rng.randint(0, 5)))
        return fit_message(f"{command} sfida_{words}")
    if rng.random() < 0.1:
        return command
    return fit_message(f"{command} {hostile_text(rng)}")


def fit_callback(data: str) -> str:
    """At most 64 bytes of UTF-8 (a client cannot send more), never empty."""
    while len(data.encode()) > MAX_CALLBACK_BYTES:
        data = data[:-1]
    return data or "?"


def random_callback(rng: random.Random) -> str:
    return fit_callback(random_unicode(rng, rng.randint(1, 64)))


def mutate_callback(rng: random.Random, data: str, vocabulary: list[str]) -> str:
    """Real callback data with its fields changed: numbers, arity, family, garbage.

    `vocabulary` holds the fields of every button on screen, so a field may become
    another real action or id; one change is the most common, so that many forgeries
    still carry the current game id and version and reach the game's own checks.
    """
    fields = data.split(":")
    for _ in range(rng.choices((1, 2, 3), weights=(6, 3, 1))[0]):
        kind = rng.choices(range(8), weights=(4, 4, 4, 1, 1, 1, 1, 1))[0]
        i = rng.randrange(len(fields))
        if kind == 0:
            fields[i] = rng.choice(NUMBERS)
        elif kind == 1:
            value = fields[i]
            step = rng.choice((-2, -1, 1, 2, 10**6))
            fields[i] = str(int(value) + step) if value.isdecimal() else rng.choice(WORDS)
        elif kind == 2:
            fields[i] = rng.choice(vocabulary)
        elif kind == 3 and len(fields) > 1:
            del fields[i]
        elif kind == 4:
            fields.insert(i, rng.choice(NUMBERS + WORDS))
        elif kind == 5:
            fields.append(fields[i])
        elif kind == 6 and len(fields) > 1:
            j = rng.randrange(len(fields))
            fields[i], fields[j] = fields[j], fields[i]
        else:
            fields[i] = random_unicode(rng, rng.randint(0, 4))
    return fit_callback(":".join(fields))


def is_step_data(data: str) -> bool:
    """Game button data that may act although drawn for another version: a step, several
    steps or a take-back (quick taps within a turn), the resign prompt's answers (the
    prompt outlives the board's versions; the open offer decides what is valid), and a
    roll, double, take or drop pressed on a board not yet redrawn (played when legal in the
    saved game and no roll or turn came since)."""
    parts = data.split(":")
    acting = ("s", "w", "u", "o", "y", "n", "l", "r", "d", "t", "p")
    return len(parts) > 3 and parts[0] == "g" and parts[3] in acting


def may_act(text: str) -> bool:
    """Whether a player sending `text` may legitimately change the game: a command made
    for it, or words that read as notation (a legal move may hide among the fragments)."""
    words = text.split()
    command = words[0].split("@")[0] if words[0].startswith("/") else None
    if command in ACTING_COMMANDS:
        return True
    if command is not None and command != MOVE_COMMAND:
        return False
    try:
        parse_moves(" ".join(words[1:] if command else words))
    except EngineError:
        return False
    return True


# --------------------------------------------------------------------------- observing
@dataclass(eq=False)  # PTB keeps error handlers in a dict: hashable by identity
class ErrorObserver:
    """Every exception a handler let through, with the update that caused it."""

    seen: list[tuple[Any, BaseException | None]] = field(default_factory=list)

    async def __call__(self, update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
        self.seen.append((update, context.error))

    def describe(self) -> list[str]:
        out = []
        for update, error in self.seen:
            what: Any = update
            if isinstance(update, Update):
                if update.callback_query is not None:
                    what = f"press {update.callback_query.data!r}"
                elif update.effective_message is not None:
                    what = f"text {(update.effective_message.text or '')[:120]!r}"
            out.append(f"{what}: {error!r}")
        return out


def observe_errors(bot: BotUnderTest) -> ErrorObserver:
    observer = ErrorObserver()
    assert bot.app is not None
    bot.app.add_error_handler(observer)
    return observer


@dataclass
class Scene:
    """Who fuzzes where: the group with its game, private chats, the users."""

    bot: BotUnderTest
    tg: FakeTelegram
    group: FakeChat
    other_groups: tuple[FakeChat, ...]
    players: tuple[FakeUser, ...]
    others: tuple[FakeUser, ...]

    @property
    def users(self) -> tuple[FakeUser, ...]:
        return self.players + self.others

    def pick_user(self, rng: random.Random) -> FakeUser:
        """Anyone; half the time the player on turn in the group, so that garbage gets
        past the "not a player" and "not your turn" checks to the deeper ones."""
        if rng.random() < 0.5:
            caption = self.bot.board(self.group).caption or ""
            on_turn = turn_holder(caption, self.players)
            if on_turn is not None:
                return on_turn
        return rng.choice(self.users)

    def pick_chat(self, rng: random.Random, user: FakeUser) -> FakeChat:
        """Mostly the group with the game; else a group with a challenge, or private."""
        roll = rng.random()
        if roll < 0.5:
            return self.group
        if roll < 0.7:
            return rng.choice(self.other_groups)
        return self.tg.private_chat(user)

    async def games(self) -> dict[int, tuple[int, Any] | None]:
        """(version, doc) of every chat's stored game: what garbage must not change."""
        chats = [self.group.id, *(g.id for g in self.other_groups), *(u.id for u in self.users)]
        out: dict[int, tuple[int, Any] | None] = {}
        for chat_id in chats:
            stored = await self.bot.repo.load_game(chat_id)
            out[chat_id] = None if stored is None else (stored.version, stored.doc)
        return out


@dataclass(frozen=True)
class Input:
    """One hostile message (`text`) or button press (`data`) by `user` in `chat`."""

    chat: FakeChat
    user: FakeUser
    text: str | None = None
    data: str | None = None
    message: StoredMessage | None = None  # replied to, or pressed on
    may_act: bool = False  # a legitimate action hides in it: the game may change

    def send(self, bot: BotUnderTest) -> None:
        if self.text is not None:
            bot.tg.send_message(self.chat, self.user, self.text, reply_to=self.message)
        else:
            assert self.data is not None
            pressed = self.message if self.message is not None else 1  # maybe inaccessible
            query_id = bot.tg.press(self.chat, self.user, pressed, self.data, forge=True)
            bot.query_ids.append(query_id)  # the fixture checks it gets one answer


async def play_on(scene: Scene, rng: random.Random) -> None:
    """One real press on the group's board by the player on turn (anyone when none is):
    between batches the game goes through rolls, doubles, steps, resignations and new
    games, so the garbage meets every phase."""
    board = scene.bot.board(scene.group)
    if not board.callback_data:
        return
    user = turn_holder(board.caption or "", scene.players) or rng.choice(scene.players)
    await scene.bot.press(scene.group, user, board, data=rng.choice(board.callback_data))


async def run_batches(scene: Scene, inputs: Iterator[Input], count: int) -> None:
    """Queue `count` inputs in batches; after each, nothing raised, and every game that
    was stored is exactly as it was, unless the batch is one input that may legitimately
    act (such an input goes alone, so that the batches around it stay checked).
    Between batches the group's game moves on by one real press."""
    rng = random.Random(SEED - 1)
    observer = observe_errors(scene.bot)
    # Presses queued together see their message as it was when pressed, as two racing
    # clicks do; the bot then may edit a message into what it already shows, which
    # Telegram refuses as "not modified" and the bot takes as done.
    scene.bot.expect_errors("message is not modified")
    done = 0
    carried: Input | None = None
    while done < count:
        if done and carried is None:  # an input that may act goes next: it moves the game
            await play_on(scene, rng)
        before = await scene.games()
        batch = [carried] if carried is not None else []
        carried = None
        while len(batch) < min(BATCH, count - done) and not (batch and batch[0].may_act):
            item = next(inputs)
            if item.may_act and batch:
                carried = item
                break
            batch.append(item)
        for item in batch:
            item.send(scene.bot)
        done += len(batch)
        await scene.bot.idle()
        assert not observer.seen, observer.describe()
        if not any(item.may_act for item in batch):
            # A chat without a game may get one (a forged press can finish the computer
            # game's set-up); a game that exists must not move.
            after = await scene.games()
            changed = [c for c, game in before.items() if game is not None and after[c] != game]
            assert not changed, f"garbage changed the game of chats {changed}: {batch}"


def all_callback_data(tg: FakeTelegram, chat: FakeChat) -> list[tuple[StoredMessage, str]]:
    return [(m, data) for m in tg.chat_messages(chat, from_bot=True) for data in m.callback_data]


# --------------------------------------------------------------------------- set-up
async def set_up(
    bot: BotUnderTest, tg: FakeTelegram, group: FakeChat, anna: FakeUser, bruno: FakeUser
) -> Scene:
    """A 5-point classic match in the group (cube in play) between a user named with
    markup and one named with 64 emoji, Anna and Bruno looking on; an open and a personal
    challenge in other groups, and a challenge card not yet launched; a game against the
    computer in a player's private chat, a half-done set-up in the other's; menus and rules
    pages on screen."""
    marked = tg.user(201, "<b>Anna</b> & <i>", "anna_b")
    emoji = tg.user(202, "🎲" * 64, None)  # as long as a name gets, twice as long in UTF-16
    bot.dice.queue_opening(3, 1)
    await start_match(bot, group, marked, emoji, "classico 5")
    await bot.say(group, anna, "/regole")
    await bot.say(group, anna, "/start")
    for user in (marked, emoji):
        chat = tg.private_chat(user)
        await bot.say(chat, user, "/start")
        await bot.say(chat, user, "/regole classico")
    private = tg.private_chat(marked)
    reaction = await bot.say(private, marked, "/gioca")
    menu = tg.message(private, reaction.of("sendMessage")[0].result["message_id"])
    await bot.press(private, marked, menu, "Backgammon lungo")
    await bot.press(private, marked, menu, "Facile")
    await bot.press(private, marked, menu, "3 punti")
    await bot.press(private, marked, menu, "Inizia la partita")
    assert await bot.stored(private) is not None
    reaction = await bot.say(tg.private_chat(emoji), emoji, "/gioca")
    menu = tg.message(emoji.id, reaction.of("sendMessage")[0].result["message_id"])
    await bot.press(tg.private_chat(emoji), emoji, menu, "Backgammon classico")
    open_group = tg.group(-100456, "<i>Bar</i> & Sport")
    await post_challenge(bot, open_group, bruno, "lungo 3")
    personal_group = tg.group(-100789, "Club")
    await post_challenge(bot, personal_group, marked, "@bruno classico 3 5m")
    card_group = tg.group(-100321, "Tavolino")  # a card still being filled in
    await bot.say(card_group, emoji, "/sfida lunga 5 30s")
    return Scene(
        bot, tg, group, (open_group, personal_group, card_group), (marked, emoji), (anna, bruno)
    )


# --------------------------------------------------------------------------- the tests
TEXTS = 1200
PRESSES = 1800


async def test_hostile_texts_never_crash_and_change_no_game(
    bot: BotUnderTest, tg: FakeTelegram, group: FakeChat, anna: FakeUser, bruno: FakeUser
) -> None:
    scene = await set_up(bot, tg, group, anna, bruno)
    rng = random.Random(SEED)
    username = tg.bot_user.username or ""

    def inputs() -> Iterator[Input]:
        while True:
            user = scene.pick_user(rng)
            chat = scene.pick_chat(rng, user)
            text = hostile_command(rng, username) if rng.random() < 0.5 else hostile_text(rng)
            reply_to = None
            bot_messages = tg.chat_messages(chat, from_bot=True)
            if bot_messages and rng.random() < 0.4:
                # Mostly the board (a typed move), sometimes another message of the bot.
                photos = [m for m in bot_messages if m.photo is not None]
                reply_to = photos[-1] if photos and rng.random() < 0.8 else rng.choice(bot_messages)
            acts = user in scene.players and may_act(text)
            yield Input(chat, user, text=text, message=reply_to, may_act=acts)

    await run_batches(scene, inputs(), TEXTS)


async def test_forged_callback_data_never_crashes_and_changes_no_game(
    bot: BotUnderTest, tg: FakeTelegram, group: FakeChat, anna: FakeUser, bruno: FakeUser
) -> None:
    scene = await set_up(bot, tg, group, anna, bruno)
    rng = random.Random(SEED + 1)

    def inputs() -> Iterator[Input]:
        while True:
            user = scene.pick_user(rng)
            chat = scene.pick_chat(rng, user)
            real = all_callback_data(tg, chat)
            messages = tg.chat_messages(chat, from_bot=True)
            if real and rng.random() < 0.75:
                message, data = rng.choice(real)
                vocabulary = sorted({f for _, d in real for f in d.split(":")})
                forged = mutate_callback(rng, data, vocabulary)
            else:
                message = rng.choice(messages) if messages else None
                forged = random_callback(rng)
            # Pressing real data is playing, not forging: leave it to the other tests.
            if any(forged == d for _, d in real):
                continue
            # A step drawn for an earlier version of the turn is played when still legal
            # (a quick second tap), and a resign prompt answers its open offer whatever the
            # board's version: a player's forged press of that kind may act.
            acts = user in scene.players and is_step_data(forged)
            yield Input(chat, user, data=forged, message=message, may_act=acts)

    await run_batches(scene, inputs(), PRESSES)
