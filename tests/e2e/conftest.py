"""Shared set-up of the end-to-end tests: the real bot against the fake Bot API server.

Each test gets a fresh `FakeTelegram`, its own key prefix on one real Redis-protocol server
(``REDIS_URL`` when set, else an embedded Valkey for the whole session) and a `BotUnderTest`
that builds the real `Application` with scripted dice. Users act through `BotUnderTest.say`
and `BotUnderTest.press`, which wait until the bot has fully handled the update (its update
queue is drained), so tests never sleep or guess how long rendering takes.

Suite-wide checks live here too: after every test the fake server must have refused nothing
(unless the test declared the refusal with `BotUnderTest.expect_errors`), and every callback
query a user made must have been answered exactly once. The number of Bot API requests the bot
makes per user action is collected and printed at the end of the run.
"""

from __future__ import annotations

import asyncio
import logging
import random
import re
import uuid
from collections import Counter, defaultdict, deque
from collections.abc import AsyncIterator, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from telegram.ext import Application

from bot.adapters.update_types import allowed_updates
from bot.app import build_application
from bot.computer import ComputerPool
from bot.config import Settings
from bot.game.table import Table
from bot.services import bot_data, of_app
from bot.views.painter import BoardPainter
from engine import Phase
from engine.serialize import SCHEMA_VERSION
from storage import EmbeddedValkey, GameRepository, SchemaRegistry, StorageConfig, StoredGame
from storage.connect import make_client
from tests.valkey_cluster import delete_prefixed

from .fake_telegram import FakeChat, FakeTelegram, FakeUser, RecordedRequest, StoredMessage

IDLE_TIMEOUT = 20.0  # seconds; generous for a slow CI machine, never reached when all is well
ANNOUNCE_PREFIXES = ("Tocca a ", "Tocca ad ")
#: The buttons under every finished game's board, after "Partita successiva" or "Rivincita".
FINISHED_GAME_BUTTONS = ("📊 Analisi", "🎞 Rivedi", "📄 Esporta", "📜 Mosse")


# --------------------------------------------------------------------------- dice
class ScriptedDice:
    """Reproducible dice: queued values first, then a seeded generator.

    Tests queue the rolls that matter to them (an opening, a roll that allows a given move)
    and leave the rest of the game to the seed, so every run replays the same game.
    """

    def __init__(self, seed: int = 0) -> None:
        self._random = random.Random(seed)
        self._rolls: deque[tuple[int, int]] = deque()
        self._dice: deque[int] = deque()

    def queue_rolls(self, *rolls: tuple[int, int]) -> None:
        self._rolls.extend(rolls)

    def queue_opening(self, challenger: int, opponent: int) -> None:
        """The one-die opening roll: the challenger's die first (player 0), as the bot asks."""
        self._dice.extend((challenger, opponent))

    def roll(self) -> tuple[int, int]:
        if self._rolls:
            return self._rolls.popleft()
        return self._random.randint(1, 6), self._random.randint(1, 6)

    def die(self) -> int:
        if self._dice:
            return self._dice.popleft()
        return self._random.randint(1, 6)


# --------------------------------------------------------------------------- statistics
@dataclass
class RequestStats:
    """Bot API requests (without getUpdates) made in reaction to each kind of user action."""

    counts: dict[str, list[int]] = field(default_factory=lambda: defaultdict(list))
    methods: dict[str, Counter[str]] = field(default_factory=lambda: defaultdict(Counter))
    games: list[str] = field(default_factory=list)

    def add_game(self, label: str, presses: int, turns: int, requests: int) -> None:
        """One stretch of play: requests per press and per turn (a turn ends with a confirm)."""
        self.games.append(
            f"{label:<34} {presses:>5} presses {turns:>4} turns {requests:>6} requests  "
            f"{requests / max(presses, 1):.2f}/press  {requests / max(turns, 1):.2f}/turn"
        )

    def add(self, kind: str, requests: list[RecordedRequest]) -> None:
        self.counts[kind].append(len(requests))
        self.methods[kind].update(r.method for r in requests)

    def table(self) -> list[str]:
        lines = [
            f"{'user action':<34} {'n':>5} {'min':>4} {'mean':>5} {'max':>4}  methods (total)",
        ]
        for kind in sorted(self.counts):
            values = self.counts[kind]
            methods = ", ".join(f"{m} {c}" for m, c in self.methods[kind].most_common())
            lines.append(
                f"{kind:<34} {len(values):>5} {min(values):>4} "
                f"{sum(values) / len(values):>5.2f} {max(values):>4}  {methods}"
            )
        return lines


