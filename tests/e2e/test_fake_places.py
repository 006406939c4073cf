"""The fake Bot API server's places the bot loses: a group upgraded to a supergroup, the bot
removed from a group, a user who blocked the bot or never started it.

Driven by the real PTB `Bot` over HTTP, so each refusal is checked as the exception PTB raises
in production (`ChatMigrated`, `Forbidden`), with Telegram's own texts.
"""

from __future__ import annotations

import re

import pytest
from telegram import Bot, ChatMemberBanned, ChatMemberMember, Update
from telegram.error import ChatMigrated, Forbidden

from .fake_telegram import GROUP_ANONYMOUS_BOT_ID, FakeTelegram, FakeTelegramUsageError, FakeUser
from .ptb_client import alice_user, ptb_bot  # noqa: F401 (fixtures)


async def _updates(bot: Bot, tg: FakeTelegram) -> tuple[Update, ...]:
    updates = await bot.get_updates(timeout=0)
    if updates:
        await bot.get_updates(offset=updates[-1].update_id + 1, timeout=0)
    return updates


def forbidden(description: str) -> pytest.RaisesContext[Forbidden]:
    return pytest.raises(Forbidden, match=re.compile(re.escape(description), re.IGNORECASE))


async def test_an_upgraded_group_announces_its_new_id_and_refuses_the_old_one(
    bot: Bot, tg: FakeTelegram, alice: FakeUser
) -> None:
    group = tg.group(-4321, "Circolo")
    sent = await bot.send_message(group.id, "prima")
    supergroup = tg.migrate_group(group, alice)
    assert supergroup.type == "supergroup" and str(supergroup.id).startswith("-100")

    old, new = (u.message for u in await _updates(bot, tg))
    assert old is not None and new is not None
    assert (old.chat.id, old.migrate_to_chat_id) == (group.id, supergroup.id)
    assert old.from_user is not None and old.from_user.id == alice.id
    assert (new.chat.id, new.migrate_from_chat_id) == (supergroup.id, group.id)
    assert new.from_user is not None and new.from_user.id == GROUP_ANONYMOUS_BOT_ID
    assert new.sender_chat is not None and new.sender_chat.id == supergroup.id

    # Every request to the old id: 400 with parameters.migrate_to_chat_id (PTB: ChatMigrated).
    for request in (
        bot.send_message(group.id, "dopo"),
        bot.edit_message_text("modifica", chat_id=group.id, message_id=sent.message_id),
        bot.delete_message(group.id, sent.message_id),
    ):
        with pytest.raises(ChatMigrated) as caught:
            await request
        assert caught.value.new_chat_id == supergroup.id
    assert tg.errors()[-1].error == "Bad Request: group chat was upgraded to a supergroup chat"
    # The bot is a member of the supergroup.
    assert (await bot.send_message(supergroup.id, "eccomi")).chat.id == supergroup.id
    # Nobody writes in the old group any more.
    with pytest.raises(FakeTelegramUsageError):
        tg.send_message(group, alice, "ciao")
    with pytest.raises(FakeTelegramUsageError):
        tg.migrate_group(supergroup, alice)


async def test_an_upgrade_the_bot_missed_is_told_by_the_error_alone(
    bot: Bot, tg: FakeTelegram, alice: FakeUser
) -> None:
    group = tg.group(-4322, "Circolo")
    supergroup = tg.migrate_group(group, alice, new_id=-1009990001, notify=False)
    assert await _updates(bot, tg) == ()
    with pytest.raises(ChatMigrated) as caught:
        await bot.send_message(group.id, "ciao")
    assert caught.value.new_chat_id == supergroup.id == -1009990001


