"""Several tables in one group: any two members play while others play, each person at one
table; commands act on the caller's own game, buttons on their board's table; a rematch
offer waiting concerns only its two players."""

from __future__ import annotations

from bot.adapters.places import table_key, topic_key
from bot.game.table import Table
from bot.texts import tables as TT
from engine import Phase

from .conftest import BotUnderTest, choose_step, post_challenge, start_match, turn_holder
from .fake_telegram import FakeChat, FakeTelegram, FakeUser, StoredMessage


def _dario(tg: FakeTelegram) -> FakeUser:
    return tg.user(104, "Dario", "dario")


async def _board_of(bot: BotUnderTest, group: FakeChat, key: int) -> StoredMessage:
    """The board message of the game kept under ``key`` (a table of the group)."""
    stored = await bot.repo.load_game(key)
    assert stored is not None and stored.board_message_id is not None
    return bot.tg.message(group, stored.board_message_id)


async def _table_at(bot: BotUnderTest, key: int) -> Table:
    stored = await bot.repo.load_game(key)
    assert stored is not None, f"no game at {key}"
    return Table.from_doc(stored.doc)


async def _second_pair(
    bot: BotUnderTest, group: FakeChat, carla: FakeUser, dario: FakeUser, options: str
) -> StoredMessage:
    """Carla challenges, Dario accepts while another table plays; returns the new board."""
    card = await post_challenge(bot, group, carla, options)
    bot.dice.queue_opening(5, 2)
    accepted = await bot.press(group, dario, card, "Accetta")
    assert accepted.alert is None, accepted.alert
    assert accepted.of("sendPhoto"), accepted.methods
    return await _board_of(bot, group, table_key(group.id, 1))


async def _one_press(
    bot: BotUnderTest, group: FakeChat, key: int, players: tuple[FakeUser, FakeUser]
) -> bool:
    """Press one button of the table ``key``'s board as its player on turn would; False
    once that game is over."""
    stored = await bot.repo.load_game(key)
    if stored is None:
        return False
    table = Table.from_doc(stored.doc)
    if table.state.is_over:
        return False
    board = await _board_of(bot, group, key)
    labels = board.button_texts
    user = turn_holder(board.caption or "", players)
    assert user is not None, board.caption
    if "✅ Conferma" in labels:
        data = board.data_for("✅ Conferma")
    elif "🎲 Tira i dadi" in labels:
        data = board.data_for("🎲 Tira i dadi")
    else:
        legal = set()
        if table.state.phase is Phase.MOVE:
            legal = {(s.src, s.dst, s.die) for s in table.state.legal_steps()}
        data = choose_step(board, legal)
        assert data is not None, labels
    reaction = await bot.press(group, user, board, data=data)
    assert reaction.alert is None, reaction.alert
    return True


async def test_two_games_at_once_in_one_group(
    bot: BotUnderTest, group: FakeChat, anna: FakeUser, bruno: FakeUser, carla: FakeUser
) -> None:
    dario = _dario(bot.tg)
    bot.dice.queue_opening(3, 1)
    await start_match(bot, group, anna, bruno, "classico 1")
    await _second_pair(bot, group, carla, dario, "classico 1")
    first, second = group.id, table_key(group.id, 1)
    assert [p.user_id for p in (await _table_at(bot, first)).players] == [anna.id, bruno.id]
    assert [p.user_id for p in (await _table_at(bot, second)).players] == [carla.id, dario.id]

    playing = {first: (anna, bruno), second: (carla, dario)}
    for _ in range(3000):  # one press at each table in turn, until both games are over
        if not playing:
            break
        for key, pair in list(playing.items()):
            if not await _one_press(bot, group, key, pair):
                del playing[key]
    assert not playing, "the games did not finish"

    for key, pair in ((first, (anna, bruno)), (second, (carla, dario))):
        ids = await bot.repo.finished_game_ids(key)
        assert len(ids) == 1
        done = await bot.repo.load_finished_game(key, ids[0])
        assert done is not None and done.result["winner_id"] in {u.id for u in pair}
        board = await _final_board(bot, group, key, ids[0])
        assert "Rivincita" in board.button_texts
    leaders = {e.user_id for e in await bot.repo.leaderboard("classic", group.id)}
    assert leaders == {anna.id, bruno.id, carla.id, dario.id}
    for user in (anna, bruno, carla, dario):
        assert (await bot.repo.player_stats(user.id, group.id)).total("games") == 1
    # The group is free again: a new pair sits at its first table.
    bot.dice.queue_opening(6, 1)
    await start_match(bot, group, bruno, carla, "classico 1")
    assert [p.user_id for p in (await _table_at(bot, first)).players] == [bruno.id, carla.id]