_STATS = RequestStats()


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if not _STATS.counts:
        return
    terminalreporter.section("Bot API requests per user action (e2e)")
    for line in _STATS.table():
        terminalreporter.write_line(line)
    for line in _STATS.games:
        terminalreporter.write_line(line)


# --------------------------------------------------------------------------- the bot
@dataclass
class Reaction:
    """What the bot did in answer to one user action: its requests, in order."""

    requests: list[RecordedRequest]
    query_id: str | None = None
    answer: dict[str, Any] | None = None

    @property
    def methods(self) -> list[str]:
        return [r.method for r in self.requests]

    def of(self, method: str) -> list[RecordedRequest]:
        return [r for r in self.requests if r.method.lower() == method.lower()]

    def texts(self) -> list[str]:
        """Texts of the messages the bot sent (sendMessage), as the user reads them."""
        return [r.result["text"] for r in self.of("sendMessage") if r.ok]

    @property
    def alert(self) -> str | None:
        """The pop-up shown to the presser, if the answer was an alert."""
        if self.answer and self.answer["show_alert"]:
            return self.answer["text"]
        return None


def game_action(data: str) -> str:
    """'g:5:3:s:13:7:6' -> 's': the action letter of a game button's callback data."""
    parts = data.split(":")
    return parts[3] if parts[0] == "g" and len(parts) > 3 else ""


GAME_ACTION_NAMES = {
    "r": "roll",
    "d": "double",
    "t": "take",
    "p": "drop",
    "s": "step",
    "u": "undo",
    "c": "confirm",
    "a": "resign",
    "o": "resign offer",
    "y": "resign yes",
    "n": "resign no",
    "k": "resign accept",
    "z": "resign decline",
    "x": "next game",
    "m": "rematch",
    "h": "hint",
    "v": "analysis",
}
FAMILY_NAMES = {
    "c": "challenge",
    "j": "inline challenge",
    "k": "challenge card",
    "r": "rules page",
    "p": "computer set-up",
    "m": "menu",
    "v": "replay or export",
}


def action_kind(data: str) -> str:
    """A readable name for what a button does, for the request statistics."""
    action = game_action(data)
    if action:
        return f"game {GAME_ACTION_NAMES.get(action, 'forged')}"
    return FAMILY_NAMES.get(data.split(":", maxsplit=1)[0], "forged")


