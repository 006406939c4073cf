"""Load benchmark: the real bot, many concurrent games, Telegram's flood limits and latency.

Run from the repository root::

    python -m benchmarks.load                          # 1 and 10 games against "medio"
    python -m benchmarks.load --games 1 10 50 200 --mode difficile --seconds 60
    python -m benchmarks.load --games 10 --mode group --flood
    python -m benchmarks.load --games 1 --seconds 10 --latency 0.1
    python -m benchmarks.load --games 50 --mode group --seconds 20 --profile /tmp/prof
    python -m benchmarks.load --games 50 --bot-root ../other-checkout   # another version

With ``--profile DIR`` the bot is sampled by py-spy (``pip install py-spy``) during each
setting's measured window, and ``DIR/profile-<games>-<mode>.txt`` holds the collapsed stacks;
``python -m benchmarks.profile DIR/profile-50-group.txt`` sums them up by area. With
``--bot-root`` the bot runs from another checkout (``git worktree add``) to compare versions
on the same machine, alternating runs (``--bot-python`` names that checkout's interpreter,
when its dependencies differ).

It starts the real bot (``python -m bot``) as a subprocess against the fake Bot API server of
``tests/e2e/fake_telegram.py`` running in this process with ``enforce_limits=True`` (20 sends
and edits per minute per group, about one a second per private chat, 30 a second in all) and
``--latency`` seconds per request, plus an embedded Valkey of its own and a temporary data dir.
For each ``--games`` setting it plays that many games in as many new chats at once, with zero
think time, for ``--seconds`` (after every game is set up, or after ``--setup-timeout``):

- ``medio`` / ``difficile``: private games against the computer, started with ``/gioca`` and
  the set-up buttons (variant, level, one-game match), continued with "Rivincita";
- ``group``: two users per group, ``/sfida``, "Lancia la sfida" then "Accetta";
  "Partita successiva" / "Rivincita" to go on.

A player looks at the chat's current board (the bot's latest photo message) and presses
"Conferma" if shown, else "Tira i dadi", else "Accetto" (a double), else a random step, or
"Partita successiva" / "Rivincita"; then waits until the press is answered and the board has
changed (or refused with an alert, or ``--board-timeout`` passed) and looks again. With
``--flood`` one more group receives ``/aiuto`` twice a second, past its budget, and a 429 is
injected there: the other chats' figures should not move.

Columns: turns/s (turns the players began, all games: a first step answered without an
alert; not "Conferma", which automatic confirmation, the default, leaves out), press-to-answer
and press-to-board-change percentiles in ms (from the fake's press time, so they include update
delivery and latency), the bot's CPU seconds per turn and its peak RSS (bot process and its
children, from /proc; Linux only), sends+edits and photo uploads per turn, 429s the fake sent
to the games' chats, alerts (refused presses) and presses that saw no change in time. Under
the line, each kind of alert the players saw (its text, numbers as ``#``) with its count:
why presses were refused.
This process also runs the fake server and the players, sharing the machine with the bot:
compare figures measured on the same machine only.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import re
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

import aiohttp

from storage.embedded import EmbeddedValkey
from tests.e2e.fake_telegram import (
    FakeChat,
    FakeTelegram,
    FakeTelegramUsageError,
    FakeUser,
    StoredMessage,
)
from tests.ports import free_port

REPO_ROOT = Path(__file__).resolve().parents[1]
TOKEN = "123456:LOADTEST"
WEBHOOK_SECRET = "load-benchmark-secret"
BOT_START_TIMEOUT = 90.0
CLOCK_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
PAGE_SIZE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


# ---------------------------------------------------------------------------- the bot process
def _stat_fields(pid: int) -> list[str] | None:
    """/proc/<pid>/stat after the command name (which may hold spaces and parentheses)."""
    try:
        raw = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return raw[raw.rfind(")") + 2 :].split()


def process_tree(root: int) -> list[int]:
    """``root`` and its descendants (the bot's worker processes, if any)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        fields = _stat_fields(int(entry.name))
        if fields is not None:
            children.setdefault(int(fields[1]), []).append(int(entry.name))
    tree, todo = [], [root]
    while todo:
        pid = todo.pop()
        tree.append(pid)
        todo.extend(children.get(pid, []))
    return tree


def cpu_seconds(root: int) -> float:
    """User + system CPU time of the process tree, from /proc (psutil is not a dependency)."""
    total = 0
    for pid in process_tree(root):
        fields = _stat_fields(pid)
        if fields is not None:
            total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / CLOCK_TICKS


def own_cpu_seconds(pid: int) -> float:
    """User + system CPU time of the process alone (without its worker processes)."""
    fields = _stat_fields(pid)
    return 0.0 if fields is None else (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


def rss_bytes(root: int) -> int:
    total = 0
    for pid in process_tree(root):
        fields = _stat_fields(pid)
        if fields is not None:
            total += int(fields[21]) * PAGE_SIZE  # rss, in pages
    return total


class BotProcess:
    """``python -m bot`` pointed at the fake server and at our Valkey, logging to a file;
    polling, or a webhook worker listening on ``webhook_port``."""

    def __init__(
        self,
        tg: FakeTelegram,
        redis_url: str,
        data_dir: Path,
        webhook_port: int | None = None,
        root: Path = REPO_ROOT,
        python: str = sys.executable,
    ) -> None:
        self.tg = tg
        self.root = root
        self.python = python
        self.redis_url = redis_url
        self.data_dir = data_dir
        self.webhook_port = webhook_port
        self.log_path = data_dir / "bot.log"
        self.proc: asyncio.subprocess.Process | None = None

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    async def start(self) -> None:
        env = {
            **os.environ,
            "TELEGRAM_TOKEN": TOKEN,
            "TELEGRAM_BASE_URL": self.tg.base_url,
            "REDIS_URL": self.redis_url,
            "TAVOLA_DATA_DIR": str(self.data_dir),
            "LOG_LEVEL": "WARNING",
            "PYTHONPATH": str(self.root),
            "TAVOLA_HEALTH_PORT": "0",  # no health server: another bot may hold its port
        }
        env.pop("WEBHOOK_URL", None)
        if self.webhook_port is not None:
            env["WEBHOOK_URL"] = f"http://127.0.0.1:{self.webhook_port}"
            env["WEBHOOK_SECRET"] = WEBHOOK_SECRET
            env["PORT"] = str(self.webhook_port)
        with self.log_path.open("wb") as log:
            self.proc = await asyncio.create_subprocess_exec(
                self.python, "-m", "bot", cwd=self.root, env=env, stdout=log, stderr=log
            )
        deadline = time.monotonic() + BOT_START_TIMEOUT
        while not await self._serving():
            if self.proc.returncode is not None or time.monotonic() > deadline:
                raise RuntimeError(f"the bot did not start polling:\n{self.log_tail()}")
            await asyncio.sleep(0.1)

    async def _serving(self) -> bool:
        """Polling, or listening on the webhook's port."""
        if self.webhook_port is None:
            return any(r.is_polling for r in self.tg.requests)
        try:
            _, writer = await asyncio.open_connection("127.0.0.1", self.webhook_port)
        except OSError:
            return False
        writer.close()
        return True

    async def stop(self) -> None:
        if self.proc is None or self.proc.returncode is not None:
            return
        self.proc.terminate()
        try:
            await asyncio.wait_for(self.proc.wait(), 15)
        except TimeoutError:
            self.proc.kill()
            await self.proc.wait()

    def log_tail(self, lines: int = 30) -> str:
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return "(no log)"


async def deliver_by_webhook(tg: FakeTelegram, workers: list[BotProcess]) -> None:
    """Telegram's part in webhook mode, behind a load balancer: each update goes to the next
    worker in turn (so one chat's updates reach every worker). Runs until cancelled."""
    ports = [w.webhook_port for w in workers if w.webhook_port is not None]
    sent = 0
    pending: set[asyncio.Task[None]] = set()

    async def post(http: aiohttp.ClientSession, port: int, update: dict[str, object]) -> None:
        url = f"http://127.0.0.1:{port}/telegram"
        headers = {"X-Telegram-Bot-Api-Secret-Token": WEBHOOK_SECRET}
        with contextlib.suppress(aiohttp.ClientError, TimeoutError):
            async with http.post(url, json=update, headers=headers) as response:
                await response.read()

    async with aiohttp.ClientSession() as http:
        try:
            while True:
                for update in tg.pop_updates():
                    task = asyncio.create_task(post(http, ports[sent % len(ports)], update))
                    sent += 1
                    pending.add(task)
                    task.add_done_callback(pending.discard)
                await asyncio.sleep(0.005)
        finally:
            for task in pending:
                task.cancel()


def peak(times: list[float], span: float) -> int:
    """The most of ``times`` (sorted) within any ``span`` seconds, as Telegram's rolling
    windows count them."""
    best, first = 0, 0
    for last, at in enumerate(times):
        while times[first] <= at - span:
            first += 1
        best = max(best, last - first + 1)
    return best


def budget_report(tg: FakeTelegram, since: float) -> str:
    """The rates the fake saw since ``since``: the bot's peak in any second, a group's peak
    in any minute, a private chat's peak in any second, and every 429 it sent."""
    admitted = [(at, chat) for at, chat in tg.admissions if at >= since]
    by_chat: dict[int, list[float]] = {}
    for at, chat in admitted:
        by_chat.setdefault(chat, []).append(at)
    groups = [peak(times, 60.0) for chat, times in by_chat.items() if chat < 0]
    privates = [peak(times, 1.0) for chat, times in by_chat.items() if chat > 0]
    return (
        f"budgets: bot peak {peak([at for at, _ in admitted], 1.0)}/s (30), "
        f"group peak {max(groups, default=0)}/min (20), "
        f"private peak {max(privates, default=0)}/s, "
        f"429s {sum(tg.retry_afters.values())} in all"
    )


def report_log(path: Path, limit: int = 10) -> None:
    """Print the bot's warnings and errors (its log is lost with the temporary directory)."""
    try:
        lines = path.read_text(errors="replace").splitlines()
    except OSError:
        return
    problems = [
        line for line in lines if any(w in line for w in (" WARNING ", " ERROR ", " CRITICAL "))
    ]
    if not problems:
        return
    kinds: dict[str, int] = {}
    for line in problems:
        key = line.split(" ", 2)[-1] if line[:2].isdigit() else line  # without the time stamp
        key = re.sub(r"-?\d+", "N", key)  # chat ids, counts
        kinds[key] = kinds.get(key, 0) + 1
    print(f"bot log: {len(problems)} warning/error lines; the most frequent:")
    for key, count in sorted(kinds.items(), key=lambda kv: -kv[1])[:limit]:
        print(f"  {count:5d}  {key[:150]}")
    errors = [n for n, line in enumerate(lines) if " ERROR " in line]
    if errors:  # the first error: its message and the end of its traceback
        end = errors[0] + 1
        while end < len(lines) and not lines[end][:2].isdigit():
            end += 1
        print("  the first error:")
        for line in [lines[errors[0]], "    ...", *lines[max(errors[0] + 1, end - 4) : end]]:
            print(f"    {line[:200]}")


# ---------------------------------------------------------------------------- the players
@dataclass
class Metrics:
    """What the players of one setting saw; presses outside the window are not counted."""

    window: tuple[float, float] = (0.0, 0.0)
    turns: int = 0
    board_ms: list[float] = field(default_factory=list)
    alerts: int = 0
    #: The alerts' texts (numbers as ``#``) and how often each came: why presses were refused.
    alert_texts: Counter[str] = field(default_factory=Counter)
    no_change: int = 0
    #: The players' presses by action (the callback data's action letter), in the window.
    presses: Counter[str] = field(default_factory=Counter)
    setup_failures: int = 0
    errors: int = 0

    def inside(self, t: float) -> bool:
        return self.window[0] <= t < self.window[1]


def action(data: str) -> str:
    """The action of game callback data ``g:<game>:<version>:<action>[:args]``, else ''."""
    parts = data.split(":")
    return parts[3] if parts[0] == "g" and len(parts) > 3 else ""


def alert_kind(text: object) -> str:
    """An alert's text with its numbers as ``#`` (a wait in seconds, a count), on one line:
    alerts that differ only by their figures count as one kind."""
    if not isinstance(text, str) or not text:
        return "(no text)"
    return re.sub(r"\d+", "#", " ".join(text.split()))


def alert_report(texts: Counter[str], limit: int = 8) -> str:
    """The most frequent alert texts with their counts, one per line (empty: no alert)."""
    return "".join(
        f"\n      alert {count:5d}x  {text[:120]}" for text, count in texts.most_common(limit)
    )


def current_board(tg: FakeTelegram, chat: FakeChat) -> StoredMessage | None:
    """The chat's newest visible photo from the bot: what a player looks at."""
    for message in reversed(tg.chat_messages(chat, from_bot=True)):
        if message.photo is not None:
            return message
    return None


#: "Tocca a Bruno (Nero)", "Tocca ad Anna (Bianco)", "Tocca al Computer (Nero)".
TURN_LINE = re.compile(r"^Tocca (?:a|ad|al) (.+) \((?:Bianco|Nero)\)")


#: The words of an answer or alert saying the board's redraw is held by the chat's budget.
HELD_REDRAW = "si aggiorna tra"


#: The dice left, in the answer to a first step: "✔ 24/23 · ora muovi col 6 e 3".
DICE_LEFT = re.compile(r"\d")


def dice_left(answer_text: str) -> set[int]:
    """The dice an answer says are left to play (after its last "col")."""
    _, _, tail = answer_text.rpartition(" col ")
    return {int(n) for n in DICE_LEFT.findall(tail)}


def turn_line_holder(line: str, players: tuple[FakeUser, ...]) -> int | None:
    """The index of the player a caption's turn line names, or None."""
    match = TURN_LINE.match(line)
    if match is None:
        return None
    for index, user in enumerate(players):
        if match.group(1) == user.first_name:
            return index
    return None


def turn_holder_index(caption: str, players: tuple[FakeUser, ...]) -> int | None:
    """'Tocca ad Anna (Bianco)' in the caption names the player on turn."""
    for line in caption.splitlines():
        index = turn_line_holder(line, players)
        if index is not None:
            return index
    return None


def starts_turn(board: StoredMessage, data: str) -> bool:
    """Is this press the first move of a turn (a step or shortcut, no step played yet)?

    Turns are counted so, not by "Conferma": with automatic confirmation (the default) the
    turn passes without it."""
    if action(data) not in ("s", "w"):
        return False
    lines = (board.caption or "").splitlines()
    for n, line in enumerate(lines):
        if TURN_LINE.match(line):
            return n + 1 < len(lines) and "Mossa:" not in lines[n + 1]
    return False


class Game:
    """One chat with its players, playing without think time until told to stop."""

    def __init__(
        self,
        tg: FakeTelegram,
        chat: FakeChat,
        players: tuple[FakeUser, ...],
        metrics: Metrics,
        rng: random.Random,
        board_timeout: float,
        think: float = 0.0,
    ) -> None:
        self.tg = tg
        self.think = think
        self.chat = chat
        self.players = players
        self.metrics = metrics
        self.rng = rng
        self.board_timeout = board_timeout
        self.preferred = 0  # in a group: who presses when the caption names nobody
        # After a first step told by the answer alone (the board keeps its keyboard), the
        # dice the answer says are left, and the board they apply to.
        self.dice_left: tuple[StoredMessage, float, set[int]] | None = None

    async def _wait(self, timeout: float) -> None:
        await self.tg.wait_chat_event(self.chat, timeout)

    async def press_when_shown(
        self, user: FakeUser, wanted: Callable[[str], bool], timeout: float
    ) -> bool:
        """Press the first button whose callback data is ``wanted``, once one shows."""
        deadline = time.monotonic() + timeout
        while (remaining := deadline - time.monotonic()) > 0:
            for message in reversed(self.tg.chat_messages(self.chat, from_bot=True)):
                found = [d for d in message.callback_data if wanted(d)]
                if found:
                    self.tg.press(self.chat, user, message, found[0])
                    return True
            await self._wait(min(remaining, 1.0))
        return False

    async def wait_board(self, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while current_board(self.tg, self.chat) is None:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return False
            await self._wait(min(remaining, 1.0))
        return True

    def choose(self, board: StoredMessage) -> tuple[int, str] | None:
        """(player index, callback data) to press on this board, or None: nothing to do."""
        data = board.callback_data
        by_action: dict[str, list[str]] = {}
        for item in data:
            by_action.setdefault(action(item), []).append(item)
        index = turn_holder_index(board.caption or "", self.players)
        if index is None:
            index = self.preferred % len(self.players)
        for wanted in ("c", "r", "t"):
            if wanted in by_action:
                return index, by_action[wanted][0]
        steps = by_action.get("s", [])
        if self.dice_left is not None:
            shown, at, dice = self.dice_left
            if shown is board and board.updated_at == at:
                steps = [d for d in steps if int(d.split(":")[6]) in dice] or steps
            else:
                self.dice_left = None
        if steps:
            return index, self.rng.choice(steps)
        for wanted in ("x", "m"):  # next game, rematch: either player may press
            if wanted in by_action:
                return self.preferred % len(self.players), by_action[wanted][0]
        return None

    async def play(self, stop_at: float) -> None:
        while (remaining := stop_at - time.monotonic()) > 0:
            board = current_board(self.tg, self.chat)
            choice = self.choose(board) if board is not None else None
            if board is None or choice is None:  # the computer is thinking, or a redraw is due
                await self._wait(min(remaining, 1.0))
                continue
            index, data = choice
            pressed = time.monotonic()
            try:
                query_id = self.tg.press(self.chat, self.players[index], board, data)
            except FakeTelegramUsageError:
                continue  # the board changed between looking and pressing
            if self.metrics.inside(pressed):
                self.metrics.presses[action(data) or "?"] += 1
            await self.follow(query_id, board, pressed, starts_turn(board, data))
            if self.think > 0:
                await asyncio.sleep(self.think)  # a person looks at the board, then taps

    async def board_changes(self, board: StoredMessage, deadline: float) -> None:
        """Wait until the chat's board is not ``board`` as it was, or ``deadline``."""
        seen = board.updated_at
        while time.monotonic() < deadline:
            now_board = current_board(self.tg, self.chat)
            if now_board is not board or board.updated_at != seen:
                return
            await self._wait(min(deadline - time.monotonic(), 1.0))

    async def follow(
        self, query_id: str, board: StoredMessage, pressed: float, first_move: bool
    ) -> None:
        """Wait for the press's answer and for the board to change (or an alert)."""
        deadline = pressed + self.board_timeout
        counted = False
        while True:
            answer = self.tg.callback_answer(query_id)
            if answer is not None and answer.get("show_alert"):
                if self.metrics.inside(pressed):
                    self.metrics.alerts += 1
                    self.metrics.alert_texts[alert_kind(answer.get("text"))] += 1
                self.preferred += 1  # perhaps the other player's turn (a group's double)
                if HELD_REDRAW in (answer.get("text") or ""):
                    # The alert says the board is about to change: a person waits for it
                    # rather than pressing the old board again.
                    await self.board_changes(board, deadline)
                else:
                    await asyncio.sleep(0.05)
                return
            if answer is not None and first_move and not counted:
                counted = True
                if self.metrics.inside(pressed):
                    self.metrics.turns += 1
            if answer is not None and answer.get("text") and HELD_REDRAW not in answer["text"]:
                # A first step told by the answer alone: the board stays, go on at once.
                self.dice_left = (board, board.updated_at, dice_left(answer["text"]))
                return
            now_board = current_board(self.tg, self.chat)
            changed_at = None
            if now_board is not board and now_board is not None:
                changed_at = now_board.updated_at
            elif board.updated_at > pressed:
                changed_at = board.updated_at
            if changed_at is not None and answer is not None:
                if self.metrics.inside(pressed):
                    self.metrics.board_ms.append((changed_at - pressed) * 1000)
                return
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                if self.metrics.inside(pressed):
                    self.metrics.no_change += 1
                return
            await self._wait(min(remaining, 1.0))


async def setup_private(game: Game, level: str, variant: str, timeout: float) -> bool:
    user = game.players[0]
    game.tg.send_message(game.chat, user, "/gioca")
    for pick in (f"p:{variant}", f"p:{variant}:{level}", f"p:{variant}:{level}:1"):
        if not await game.press_when_shown(user, pick.__eq__, timeout):
            return False
    return await game.wait_board(timeout)


def _launch_button(data: str) -> bool:
    """The challenge card's "Lancia la sfida": ``k:<challenge>:go``."""
    return data.startswith("k:") and data.endswith(":go")


def _accept_button(data: str) -> bool:
    """A challenge card's "Accetta": ``c:<challenge>:a``."""
    return data.startswith("c:") and data.endswith(":a")


async def setup_group(game: Game, timeout: float) -> bool:
    challenger, opponent = game.players
    game.tg.send_message(game.chat, challenger, "/sfida")
    if not await game.press_when_shown(challenger, _launch_button, timeout):
        return False
    if not await game.press_when_shown(opponent, _accept_button, timeout):
        return False
    return await game.wait_board(timeout)


async def run_game(
    game: Game, mode: str, variant: str, setup_timeout: float, ready: asyncio.Event, stop: float
) -> None:
    """Set up, then play until ``stop``; never raises (a benchmark measures, it does not die)."""
    try:
        if mode == "group":
            ok = await setup_group(game, setup_timeout)
        else:
            ok = await setup_private(game, mode, variant, setup_timeout)
        if not ok:
            game.metrics.setup_failures += 1
            return
        ready.set()
        await game.play(stop)
    except asyncio.CancelledError:
        raise
    except Exception as exc:
        game.metrics.errors += 1
        print(f"  player error in chat {game.chat.id}: {exc!r}", file=sys.stderr)


async def flood(tg: FakeTelegram, chat: FakeChat, user: FakeUser, stop: float) -> None:
    """A group that asks for more than its budget: /aiuto twice a second, plus an injected 429."""
    tg.inject_retry_after(chat, 5)
    while time.monotonic() < stop:
        tg.send_message(chat, user, "/aiuto")
        await asyncio.sleep(0.5)


# ---------------------------------------------------------------------------- one setting
def percentiles(values: Iterable[float]) -> tuple[float, float, float] | None:
    data = sorted(values)
    if not data:
        return None
    if len(data) == 1:
        return data[0], data[0], data[0]
    cuts = statistics.quantiles(data, n=100, method="inclusive")
    return cuts[49], cuts[94], data[-1]


def fmt(triple: tuple[float, float, float] | None) -> str:
    if triple is None:
        return f"{'-':>17}"
    return f"{triple[0]:5.0f} {triple[1]:5.0f} {triple[2]:5.0f}"


@dataclass
class Setting:
    games: int
    mode: str
    variant: str
    seconds: float
    setup_timeout: float
    board_timeout: float
    flood: bool
    think: float = 0.0
    profile: Path | None = None


@dataclass
class ValkeyCounters:
    """What the storage server did: its CPU time, commands run and bytes received."""

    cpu: float
    commands: int
    bytes_in: int
    by_command: dict[str, int] = field(default_factory=dict)

    @classmethod
    async def read(cls, valkey: EmbeddedValkey) -> ValkeyCounters:
        import redis.asyncio as aioredis

        pid_file = valkey.data_dir / "valkey.pid"
        pid = int(pid_file.read_text().strip()) if pid_file.exists() else 0
        client = aioredis.Redis.from_url(valkey.url)
        try:
            stats = await client.info("stats")
            commands = await client.info("commandstats")
        finally:
            await client.aclose()
        # INFO's own calls are counted too: a handful per setting, noise.
        by_command = {
            name.removeprefix("cmdstat_"): int(v.get("calls", 0))
            for name, v in commands.items()
            if isinstance(v, dict)
        }
        return cls(
            cpu_seconds(pid) if pid else 0.0,
            sum(by_command.values()),
            int(stats["total_net_input_bytes"]),
            by_command,
        )

    def since(self, before: ValkeyCounters) -> ValkeyCounters:
        return ValkeyCounters(
            self.cpu - before.cpu,
            self.commands - before.commands,
            self.bytes_in - before.bytes_in,
            {k: n - before.by_command.get(k, 0) for k, n in self.by_command.items()},
        )


async def start_profiler(pid: int, setting: Setting) -> asyncio.subprocess.Process | None:
    """py-spy sampling the bot for the setting's window (collapsed stacks), if asked for."""
    if setting.profile is None:
        return None
    setting.profile.mkdir(parents=True, exist_ok=True)
    out = setting.profile / f"profile-{setting.games}-{setting.mode}.txt"
    py_spy = Path(sys.executable).parent / "py-spy"
    return await asyncio.create_subprocess_exec(
        str(py_spy) if py_spy.exists() else "py-spy",
        *("record", "--pid", str(pid), "--subprocesses", "--nonblocking"),
        *("--rate", "100", "--format", "raw", "--output", str(out)),
        *("--duration", str(max(1, round(setting.seconds)))),
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.DEVNULL,
    )


async def run_setting(
    tg: FakeTelegram,
    bots: list[BotProcess],
    setting: Setting,
    index: int,
    rng: random.Random,
    valkey: EmbeddedValkey,
    results: dict[str, float] | None = None,
) -> str:
    """Run one setting; returns its report line. ``results``, when given, receives the
    window's raw totals (turns, bot CPU seconds, requests, storage counters) for callers
    that derive figures of their own (``benchmarks.capacity``)."""
    metrics = Metrics()
    began = time.monotonic()
    games: list[Game] = []
    base = (index + 1) * 100_000
    for n in range(setting.games):
        if setting.mode == "group":
            players = (
                tg.user(base + 2 * n, f"Anna{n}"),
                tg.user(base + 2 * n + 1, f"Bruno{n}"),
            )
            chat = tg.group(-(base + n), f"Tavolo {n}")
        else:
            players = (tg.user(base + n, f"Anna{n}"),)
            chat = tg.private_chat(players[0])
        games.append(Game(tg, chat, players, metrics, rng, setting.board_timeout, setting.think))
    readies = [asyncio.Event() for _ in games]
    stop_guess = time.monotonic() + setting.setup_timeout + setting.seconds
    tasks = [
        asyncio.create_task(
            run_game(g, setting.mode, setting.variant, setting.setup_timeout, r, stop_guess)
        )
        for g, r in zip(games, readies, strict=True)
    ]
    # The window opens once every game is set up (or the set-up time is over).
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(asyncio.gather(*(r.wait() for r in readies)), setting.setup_timeout)
    start = time.monotonic()
    end = start + setting.seconds
    metrics.window = (start, end)
    flood_chat: FakeChat | None = None
    flood_task = None
    if setting.flood:
        flooder = tg.user(base + 99_999, "Flavio")
        flood_chat = tg.group(-(base + 99_999), "Inondazione")
        flood_task = asyncio.create_task(flood(tg, flood_chat, flooder, end))
    chat_ids = {g.chat.id for g in games}
    limited_before = sum(tg.limited_requests[c] for c in chat_ids)
    uploads_before = sum(tg.photo_uploads[c] for c in chat_ids)
    retry_before = sum(tg.retry_afters[c] for c in chat_ids)
    profiler = await start_profiler(bots[0].pid, setting)
    storage_before = await ValkeyCounters.read(valkey)
    requests_before = len(tg.requests)
    cpu_before = sum(cpu_seconds(bot.pid) for bot in bots)
    own_before = sum(own_cpu_seconds(bot.pid) for bot in bots)
    peak_rss = sum(rss_bytes(bot.pid) for bot in bots)
    while time.monotonic() < end:
        await asyncio.sleep(min(1.0, max(end - time.monotonic(), 0)))
        peak_rss = max(peak_rss, sum(rss_bytes(bot.pid) for bot in bots))
    cpu = sum(cpu_seconds(bot.pid) for bot in bots) - cpu_before
    workers_cpu = cpu - (sum(own_cpu_seconds(bot.pid) for bot in bots) - own_before)
    storage = (await ValkeyCounters.read(valkey)).since(storage_before)
    requests = sum(1 for r in tg.requests[requests_before:] if not r.is_polling)
    by_method = Counter(r.method for r in tg.requests[requests_before:] if not r.is_polling)
    if profiler is not None:
        await profiler.wait()
    limited = sum(tg.limited_requests[c] for c in chat_ids) - limited_before
    uploads = sum(tg.photo_uploads[c] for c in chat_ids) - uploads_before
    retries = sum(tg.retry_afters[c] for c in chat_ids) - retry_before
    for task in [*tasks, *([flood_task] if flood_task else [])]:
        task.cancel()
    await asyncio.gather(*tasks, *([flood_task] if flood_task else []), return_exceptions=True)

    # Let the bot finish (and answer the last presses) before the next setting starts. The
    # silence must outlast a private chat's token (a second): a press queued behind a send
    # that waits for it is silent meanwhile, and would be counted unanswered (and dropped
    # when the bot stops) if the wait were shorter.
    with contextlib.suppress(TimeoutError):
        await tg.settle(quiet=1.5, timeout=20)
    answers = [
        (t.answered_at - t.pressed_at) * 1000
        for t in tg.query_timings()
        if t.chat_id in chat_ids and metrics.inside(t.pressed_at) and t.answered_at is not None
    ]
    unanswered = sum(
        1
        for t in tg.query_timings()
        if t.chat_id in chat_ids and metrics.inside(t.pressed_at) and t.answered_at is None
    )
    turns = metrics.turns
    if results is not None:
        results.update(
            turns=turns,
            seconds=setting.seconds,
            cpu=cpu,
            requests=requests,
            limited=limited,
            uploads=uploads,
            retries=retries,
            commands=storage.commands,
            bytes_in=storage.bytes_in,
            valkey_cpu=storage.cpu,
            **{f"cmd:{name}": n for name, n in storage.by_command.items()},
        )
    per_turn = (lambda x: f"{x / turns:6.2f}") if turns else (lambda x: f"{'-':>6}")
    cpu_per_turn = f"{cpu / turns:6.3f}" if turns else f"{'-':>6}"  # the figure to compare
    notes = []
    if metrics.setup_failures:
        notes.append(f"{metrics.setup_failures} not set up")
    if metrics.errors:
        notes.append(f"{metrics.errors} player errors")
    if unanswered:
        notes.append(f"{unanswered} unanswered")
    if turns:
        notes.append(
            f"{requests / turns:.1f} API requests/t ("
            + ", ".join(f"{m} {n / turns:.2f}" for m, n in by_method.most_common(6))
            + ")"
        )
        notes.append(
            "presses/t ("
            + ", ".join(f"{a} {n / turns:.2f}" for a, n in metrics.presses.most_common())
            + ")"
        )
        notes.append(f"worker processes {workers_cpu / turns:.3f} CPU s/t")
        notes.append(
            f"valkey: {storage.cpu / turns:.3f} CPU s/t, {storage.commands / turns:.1f} cmds/t, "
            f"{storage.bytes_in / turns / 1024:.1f} KB in/t ("
            + ", ".join(
                f"{name} {n / turns:.1f}"
                for name, n in sorted(storage.by_command.items(), key=lambda kv: -kv[1])[:6]
            )
            + ")"
        )
    if tg.pending_updates:
        notes.append(f"bot backlog: {tg.pending_updates} updates not fetched")
    if flood_chat is not None:
        notes.append(
            f"flood: {tg.limited_requests[flood_chat.id]} sent, "
            f"{tg.retry_afters[flood_chat.id]} 429s"
        )
    return (
        f"{setting.games:>5} {setting.mode:>9} {turns / setting.seconds:7.2f} "
        f"{fmt(percentiles(answers))} {fmt(percentiles(metrics.board_ms))} "
        f"{cpu_per_turn} {peak_rss / 2**20:6.0f} {per_turn(limited)} {per_turn(uploads)} "
        f"{retries:5d} {metrics.alerts:6d} {metrics.no_change:6d}  {'; '.join(notes)}\n"
        f"      {budget_report(tg, began)}"
        f"{alert_report(metrics.alert_texts)}"
    )


HEADER = (
    f"{'games':>5} {'mode':>9} {'turns/s':>7} "
    f"{'answer ms p50/p95/max':>17} {'board ms p50/p95/max':>17} "
    f"{'CPU/t':>6} {'RSS MB':>6} {'msg/t':>6} {'up/t':>6} "
    f"{'429s':>5} {'alerts':>6} {'stuck':>6}  notes"
)


async def start_bots(
    tg: FakeTelegram,
    redis_url: str,
    data_dir: Path,
    workers: int,
    root: Path = REPO_ROOT,
    python: str = sys.executable,
) -> list[BotProcess]:
    """One polling bot, or ``workers`` webhook workers sharing the Valkey (and the token)."""
    bots = []
    for n in range(workers):
        port = None if workers == 1 else free_port()
        bot = BotProcess(tg, redis_url, data_dir / f"bot{n}", port, root, python)
        bot.data_dir.mkdir()
        bots.append(bot)
    await asyncio.gather(*(bot.start() for bot in bots))
    return bots


def report_refusals(tg: FakeTelegram) -> None:
    errors = [r for r in tg.errors() if "Too Many Requests" not in (r.error or "")]
    if errors:
        kinds: dict[str, int] = {}
        for r in errors:
            key = f"{r.method}: {r.error}"
            kinds[key] = kinds.get(key, 0) + 1
        print("requests the fake refused (other than 429s):")
        for key, count in sorted(kinds.items(), key=lambda kv: -kv[1])[:10]:
            print(f"  {count:5d}  {key[:110]}")


async def run(args: argparse.Namespace) -> None:
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory(prefix="tavola-load-") as tmp:
        data_dir = Path(tmp)
        valkey = EmbeddedValkey(data_dir / "valkey")
        await asyncio.to_thread(valkey.start)
        try:
            async with FakeTelegram(
                TOKEN,
                enforce_limits=True,
                latency=args.latency,
                upload_seconds_per_mb=args.upload_seconds_per_mb,
            ) as tg:
                bots = await start_bots(
                    tg, valkey.url, data_dir, args.workers, args.bot_root.resolve(), args.bot_python
                )
                delivery = None
                if args.workers > 1:
                    delivery = asyncio.create_task(deliver_by_webhook(tg, bots))
                try:
                    print(
                        f"mode {args.mode}, {args.seconds:g} s per setting, latency "
                        f"{args.latency * 1000:.0f} ms, think {args.think:g} s, "
                        f"bot pids {' '.join(str(bot.pid) for bot in bots)}"
                        f"{' (webhook workers)' if args.workers > 1 else ''}"
                    )
                    print(HEADER)
                    for index, games in enumerate(args.games):
                        setting = Setting(
                            games,
                            args.mode,
                            args.variant,
                            args.seconds,
                            args.setup_timeout,
                            args.board_timeout,
                            args.flood,
                            args.think,
                            args.profile,
                        )
                        print(await run_setting(tg, bots, setting, index, rng, valkey), flush=True)
                        exited = [b for b in bots if b.proc and b.proc.returncode is not None]
                        if exited:
                            print(f"a bot exited:\n{exited[0].log_tail()}", file=sys.stderr)
                            return
                finally:
                    if delivery is not None:
                        delivery.cancel()
                        await asyncio.gather(delivery, return_exceptions=True)
                    await asyncio.gather(*(bot.stop() for bot in bots))
                    for bot in bots:
                        report_log(bot.log_path)
                    report_refusals(tg)
        finally:
            await asyncio.to_thread(valkey.stop)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.load", description=__doc__)
    parser.add_argument("--games", type=int, nargs="+", default=[1, 10], help="settings (1 10)")
    parser.add_argument("--mode", choices=["medio", "difficile", "group"], default="medio")
    parser.add_argument("--variant", choices=["classic", "long"], default="classic")
    parser.add_argument("--seconds", type=float, default=30.0, help="measured per setting (30)")
    parser.add_argument("--latency", type=float, default=0.03, help="per request, s (0.03)")
    parser.add_argument(
        "--upload-seconds-per-mb", type=float, default=0.1, help="extra upload time (0.1)"
    )
    parser.add_argument("--setup-timeout", type=float, default=60.0, help="s to set up (60)")
    parser.add_argument(
        "--board-timeout", type=float, default=20.0, help="s to wait for a board change (20)"
    )
    parser.add_argument("--flood", action="store_true", help="flood one more group")
    parser.add_argument(
        "--workers", type=int, default=1, help="webhook workers sharing one Redis (1: polling)"
    )
    parser.add_argument(
        "--think", type=float, default=0.0, help="s a player looks before the next tap (0)"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--profile", type=Path, help="py-spy the bot, stacks into this dir")
    parser.add_argument(
        "--bot-root", type=Path, default=REPO_ROOT, help="run the bot from this checkout"
    )
    parser.add_argument(
        "--bot-python", default=sys.executable, help="with this interpreter (its virtualenv)"
    )
    asyncio.run(run(parser.parse_args(argv)))


if __name__ == "__main__":
    main()
