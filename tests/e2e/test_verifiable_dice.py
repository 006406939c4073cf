"""Verifiable dice end to end: a group game with the production dice source, played to the
end through the buttons; the commitment is on the challenge before Accetta, the seed in
the final caption, and /verifica prints a command that recomputes exactly the rolls the
game used (as its stored record has them) and fails on a tampered seed."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from bot.app import build_application
from bot.computer import ComputerPool
from bot.config import Settings
from bot.game.dice import VerifiableDice
from bot.services import of_app
from bot.texts import messages as T
from engine import GameRecord, Resign, derive_dice, dice_commitment
from storage import GameRepository

from .conftest import BotUnderTest, Reaction, play_until, post_challenge
from .fake_telegram import FakeChat, FakeTelegram, FakeUser, StoredMessage

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
HEX64 = re.compile(r"\b[0-9a-f]{64}\b")


CHECKER = ROOT / "engine" / "verify_dice.py"


def _run(command: list[str]) -> subprocess.CompletedProcess[str]:
    assert command[:2] == ["python", "verify_dice.py"], command
    return subprocess.run(
        [sys.executable, str(CHECKER), *command[2:]],  # the file /verifica programma sends
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


@pytest.mark.parametrize("options", ["classico 1", "lungo 1"])
async def test_the_shown_command_recomputes_every_roll_of_the_game(
    bot: BotUnderTest, group: FakeChat, anna: FakeUser, bruno: FakeUser, options: str
) -> None:
    assert bot.app is not None
    of_app(bot.app).dice = VerifiableDice()  # the production source, not the scripted one
    card = await post_challenge(bot, group, anna, options)
    shown = HEX64.findall(card.text or "")
    assert len(shown) == 1, card.text  # the commitment, before anyone accepts
    commitment = shown[0]
    await bot.press(group, bruno, card, "Accetta")
    salt = f"v2.{anna.id}.{bruno.id}"  # the players' words: their ids unless they chose
    table = await bot.table(group)
    assert table.dice is not None and table.dice.salt == salt
    assert table.dice.commitment == commitment
    caption = bot.board(group).caption or ""
    assert table.dice.seed not in caption  # secret while the game goes on

    board = await play_until(bot, group, (anna, bruno), {"Rivincita"}, label=f"fair {options}")
    final_caption = board.caption or ""
    seed = table.dice.seed
    assert seed[: T.SHORT_HASH] in final_caption  # revealed at the end: the start of it
    (verify,) = (await bot.say(group, anna, "/verifica")).texts()
    assert seed in verify  # and the whole of it
    assert dice_commitment(seed) == commitment
    (kept,) = await bot.repo.last_records(group.id, limit=1)
    record = GameRecord.from_doc(kept.doc["rec"])
    assert record.finished
    record.final_state()  # the stored events replay through the engine

    (text,) = (await bot.say(group, bruno, "/verifica")).texts()
    assert "Dadi verificabili" in text and "HMAC-SHA256" in text
    for value in (seed, salt, commitment):
        assert value in text
    line = next(line for line in text.splitlines() if line.startswith("python verify_dice.py"))
    command = shlex.split(line)
    done = _run(command)
    assert done.returncode == 0, done.stderr
    printed = [tuple(map(int, m)) for m in re.findall(r"roll \d+: (\d)-(\d)", done.stdout)]
    dice = record.dice
    assert printed == [(dice[i], dice[i + 1]) for i in range(0, len(dice), 2)]
    assert len(printed) >= 10

    tampered = [("f" if part == seed else part) for part in command]
    tampered[tampered.index("--seed") + 1] = ("0" if seed[0] != "0" else "1") + seed[1:]
    failed = _run(tampered)
    assert failed.returncode == 1
    assert "FAILED" in failed.stderr
    assert "roll 1:" not in failed.stdout


async def test_scripted_games_have_nothing_to_verify(
    bot: BotUnderTest, group: FakeChat, anna: FakeUser, bruno: FakeUser
) -> None:
    (text,) = (await bot.say(group, anna, "/verifica")).texts()
    assert "non c'è ancora una partita conclusa" in text
    card = await post_challenge(bot, group, anna, "classico 1")
    assert not HEX64.search(card.text or "")  # scripted dice: no commitment to show
    await bot.press(group, bruno, card, "Accetta")
    await play_until(bot, group, (anna, bruno), {"Rivincita"}, label="scripted classico 1")
    (text,) = (await bot.say(group, anna, "/verifica")).texts()
    assert "non ha usato dadi verificabili" in text
    (kept,) = await bot.repo.last_records(group.id, limit=1)
    assert "dp" not in kept.doc
    assert GameRecord.from_doc(kept.doc["rec"]).finished


def _prompt(bot: BotUnderTest, group: FakeChat, reaction: Reaction) -> StoredMessage:
    (sent,) = reaction.of("sendMessage")
    return bot.tg.message(group, sent.result["message_id"])


async def test_the_next_game_of_a_match_uses_the_seed_committed_with_the_result(
    bot: BotUnderTest, group: FakeChat, anna: FakeUser, bruno: FakeUser
) -> None:
    assert bot.app is not None
    of_app(bot.app).dice = VerifiableDice()
    card = await post_challenge(bot, group, anna, "classico 3")
    await bot.press(group, bruno, card, "Accetta")
    first = await bot.table(group)
    assert first.dice is not None
    # Bruno resigns the first game, whoever is on turn; Anna accepts.
    prompt = _prompt(bot, group, await bot.say(group, bruno, "/abbandona"))
    await bot.press(group, bruno, prompt, "Vittoria semplice · 1 punto")
    await bot.press(group, anna, prompt, "Accetto l'abbandono")
    board = bot.board(group)
    caption = board.caption or ""
    assert first.dice.seed[: T.SHORT_HASH] in caption
    over = await bot.table(group)
    assert over.next_commitment is not None
    assert over.next_commitment[: T.SHORT_HASH] in caption
    (verify,) = (await bot.say(group, anna, "/verifica")).texts()
    assert over.next_commitment in verify  # shown in full before anyone presses
    assert over.next_commitment != first.dice.commitment

    reaction = await bot.press(group, anna, board, "Partita successiva")
    second = await bot.table(group)
    assert second.state.game_number == 2
    assert second.dice is not None
    assert second.dice.commitment == over.next_commitment  # the seed shown before the press
    assert second.dice.salt == f"v2.{anna.id}.{bruno.id}"
    assert reaction.of("sendMessage")  # the message that keeps its commitment
    assert second.record is not None and second.record.game_number == 2
    assert second.record.dice == derive_dice(
        second.dice.seed, second.dice.salt, second.record.dice_count
    )
    (kept,) = await bot.repo.last_records(group.id, limit=1)  # game 1, finished by resigning
    record = GameRecord.from_doc(kept.doc["rec"])
    assert (kept.game_number, record.game_number) == (1, 1)
    assert isinstance(record.events[-2], Resign) and record.events[-2].accepted
    assert kept.doc["dp"] == [first.dice.seed, first.dice.salt, 2]


async def test_the_production_default_is_the_verifiable_source(
    tg: FakeTelegram, repo: GameRepository, computer: ComputerPool
) -> None:
    settings = Settings(token=tg.token, base_url=tg.base_url)
    app = build_application(settings, repo, computer=computer)
    assert isinstance(of_app(app).dice, VerifiableDice)


async def test_a_game_against_the_computer_commits_on_the_set_up_page(
    bot: BotUnderTest, tg: FakeTelegram, anna: FakeUser
) -> None:
    assert bot.app is not None
    of_app(bot.app).dice = VerifiableDice()
    chat = tg.private_chat(anna)
    (sent,) = (await bot.say(chat, anna, "/gioca")).of("sendMessage")
    menu = tg.message(chat, sent.result["message_id"])
    for label in ("Backgammon classico", "Facile"):
        await bot.press(chat, anna, menu, label)
        menu = tg.message(chat, menu.message_id)
    (commitment,) = HEX64.findall(menu.text or "")  # shown with the buttons that start
    reaction = await bot.press(chat, anna, menu, "1 partita")
    table = await bot.table(chat)
    assert table.dice is not None
    assert (table.dice.commitment, table.dice.salt) == (commitment, f"v2.{anna.id}.0")
    assert reaction.of("sendMessage")  # the message that keeps the commitment
    assert table.record is not None and table.record.dice_count >= 2
    assert table.record.dice == derive_dice(
        table.dice.seed, table.dice.salt, table.record.dice_count
    )