class BotUnderTest:
    """The real Application, started against the fake server, and the users' actions on it."""

    def __init__(
        self,
        tg: FakeTelegram,
        repo: GameRepository,
        *,
        seed: int = 1,
        turn_seconds: int = 600,
        computer: ComputerPool | None = None,
        rate_limited: bool = False,
        auto_confirm: bool = False,
        media_chat: int | None = None,
        challenge_ttl: int = 600,
    ) -> None:
        self.tg = tg
        self.repo = repo
        self.computer = computer
        self.dice = ScriptedDice(seed)
        self.rng = random.Random(seed)
        self.settings = Settings(
            token=tg.token,
            base_url=tg.base_url,
            rate_limit=rate_limited,
            turn_seconds=turn_seconds,
            auto_confirm=auto_confirm,
            media_chat=media_chat,
            challenge_ttl=challenge_ttl,
        )
        self.app: Application | None = None
        self.query_ids: list[str] = []
        self._expected_errors: list[str] = []

    # -- lifecycle ---------------------------------------------------------------------------
    async def start(self) -> Application:
        app = build_application(
            self.settings, self.repo, dice=self.dice, rng=self.rng, computer=self.computer
        )
        await app.initialize()
        await app.post_init(app)
        await app.start()
        assert app.updater is not None
        first_poll = len(self.tg.requests)
        # The bot's own allowed_updates, as in production: an update type its handlers do
        # not cover is never delivered, and every e2e test runs under that filter.
        await app.updater.start_polling(
            poll_interval=0, timeout=1, allowed_updates=allowed_updates(app)
        )
        await self._first_poll(first_poll)
        self.app = app
        return app

    async def _first_poll(self, since: int) -> None:
        """Wait until the first getUpdates reached the fake, so the bot's allowed_updates
        apply to whatever the test sends next (as after a real start-up)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + IDLE_TIMEOUT
        while not any(r.is_polling for r in self.tg.requests[since:]):
            if loop.time() > deadline:
                raise TimeoutError("the bot did not start polling")
            await asyncio.sleep(0.002)

    async def stop(self) -> None:
        app, self.app = self.app, None
        if app is None:
            return
        assert app.updater is not None
        if app.updater.running:  # not in webhook mode (bot.web receives the updates)
            await app.updater.stop()
        await app.stop()
        await app.shutdown()

    async def restart(self) -> Application | None:
        """A new process on the same Redis: nothing survives but what storage holds.

        Returns the stopped Application (so a test can tell it from the new one).
        """
        old = self.app
        await self.stop()
        await self.start()
        return old

    # -- waiting -----------------------------------------------------------------------------
    async def idle(self) -> None:
        """Wait until every injected update was fetched and completely handled.

        An update leaves the fake's queue only when a later getUpdates confirms it, which PTB
        sends after putting the update in its own queue; `update_queue.join()` then returns
        once the handler (rendering and every request included) has finished.
        """
        assert self.app is not None, "the bot is not running"
        loop = asyncio.get_running_loop()
        deadline = loop.time() + IDLE_TIMEOUT
        while self.tg.pending_updates:
            if loop.time() > deadline:
                raise TimeoutError("the bot did not fetch its updates")
            await asyncio.sleep(0.002)
        await asyncio.wait_for(self.app.update_queue.join(), IDLE_TIMEOUT)
        # Boards are drawn in the background after the handlers return.
        await asyncio.wait_for(self.painter.drain(), IDLE_TIMEOUT)
        # So are the challenge cards' coalesced edits.
        await asyncio.wait_for(bot_data(self.app).card_edits.drain(), IDLE_TIMEOUT)

    @property
    def painter(self) -> BoardPainter:
        assert self.app is not None, "the bot is not running"
        return of_app(self.app).painter

    # -- users' actions ----------------------------------------------------------------------
    async def say(
        self,
        chat: FakeChat,
        user: FakeUser,
        text: str,
        reply_to: StoredMessage | None = None,
        *,
        kind: str | None = None,
    ) -> Reaction:
        """A user writes in a chat; returns the bot's reaction once it is complete."""
        start = len(self.tg.requests)
        self.tg.send_message(chat, user, text, reply_to=reply_to)
        await self.idle()
        reaction = Reaction(self.tg.calls(since=start))
        label = kind or (text.split(maxsplit=1)[0] if text.startswith("/") else "text reply")
        _STATS.add(f"message {label}", reaction.requests)
        return reaction

    async def press(
        self,
        chat: FakeChat,
        user: FakeUser,
        message: StoredMessage | int,
        button: str | None = None,
        *,
        data: str | None = None,
        forge: bool = False,
    ) -> Reaction:
        """A user presses a button (by label, or by callback data); waits for the bot."""
        if data is None:
            assert button is not None, "press needs a button label or callback data"
            current = self.tg.message(chat, _message_id(message))
            data = current.data_for(button)
        start = len(self.tg.requests)
        query_id = self.tg.press(chat, user, message, data, forge=forge)
        self.query_ids.append(query_id)
        await self.idle()
        reaction = Reaction(self.tg.calls(since=start), query_id, self.tg.callback_answer(query_id))
        refused = " (refused)" if reaction.alert is not None else ""
        _STATS.add(f"press {action_kind(data)}{refused}", reaction.requests)
        return reaction

    async def press_inline(
        self,
        user: FakeUser,
        inline_message_id: str,
        button: str | None = None,
        *,
        data: str | None = None,
        forge: bool = False,
    ) -> Reaction:
        """A user presses a button of a message posted through inline mode; waits for the bot."""
        if data is None:
            assert button is not None, "press_inline needs a button label or callback data"
            data = self.tg.inline_message(inline_message_id).data_for(button)
        start = len(self.tg.requests)
        query_id = self.tg.press_inline(user, inline_message_id, data, forge=forge)
        self.query_ids.append(query_id)
        await self.idle()
        reaction = Reaction(self.tg.calls(since=start), query_id, self.tg.callback_answer(query_id))
        refused = " (refused)" if reaction.alert is not None else ""
        _STATS.add(f"inline press {action_kind(data)}{refused}", reaction.requests)
        return reaction

    async def inline_query(self, user: FakeUser, text: str) -> dict[str, Any]:
        """A user types the bot's name and `text`; returns the bot's answer (results...)."""
        start = len(self.tg.requests)
        query_id = self.tg.inline_query(user, text)
        await self.idle()
        _STATS.add("inline query", self.tg.calls(since=start))
        answer = self.tg.inline_answers.get(query_id)
        assert answer is not None, "the bot did not answer the inline query"
        return {**answer, "id": query_id}

    async def press_together(
        self, chat: FakeChat, presses: list[tuple[FakeUser, StoredMessage, str]]
    ) -> list[Reaction]:
        """Several presses reaching the bot at once (a double click, two players racing).

        All are queued before the bot fetches any, so each handler sees the message as it was
        when its button was pressed. The requests are reported on the first reaction.
        """
        start = len(self.tg.requests)
        query_ids = [self.tg.press(chat, user, message, data) for user, message, data in presses]
        self.query_ids.extend(query_ids)
        await self.idle()
        requests = self.tg.calls(since=start)
        return [
            Reaction(requests if i == 0 else [], q, self.tg.callback_answer(q))
            for i, q in enumerate(query_ids)
        ]

    # -- what the users see and what storage holds -----------------------------------------------
    def board(self, chat: FakeChat) -> StoredMessage:
        """The latest board (the bot's last photo) in a chat, as it looks now."""
        photos = [m for m in self.tg.chat_messages(chat, from_bot=True) if m.photo is not None]
        assert photos, "no board in this chat"
        return photos[-1]

    async def stored(self, chat: FakeChat) -> StoredGame | None:
        return await self.repo.load_game(chat.id)

    async def table(self, chat: FakeChat) -> Table:
        stored = await self.stored(chat)
        assert stored is not None, "no game in this chat"
        return Table.from_doc(stored.doc)

    def expect_errors(self, *patterns: str) -> None:
        """Declare Bot API refusals the test provokes on purpose (regexes on the description)."""
        self._expected_errors.extend(patterns)

    def unexpected_errors(self) -> list[RecordedRequest]:
        return [
            r
            for r in self.tg.errors()
            if not any(re.search(p, r.error or "", re.IGNORECASE) for p in self._expected_errors)
        ]


