"""Two webhook workers, 100 timed games, one worker killed (SIGKILL) while 25 deadlines are
due: every deadline still fires once, every reminder is still sent once.

Both workers run the real ``python -m bot`` in webhook mode on one Redis. The 100 games are
started through the bot itself (challenge, launch, accept: each update to one worker, in
turn); only their clocks are then moved, through the repository, so that the timers fall
due within seconds instead of ten minutes. The schedule:

- 50 games whose reminders and deadlines fall due while both workers run;
- 25 games whose deadlines all fall due at the same instant (their reminders earlier);
- 25 games whose reminders all fall due at that instant (their deadlines later than a
  claim's lease).

A moment before that instant the second worker is stopped (SIGSTOP), so the first claims
every timer due then; once it has begun firing them it is killed (SIGKILL) and the second
resumes (SIGCONT). What the killed worker claimed but did not finish must be fired by the
survivor once the claims lapse: every game ends, lost on time and counted once (the
players' statistics), every reminder is sent; the fake's time-up boards and reminders are
counted per chat, and none goes twice, except a reminder whose request had already reached
Telegram when its worker died (nothing can tell it from one that had not: it goes again).
A time-up board the killed worker had saved but not yet drawn is a known gap, reported as
an expected failure with its count.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import time
from collections import Counter
from collections.abc import Callable, Iterable
from pathlib import Path

import aiohttp
import pytest

from bot.timeouts import LEASE_SECONDS
from engine.serialize import SCHEMA_VERSION
from storage import EmbeddedValkey, GameRepository, SchemaRegistry, StorageConfig
from storage.connect import make_client

from .fake_telegram import FakeChat, FakeTelegram, FakeUser, RecordedRequest
from .processes import deliver_webhook, free_port, start_webhook_worker, wait_listening

pytestmark = pytest.mark.slow

SECRET = "killed-worker-secret"
GAMES = 100
EARLY = range(0, 50)  # reminders and deadlines due while both workers run
DEADLINES_AT_KILL = range(50, 75)  # deadlines all due at the kill
REMINDERS_AT_KILL = range(75, 100)  # reminders all due at the kill
AT_KILL = len(DEADLINES_AT_KILL) + len(REMINDERS_AT_KILL)
TIME_UP = "Tempo scaduto per"
SETUP_TIMEOUT = 400.0  # 100 games, 400 requests at 30/s and 100 boards drawn on 2 busy cores


def _chat_of(request: RecordedRequest) -> int | None:
    chat = request.params.get("chat_id")
    try:
        return int(chat) if chat is not None else None
    except (TypeError, ValueError):
        return None


def _time_up(request: RecordedRequest) -> bool:
    media = request.params.get("media") or {}
    return (
        request.method == "editMessageMedia"
        and bool(request.ok)
        and TIME_UP in str(media.get("caption", ""))
    )


def _reminder(request: RecordedRequest) -> bool:
    return (
        request.method == "sendMessage"
        and bool(request.ok)
        and "⏰" in str(request.params.get("text"))
    )


def _asked_reminder(request: RecordedRequest) -> bool:
    """A reminder the bot sent, answered or not."""
    return request.method == "sendMessage" and "⏰" in str(request.params.get("text"))


def _per_chat(
    requests: Iterable[RecordedRequest], kind: Callable[[RecordedRequest], bool]
) -> Counter[int]:
    return Counter(chat for r in requests if kind(r) and (chat := _chat_of(r)) is not None)


async def _until(done: Callable[[], bool], timeout: float, what: str, every: float = 0.2) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not done():
        assert loop.time() < deadline, what
        await asyncio.sleep(every)


async def _deliver(tg: FakeTelegram, http: aiohttp.ClientSession, ports: list[int]) -> None:
    """Every pending update, each to one worker in turn (a load balancer)."""
    updates = tg.pop_updates()
    await asyncio.gather(
        *(deliver_webhook(http, ports[n % 2], u, SECRET) for n, u in enumerate(updates))
    )


async def _start_games(
    tg: FakeTelegram,
    http: aiohttp.ClientSession,
    ports: list[int],
    tables: list[tuple[FakeChat, FakeUser, FakeUser]],
) -> None:
    """/sfida, Lancia la sfida and Accetta in every group, all groups at once."""
    for group, anna, _ in tables:
        tg.send_message(group, anna, "/sfida classico 1")
    await _deliver(tg, http, ports)

    def card(group: FakeChat, label: str) -> bool:
        messages = tg.chat_messages(group, from_bot=True)
        return bool(messages) and label in messages[0].button_texts

    await _until(
        lambda: all(card(g, "Lancia la sfida") for g, _, _ in tables), SETUP_TIMEOUT, "cards"
    )
    for group, anna, _ in tables:
        first = tg.chat_messages(group, from_bot=True)[0]
        tg.press(group, anna, first, first.data_for("Lancia la sfida"))
    await _deliver(tg, http, ports)
    await _until(lambda: all(card(g, "Accetta") for g, _, _ in tables), SETUP_TIMEOUT, "launch")
    for group, _, bruno in tables:
        first = tg.chat_messages(group, from_bot=True)[0]
        tg.press(group, bruno, first, first.data_for("Accetta"))
    await _deliver(tg, http, ports)
    await _until(
        lambda: all(any(m.photo for m in tg.chat_messages(g, from_bot=True)) for g, _, _ in tables),
        SETUP_TIMEOUT,
        "boards",
    )
    await tg.settle(quiet=1.0, timeout=SETUP_TIMEOUT)


async def _schedule(repo: GameRepository, chats: list[int], start: float, kill_at: float) -> None:
    """Move each game's clock (deadline and reminder) to within seconds, as described above."""
    for n, chat in enumerate(chats):
        if n in EARLY:
            remind, due = start + n * 0.02, start + 8.0 + n * 0.02
        elif n in DEADLINES_AT_KILL:
            remind, due = start + 3.0 + n * 0.02, kill_at
        else:
            remind, due = kill_at, kill_at + LEASE_SECONDS + 15.0
        await repo.set_deadline(chat, due)
        assert await repo.set_reminder(chat, remind, deadline=due)


