"""Inline benchmark: what a turn costs in Bot API requests, in a group and in an inline message.

Run from the repository root::

    python -m benchmarks.inline             # 3 games per variant and place
    python -m benchmarks.inline --games 5 --seed 7

The real Application runs in this process against the fake Bot API of
``tests/e2e/fake_telegram.py`` (no rate limits: every board is drawn, nothing coalesces, so
the counts are an upper bound) on an embedded Valkey. The same games (same dice, same
choices, auto-confirm on) are played twice: challenged with /sfida in a group, and offered
through inline mode in a private chat between the two players, with the media chat set.

Columns per variant and place: turns (dice rolled, from the stored table), the requests the
place's budget counts per turn (sends and edits to the group, or edits of the inline
message), media-chat uploads per turn, requests that carry a photo upload per turn, and all
Bot API requests per turn (answerCallbackQuery included).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import tempfile
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import redis.asyncio as aioredis

from bot.adapters.places import inline_key
from bot.adapters.ptb_types import BotApp
from bot.adapters.update_types import allowed_updates
from bot.app import build_application
from bot.config import Settings
from bot.game.table import Table
from bot.services import of_app
from engine.serialize import SCHEMA_VERSION
from storage import GameRepository, SchemaRegistry, StorageConfig
from storage.embedded import EmbeddedValkey
from tests.e2e.fake_telegram import FakeChat, FakeTelegram, FakeUser, StoredMessage

TOKEN = "4242:BENCH"
MEDIA_CHAT = -1005550000000
VARIANTS = {"classic": "classico", "long": "lungo"}
TITLES = {
    "classic": "Backgammon classico · Partita singola",
    "long": "Backgammon lungo · Partita singola",
}
MAX_PRESSES = 3000


class SeededDice:
    """The bot's dice, reproducible: the group and the inline game roll the same numbers."""

    def __init__(self, seed: int) -> None:
        self._random = random.Random(seed)

    def roll(self) -> tuple[int, int]:
        return self._random.randint(1, 6), self._random.randint(1, 6)

    def die(self) -> int:
        return self._random.randint(1, 6)


@dataclass
class Count:
    turns: int = 0
    budget: int = 0  # sends and edits the place's budget counts
    media: int = 0  # uploads to the media chat
    uploads: int = 0  # requests carrying a photo upload
    requests: int = 0  # every Bot API request but getUpdates


async def idle(tg: FakeTelegram, app: BotApp) -> None:
    while tg.pending_updates:
        await asyncio.sleep(0.002)
    await app.update_queue.join()
    await of_app(app).painter.drain()


def holder(caption: str, players: tuple[FakeUser, FakeUser]) -> FakeUser | None:
    for line in caption.splitlines():
        for user in players:
            if line.startswith((f"Tocca a {user.first_name} (", f"Tocca ad {user.first_name} (")):
                return user
    return None


def choose(board: StoredMessage, rng: random.Random) -> str | None:
    """Conferma, else roll, else a one-tap play (▶) most of the time, else a single step."""
    labels = board.button_texts
    for label in ("✅ Conferma", "🎲 Tira i dadi"):
        if label in labels:
            return board.data_for(label)
    shortcuts = [b["callback_data"] for b in board.buttons if b["text"].startswith("▶")]
    steps = [d for d in board.callback_data if d.startswith("g:") and d.split(":")[3] == "s"]
    if shortcuts and rng.random() < 0.8:
        return rng.choice(shortcuts)
    return rng.choice(steps) if steps else (rng.choice(shortcuts) if shortcuts else None)


async def play(
    tg: FakeTelegram,
    app: BotApp,
    players: tuple[FakeUser, FakeUser],
    board: Callable[[], StoredMessage],
    press: Callable[[FakeUser, str], object],
    rng: random.Random,
) -> None:
    """Press as the player on turn until the game is over."""
    for _ in range(MAX_PRESSES):
        shown = board()
        if "Rivincita" in shown.button_texts:
            return
        user = holder(shown.caption or "", players)
        data = choose(shown, rng)
        if user is None or data is None:
            raise RuntimeError(f"stuck: {shown.caption!r} {shown.button_texts}")
        press(user, data)
        await idle(tg, app)
    raise RuntimeError("the game did not end")