def _message_id(message: StoredMessage | int) -> int:
    return message if isinstance(message, int) else message.message_id


# --------------------------------------------------------------------------- playing along
def turn_holder(caption: str, players: Iterable[FakeUser]) -> FakeUser | None:
    """The user the board's caption says is on turn ('Tocca ad Anna (Bianco)')."""
    for line in caption.splitlines():
        for prefix in ANNOUNCE_PREFIXES:
            if line.startswith(prefix):
                for user in players:
                    if line.startswith(f"{prefix}{user.first_name} ("):
                        return user
    return None


async def _legal_steps(bot: BotUnderTest, chat: FakeChat) -> set[tuple[int, int, int]]:
    """The steps the stored game allows now (the board may not show the latest step yet)."""
    state = (await bot.table(chat)).state
    if state.phase is not Phase.MOVE:
        return set()
    return {(s.src, s.dst, s.die) for s in state.legal_steps()}


def choose_step(
    message: StoredMessage, legal: set[tuple[int, int, int]] | None = None
) -> str | None:
    """A quick way home for the buttons' player: bear off, else move the farthest checker.

    Moving the rearmost checker first keeps games short (races settle quickly), which keeps
    the suite fast; the largest die breaks ties so a checker travels as far as it can.
    Only steps in ``legal`` are chosen when it is given: after a first step the board keeps
    its keyboard until the turn ends, and a person reads which die is left from the answer.
    """
    steps = [
        d
        for d in message.callback_data
        if game_action(d) == "s"
        and (legal is None or tuple(int(x) for x in d.split(":")[4:7]) in legal)
    ]
    if not steps:
        return None

    def key(data: str) -> tuple[int, int, int]:
        src, dst, die = (int(x) for x in data.split(":")[4:7])
        return (dst == 0, src, die)

    return max(steps, key=key)


