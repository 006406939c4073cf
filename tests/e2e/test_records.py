"""A finished game's extras: /esporta sends the match file, /rivedi and the Rivedi button an
animation with one frame per play; both read the games the bot recorded."""

from __future__ import annotations

import io
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from PIL import Image

from bot import file_jobs
from bot.game.table import Table
from bot.texts import replay_export as RX
from engine import GameRecord, MatchTranscript, parse_match, record_transcript, replay_match

from .conftest import FINISHED_GAME_BUTTONS, BotUnderTest, play_until, start_match
from .fake_telegram import FakeChat, FakeUser, RecordedRequest

#: GNU Backgammon, where installed: the exported file must import into it (optional).
GNUBG = shutil.which("gnubg", path=os.environ.get("PATH", "") + os.pathsep + "/usr/games")


def moves(match: MatchTranscript) -> list[list[tuple[object, ...]]]:
    """Per game, each action as the file can say it: player, kind, dice, steps, cube."""
    return [
        [(a.player, a.kind, sorted(a.dice or ()), a.moves, a.cube) for a in game.actions]
        for game in match.games
    ]


def recorded(records: tuple[GameRecord, ...]) -> list[list[tuple[object, ...]]]:
    games = tuple(record_transcript(r)[1] for r in records)
    return moves(MatchTranscript(records[0].config, ("", ""), games))


def positions(match: MatchTranscript) -> list[tuple[object, ...]]:
    return [(i, s.checkers, s.cube_value, s.score) for i, s, _ in replay_match(match)]