def _fired_at_kill(tg: FakeTelegram, chats: list[int]) -> int:
    """The time-ups of the deadlines due at the kill and the reminders due at it, sent."""
    deadlines = {chats[n] for n in DEADLINES_AT_KILL}
    reminders = {chats[n] for n in REMINDERS_AT_KILL}
    return sum(
        1
        for r in tg.requests
        if (_time_up(r) and _chat_of(r) in deadlines) or (_reminder(r) and _chat_of(r) in reminders)
    )


def _missing(chats: list[int], time_ups: Counter[int], reminders: Counter[int]) -> str:
    return "; ".join(
        f"{name}: {sum(chats[n] not in time_ups for n in group)} time-up boards "
        f"and {sum(chats[n] not in reminders for n in group)} reminders missing"
        for name, group in (
            ("early", EARLY),
            ("deadlines at the kill", DEADLINES_AT_KILL),
            ("reminders at the kill", REMINDERS_AT_KILL),
        )
    )


async def _counted_once(repo: GameRepository, anna: FakeUser, bruno: FakeUser) -> bool:
    """The pair's game ended once: one game each, one of the two lost it."""
    a, b = await repo.player_stats(anna.id), await repo.player_stats(bruno.id)
    return a.total("games") == b.total("games") == 1 and a.total("losses") + b.total("losses") == 1


async def _ended(repo: GameRepository, chat: int) -> bool:
    return await repo.load_game(chat) is None and await repo.get_deadline(chat) is None


async def _until_every_game_ended(
    tg: FakeTelegram, repo: GameRepository, tables: list[tuple[FakeChat, FakeUser, FakeUser]]
) -> None:
    """Until every game ended and was counted and every reminder was sent (or time is up:
    the caller's assertions then say what is missing)."""
    loop = asyncio.get_running_loop()
    give_up = loop.time() + 3 * LEASE_SECONDS + 90
    while loop.time() < give_up:
        if len(_per_chat(tg.requests, _reminder)) == GAMES and all(
            [await _ended(repo, g.id) and await _counted_once(repo, a, b) for g, a, b in tables]
        ):
            return
        await asyncio.sleep(0.5)