async def play_until(
    bot: BotUnderTest,
    chat: FakeChat,
    players: tuple[FakeUser, FakeUser],
    stop_labels: Iterable[str],
    *,
    max_presses: int = 2000,
    next_game: bool = True,
    label: str | None = None,
) -> StoredMessage:
    """Press the board's buttons as the player on turn would until a stop label appears.

    Only the buttons on the current board are pressed (as in a real client), always by the
    user the caption names; every press must be answered without an alert. With `label`, the
    requests per press and per confirmed turn go into the summary printed after the run.
    """
    stops = set(stop_labels)
    first_request = len(bot.tg.requests)
    turns = 0
    for presses in range(max_presses):
        board = bot.board(chat)
        labels = board.button_texts
        if stops & set(labels):
            if label:
                requests = len(bot.tg.calls(since=first_request))
                _STATS.add_game(label, presses, turns, requests)
            return board
        assert labels, f"the board has no buttons: {board.caption!r}"
        if "Partita successiva" in labels and next_game:
            reaction = await bot.press(chat, players[0], board, "Partita successiva")
        else:
            user = turn_holder(board.caption or "", players)
            assert user is not None, f"nobody is on turn: {board.caption!r}"
            if "✅ Conferma" in labels:
                data = board.data_for("✅ Conferma")
                turns += 1
            elif "🎲 Tira i dadi" in labels:
                data = board.data_for("🎲 Tira i dadi")
            else:
                data = choose_step(board, await _legal_steps(bot, chat))
                assert data is not None, f"no move button to press: {labels}"
            reaction = await bot.press(chat, user, board, data=data)
        assert reaction.answer is not None and reaction.alert is None, reaction.answer
    raise AssertionError(f"no {stops} after {max_presses} presses")


# --------------------------------------------------------------------------- fixtures
@pytest.fixture
async def repo(redis_url: str) -> AsyncIterator[GameRepository]:
    """A repository under a key prefix of its own, removed afterwards (never a FLUSHDB)."""
    prefix = f"tavola-e2e:{uuid.uuid4().hex[:12]}:v1"
    client = make_client(redis_url)  # one server, or a cluster (redis+cluster://)
    await client.ping()  # a cluster client learns the cluster before concurrent use
    try:
        yield GameRepository(
            client, SchemaRegistry(current=SCHEMA_VERSION), StorageConfig(prefix=prefix)
        )
    finally:
        await delete_prefixed(client, prefix)
        await client.aclose()


@pytest.fixture
async def own_valkey(tmp_path: Path) -> AsyncIterator[EmbeddedValkey]:
    """A Redis-protocol server of the test's own, which it may stop and restart."""
    server = EmbeddedValkey(tmp_path / "valkey")
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
async def tg() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram() as fake:
        yield fake


@pytest.fixture
def bot_options() -> dict[str, Any]:
    """Override in a test module (or parametrize) to change the seed or the turn limit."""
    return {}


@pytest.fixture(scope="session")
def computer() -> Iterator[ComputerPool]:
    """One pool of the computer's worker processes for the whole run (they take a moment
    to start and load the networks)."""
    pool = ComputerPool(1)
    yield pool
    pool.close()


