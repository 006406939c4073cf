"""An inline message's card: bound once per card, read back, closed by one caller only."""

from __future__ import annotations

import asyncio

from storage import GameRepository

FIRST, SECOND = (1 << 60) + 1, (1 << 60) + 2


async def test_a_card_binds_one_message_and_closes_once(repo: GameRepository) -> None:
    assert await repo.inline_card(FIRST) is None
    assert await repo.bind_inline_card(FIRST, "nonce-01", 60)
    assert not await repo.bind_inline_card(SECOND, "nonce-01", 60)  # the same card again
    assert await repo.inline_card(FIRST) == "nonce-01"
    assert await repo.inline_card(SECOND) is None
    closes = await asyncio.gather(*(repo.close_inline_card(FIRST, "nonce-01") for _ in range(5)))
    assert closes.count(True) == 1
    assert await repo.inline_card(FIRST) is None
    assert not await repo.bind_inline_card(FIRST, "nonce-01", 60)  # a closed card stays closed


async def test_closing_with_another_cards_nonce_fails(repo: GameRepository) -> None:
    assert await repo.bind_inline_card(FIRST, "nonce-02", 60)
    assert not await repo.close_inline_card(FIRST, "nonce-03")
    assert await repo.inline_card(FIRST) == "nonce-02"  # still open
