"""Taps benchmark: whole group games played the way people play them, under Telegram's limits.

Run from the repository root::

    python -m benchmarks.taps              # 2 games per variant, auto-confirm on and off
    python -m benchmarks.taps --games 5 --auto-confirm on --seed 7
    python -m benchmarks.taps --games 1 --timeout 300
    python -m benchmarks.taps --pace 1-3       # a person's pace: 1 to 3 s before each tap

It starts the real bot (``python -m bot``, as ``benchmarks/load.py`` does) against the fake Bot
API of ``tests/e2e/fake_telegram.py`` with ``enforce_limits=True`` (20 sends and edits per
minute per group) and ``--latency`` (30 ms), and plays ``--games`` whole games of each variant
(``/sfida classico 1`` and ``/sfida lungo 1``) in as many groups at once, each between two
scripted players. With auto-confirm off both players first turn it off in /impostazioni.

A player acts only on the group's current board (the bot's newest photo), pressing only its
buttons, and only once the board has changed since the last press (and the press is answered):
"Accetto" to every double, "Conferma" when shown, "Tira i dadi" when it is the only option, else
a move button, one of the shortcut buttons (``▶``, action ``w``) with probability
``--shortcut`` (0.8) when there are any, otherwise a random single step; never "Annulla".

A turn is one player's move with at least one tap: it starts when the board names another
player on turn, or shows the same player again with no step played yet after they played.
Forced moves and rolls with no play are made by the bot and not counted as turns ("auto" is how
many of those the notes reported). Columns, per variant and auto-confirm setting: taps per turn
(median, mean) for turns with a double and without; group sends and edits (the requests the
group's budget counts) and photo uploads per turn, from the first board to the last; 429s the
group received; a whole game's wall time from /sfida to the result (median, max); games that
finished, got stuck (``--timeout`` passed, or the board stopped changing) or failed; alerts
(presses the bot refused; the tap counts, and the player then tries another button).

``--pace LO-HI`` makes each player think LO to HI seconds (uniformly) before each tap, as a
person does (default 0: as fast as the board allows). The redraw delay is measured from a
press to the board's change on screen, for every press that changed the board (a first
step told by the answer alone does not), and printed as median, 95th percentile and worst.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import re
import statistics
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchmarks.load import (
    TOKEN,
    BotProcess,
    action,
    current_board,
    dice_left,
    report_log,
    turn_line_holder,
)
from storage.embedded import EmbeddedValkey
from tests.e2e.fake_telegram import (
    FakeChat,
    FakeTelegram,
    FakeTelegramUsageError,
    FakeUser,
    StoredMessage,
    is_limited_method,
)

VARIANTS = {"classic": "classico", "long": "lungo"}
#: Moves: single steps and the one-tap shortcuts.
MOVE_ACTIONS = {"s", "w"}
#: Buttons a person playing on would never press here: undo, resign, double, drop, ...
NEVER = {"u", "a", "d", "p", "y", "n"}
CHANGE_TIMEOUT = 60.0  # s to wait for a board change after a press before looking again
MAX_NO_CHANGE = 3  # presses in a row without a board change: the game is stuck
DICE_RE = re.compile(r"^(\d)-(\d)")
#: An answer saying the board is redrawn in a few seconds: a person waits for it.
REDRAW_SOON = "si aggiorna tra"
AUTO_NOTES = ("nessuna mossa possibile", "Mossa forzata giocata automaticamente")


@dataclass
class Turn:
    holder: int
    dice: tuple[int, int] | None
    taps: int = 0

    @property
    def double(self) -> bool:
        return self.dice is not None and self.dice[0] == self.dice[1]


@dataclass
class GameResult:
    variant: str
    auto_confirm: bool
    chat_id: int
    outcome: str = "failed"  # finished, stuck, failed
    detail: str = ""
    wall: float = 0.0
    turns: list[Turn] = field(default_factory=list)
    auto_turns: int = 0
    sends: int = 0
    edits: int = 0
    uploads: int = 0
    retry_afters: int = 0
    alerts: int = 0
    alert_texts: Counter[str] = field(default_factory=Counter)
    alert_examples: list[str] = field(default_factory=list)
    no_change: int = 0
    #: Seconds from a press to the board's change on screen, for each press that changed it.
    redraw_delays: list[float] = field(default_factory=list)
    #: The slowest of them: (seconds, the press's action and how far into the game, in s).
    slowest: tuple[float, str] = (0.0, "")


def holder_and_prompt(caption: str, players: tuple[FakeUser, ...]) -> tuple[int | None, str]:
    """Who the caption's 'Tocca ad Anna (Bianco)' line names, and the prompt line after it."""
    lines = caption.splitlines()
    for n, line in enumerate(lines):
        index = turn_line_holder(line, players)
        if index is not None:
            return index, lines[n + 1] if n + 1 < len(lines) else ""
    return None, ""


