"""The update processor: a chat's updates run one by one in arrival order, while other
chats run meanwhile."""

from __future__ import annotations

import asyncio

from telegram import Chat, Message, Update, User

from bot.updates import ChatOrderedProcessor, chat_key

USER = User(1, "Anna", is_bot=False)


def update(update_id: int, chat_id: int) -> Update:
    chat = Chat(chat_id, Chat.GROUP if chat_id < 0 else Chat.PRIVATE)
    message = Message(update_id, None, chat, from_user=USER, text="x")  # type: ignore[arg-type]
    return Update(update_id, message=message)


async def test_one_chat_runs_in_order_while_another_chat_goes_on() -> None:
    processor = ChatOrderedProcessor(16)
    log: list[tuple[int, str]] = []
    gate = asyncio.Event()

    async def handle(n: int, wait: bool) -> None:
        log.append((n, "start"))
        if wait:
            await gate.wait()
        log.append((n, "end"))

    slow = asyncio.create_task(processor.process_update(update(1, -10), handle(1, True)))
    queued = asyncio.create_task(processor.process_update(update(2, -10), handle(2, False)))
    other = asyncio.create_task(processor.process_update(update(3, -20), handle(3, False)))
    await other  # chat -20 is not held up by chat -10's slow update
    assert (3, "end") in log
    assert (2, "start") not in log  # chat -10's second update waits for its first
    gate.set()
    await asyncio.gather(slow, queued)
    chat_10 = [entry for entry in log if entry[0] in (1, 2)]
    assert chat_10 == [(1, "start"), (1, "end"), (2, "start"), (2, "end")]


async def test_many_updates_of_one_chat_keep_their_arrival_order() -> None:
    processor = ChatOrderedProcessor(64)
    seen: list[int] = []

    async def handle(n: int) -> None:
        await asyncio.sleep(0.001 * (n % 3))  # uneven work must not reorder them
        seen.append(n)

    await asyncio.gather(*(processor.process_update(update(n, -5), handle(n)) for n in range(40)))
    assert seen == list(range(40))


def test_chat_key_uses_the_chat_then_the_user() -> None:
    assert chat_key(update(1, -42)) == -42
    assert chat_key(Update(2)) is None
    assert chat_key("not an update") is None


async def test_a_chat_backlog_holds_no_handling_slot() -> None:
    """With one slot, a chat whose updates queue behind a slow one lets another chat run."""
    processor = ChatOrderedProcessor(1)
    gate = asyncio.Event()
    done: list[int] = []

    async def handle(n: int, wait: bool) -> None:
        if wait:
            await gate.wait()
        done.append(n)

    first = asyncio.create_task(processor.process_update(update(1, -10), handle(1, False)))
    await first
    slow = asyncio.create_task(processor.process_update(update(2, -10), handle(2, True)))
    backlog = [
        asyncio.create_task(processor.process_update(update(n, -10), handle(n, False)))
        for n in range(3, 50)
    ]
    await asyncio.sleep(0.01)
    assert processor.backlog == len(backlog)
    gate.set()
    other = processor.process_update(update(99, -20), handle(99, False))
    await asyncio.wait_for(other, 1)
    await asyncio.gather(slow, *backlog)
    assert done[0] == 1 and 99 in done


async def test_a_stopping_application_drops_the_backlog() -> None:
    processor = ChatOrderedProcessor(8)
    running = True
    processor.watch(lambda: running)
    gate = asyncio.Event()
    handled: list[int] = []

    async def handle(n: int) -> None:
        if n == 0:
            await gate.wait()
        handled.append(n)

    tasks = [
        asyncio.create_task(processor.process_update(update(n, -10), handle(n))) for n in range(100)
    ]
    await asyncio.sleep(0.01)
    running = False
    await asyncio.wait_for(asyncio.gather(*tasks), 5)  # the slow one is cancelled after a grace
    assert handled == []
    assert processor.dropped == 99