async def _final_board(bot: BotUnderTest, group: FakeChat, key: int, game_id: int) -> StoredMessage:
    """The last board of a finished game (its buttons name the game)."""
    for message in reversed(bot.tg.chat_messages(group, from_bot=True)):
        if message.photo is not None and any(
            d.split(":")[1:2] == [str(game_id)] for d in message.callback_data
        ):
            return message
    raise AssertionError(f"no board of game {game_id} at {key}")


async def test_a_seated_player_is_refused_a_second_table(
    bot: BotUnderTest, group: FakeChat, anna: FakeUser, bruno: FakeUser, carla: FakeUser
) -> None:
    bot.dice.queue_opening(3, 1)
    await start_match(bot, group, anna, bruno, "classico 1")
    hello = bot.tg.send_message(group, bruno, "ciao")

    mine = await bot.say(group, anna, "/sfida")
    assert mine.texts() == [
        "Stai già giocando con Bruno in questa chat: finisci quella partita prima (/partita)."
    ]
    theirs = await bot.say(group, carla, "/sfida", reply_to=hello)
    assert theirs.texts() == [TT.plays_already_alert("Bruno", "Anna")]

    card = await post_challenge(bot, group, carla)  # open to anyone: Bruno may not take it
    taken = await bot.press(group, bruno, card, "Accetta")
    assert taken.alert == TT.you_play_already_alert("Anna")
    assert not taken.of("sendPhoto")
    assert await bot.repo.load_game(table_key(group.id, 1)) is None
    assert "Accetta" in bot.tg.message(group, card.message_id).button_texts  # still open


async def test_commands_act_on_the_callers_own_game(
    bot: BotUnderTest, group: FakeChat, anna: FakeUser, bruno: FakeUser, carla: FakeUser
) -> None:
    dario = _dario(bot.tg)
    ivo = bot.tg.user(105, "Ivo", "ivo")
    bot.dice.queue_opening(3, 1)
    await start_match(bot, group, anna, bruno, "classico 3")
    await _second_pair(bot, group, carla, dario, "lungo 1")
    first, second = group.id, table_key(group.id, 1)

    asked = await bot.say(group, dario, "/abbandona")
    assert asked.of("sendMessage"), asked.methods
    assert (await _table_at(bot, second)).resign is not None  # Dario's own game
    assert (await _table_at(bot, first)).resign is None

    where = await bot.say(group, carla, "/posizione")
    assert where.texts() and "Position ID" not in where.texts()[0]  # a long game's id

    spectator = await bot.say(group, ivo, "/abbandona")
    assert spectator.texts() == [TT.NOT_SEATED]
    listed = await bot.say(group, ivo, "/partita")
    (text,) = listed.texts()
    assert "Tavoli in corso" in text and "Anna" in text and "Dario" in text
    assert not listed.of("sendPhoto")

    card = await bot.say(group, ivo, "/sfida")
    (shown,) = card.texts()
    assert "Tavoli in corso" in shown and "Carla" in shown

    # Anna's own /partita re-posts her board, not Carla's.
    reposted = await bot.say(group, anna, "/partita")
    assert reposted.of("sendPhoto")
    assert (await bot.repo.load_game(first)) is not None
    board = await _board_of(bot, group, first)
    assert board.message_id == reposted.of("sendPhoto")[0].result["message_id"]