def parse_dice(prompt: str) -> tuple[int, int] | None:
    match = DICE_RE.match(prompt)
    return (int(match.group(1)), int(match.group(2))) if match else None


class Player:
    """The two people at one group's table, and what they saw."""

    def __init__(
        self,
        tg: FakeTelegram,
        chat: FakeChat,
        players: tuple[FakeUser, FakeUser],
        result: GameResult,
        rng: random.Random,
        shortcut_share: float,
        pace: tuple[float, float] = (0.0, 0.0),
    ) -> None:
        self.tg = tg
        self.chat = chat
        self.players = players
        self.result = result
        self.rng = rng
        self.shortcut_share = shortcut_share
        self.pace = pace
        self.thought = False  # the player has thought over the board on screen
        self.started = time.monotonic()  # the game's first board (set when it shows)
        self.turn: Turn | None = None
        self.pending_taps = [0, 0]  # rolls pressed before the turn's move board showed
        self.notes_seen: set[str] = set()
        self.refused: set[str] = set()  # buttons refused with an alert: a person tries another
        # After a first step told by the answer alone: the board it applies to, as it
        # looked, and the dice the answer says are left.
        self.dice_left: tuple[StoredMessage, tuple[Any, ...], set[int]] | None = None

    async def press_when_shown(
        self, chat: FakeChat, user: FakeUser, wanted: Callable[[str], bool], deadline: float
    ) -> bool:
        """Press the newest bot message's button whose callback data is ``wanted`` once one
        shows; wait for the answer."""
        while time.monotonic() < deadline:
            for message in reversed(self.tg.chat_messages(chat, from_bot=True)):
                found = [d for d in message.callback_data if wanted(d)]
                if found:
                    query = self.tg.press(chat, user, message, found[0])
                    while self.tg.callback_answer(query) is None:
                        if time.monotonic() > deadline:
                            return False
                        await self.tg.wait_chat_event(chat, 1.0)
                    return True
            await self.tg.wait_chat_event(chat, 1.0)
        return False

    def choose(self, board: StoredMessage) -> tuple[int, str] | None:
        """(player index, callback data) a person would press now, or None: nothing to do."""
        by_action: dict[str, list[str]] = {}
        for data in board.callback_data:
            if data in self.refused:
                continue
            by_action.setdefault(action(data), []).append(data)
        holder, prompt = holder_and_prompt(board.caption or "", self.players)
        if holder is None:
            return None
        if "t" in by_action:  # the player on turn doubled: the other one takes
            return 1 - holder, by_action["t"][0]
        if "c" in by_action:
            return holder, by_action["c"][0]
        moves = [d for a in MOVE_ACTIONS for d in by_action.get(a, [])]
        if moves:
            self.track_turn(holder, prompt)
            shortcuts, steps = by_action.get("w", []), by_action.get("s", [])
            if self.dice_left is not None:
                shown, snapshot, dice = self.dice_left
                if shown is board and board.snapshot() == snapshot:
                    # The board still shows the turn's start: a person reads the answer
                    # ("ora muovi col 3") and taps a step of that die.
                    shortcuts = []
                    steps = [d for d in steps if int(d.split(":")[6]) in dice] or steps
                else:
                    self.dice_left = None
            if shortcuts and (not steps or self.rng.random() < self.shortcut_share):
                return holder, self.rng.choice(sorted(shortcuts))
            return holder, self.rng.choice(sorted(steps))
        if "r" in by_action and not set(by_action) - {"r"} - NEVER:
            return holder, by_action["r"][0]
        return None

    def track_turn(self, holder: int, prompt: str) -> None:
        fresh = "Mossa:" not in prompt
        turn = self.turn
        if turn is None or turn.holder != holder or (fresh and turn.taps > 0):
            self.turn = Turn(holder, parse_dice(prompt), self.pending_taps[holder])
            self.pending_taps[holder] = 0
            self.result.turns.append(self.turn)

    def count_tap(self, holder: int, data: str) -> None:
        kind = action(data)
        if kind in {"r", "t"}:
            self.pending_taps[holder] += kind == "r"
        elif self.turn is not None:
            self.turn.taps += 1

    def read_notes(self, board: StoredMessage) -> None:
        for line in (board.caption or "").splitlines():
            if any(marker in line for marker in AUTO_NOTES) and line not in self.notes_seen:
                self.notes_seen.add(line)
                self.result.auto_turns += 1

    async def follow(
        self, query: str, data: str, board: StoredMessage, before: tuple, pressed: float
    ) -> bool:
        """Wait until the press is answered and the board changed; False on an alert or
        after CHANGE_TIMEOUT."""
        deadline = pressed + CHANGE_TIMEOUT
        while True:
            answer = self.tg.callback_answer(query)
            if answer is not None and answer.get("show_alert"):
                self.result.alerts += 1
                self.refused.add(data)
                self.result.alert_texts[f"{action(data)}: {answer.get('text')}"] += 1
                if len(self.result.alert_examples) < 3:
                    _, prompt = holder_and_prompt(board.caption or "", self.players)
                    label = next(
                        (b["text"] for b in board.buttons if b.get("callback_data") == data), ""
                    )
                    self.result.alert_examples.append(f"{label} {data} on {prompt!r}")
                return True  # refused: look at the board again
            if answer is not None and answer.get("text") and REDRAW_SOON not in answer["text"]:
                # A first step told by the answer alone: the board keeps its keyboard.
                self.dice_left = (board, before, dice_left(answer["text"]))
                return True
            now_board = current_board(self.tg, self.chat)
            changed = now_board is not None and (
                now_board is not board or now_board.snapshot() != before
            )
            if answer is not None and changed:
                delay = time.monotonic() - pressed
                self.result.redraw_delays.append(delay)
                if delay > self.result.slowest[0]:
                    into = pressed - self.started
                    self.result.slowest = (delay, f"{action(data)!r} at {into:.0f} s into the game")
                return True
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return False
            await self.tg.wait_chat_event(self.chat, min(remaining, 1.0))

    async def play(self, variant: str, auto_confirm: bool, deadline: float) -> None:
        tg, chat, result = self.tg, self.chat, self.result
        if not auto_confirm:
            for user in self.players:
                private = tg.private_chat(user)
                tg.send_message(private, user, "/impostazioni")
                if not await self.press_when_shown(private, user, _turn_off, deadline):
                    result.detail = "could not turn auto-confirm off"
                    return
        started = time.monotonic()
        challenger, opponent = self.players
        tg.send_message(chat, challenger, f"/sfida {VARIANTS[variant]} 1")
        if not await self.press_when_shown(chat, challenger, _launch, deadline):
            result.detail = "the challenge card was not launched"
            return
        if not await self.press_when_shown(chat, opponent, _accept, deadline):
            result.detail = "the challenge was not accepted"
            return
        while current_board(tg, chat) is None:
            if time.monotonic() > deadline:
                result.detail = "no board after Accetta"
                return
            await tg.wait_chat_event(chat, 1.0)
        self.started = time.monotonic()
        first_request = len(tg.requests)
        uploads_before = tg.photo_uploads[chat.id]
        retries_before = tg.retry_afters[chat.id]
        no_change_in_a_row = 0
        try:
            while True:
                if time.monotonic() > deadline:
                    result.outcome, result.detail = "stuck", "timeout"
                    return
                board = current_board(tg, chat)
                if board is None:
                    await tg.wait_chat_event(chat, 1.0)
                    continue
                self.read_notes(board)
                actions = {action(d) for d in board.callback_data}
                if actions & {"m", "x"}:  # Rivincita / Partita successiva: the game is over
                    result.outcome = "finished"
                    result.wall = time.monotonic() - started
                    return
                choice = self.choose(board)
                if choice is None:
                    await tg.wait_chat_event(chat, 1.0)
                    continue
                if self.pace[1] > 0 and not self.thought:
                    # A person looks at the board before tapping; then looks again.
                    await asyncio.sleep(self.rng.uniform(*self.pace))
                    self.thought = True
                    continue
                self.thought = False
                index, data = choice
                before = board.snapshot()
                pressed = time.monotonic()
                try:
                    query = tg.press(chat, self.players[index], board, data)
                except FakeTelegramUsageError:
                    continue  # the board changed between looking and pressing
                self.count_tap(index, data)
                if await self.follow(query, data, board, before, pressed):
                    no_change_in_a_row = 0
                    continue
                result.no_change += 1
                no_change_in_a_row += 1
                if no_change_in_a_row >= MAX_NO_CHANGE:
                    result.outcome = "stuck"
                    result.detail = f"no board change after {data!r}: {board.caption!r}"[:300]
                    return
        finally:
            for r in tg.requests[first_request:]:
                if r.ok and is_limited_method(r.method) and _chat_id(r.params) == chat.id:
                    if r.method.lower().startswith("send"):
                        result.sends += 1
                    else:
                        result.edits += 1
            result.uploads = tg.photo_uploads[chat.id] - uploads_before
            result.retry_afters = tg.retry_afters[chat.id] - retries_before