@pytest.fixture
async def bot(
    tg: FakeTelegram, repo: GameRepository, bot_options: dict[str, Any], computer: ComputerPool
) -> AsyncIterator[BotUnderTest]:
    """The running bot; after the test, the suite-wide checks on what it did."""
    under_test = BotUnderTest(tg, repo, computer=computer, **bot_options)
    await under_test.start()
    try:
        yield under_test
        await under_test.idle()
    finally:
        await under_test.stop()
    unexpected = under_test.unexpected_errors()
    assert not unexpected, [(r.method, r.error) for r in unexpected]
    answers = Counter(
        str(r.params.get("callback_query_id"))
        for r in tg.requests
        if r.method.lower() == "answercallbackquery"
    )
    unanswered = [q for q in under_test.query_ids if answers[q] == 0]
    repeated = [q for q, n in answers.items() if n > 1]
    assert not unanswered, f"callback queries never answered: {unanswered}"
    assert not repeated, f"callback queries answered more than once: {repeated}"


@pytest.fixture
def anna(tg: FakeTelegram) -> FakeUser:
    return tg.user(101, "Anna", "anna")


@pytest.fixture
def bruno(tg: FakeTelegram) -> FakeUser:
    return tg.user(102, "Bruno", "bruno")


@pytest.fixture
def carla(tg: FakeTelegram) -> FakeUser:
    """A member of the group who is not playing."""
    return tg.user(103, "Carla", "carla")


@pytest.fixture
def group(tg: FakeTelegram) -> FakeChat:
    return tg.group(-100123, "Circolo")


LAUNCH = "Lancia la sfida"


async def post_challenge(
    bot: BotUnderTest, group: FakeChat, challenger: FakeUser, options: str = ""
) -> StoredMessage:
    """/sfida by the challenger, then Lancia la sfida on its card; returns the challenge."""
    reaction = await bot.say(group, challenger, f"/sfida {options}".strip())
    card = bot.tg.message(group, reaction.of("sendMessage")[0].result["message_id"])
    reaction = await bot.press(group, challenger, card, LAUNCH)
    assert reaction.alert is None, reaction.alert
    return bot.tg.message(group, card.message_id)


async def start_match(
    bot: BotUnderTest,
    group: FakeChat,
    challenger: FakeUser,
    opponent: FakeUser,
    options: str = "",
) -> StoredMessage:
    """/sfida and Lancia la sfida by the challenger, Accetta by the opponent; returns the
    new board message."""
    card = await post_challenge(bot, group, challenger, options)
    reaction = await bot.press(group, opponent, card, "Accetta")
    assert reaction.of("sendPhoto"), reaction.methods
    return bot.board(group)


def requests_to(chat: FakeChat, requests: list[RecordedRequest]) -> list[RecordedRequest]:
    """The requests among ``requests`` addressed to ``chat``."""
    return [r for r in requests if str(r.params.get("chat_id")) == str(chat.id)]


def logged_troubles(caplog: pytest.LogCaptureFixture) -> list[str]:
    """Errors and tracebacks logged by the bot."""
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]


# --------------------------------------------------------------------------- parallel runs
#: Where a pytest-xdist worker leaves its request statistics for the controller.
WORKER_STATS_KEY = "tavola_e2e_request_stats"


def pytest_sessionfinish(session: pytest.Session) -> None:
    """A pytest-xdist worker prints no summary: it hands its statistics to the controller,
    which adds up every worker's (tests/conftest.py) and prints them once."""
    output = getattr(session.config, "workeroutput", None)
    if output is not None and (_STATS.counts or _STATS.games):
        output[WORKER_STATS_KEY] = {
            "counts": dict(_STATS.counts),
            "methods": {kind: dict(methods) for kind, methods in _STATS.methods.items()},
            "games": list(_STATS.games),
        }


def merge_worker_stats(data: dict[str, Any]) -> None:
    """Add a worker's statistics (as `pytest_sessionfinish` left them) to this process's."""
    for kind, values in data["counts"].items():
        _STATS.counts[kind].extend(values)
    for kind, methods in data["methods"].items():
        _STATS.methods[kind].update(methods)
    _STATS.games.extend(data["games"])
