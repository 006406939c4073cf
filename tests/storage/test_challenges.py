"""Challenges: expiry, listing, and atomic acceptance (two accepters never both win)."""

from __future__ import annotations

import asyncio

import pytest

from storage import ChallengeGoneError, GameAlreadyActiveError, GameRepository

CHAT = -3003


def doc() -> dict[str, object]:
    return {"schema": 2, "variant": "long"}


async def test_challenge_round_trip_and_listing(repo: GameRepository) -> None:
    first = await repo.create_challenge(CHAT, {"from": 1, "variant": "long", "length": 3}, 60)
    second = await repo.create_challenge(CHAT, {"from": 2, "variant": "classic"}, 120)
    assert first.challenge_id != second.challenge_id
    got = await repo.get_challenge(CHAT, first.challenge_id)
    assert got.payload == {"from": 1, "variant": "long", "length": 3}
    assert 0 < got.expires_at - first.expires_at + 60 <= 60.5
    assert [c.challenge_id for c in await repo.list_challenges(CHAT)] == [
        first.challenge_id,
        second.challenge_id,
    ]
    assert await repo.list_challenges(CHAT + 1) == []

    taken = await repo.take_challenge(CHAT, first.challenge_id)
    assert taken.payload["from"] == 1
    assert await repo.take_challenge(CHAT, first.challenge_id) is None
    assert await repo.get_challenge(CHAT, first.challenge_id) is None
    assert [c.challenge_id for c in await repo.list_challenges(CHAT)] == [second.challenge_id]


async def test_challenges_expire(repo: GameRepository) -> None:
    challenge = await repo.create_challenge(CHAT, {"from": 1}, 0.3)
    await asyncio.sleep(0.5)
    assert await repo.get_challenge(CHAT, challenge.challenge_id) is None
    assert await repo.list_challenges(CHAT) == []
    with pytest.raises(ChallengeGoneError):
        await repo.create_game(CHAT, doc(), challenge_id=challenge.challenge_id)


async def test_only_one_of_many_concurrent_takers_gets_the_challenge(
    repo: GameRepository,
) -> None:
    challenge = await repo.create_challenge(CHAT, {"from": 1}, 60)
    taken = await asyncio.gather(
        *(repo.take_challenge(CHAT, challenge.challenge_id) for _ in range(20))
    )
    assert sum(t is not None for t in taken) == 1


async def test_accepting_consumes_the_challenge_and_starts_the_game_atomically(
    repo: GameRepository,
) -> None:
    challenge = await repo.create_challenge(CHAT, {"from": 1}, 60)
    outcomes = await asyncio.gather(
        *(
            repo.create_game(CHAT, {**doc(), "accepter": n}, challenge_id=challenge.challenge_id)
            for n in range(8)
        ),
        return_exceptions=True,
    )
    started = [o for o in outcomes if not isinstance(o, Exception)]
    assert len(started) == 1
    assert all(
        isinstance(o, (ChallengeGoneError, GameAlreadyActiveError))
        for o in outcomes
        if isinstance(o, Exception)
    )
    assert (await repo.load_game(CHAT)).doc == started[0].doc
    assert await repo.get_challenge(CHAT, challenge.challenge_id) is None


async def test_a_busy_chat_keeps_the_challenge(repo: GameRepository) -> None:
    await repo.create_game(CHAT, doc())
    challenge = await repo.create_challenge(CHAT, {"from": 1}, 60)
    with pytest.raises(GameAlreadyActiveError):
        await repo.create_game(CHAT, doc(), challenge_id=challenge.challenge_id)
    assert await repo.get_challenge(CHAT, challenge.challenge_id) is not None


async def test_player_names(repo: GameRepository) -> None:
    await repo.set_player_name(5, "Giulia")
    await repo.set_player_name(6, "x" * 200)
    names = await repo.get_player_names([5, 6, 7])
    assert names == {5: "Giulia", 6: "x" * 64}
    assert await repo.get_player_names([]) == {}


async def test_updating_a_challenge_keeps_or_restarts_its_clock(repo: GameRepository) -> None:
    challenge = await repo.create_challenge(CHAT, {"from": 1, "draft": True}, 60)
    kept = await repo.update_challenge(CHAT, challenge.challenge_id, {"from": 1, "n": 3})
    assert kept is not None and kept.payload == {"from": 1, "n": 3}
    assert kept.expires_at <= challenge.expires_at + 0.5
    renewed = await repo.update_challenge(CHAT, challenge.challenge_id, {"from": 1}, ttl=600)
    assert renewed is not None and renewed.expires_at > challenge.expires_at + 500
    got = await repo.get_challenge(CHAT, challenge.challenge_id)
    assert got is not None and got.payload == {"from": 1}
    assert [c.challenge_id for c in await repo.list_challenges(CHAT)] == [challenge.challenge_id]

    await repo.take_challenge(CHAT, challenge.challenge_id)
    assert await repo.update_challenge(CHAT, challenge.challenge_id, {"from": 2}) is None
    assert await repo.update_challenge(CHAT, challenge.challenge_id, {"from": 2}, ttl=5) is None
    assert await repo.get_challenge(CHAT, challenge.challenge_id) is None