def _turn_off(data: str) -> bool:
    """The settings button turning automatic confirmation off (``o:name:value:owner``)."""
    return data.startswith("o:auto_confirm:0:")


def _launch(data: str) -> bool:
    """The challenge card's "Lancia la sfida": ``k:<challenge>:go``."""
    return data.startswith("k:") and data.endswith(":go")


def _accept(data: str) -> bool:
    """A challenge card's "Accetta": ``c:<challenge>:a``."""
    return data.startswith("c:") and data.endswith(":a")


def _chat_id(params: dict) -> int | None:
    with contextlib.suppress(TypeError, ValueError):
        return int(params.get("chat_id"))  # type: ignore[arg-type]
    return None


async def run_game(player: Player, variant: str, auto_confirm: bool, timeout: float) -> None:
    """Never raises: a benchmark counts a failed game and goes on."""
    try:
        await asyncio.wait_for(
            player.play(variant, auto_confirm, time.monotonic() + timeout), timeout + 30
        )
    except asyncio.CancelledError:
        raise
    except TimeoutError:
        player.result.outcome, player.result.detail = "stuck", "timeout"
    except Exception as exc:
        player.result.outcome, player.result.detail = "failed", repr(exc)[:300]


# ---------------------------------------------------------------------------- the report
def _med_mean(values: list[int]) -> str:
    if not values:
        return f"{'-':>5} {'-':>5}"
    return f"{statistics.median(values):5.1f} {statistics.mean(values):5.2f}"