def gnubg_positions(text: str, folder: Path) -> list[tuple[object, ...]]:
    """The positions of ``text`` as GNU Backgammon reads it: imported, then exported again
    and that export read by us (the import must not warn about any move)."""
    assert GNUBG is not None
    source, again = folder / "ours.mat", folder / "gnubg.mat"
    source.write_text(text, encoding="utf-8")
    commands = f"import mat {source}\nexport match mat {again}\n"
    done = subprocess.run(
        [GNUBG, "-t", "-q"],
        input=commands,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert "Invalid move" not in done.stdout + done.stderr
    return positions(parse_match(again.read_text(encoding="utf-8")))


def sent_file(request: RecordedRequest, field: str) -> bytes:
    assert request.ok, request.error
    return request.files[field]


def frames(data: bytes) -> int:
    with Image.open(io.BytesIO(data)) as gif:
        assert gif.format == "GIF"
        return int(gif.n_frames)


async def _dropped_game(
    bot: BotUnderTest, group: FakeChat, anna: FakeUser, bruno: FakeUser
) -> tuple[Table, object]:
    """A match to 3 whose first game ends at once: Anna opens 3-1, Bruno doubles, Anna drops."""
    bot.dice.queue_opening(3, 1)
    await start_match(bot, group, anna, bruno, "classico 3")
    await bot.say(group, anna, "/mossa 8/5 6/5")
    await bot.press(group, bruno, bot.board(group), "Raddoppia")
    await bot.press(group, anna, bot.board(group), "Rinuncio")
    board = bot.board(group)
    assert board.button_texts == ["Partita successiva", *FINISHED_GAME_BUTTONS]
    return await bot.table(group), board


async def test_export_sends_a_mat_file_that_reads_back_to_the_recorded_moves(
    bot: BotUnderTest, group: FakeChat, anna: FakeUser, bruno: FakeUser
) -> None:
    table, _ = await _dropped_game(bot, group, anna, bruno)
    reaction = await bot.say(group, anna, "/esporta")
    (sent,) = reaction.of("sendDocument")
    assert sent.result["document"]["file_name"].endswith(".mat")
    assert "GNU Backgammon" in sent.params["caption"]
    text = sent_file(sent, "document").decode("utf-8")
    assert " 3 point match" in text
    match = parse_match(text)
    assert match.names == ("Anna", "Bruno")
    assert table.record is not None and table.record.finished
    assert moves(match) == recorded((table.record,))
    assert [a.kind.value for a in match.games[0].actions] == ["move", "double", "drop"]


async def test_the_replay_button_sends_one_frame_per_play(
    bot: BotUnderTest, group: FakeChat, anna: FakeUser, bruno: FakeUser
) -> None:
    _, board = await _dropped_game(bot, group, anna, bruno)
    reaction = await bot.press(group, bruno, board, "🎞 Rivedi")  # anyone may ask
    assert reaction.alert is None
    (sent,) = reaction.of("sendAnimation")
    assert sent.result["animation"]["width"] == 480
    # the start, Anna's play, the double, the drop
    assert frames(sent_file(sent, "animation")) == 4


async def test_a_whole_match_is_replayed_and_exported_after_it_is_archived(
    bot: BotUnderTest, group: FakeChat, anna: FakeUser, bruno: FakeUser, tmp_path: Path
) -> None:
    await start_match(bot, group, anna, bruno, "classico 1")
    await play_until(bot, group, (anna, bruno), {"Rivincita"})
    assert await bot.stored(group) is None  # the match is over: only the archive has it

    (document,) = (await bot.say(group, bruno, "/esporta")).of("sendDocument")
    text = sent_file(document, "document").decode("utf-8")
    match = parse_match(text)
    assert len(match.games) == 1
    game = match.games[0]
    assert game.winner is not None and game.points >= 1
    if GNUBG is not None:  # GNU Backgammon reads every move of it as we do
        assert gnubg_positions(text, tmp_path) == positions(match)

    (animation,) = (await bot.say(group, anna, "/rivedi")).of("sendAnimation")
    assert frames(sent_file(animation, "animation")) == 1 + len(game.actions)


async def test_without_a_finished_game_there_is_nothing_to_send(
    bot: BotUnderTest, group: FakeChat, anna: FakeUser, bruno: FakeUser
) -> None:
    assert (await bot.say(group, anna, "/rivedi")).texts() == [RX.NO_FINISHED_GAME]
    await start_match(bot, group, anna, bruno, "classico 3")
    reaction = await bot.say(group, anna, "/esporta")
    assert reaction.texts() == [RX.NO_FINISHED_GAME]
    assert not reaction.of("sendDocument")


async def test_forged_and_stale_buttons_are_refused(
    bot: BotUnderTest, group: FakeChat, anna: FakeUser, bruno: FakeUser
) -> None:
    _, board = await _dropped_game(bot, group, anna, bruno)
    forged = await bot.press(group, anna, board, data="v:r:x:1", forge=True)
    assert forged.alert == RX.STALE_BUTTON
    other = await bot.press(group, anna, board, data="v:e:987654", forge=True)
    assert other.alert is None
    assert other.texts() == [RX.NO_FINISHED_GAME]
    assert not other.of("sendDocument")


async def test_a_long_game_is_exported_as_text_and_replayed(
    bot: BotUnderTest, group: FakeChat, anna: FakeUser, bruno: FakeUser
) -> None:
    await start_match(bot, group, anna, bruno, "lungo 1")
    await play_until(bot, group, (anna, bruno), {"Rivincita"})
    finished = await bot.repo.load_finished_game(
        group.id, (await bot.repo.finished_game_ids(group.id, 1))[0]
    )
    assert finished is not None
    record = Table.from_doc(finished.doc).record
    assert record is not None and record.finished

    (document,) = (await bot.say(group, anna, "/esporta")).of("sendDocument")
    assert document.result["document"]["file_name"].endswith(".txt")
    text = sent_file(document, "document").decode("utf-8")
    assert text.startswith("; Long nardy (backgammon lungo)")
    match = parse_match(text)
    assert moves(match) == recorded((record,))

    (animation,) = (await bot.say(group, bruno, "/rivedi")).of("sendAnimation")
    assert frames(sent_file(animation, "animation")) == 1 + len(match.games[0].actions)


async def test_the_export_holds_every_finished_game_of_the_match(
    bot: BotUnderTest, group: FakeChat, anna: FakeUser, bruno: FakeUser
) -> None:
    await _dropped_game(bot, group, anna, bruno)
    bot.dice.queue_opening(3, 1)
    await bot.press(group, anna, bot.board(group), "Partita successiva")
    await bot.say(group, anna, "/mossa 8/5 6/5")
    await bot.press(group, bruno, bot.board(group), "Raddoppia")
    await bot.press(group, anna, bot.board(group), "Rinuncio")

    (document,) = (await bot.say(group, anna, "/esporta")).of("sendDocument")
    match = parse_match(sent_file(document, "document").decode("utf-8"))
    assert [(g.number, g.score, g.winner, g.points) for g in match.games] == [
        (1, (0, 0), 1, 1),
        (2, (0, 1), 1, 1),
    ]
    kept = sorted(await bot.repo.last_records(group.id), key=lambda r: r.game_number)
    assert moves(match) == recorded(tuple(GameRecord.from_doc(r.doc["rec"]) for r in kept))


async def test_a_double_tap_sends_one_replay_and_a_later_request_reuses_the_file(
    bot: BotUnderTest,
    group: FakeChat,
    anna: FakeUser,
    bruno: FakeUser,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _, board = await _dropped_game(bot, group, anna, bruno)
    first, second = await bot.press_together(
        group,
        [(anna, board, board.data_for("🎞 Rivedi")), (bruno, board, board.data_for("🎞 Rivedi"))],
    )
    (sent,) = first.of("sendAnimation")
    assert second.alert == RX.REPLAY_JUST_SENT
    assert (await bot.say(group, anna, "/rivedi")).texts() == [RX.REPLAY_JUST_SENT]

    monkeypatch.setattr(file_jobs, "RECENT_SECONDS", 0.0)
    (again,) = (await bot.say(group, anna, "/rivedi")).of("sendAnimation")
    assert again.ok and not again.files  # no new upload, no new drawing
    assert again.params["animation"] == sent.result["animation"]["file_id"]