async def one_game(repo: GameRepository, variant: str, inline: bool, seed: int, n: int) -> Count:
    async with FakeTelegram(TOKEN) as tg:
        tg.supports_inline_queries = True
        tg.channel(MEDIA_CHAT, "Tavole")
        settings = Settings(
            token=TOKEN, base_url=tg.base_url, rate_limit=False, media_chat=MEDIA_CHAT
        )
        app = build_application(settings, repo, dice=SeededDice(seed), rng=random.Random(seed))
        await app.initialize()
        await app.start()
        assert app.updater is not None
        await app.updater.start_polling(
            poll_interval=0, timeout=1, allowed_updates=allowed_updates(app)
        )
        try:
            anna, bruno = tg.user(900 + 2 * n, "Anna"), tg.user(901 + 2 * n, "Bruno")
            rng = random.Random(seed)
            if inline:
                chat = FakeChat(bruno.id, "private", first_name="Bruno")
                query = tg.inline_query(anna, VARIANTS[variant])
                await idle(tg, app)
                answer = tg.inline_answers[query]
                (result,) = [r["id"] for r in answer["results"] if r["title"] == TITLES[variant]]
                inline_id = tg.choose_inline_result(query, result, chat, feedback=True)
                start = len(tg.requests)
                tg.press_inline(bruno, inline_id, tg.inline_message(inline_id).data_for("Accetta"))
                await idle(tg, app)
                key = inline_key(inline_id)
                await play(
                    tg,
                    app,
                    (anna, bruno),
                    lambda: tg.inline_message(inline_id),
                    lambda u, d: tg.press_inline(u, inline_id, d),
                    rng,
                )
            else:
                group = tg.group(-(800_000 + n), f"Tavolo {n}")
                key = group.id
                tg.send_message(group, anna, f"/sfida {VARIANTS[variant]} 1")
                await idle(tg, app)
                card = tg.last_bot_message(group)
                tg.press(group, anna, card, card.data_for("Lancia la sfida"))
                await idle(tg, app)
                start = len(tg.requests)
                tg.press(group, bruno, card, card.data_for("Accetta"))
                await idle(tg, app)

                def board() -> StoredMessage:
                    photos = [m for m in tg.chat_messages(group, from_bot=True) if m.photo]
                    return photos[-1]

                await play(
                    tg,
                    app,
                    (anna, bruno),
                    board,
                    lambda u, d: tg.press(group, u, board(), d),
                    rng,
                )
            done = tg.calls(since=start)
            (game_id,) = await repo.finished_game_ids(key)
            finished = await repo.load_finished_game(key, game_id)
            assert finished is not None
            count = Count(turns=Table.from_doc(finished.doc).rolls, requests=len(done))
            for r in done:
                media = str(r.params.get("chat_id")) == str(MEDIA_CHAT)
                count.media += media
                count.uploads += bool(r.files)
                if (
                    r.method
                    in (
                        "sendMessage",
                        "sendPhoto",
                        "editMessageMedia",
                        "editMessageCaption",
                        "editMessageText",
                        "editMessageReplyMarkup",
                        "deleteMessage",
                    )
                    and not media
                ):
                    count.budget += 1
            return count
        finally:
            await app.updater.stop()
            await app.stop()
            with contextlib.suppress(Exception):
                await app.shutdown()


def row(variant: str, place: str, counts: list[Count]) -> str:
    turns = sum(c.turns for c in counts)

    def per(total: int) -> str:
        return f"{total / max(turns, 1):>7.2f}"

    return (
        f"{variant:<8} {place:<7} {len(counts):>5} {turns:>6} "
        f"{per(sum(c.budget for c in counts))} {per(sum(c.media for c in counts))} "
        f"{per(sum(c.uploads for c in counts))} {per(sum(c.requests for c in counts))}"
    )


async def run(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory(prefix="tavola-inline-") as tmp:
        valkey = EmbeddedValkey(Path(tmp) / "valkey")
        await asyncio.to_thread(valkey.start)
        client = aioredis.Redis.from_url(valkey.url)
        try:
            print(
                f"{'variant':<8} {'place':<7} {'games':>5} {'turns':>6} "
                f"{'budget/t':>7} {'media/t':>7} {'upl/t':>7} {'req/t':>7}"
            )
            n = 0
            for variant in VARIANTS:
                for place in ("group", "inline"):
                    counts = []
                    for g in range(args.games):
                        n += 1
                        prefix = f"tavola-bench:{uuid.uuid4().hex[:8]}:v1"
                        repo = GameRepository(
                            client,
                            SchemaRegistry(current=SCHEMA_VERSION),
                            StorageConfig(prefix=prefix),
                        )
                        counts.append(
                            await one_game(repo, variant, place == "inline", args.seed + g, n)
                        )
                    print(row(variant, place, counts), flush=True)
        finally:
            await client.aclose()
            await asyncio.to_thread(valkey.stop)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3, help="games per variant and place")
    parser.add_argument("--seed", type=int, default=1)
    asyncio.run(run(parser.parse_args(argv)))


if __name__ == "__main__":
    main()