HEADER = (
    f"{'variant':>7} {'auto':>4} {'games':>5} {'turns':>5} {'auto':>4} "
    f"{'taps/turn med mean':>18} {'dbl: med mean':>13} "
    f"{'send/t':>6} {'edit/t':>6} {'up/t':>6} {'429s':>5} {'game s med/max':>14} "
    f"{'ok/stuck/fail':>13}"
)


def redraw_line(results: list[GameResult]) -> str:
    """The redraw delay over ``results``: presses measured, median, 95th percentile, worst."""
    delays = sorted(d for r in results for d in r.redraw_delays)
    if not delays:
        return "redraw delay after a press: none measured"
    p95 = delays[min(len(delays) - 1, int(0.95 * len(delays)))]
    _, where = max(r.slowest for r in results)
    return (
        f"redraw delay after a press ({len(delays)} presses): median "
        f"{statistics.median(delays):.2f} s, p95 {p95:.2f} s, worst {delays[-1]:.2f} s "
        f"({where})"
    )


def _pace(text: str) -> tuple[float, float]:
    """``--pace``: "0", "2" or "1-3" seconds of thought before each tap."""
    low, _, high = text.partition("-")
    lo, hi = float(low), float(high or low)
    if not 0 <= lo <= hi:
        raise argparse.ArgumentTypeError(f"not a pace: {text!r}")
    return lo, hi


def summary(variant: str, auto_confirm: bool, results: list[GameResult]) -> str:
    turns = [t for r in results for t in r.turns]
    plain = [t.taps for t in turns if not t.double]
    doubles = [t.taps for t in turns if t.double]
    played = [r for r in results if r.turns]
    n_turns = sum(len(r.turns) for r in played)

    def per_turn(total: int) -> str:
        return f"{total / n_turns:6.2f}" if n_turns else f"{'-':>6}"

    walls = [r.wall for r in results if r.outcome == "finished"]
    wall = f"{statistics.median(walls):6.0f} {max(walls):6.0f}" if walls else f"{'-':>13}"
    counts = [sum(r.outcome == o for r in results) for o in ("finished", "stuck", "failed")]
    return (
        f"{variant:>7} {'on' if auto_confirm else 'off':>4} {len(results):5d} {len(turns):5d} "
        f"{sum(r.auto_turns for r in results):4d} "
        f"{'':>6}{_med_mean(plain)} {'':>1}{_med_mean(doubles)} "
        f"{per_turn(sum(r.sends for r in played))} {per_turn(sum(r.edits for r in played))} "
        f"{per_turn(sum(r.uploads for r in played))} "
        f"{sum(r.retry_afters for r in results):5d} {wall:>14} "
        f"{'/'.join(map(str, counts)):>13} {sum(r.alerts for r in results):6d}"
    )