async def test_a_rematch_offer_waiting_does_not_block_another_pair(
    bot: BotUnderTest, group: FakeChat, anna: FakeUser, bruno: FakeUser, carla: FakeUser
) -> None:
    dario = _dario(bot.tg)
    bot.dice.queue_opening(3, 1)
    await start_match(bot, group, anna, bruno, "classico 1")
    asked = await bot.say(group, anna, "/abbandona")
    prompt = bot.tg.message(group, asked.of("sendMessage")[0].result["message_id"])
    await bot.press(group, anna, prompt, "Vittoria semplice · 1 punto")
    await bot.press(group, bruno, prompt, "Accetto l'abbandono")
    board = bot.board(group)
    offered = await bot.press(group, anna, board, "Rivincita")
    (sent,) = offered.of("sendMessage")
    offer = bot.tg.message(group, sent.result["message_id"])

    # Meanwhile another pair plays: the offer concerns Anna and Bruno only.
    card = await post_challenge(bot, group, carla)
    bot.dice.queue_opening(5, 2)
    accepted = await bot.press(group, dario, card, "Accetta")
    assert accepted.alert is None and accepted.of("sendPhoto")
    assert [p.user_id for p in (await _table_at(bot, group.id)).players] == [carla.id, dario.id]

    # And the rematch, accepted, gets a table of its own.
    bot.dice.queue_opening(4, 2)
    rematch = await bot.press(group, bruno, offer, "Accetta")
    assert rematch.alert is None and rematch.of("sendPhoto")
    again = await _table_at(bot, table_key(group.id, 1))
    assert [p.user_id for p in again.players] == [anna.id, bruno.id]


async def test_a_forum_topic_hosts_several_tables(
    bot: BotUnderTest, anna: FakeUser, bruno: FakeUser, carla: FakeUser
) -> None:
    dario = _dario(bot.tg)
    mod = bot.tg.user(110, "Moderatore", "moderatore")
    forum = bot.tg.group(-1001777000, "Circolo", supergroup=True, forum=True)
    topic = bot.tg.create_topic(forum, mod, "Sala")
    await bot.idle()
    room = topic_key(forum.id, topic.thread_id)

    async def say(user: FakeUser, text: str) -> StoredMessage | None:
        start = len(bot.tg.requests)
        bot.tg.send_message(forum, user, text, topic=topic)
        await bot.idle()
        sent = [r for r in bot.tg.calls(since=start) if r.method == "sendMessage"]
        return bot.tg.message(forum, sent[0].result["message_id"]) if sent else None

    for challenger, opponent in ((anna, bruno), (carla, dario)):
        card = await say(challenger, "/sfida classico 1")
        assert card is not None
        await bot.press(forum, challenger, card, "Lancia la sfida")
        bot.dice.queue_opening(3, 1)
        accepted = await bot.press(forum, opponent, card, "Accetta")
        assert accepted.alert is None, accepted.alert
        (photo,) = accepted.of("sendPhoto")
        assert photo.params.get("message_thread_id") in (topic.thread_id, str(topic.thread_id))
    second = table_key(room, 1)
    assert [p.user_id for p in (await _table_at(bot, second)).players] == [carla.id, dario.id]

    prompt = await say(dario, "/abbandona")
    assert prompt is not None and prompt.thread_id == topic.thread_id
    await bot.press(forum, dario, prompt, "Vittoria semplice · 1 punto")
    await bot.press(forum, carla, prompt, "Accetto l'abbandono")
    assert await bot.repo.load_game(second) is None  # that match is over
    assert (await _table_at(bot, room)).players[0].user_id == anna.id  # this one goes on
    leaders = {e.user_id for e in await bot.repo.leaderboard("classic", forum.id)}
    assert leaders == {carla.id, dario.id}  # the topic's tables count for the group


async def test_history_commands_find_the_callers_last_table(
    bot: BotUnderTest, group: FakeChat, anna: FakeUser, bruno: FakeUser, carla: FakeUser
) -> None:
    dario = _dario(bot.tg)
    bot.dice.queue_opening(3, 1)
    await start_match(bot, group, anna, bruno, "classico 1")
    await _second_pair(bot, group, carla, dario, "classico 1")
    asked = await bot.say(group, dario, "/abbandona")
    prompt = bot.tg.message(group, asked.of("sendMessage")[0].result["message_id"])
    await bot.press(group, dario, prompt, "Vittoria semplice · 1 punto")
    await bot.press(group, carla, prompt, "Accetto l'abbandono")
    assert await bot.repo.load_game(table_key(group.id, 1)) is None  # that match is over

    (listed,) = (await bot.say(group, carla, "/mosse")).texts()
    assert "Carla contro Dario" in listed  # her own game, though Anna and Bruno play on
    (playing,) = (await bot.say(group, bruno, "/mosse")).texts()
    assert "Anna contro Bruno" in playing
