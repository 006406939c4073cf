"""The chat's last finished game is the same game for /verifica, /rivedi, /esporta and
/analisi (``bot.finished``), also when its record could not be archived: the finished
match's table still holds it, with its players and its dice proof."""

from __future__ import annotations

import pytest

from bot.game.dice import VerifiableDice
from bot.services import of_app
from storage import GameRepository, StorageUnavailableError

from .conftest import BotUnderTest, start_match
from .fake_telegram import FakeChat, FakeUser

pytestmark = pytest.mark.slow


class NeverArchives(GameRepository):
    """The real repository, whose every attempt to archive a record finds Redis gone."""

    async def archive_record(
        self, chat_id: int, game_id: int, game_number: int, doc: dict[str, object]
    ) -> None:
        raise StorageUnavailableError("Redis connection lost: injected")


@pytest.fixture
def repo(repo: GameRepository) -> NeverArchives:
    """The bot of every test here archives through :class:`NeverArchives`."""
    return NeverArchives(repo.client, repo.schema, repo.config)


async def test_a_game_never_archived_is_found_by_every_command(
    bot: BotUnderTest, repo: NeverArchives, group: FakeChat, anna: FakeUser, bruno: FakeUser
) -> None:
    assert bot.app is not None
    of_app(bot.app).dice = VerifiableDice()  # a dice proof to verify
    await start_match(bot, group, anna, bruno)
    table = await bot.table(group)
    assert table.dice is not None
    seed = table.dice.seed
    loser, winner = (anna, bruno) if table.actor.user_id == anna.id else (bruno, anna)
    reaction = await bot.say(group, loser, "/abbandona")
    prompt = bot.tg.message(group, reaction.of("sendMessage")[0].result["message_id"])
    await bot.press(group, loser, prompt, "Vittoria semplice · 1 punto")
    await bot.press(group, winner, prompt, "Accetto l'abbandono")
    await bot.idle()
    assert await bot.stored(group) is None  # the match is over
    assert await repo.last_records(group.id) == []  # and its record was never archived

    (text,) = (await bot.say(group, anna, "/verifica")).texts()
    assert seed in text, text
    assert (await bot.say(group, anna, "/rivedi")).of("sendAnimation")
    assert (await bot.say(group, bruno, "/esporta")).of("sendDocument")