async def test_a_worker_killed_with_due_timers_loses_none_and_repeats_none(
    own_valkey: EmbeddedValkey, tmp_path: Path
) -> None:
    ports = [free_port(), free_port()]
    client = make_client(own_valkey.url)
    repo = GameRepository(client, SchemaRegistry(current=SCHEMA_VERSION), StorageConfig())
    async with FakeTelegram() as tg, aiohttp.ClientSession() as http:
        tables = [
            (
                tg.group(-3000 - n, f"Tavolo {n}"),
                tg.user(10_000 + n, f"Anna{n}"),
                tg.user(20_000 + n, f"Bruno{n}"),
            )
            for n in range(GAMES)
        ]
        chats = [group.id for group, _, _ in tables]
        first, second = [await start_webhook_worker(tg, own_valkey.url, p, SECRET) for p in ports]
        killed = False
        lost_boards = 0
        try:
            await asyncio.gather(*(wait_listening(port) for port in ports))
            await _start_games(tg, http, ports, tables)
            for chat in chats:
                stored = await repo.load_game(chat)
                assert stored is not None and stored.board_message_id is not None, chat
            assert not [r for r in tg.requests if _time_up(r) or _reminder(r)]

            start = time.time() + 3.0
            kill_at = start + 14.0
            await _schedule(repo, chats, start, kill_at)
            await asyncio.sleep(max(0.0, kill_at - 1.0 - time.time()))
            second.send_signal(signal.SIGSTOP)  # the first worker alone claims what falls due
            try:
                # Killed once it has begun firing the timers due at the kill (it claimed
                # them all: 50 sends wait for the token's 30 a second), looked at often so
                # that the kill comes while most of them are still to go.
                await _until(
                    lambda: _fired_at_kill(tg, chats) >= 5, 30, "the first one fires", every=0.01
                )
                first.send_signal(signal.SIGKILL)
                killed = True
                await first.wait()
                # What reached Telegram before the worker died: read after its death, as a
                # request can arrive between a look and the signal (the second worker is
                # still stopped, so all of these are the killed worker's or older).
                before_kill = list(tg.requests)
            finally:
                second.send_signal(signal.SIGCONT)
            fired = _fired_at_kill(tg, chats)
            assert fired < AT_KILL, "the kill came after every timer due at it had fired"

            await _until_every_game_ended(tg, repo, tables)
            await tg.settle(quiet=2.0, timeout=60)
            # A claim lapses after its lease: anything fired twice would have been by now.
            await asyncio.sleep(LEASE_SECONDS + 2.0)

            time_ups = _per_chat(tg.requests, _time_up)
            reminders = _per_chat(tg.requests, _reminder)
            why = _missing(chats, time_ups, reminders) + f" (the killed worker sent {fired})"
            assert {c: k for c, k in time_ups.items() if k != 1} == {}, why
            # A reminder is marked done once Telegram has taken it: one whose request had
            # reached Telegram when its worker died, unanswered or not yet marked, goes
            # again (nothing tells a send that arrived from one that did not). Only those.
            in_flight = set(_per_chat(before_kill, _asked_reminder))
            twice = {c for c, k in reminders.items() if k > 1}
            assert twice <= in_flight, (twice - in_flight, why)
            assert max(reminders.values()) <= 2, why
            assert set(reminders) == set(chats), why
            for group, anna, bruno in tables:
                assert await _ended(repo, group.id), (group.id, why)
                assert await _counted_once(repo, anna, bruno), (group.id, why)
            lost_boards = len(set(chats) - set(time_ups))
        finally:
            workers = [second] if killed else [first, second]
            for proc in workers:
                with contextlib.suppress(ProcessLookupError):
                    proc.send_signal(signal.SIGCONT)
                    proc.send_signal(signal.SIGTERM)
            logs = [(await asyncio.wait_for(p.communicate(), 30))[1].decode() for p in workers]
            for n, log in enumerate(logs):
                (tmp_path / f"worker-{n}.log").write_text(log)
            await client.aclose()
        assert all(p.returncode == 0 for p in workers), logs
        assert not any("error while handling" in log for log in logs), logs
    if lost_boards:
        # Known gap: a time-up is a finish, saved (with the deadline cleared) in one step and
        # drawn after it by the painter, behind the token's budget; a worker that dies in
        # between has counted the game but never shows its final board, and nothing redraws
        # a finished game's board (the painter's catch-up runs on the next press of a game
        # in play). The result is counted once all the same (asserted above).
        pytest.xfail(f"{lost_boards} time-up boards committed by the killed worker not drawn")
