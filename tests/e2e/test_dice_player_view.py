"""The dice checked as a player can check them: only what the chat shows, the file that
/verifica programma sends, and a re-implementation written from /verifica's own words.

A group game with the production dice: the commitment on the card, the players' words
chosen with /seme after seeing it, the message that opens the game (never edited), the
seed at the end, then /verifica's values. The test recomputes every die twice: with its
own code below (written from the encoding /verifica describes, nothing of Tavola
imported) and with the sent checker run as a separate program, which must also fail on a
wrong salt and a wrong roll count."""

from __future__ import annotations

import hashlib
import hmac
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from bot.game.dice import VerifiableDice
from bot.services import of_app
from engine import GameRecord

from .conftest import BotUnderTest, play_until, post_challenge
from .fake_telegram import FakeChat, FakeUser, StoredMessage

pytestmark = pytest.mark.slow

HEX64 = re.compile(r"\b[0-9a-f]{64}\b")


# ------------------------------------------------- the encoding, from /verifica's words
#: The phrases of /verifica the re-implementation below follows, one by one.
DOCUMENTED = (
    "64 cifre esadecimali, decodificate in 32 byte",
    "SHA-256 di quei 32 byte, in esadecimale minuscolo",
    "HMAC-SHA256 con chiave i 32 byte del seme e messaggio il testo sale:n:b in UTF-8",
    "n e b in decimale, b da 0",
    "si saltano quelli da 252 a 255",
    "il primo valido x dà il dado x % 6 + 1",
    "se nessuno è valido si prova b+1",
    "Il tiro k (da 1) sono i dadi 2k-2 e 2k-1",
    "v2.parola1.parola2",
)


def my_commitment(seed_hex: str) -> str:
    return hashlib.sha256(bytes.fromhex(seed_hex)).hexdigest()


def my_die(seed_hex: str, salt: str, n: int) -> int:
    key = bytes.fromhex(seed_hex)
    b = 0
    while True:
        digest = hmac.new(key, f"{salt}:{n}:{b}".encode(), hashlib.sha256).digest()
        for x in digest:
            if not 252 <= x <= 255:
                return x % 6 + 1
        b += 1


def my_rolls(seed_hex: str, salt: str, count: int) -> list[tuple[int, int]]:
    return [
        (my_die(seed_hex, salt, 2 * k - 2), my_die(seed_hex, salt, 2 * k - 1))
        for k in range(1, count + 1)
    ]


# ------------------------------------------------------------------- what the chat shows
def _value(text: str, label: str) -> str:
    found = re.search(rf"^{label}: (\S+)", text, re.MULTILINE)
    assert found is not None, (label, text)
    return found.group(1)


def _shown_rolls(text: str) -> list[tuple[int, int]]:
    found = re.search(r"^Tiri \((\d+),.*?\): ([1-6-,]+)$", text, re.MULTILINE)
    assert found is not None, text
    rolls = [(int(a), int(b)) for a, b in re.findall(r"([1-6])-([1-6])", found.group(2))]
    assert len(rolls) == int(found.group(1))
    return rolls