async def run(args: argparse.Namespace) -> None:
    rng = random.Random(args.seed)
    settings = [
        s == "on" for s in (["on", "off"] if args.auto_confirm == "both" else [args.auto_confirm])
    ]
    with tempfile.TemporaryDirectory(prefix="tavola-taps-") as tmp:
        data_dir = Path(tmp)
        valkey = EmbeddedValkey(data_dir / "valkey")
        await asyncio.to_thread(valkey.start)
        try:
            async with FakeTelegram(TOKEN, enforce_limits=True, latency=args.latency) as tg:
                bot = BotProcess(tg, valkey.url, data_dir / "bot")
                bot.data_dir.mkdir()
                await bot.start()
                try:
                    print(
                        f"{args.games} game(s) per variant and setting, all at once; latency "
                        f"{args.latency * 1000:.0f} ms, shortcut share {args.shortcut:g}, "
                        f"pace {args.pace[0]:g}-{args.pace[1]:g} s, "
                        f"seed {args.seed}, bot pid {bot.pid}",
                        flush=True,
                    )
                    groups: list[tuple[str, bool, Player]] = []
                    n = 0
                    for auto_confirm in settings:
                        for variant in VARIANTS:
                            for _ in range(args.games):
                                n += 1
                                users = (
                                    tg.user(700_000 + 2 * n, f"Anna{n}"),
                                    tg.user(700_001 + 2 * n, f"Bruno{n}"),
                                )
                                chat = tg.group(-(700_000 + n), f"Tavolo {n}")
                                result = GameResult(variant, auto_confirm, chat.id)
                                player = Player(
                                    tg,
                                    chat,
                                    users,
                                    result,
                                    random.Random(rng.random()),
                                    args.shortcut,
                                    args.pace,
                                )
                                groups.append((variant, auto_confirm, player))
                    await asyncio.gather(*(run_game(p, v, a, args.timeout) for v, a, p in groups))
                    with contextlib.suppress(TimeoutError):
                        await tg.settle(quiet=0.5, timeout=20)
                    print(HEADER)
                    for auto_confirm in settings:
                        for variant in VARIANTS:
                            results = [
                                p.result for v, a, p in groups if v == variant and a == auto_confirm
                            ]
                            print(summary(variant, auto_confirm, results))
                            print(f"{'':>13}{redraw_line(results)}")
                    for _, _, p in groups:
                        r = p.result
                        if r.outcome != "finished" or r.detail:
                            print(f"  chat {r.chat_id} ({r.variant}): {r.outcome}: {r.detail}")
                    chats = {p.chat.id for _, _, p in groups}
                    unanswered = [
                        t
                        for t in tg.query_timings()
                        if t.answered_at is None and t.chat_id in chats
                    ]
                    alerts = sum(p.result.alerts for _, _, p in groups)
                    no_change = sum(p.result.no_change for _, _, p in groups)
                    texts: Counter[str] = Counter()
                    for _, _, p in groups:
                        texts.update(p.result.alert_texts)
                    for text, count in texts.most_common(8):
                        print(f"  alert x{count}: {text[:150]}")
                    examples = [e for _, _, p in groups for e in p.result.alert_examples]
                    for example in examples[:6]:
                        print(f"    e.g. {example[:200]}")
                    print(redraw_line([p.result for _, _, p in groups]))
                    print(
                        f"alerts {alerts}, presses without a board change in "
                        f"{CHANGE_TIMEOUT:.0f} s {no_change}, unanswered presses {len(unanswered)}"
                    )
                finally:
                    await bot.stop()
                    errors = [r for r in tg.errors() if "Too Many Requests" not in (r.error or "")]
                    if errors:
                        print("requests the fake refused (other than 429s):")
                        kinds: dict[str, int] = {}
                        for r in errors:
                            key = f"{r.method}: {r.error}"
                            kinds[key] = kinds.get(key, 0) + 1
                        for key, count in sorted(kinds.items(), key=lambda kv: -kv[1])[:10]:
                            print(f"  {count:5d}  {key[:110]}")
                    report_log(bot.log_path)
        finally:
            await asyncio.to_thread(valkey.stop)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.taps", description=__doc__)
    parser.add_argument("--games", type=int, default=2, help="games per variant and setting (2)")
    parser.add_argument("--auto-confirm", choices=["on", "off", "both"], default="both")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--timeout", type=float, default=600.0, help="s per game (600)")
    parser.add_argument("--latency", type=float, default=0.03, help="per request, s (0.03)")
    parser.add_argument(
        "--shortcut", type=float, default=0.8, help="chance to use a ▶ button if any (0.8)"
    )
    parser.add_argument(
        "--pace",
        type=_pace,
        default=(0.0, 0.0),
        help="s a player thinks before each tap: 0 (default), 2, or a range such as 1-3",
    )
    asyncio.run(run(parser.parse_args(argv)))


if __name__ == "__main__":
    main()
