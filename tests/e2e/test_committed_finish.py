"""A committed finish is always shown: keeping the game's record is best effort.

The result counts from the moment the finish is saved (the leaderboard is written in the
same atomic step); the record kept for /rivedi, /esporta and /analisi is written after it.
A storage failure there is retried, then logged: the final board is drawn whatever happens.
"""

from __future__ import annotations

import pytest

from storage import GameRepository, StorageUnavailableError

from .conftest import BotUnderTest, start_match
from .fake_telegram import FakeChat, FakeUser

pytestmark = pytest.mark.slow


async def _resign(bot: BotUnderTest, group: FakeChat, loser: FakeUser, winner: FakeUser) -> None:
    """The loser resigns a single game on their turn and the winner accepts."""
    reaction = await bot.say(group, loser, "/abbandona")
    prompt = bot.tg.message(group, reaction.of("sendMessage")[0].result["message_id"])
    await bot.press(group, loser, prompt, "Vittoria semplice · 1 punto")
    reaction = await bot.press(group, winner, prompt, "Accetto l'abbandono")
    assert reaction.alert is None, reaction.alert
    await bot.idle()


async def _assert_shown_and_counted(bot: BotUnderTest, group: FakeChat, anna: FakeUser) -> None:
    assert await bot.stored(group) is None  # the match is over
    caption = bot.board(group).caption or ""
    assert "Anna abbandona: Bruno vince 1 punto" in caption, caption
    (ranking,) = (await bot.say(group, anna, "/classifica")).texts()
    assert "Bruno" in ranking and "Anna" in ranking, ranking


async def test_a_finish_whose_record_cannot_be_kept_is_shown_and_counted(
    bot: BotUnderTest, repo: GameRepository, group: FakeChat, anna: FakeUser, bruno: FakeUser
) -> None:
    bot.dice.queue_opening(6, 1)
    await start_match(bot, group, anna, bruno)
    # A foreign value under the chat's list of records: every attempt to keep one fails
    # with Redis's own WRONGTYPE error.
    await repo.client.set(repo.keys.records(group.id), b"not a sorted set")
    await _resign(bot, group, anna, bruno)
    await _assert_shown_and_counted(bot, group, anna)


class FailingOnce(GameRepository):
    """The real repository, whose first attempt to keep a record finds Redis unreachable."""

    failures = 0

    async def archive_record(
        self, chat_id: int, game_id: int, game_number: int, doc: dict[str, object]
    ) -> None:
        if self.failures == 0:
            self.failures += 1
            raise StorageUnavailableError("Redis connection lost: injected")
        await super().archive_record(chat_id, game_id, game_number, doc)


@pytest.fixture
def repo(repo: GameRepository) -> FailingOnce:
    """The bot of every test here keeps its records through :class:`FailingOnce`."""
    return FailingOnce(repo.client, repo.schema, repo.config)


async def test_a_record_that_fails_once_is_kept_by_the_retry(
    bot: BotUnderTest, repo: FailingOnce, group: FakeChat, anna: FakeUser, bruno: FakeUser
) -> None:
    bot.dice.queue_opening(6, 1)
    await start_match(bot, group, anna, bruno)
    await _resign(bot, group, anna, bruno)
    await _assert_shown_and_counted(bot, group, anna)
    assert repo.failures == 1
    assert len(await repo.last_records(group.id)) == 1  # kept at the second attempt