def _run(checker: Path, args: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-I", str(checker), *args],
        cwd=checker.parent,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def _with(args: list[str], option: str, value: str) -> list[str]:
    changed = list(args)
    changed[changed.index(option) + 1] = value
    return changed


async def _reply(bot: BotUnderTest, chat: FakeChat, user: FakeUser, text: str) -> str:
    (answer,) = (await bot.say(chat, user, text)).texts()
    return answer


async def test_a_player_checks_every_die_from_the_chat_alone(
    bot: BotUnderTest, group: FakeChat, anna: FakeUser, bruno: FakeUser, tmp_path: Path
) -> None:
    assert bot.app is not None
    of_app(bot.app).dice = VerifiableDice()  # the production source
    assert str(bruno.id) in await _reply(bot, group, bruno, "/seme")  # the visible default

    card = await post_challenge(bot, group, anna, "classico 1")
    (commitment,) = HEX64.findall(card.text or "")  # shown before anyone accepts
    assert f"«{anna.id}»" in (card.text or "")  # the challenger's word, as it is now
    # Seeing the commitment, both choose words the server could not know before it.
    assert "trifoglio7" in await _reply(bot, group, anna, "/seme trifoglio7")
    assert "42lupo" in await _reply(bot, group, bruno, "/seme 42lupo")
    assert "lettere" in await _reply(bot, group, bruno, "/seme non valida!")  # refused
    salt = "v2.trifoglio7.42lupo"

    await bot.press(group, bruno, card, "Accetta")
    (opening,) = [
        m for m in bot.tg.chat_messages(group, from_bot=True) if commitment in (m.text or "")
    ]
    assert opening.message_id != card.message_id and salt in (opening.text or "")
    await play_until(bot, group, (anna, bruno), {"Rivincita"}, label="player view")

    text = await _reply(bot, group, bruno, "/verifica")
    flat = re.sub(r"\s+", " ", text)
    for phrase in DOCUMENTED:
        assert phrase in flat, phrase
    assert "serve solo Python" not in text
    seed = _value(text, "Seme")
    assert _value(text, "Impegno") == commitment and _value(text, "Sale") == salt
    rolls = _shown_rolls(text)
    assert len(rolls) >= 10

    # My own code, from the words above: the commitment and every die.
    assert my_commitment(seed) == commitment
    assert my_rolls(seed, salt, len(rolls)) == rolls
    # The opening message is still there, as it was: the commitment can be compared.
    still = bot.tg.message(group, opening.message_id)
    assert not still.deleted and still.edits == 0 and commitment in (still.text or "")

    # The sent checker, run as a program of its own.
    sent = (await bot.say(group, anna, "/verifica programma")).of("sendDocument")
    (document,) = sent
    program: StoredMessage = bot.tg.message(group, document.result["message_id"])
    assert program.document is not None and b"import tavola" not in program.document
    checker = tmp_path / "verify_dice.py"
    checker.write_bytes(program.document)
    line = next(x for x in text.splitlines() if x.startswith("python verify_dice.py"))
    args = shlex.split(line)[2:]
    done = _run(checker, args)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    printed = [(int(a), int(b)) for a, b in re.findall(r"roll \d+: ([1-6])-([1-6])", done.stdout)]
    assert printed == rolls

    # And it says no on anything that does not match.
    wrong_salt = _run(checker, _with(args, "--salt", "v2.trifoglio8.42lupo"))
    assert wrong_salt.returncode == 1 and "FAILED" in wrong_salt.stderr
    wrong_count = _run(checker, _with(args, "--rolls", str(len(rolls) + 1)))
    assert wrong_count.returncode == 1 and "FAILED" in wrong_count.stderr
    old_salt = _run(checker, _with(args, "--salt", f"v2.{anna.id}.{bruno.id}"))
    assert old_salt.returncode == 1  # the words before /seme are not the game's

    # What the chat showed is what was played.
    (kept,) = await bot.repo.last_records(group.id, limit=1)
    dice = GameRecord.from_doc(kept.doc["rec"]).dice
    assert rolls == [(dice[i], dice[i + 1]) for i in range(0, len(dice), 2)]


async def test_each_card_shows_a_commitment_of_its_own(
    bot: BotUnderTest, group: FakeChat, anna: FakeUser, bruno: FakeUser
) -> None:
    assert bot.app is not None
    of_app(bot.app).dice = VerifiableDice()
    shown: list[str] = []
    card = await post_challenge(bot, group, anna, "classico 1")
    shown += HEX64.findall(card.text or "")
    await bot.press(group, anna, card, "Ritira la sfida")  # withdrawn
    card = await post_challenge(bot, group, anna, "classico 1")
    shown += HEX64.findall(card.text or "")
    await bot.press(group, anna, card, "Ritira la sfida")
    card = await post_challenge(bot, group, bruno, "classico 1")
    shown += HEX64.findall(card.text or "")
    assert len(shown) == 3 and len(set(shown)) == 3, shown
    reaction = await bot.press(group, anna, card, "Accetta")
    table = await bot.table(group)
    assert table.dice is not None and table.dice.commitment == shown[-1]
    (opening,) = reaction.of("sendMessage")
    assert shown[-1] in opening.params["text"]
    assert f"v2.{bruno.id}.{anna.id}" in opening.params["text"]


async def _menu_at_length(bot: BotUnderTest, chat: FakeChat, user: FakeUser) -> StoredMessage:
    (sent,) = (await bot.say(chat, user, "/gioca")).of("sendMessage")
    menu = bot.tg.message(chat, sent.result["message_id"])
    for label in ("Backgammon classico", "Facile"):
        await bot.press(chat, user, menu, label)
        menu = bot.tg.message(chat, menu.message_id)
    return menu


async def test_each_set_up_page_has_its_own_commitment_and_keeps_it(
    bot: BotUnderTest, anna: FakeUser
) -> None:
    assert bot.app is not None
    of_app(bot.app).dice = VerifiableDice()
    chat = bot.tg.private_chat(anna)
    first = await _menu_at_length(bot, chat, anna)
    second = await _menu_at_length(bot, chat, anna)
    (one,) = HEX64.findall(first.text or "")
    (two,) = HEX64.findall(second.text or "")
    assert one != two
    assert f"«{anna.id}»" in (first.text or "")  # her word, the default shown
    reaction = await bot.press(chat, anna, first, "1 partita")  # the older page
    table = await bot.table(chat)
    assert table.dice is not None and table.dice.commitment == one
    (opening,) = reaction.of("sendMessage")
    assert one in opening.params["text"] and f"v2.{anna.id}.0" in opening.params["text"]