@pytest.mark.parametrize(
    ("kind", "status", "text"),
    [
        ("group", "kicked", "Forbidden: bot was kicked from the group chat"),
        ("supergroup", "kicked", "Forbidden: bot was kicked from the supergroup chat"),
        ("group", "left", "Forbidden: bot is not a member of the group chat"),
        ("supergroup", "left", "Forbidden: bot is not a member of the supergroup chat"),
    ],
)
async def test_a_bot_removed_from_a_group_is_told_then_refused_until_added_back(
    bot: Bot, tg: FakeTelegram, alice: FakeUser, kind: str, status: str, text: str
) -> None:
    group = tg.group(
        -1001234 if kind == "supergroup" else -1234, "Circolo", supergroup=kind == "supergroup"
    )
    board = await bot.send_message(group.id, "tavola")
    tg.remove_bot_from_group(group, alice, status=status)
    (update,) = await _updates(bot, tg)
    change = update.my_chat_member
    assert change is not None and change.chat.id == group.id
    assert change.new_chat_member.status == status
    if status == "kicked":
        assert isinstance(change.new_chat_member, ChatMemberBanned)
    assert not tg.bot_is_in(group)

    with forbidden(text):
        await bot.send_message(group.id, "ci sono?")
    with forbidden(text):
        await bot.edit_message_text("x", chat_id=group.id, message_id=board.message_id)
    assert tg.errors()[-1].error == text
    # What the members write there no longer reaches the bot; its buttons cannot be pressed.
    tg.send_message(group, alice, "/partita")
    assert await _updates(bot, tg) == ()
    with pytest.raises(FakeTelegramUsageError):
        tg.press(group, alice, board, "x", forge=True)

    tg.add_bot_to_group(group, alice, old=status, new="member")
    (update,) = await _updates(bot, tg)
    assert update.my_chat_member is not None
    assert update.my_chat_member.new_chat_member.status == "member"
    assert tg.bot_is_in(group)
    await bot.send_message(group.id, "di nuovo qui")


async def test_a_removal_the_bot_missed_shows_only_in_the_refusals(
    bot: Bot, tg: FakeTelegram, alice: FakeUser
) -> None:
    group = tg.group(-1234, "Circolo")
    tg.remove_bot_from_group(group, alice, notify=False)
    assert await _updates(bot, tg) == ()
    with forbidden("Forbidden: bot was kicked from the group chat"):
        await bot.send_message(group.id, "ci sono?")


async def test_a_user_who_blocks_the_bot_is_refused_until_they_restart_it(
    bot: Bot, tg: FakeTelegram, alice: FakeUser
) -> None:
    chat = tg.private_chat(alice)
    await bot.send_message(chat.id, "ciao")
    tg.block(alice)
    (update,) = await _updates(bot, tg)
    change = update.my_chat_member
    assert change is not None and change.chat.id == chat.id and change.from_user.id == alice.id
    assert isinstance(change.old_chat_member, ChatMemberMember)
    assert isinstance(change.new_chat_member, ChatMemberBanned)
    with forbidden("Forbidden: bot was blocked by the user"):
        await bot.send_message(chat.id, "ci sei?")
    with forbidden("Forbidden: bot was blocked by the user"):
        await bot.send_chat_action(chat.id, "typing")

    # Restart: unblocked (member again), then the message they wrote.
    tg.send_message(chat, alice, "/start")
    unblocked, start = await _updates(bot, tg)
    assert unblocked.my_chat_member is not None
    assert unblocked.my_chat_member.new_chat_member.status == "member"
    assert start.message is not None and start.message.text == "/start"
    await bot.send_message(chat.id, "bentornata")


async def test_a_block_the_bot_missed_and_an_explicit_unblock(
    bot: Bot, tg: FakeTelegram, alice: FakeUser
) -> None:
    chat = tg.private_chat(alice)
    tg.block(alice, notify=False)
    assert await _updates(bot, tg) == ()
    with forbidden("blocked by the user"):
        await bot.send_message(chat.id, "ci sei?")
    tg.unblock(alice)
    (update,) = await _updates(bot, tg)
    assert update.my_chat_member is not None
    assert update.my_chat_member.new_chat_member.status == "member"
    await bot.send_message(chat.id, "eccoti")
    with pytest.raises(FakeTelegramUsageError):
        tg.unblock(alice)


async def test_a_user_who_never_started_the_bot_cannot_be_written_to(
    bot: Bot, tg: FakeTelegram, alice: FakeUser
) -> None:
    with forbidden("Forbidden: bot can't initiate conversation with a user"):
        await bot.send_message(alice.id, "ciao")
    with forbidden("bot can't initiate conversation with a user"):
        await bot.send_chat_action(alice.id, "typing")
    tg.send_message(tg.private_chat(alice), alice, "/start")  # the user opens the chat
    await bot.send_message(alice.id, "ciao")
