"""The one path every game action takes: load, decide, settle, commit, follow up.

A button press, a typed move, a resignation and a turn deadline all end the same way: the
new table is saved over the loaded one with the version check (and, when a game has just
ended, its result is recorded in the same atomic step), the turn timers are made to match
the saved deadline, and the board painter is told that the chat has a newer state to show.
Nothing here waits for Telegram: showing happens in the painter, per chat, in the background.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from typing import Any

from telegram.error import TelegramError
from telegram.ext import ContextTypes

from bot import dice_words, tables
from bot.adapters import places
from bot.adapters.ptb_types import BotApp
from bot.game import flow
from bot.game.clock import Clock
from bot.game.dice import WORDS_VERSION, DiceProof, DiceSource, VerifiableDice
from bot.game.table import Table
from bot.services import Services, of_app, services
from bot.views import presenter
from engine import DecisionKind, EngineError, Phase, dice_commitment, new_dice_seed
from storage import (
    CorruptGameError,
    GameAlreadyActiveError,
    GameNotFoundError,
    GameResult,
    NewerGameError,
    StorageError,
    StoredGame,
    VersionConflictError,
)

log = logging.getLogger(__name__)


def needs_human(table: Table) -> bool:
    """True when the game waits for a person on turn (so a turn deadline applies)."""
    s = table.state
    return not s.is_over and s.phase is not Phase.OPENING and not table.actor.is_computer


def deadline_for(table: Table) -> float | None:
    if table.turn_seconds and needs_human(table):
        return time.time() + table.turn_seconds
    return None


#: The pause between two games of a match without a turn limit, before the next one starts
#: by itself (with a limit, the pause is one turn's time).
NEXT_GAME_SECONDS = 60


def between_games(table: Table) -> bool:
    """True between two games of a match or series: the next one is due."""
    return table.state.phase is Phase.GAME_OVER


def next_game_pause(table: Table) -> float:
    """How long the players have to start the next game before it starts by itself: the
    clock runs between games as in a turn, so nobody can hold a chat by walking away."""
    return float(table.turn_seconds or NEXT_GAME_SECONDS)


def clock_change(before: Table, after: Table) -> Clock:
    """A turn has one deadline: steps, take-backs and a resign prompt do not restart it."""
    if between_games(before) and between_games(after):
        return Clock.KEEP  # the pause between games keeps its deadline
    if not (after.turn_seconds and needs_human(after)):
        return Clock.STOP
    same = (
        needs_human(before)
        and before.actor.user_id == after.actor.user_id
        and before.state.game_number == after.state.game_number
    )
    return Clock.KEEP if same else Clock.NEW


@dataclass(frozen=True, slots=True)
class Saved:
    """A committed table: the stored game, and the clock's new deadline if one was set.

    ``prompt`` is the resign prompt's message whose offer the save moved on: the follow-up
    redraws it (the pipeline decides that it changed, the presenter how it reads)."""

    game: StoredGame
    table: Table
    clock: Clock
    due_at: float | None = None
    prompt: int | None = None
    board_kept: bool = False  # only the resign prompt changed: the board stays as it is


def prompt_moved(before: Table, after: Table) -> int | None:
    """The message of the resign prompt whose offer a save changed, or None.

    A prompt just sent (its message id new in ``after``) already shows the offer; a prompt
    whose offer was replaced by a newer one was tidied when that offer closed.
    """
    old, new = before.resign, after.resign
    if new is None or new.message_id is None or old is None or old == new:
        return None
    if old.message_id != new.message_id:
        return None
    return new.message_id


def game_result(chat_id: int, game_id: int, table: Table) -> GameResult:
    s = table.state
    r = s.result
    assert r is not None
    points = [0, 0]
    winner_id = None
    if r.winner is not None:
        wp = s.player_of(r.winner)
        points[wp] = r.points
        winner_id = table.players[wp].user_id
    return GameResult(
        chat_id=chat_id,
        game_id=game_id,
        variant=s.variant.value,  # storage's variant names are the engine's
        match_length=s.config.length,
        players=(table.players[0].user_id, table.players[1].user_id),
        names=(table.players[0].name, table.players[1].name),
        winner_id=winner_id,
        points=(points[0], points[1]),
        ends_match=s.phase is Phase.MATCH_OVER,
        in_chat=table.inline_message is None,  # an inline message has no chat leaderboard
        # A topic, or a further table, counts for its group.
        group_id=table.group if table.topic is None else table.topic[0],
    )


def dice_for(svc: Services, table: Table) -> DiceSource:
    """The dice of the table's game: its committed sequence, continued where the record
    stands, or the service's source for a game without a seed (scripted dice in tests)."""
    seeded = table.seeded_dice()
    return svc.dice if seeded is None else seeded


def verifiable(svc: Services) -> bool:
    """Do games get committed seeds (the production dice), or are the dice scripted?"""
    return isinstance(svc.dice, VerifiableDice)


async def with_fresh_dice(svc: Services, chat_id: int, table: Table, card: str = "") -> Table:
    """The table of a game about to start, with its verifiable dice.

    The seed is the pending one (the chat's, or its ``card``'s), whose commitment was shown
    with the button that is starting the game; the salt is the players' words as they are
    now, after the showing (``bot.dice_words``).
    """
    if not verifiable(svc):
        return table.with_dice(None)
    seed = await svc.repo.take_dice_seed(chat_id, card) or new_dice_seed()
    salt = await dice_words.salt_for(svc, table)
    return table.with_dice(DiceProof(seed, salt, WORDS_VERSION))


async def next_commitment(svc: Services, chat_id: int, card: str = "") -> str | None:
    """The commitment of the dice of the chat's next game (or of the game its ``card``
    starts), to show before it can start."""
    if not verifiable(svc):
        return None
    seed = await svc.repo.pending_dice_seed(chat_id, new_dice_seed(), card=card)
    return dice_commitment(seed)


async def settle(svc: Services, table: Table) -> Table:
    """Play on until a person must decide: automatic moves here, the computer in a worker."""
    dice = dice_for(svc, table)
    table = flow.advance(table, dice)
    while (kind := flow.computer_question(table)) is not None:
        assert table.ai_level is not None
        offer = flow.resign_question(table) if kind is DecisionKind.RESIGN else None
        decision = await svc.computer.decide(
            table.state, table.ai_level, svc.rng.getrandbits(32), offer
        )
        table = flow.advance(flow.apply_decision(table, decision, dice), dice)
    return table


def record_document(table: Table) -> dict[str, Any]:
    """What is kept of a finished game: its record, who played it, and its dice proof."""
    assert table.record is not None
    doc: dict[str, Any] = {
        "rec": table.record.to_doc(),
        "pl": [[p.user_id, p.name] for p in table.players],
    }
    if table.dice is not None:
        doc["dp"] = table.dice.to_doc()
    return doc


def _mark_turn(stored: StoredGame, before: Table, after: Table) -> Table:
    """Remember the version at which the current turn's moving began.

    Step buttons drawn since then stay good while the turn lasts (fast taps on a board that
    is being redrawn are applied), and buttons of earlier turns are recognised as stale.
    """
    if after.rolls != before.rolls:
        return replace(after, turn_version=stored.version + 1)
    return after


async def commit(svc: Services, stored: StoredGame, before: Table, after: Table) -> Saved:
    """Save ``after`` over ``stored`` (see ``_commit``), then tell the Mini App's pages."""
    saved = await _commit(svc, stored, before, after)
    if svc.live is not None:
        await svc.live.publish(saved.game.chat_id, saved.game.version)
    return saved


async def _commit(svc: Services, stored: StoredGame, before: Table, after: Table) -> Saved:
    """Save ``after`` over ``stored``; VersionConflictError/GameNotFoundError propagate.

    The turn deadline is written in the same atomic step: set anew when another person
    must act, kept while the same person is still playing their turn, cleared otherwise.
    """
    after = flow.close_moot_offer(_mark_turn(stored, before, after))
    after = _with_board_base(stored, before, after)
    clock = clock_change(before, after)
    due = deadline_for(after) if clock is Clock.NEW else None
    # The caption shows the deadline, so the table carries the one the save writes.
    if clock is Clock.NEW:
        after = replace(after, deadline=due)
    elif clock is Clock.STOP:
        after = replace(after, deadline=None)
    else:
        after = replace(after, deadline=before.deadline)
    doc = after.to_doc()
    if _match_left_between_games(before, after):
        return await _finish_match_between_games(svc, stored, before, after)
    if after.state.is_over and not before.state.is_over:
        after = replace(after, next_commitment=await next_commitment(svc, stored.chat_id))
        pause = time.time() + next_game_pause(after) if between_games(after) else None
        after = replace(after, deadline=pause)
        doc = after.to_doc()
        outcome = await svc.repo.finish_game(
            stored,
            doc,
            game_result(stored.chat_id, stored.game_id, after),
            deadline_at=pause,
            clear_deadline=pause is None,
        )
        game = replace(stored, version=outcome.version, doc=doc)
        # From here on the finish is committed: nothing may keep it from being shown.
        if after.record is not None:
            await archive(svc, game, after)
        return Saved(game, after, Clock.STOP, prompt=prompt_moved(before, after))
    game = await svc.repo.save_game(
        stored, doc, deadline_at=due, clear_deadline=clock is Clock.STOP
    )
    prompt = prompt_moved(before, after)
    kept = after.board_base is not None
    return Saved(replace(game, shown_version=stored.shown_version), after, clock, due, prompt, kept)


def _match_left_between_games(before: Table, after: Table) -> bool:
    return before.state.phase is Phase.GAME_OVER and after.state.phase is Phase.MATCH_OVER


async def _finish_match_between_games(
    svc: Services, stored: StoredGame, before: Table, after: Table
) -> Saved:
    """A match left between two games: its last game was counted when it ended, so the
    match's end is recorded with no points of a game of its own (the ratings move, the
    chat is free)."""
    after = replace(after, deadline=None)
    doc = after.to_doc()
    winner = after.state.match_winner
    assert winner is not None
    result = replace(
        game_result(stored.chat_id, stored.game_id, after),
        winner_id=after.players[winner].user_id,
        points=(0, 0),
        counts_game=False,
    )
    outcome = await svc.repo.finish_game(stored, doc, result, clear_deadline=True)
    game = replace(stored, version=outcome.version, doc=doc)
    return Saved(game, after, Clock.STOP, prompt=prompt_moved(before, after))


def _with_board_base(stored: StoredGame, before: Table, after: Table) -> Table:
    """Keep the board untouched while only a resign prompt changes (asked, levelled,
    declined, withdrawn): one group request per step, the prompt's. The board's buttons,
    drawn for the version before the first such save, stay good (``board_base``)."""
    if after.inline_message is None and after.only_offer_changed(before):
        return replace(
            after, board_base=stored.version if before.board_base is None else before.board_base
        )
    return replace(after, board_base=None)


#: How many times keeping a finished game's record is tried before it is given up.
ARCHIVE_ATTEMPTS = 3
#: The pause before the second attempt (doubled before each further one).
ARCHIVE_PAUSE_SECONDS = 0.05


async def archive(svc: Services, game: StoredGame, table: Table) -> bool:
    """Keep a committed finish's record (for /rivedi, /esporta, /analisi), best effort.

    The result already counts (it was recorded with the finish): a record that cannot be
    kept costs the replay and the analysis of that game, never the showing of its end. A
    storage failure is tried again a few times, then logged; True when the record is kept.
    """
    doc = record_document(table)
    pause = ARCHIVE_PAUSE_SECONDS
    for attempt in range(1, ARCHIVE_ATTEMPTS + 1):
        try:
            await svc.repo.archive_record(game.chat_id, game.game_id, table.state.game_number, doc)
            return True
        except StorageError as exc:
            log.warning(
                "cannot keep the record of game %s in chat %s (attempt %d of %d): %s",
                game.game_id,
                game.chat_id,
                attempt,
                ARCHIVE_ATTEMPTS,
                exc,
            )
        if attempt < ARCHIVE_ATTEMPTS:
            await asyncio.sleep(pause)
            pause *= 2
    log.error("the record of game %s in chat %s is lost", game.game_id, game.chat_id)
    return False


def follow_up(app: BotApp, saved: Saved, *, draw: bool = True) -> None:
    """After a commit: the timers follow the saved clock, and the board the saved state
    (unless the caller knows the board on screen still serves, see ``draw``)."""
    svc = of_app(app)
    chat = saved.game.chat_id
    # Best effort, both: a failure is logged and the board is still shown.
    try:
        svc.follow_clock(app, saved.game, saved.table, saved.clock, saved.due_at)
    except Exception:
        log.exception("the timers of chat %s could not follow the save", chat)
    painter = svc.painter
    if saved.board_kept:
        draw = False  # only the resign prompt changed: it is the one message to edit
    if saved.prompt is not None and saved.table.inline_message is not None:
        draw = True  # an inline table asks its resign prompt on the board
    elif saved.prompt is not None:
        try:
            _edit_prompt(svc, saved, saved.prompt)
        except Exception:  # a failure to word or queue it costs the prompt's edit only
            log.exception("cannot update the resign prompt of chat %s", chat)
    if draw:
        painter.show(saved.game, saved.table)


def _edit_prompt(svc: Services, saved: Saved, message_id: int) -> None:
    """Queue the redraw of the resign prompt whose offer the save moved on."""
    chat, table, painter = saved.game.chat_id, saved.table, svc.painter
    shown = presenter.resign_prompt(table, saved.game.game_id, saved.game.version)
    if shown is not None:
        text, markup = shown
        painter.edit_prompt(
            chat, message_id, text, markup, places.of_game(chat, None, table.topic, table.group)
        )


async def save_and_show(
    context: ContextTypes.DEFAULT_TYPE,
    stored: StoredGame,
    before: Table,
    after: Table,
    *,
    draw: bool = True,
) -> Saved:
    """Settle, commit and follow up: the tail every accepted action shares."""
    svc = services(context)
    after = await settle(svc, after)
    saved = await commit(svc, stored, before, after)
    follow_up(context.application, saved, draw=draw)
    return saved


#: How many times an action is decided again on a game another writer changed meanwhile.
CONFLICT_RETRIES = 5

#: Decides a press again on the game as it is stored now (None: it no longer applies).
Redo = Callable[["Loaded"], Table | None]
#: Answers a press once its action is saved; told the saved table, says whether to draw it.
Answer = Callable[[Table], Awaitable[bool]]


async def commit_then_answer(
    context: ContextTypes.DEFAULT_TYPE,
    stored: StoredGame,
    before: Table,
    after: Table,
    *,
    redo: Redo,
    answer: Answer,
) -> Saved | None:
    """Save a press, answer it, then do the slow part: the computer's turn and drawing.

    The answer goes out only once the action is saved (one round trip), so a press that was
    answered is never lost, whatever happens next (a crash, a restart). When another writer
    saved first (another webhook worker handling a quick second tap), the press is decided
    again by ``redo`` on the fresh game and saved over it while it still applies, up to
    ``CONFLICT_RETRIES`` times. None: it no longer applies and nothing was answered (the
    caller says why).
    """
    svc = services(context)
    for _ in range(CONFLICT_RETRIES + 1):
        quick = flow.advance(after, dice_for(svc, after))  # no decision: no waiting either
        try:
            saved = await commit(svc, stored, before, quick)
        except GameNotFoundError:
            return None
        except VersionConflictError:
            fresh = await load(svc, stored.chat_id)
            redone = None if fresh is None else redo(fresh)
            if fresh is None or redone is None:
                return None
            log.info("press re-applied after a version conflict in chat %s", stored.chat_id)
            stored, before, after = fresh.stored, fresh.table, redone
            continue
        try:
            draw = await answer(saved.table)
        except TelegramError as exc:  # the press is saved all the same: show what it did
            log.warning("cannot answer a saved press in chat %s: %s", stored.chat_id, exc)
            draw = True
        if flow.computer_question(saved.table) is not None:
            try:
                saved = await computer_turn(svc, saved.game, saved.table) or saved
            except Exception:
                log.exception("the computer could not play in chat %s", stored.chat_id)
            draw = True
        follow_up(context.application, saved, draw=draw)
        return saved
    log.warning(
        "press dropped after %d version conflicts in chat %s", CONFLICT_RETRIES, stored.chat_id
    )
    return None


async def computer_turn(svc: Services, stored: StoredGame, table: Table) -> Saved | None:
    """Let the computer play what it owes on a saved game, and save it (None: another
    writer got there first and the computer no longer owes anything)."""
    for _ in range(CONFLICT_RETRIES + 1):
        settled = await settle(svc, table)
        try:
            return await commit(svc, stored, table, settled)
        except VersionConflictError:
            fresh = await load(svc, stored.chat_id)
            if fresh is None or flow.computer_question(fresh.table) is None:
                return None
            stored, table = fresh.stored, fresh.table
    return None


@dataclass(frozen=True, slots=True)
class Loaded:
    """A chat's game as stored, and the table it holds."""

    stored: StoredGame
    table: Table


async def load(svc: Services, chat_id: int) -> Loaded | None:
    """The chat's game, or None. A record nobody can read raises CorruptGameError."""
    return as_loaded(await svc.repo.load_game(chat_id))


def as_loaded(stored: StoredGame | None) -> Loaded | None:
    """A game read from storage with its table (None: none). CorruptGameError when its
    document is no table the rules can play."""
    if stored is None:
        return None
    try:
        table = Table.from_doc(stored.doc)
    except EngineError as exc:
        raise CorruptGameError(stored.chat_id, str(exc)) from None
    return Loaded(stored, table)


# ------------------------------------------------------------------ a game's start
@dataclass(frozen=True, slots=True)
class Press:
    """The button press that asks for a new game, answered once the game exists; ``card``
    names the card whose dice commitment it was shown with ("" for the chat's own)."""

    id: str
    answer: Callable[[], Awaitable[object]]
    card: str = ""
    #: The place whose seed the button showed, when not the one the game starts in: the
    #: table where a finished game showed its next commitment (a room starts its game at
    #: a table of its own choosing).
    seed_place: int | None = None


async def _discard_if_corrupted(svc: Services, chat_id: int) -> bool:
    """A record nobody can read must not lock the chat for ever: a new game replaces it.

    Returns whether such a record was dropped."""
    try:
        await svc.repo.load_game(chat_id)
    except NewerGameError:
        raise  # written by a newer version of the bot: never replaced by an older one
    except CorruptGameError:
        log.warning("replacing a corrupted game in chat %s", chat_id)
        return await svc.repo.discard_game(chat_id)
    return False


async def _create(
    svc: Services,
    place: places.Place,
    table: Table,
    deadline: float | None,
    challenge_id: int | None,
) -> tuple[StoredGame, places.Place, Table]:
    """Store a new game; GameAlreadyActiveError when the chat has a readable one. In a
    room of several tables, a free table is claimed for its players (SeatTakenError when
    one of them plays at another) and the game noted at it. Returns the stored game, the
    table's place and the table as kept there."""
    if not tables.hosts_tables(place):
        stored = await _create_at(svc, place.key, table, deadline, challenge_id, None)
        return stored, place, table
    room = place
    await _discard_if_corrupted(svc, room.key)  # an unreadable game frees its table
    place = await tables.sit(svc, room, table)
    table = _at_table(table, place)
    people = [p.user_id for p in table.players if not p.is_computer]
    try:
        stored = await _create_at(svc, place.key, table, deadline, challenge_id, room.key)
    except BaseException:
        await svc.repo.tables.free(room.key, place.key, people, claim=False)
        raise
    await svc.repo.tables.note_game(room.key, place.key, stored.game_id, people)
    return stored, place, table


def _at_table(table: Table, place: places.Place) -> Table:
    """The table as kept at a further table of a plain group: it records its group."""
    if place.room is not None and place.topic_ref is None:
        return replace(table, group=place.chat_id)
    return table


async def _create_at(
    svc: Services,
    chat_id: int,
    table: Table,
    deadline: float | None,
    challenge_id: int | None,
    room: int | None,
) -> StoredGame:
    doc = table.to_doc()
    try:
        return await svc.repo.create_game(
            chat_id, doc, deadline_at=deadline, challenge_id=challenge_id, challenge_room=room
        )
    except GameAlreadyActiveError:
        # Only when the chat seems busy is it worth a look at what occupies it.
        if not await _discard_if_corrupted(svc, chat_id):
            raise
        return await svc.repo.create_game(
            chat_id, doc, deadline_at=deadline, challenge_id=challenge_id, challenge_room=room
        )


async def start_game(
    context: ContextTypes.DEFAULT_TYPE,
    place: places.Place,
    table: Table,
    *,
    challenge_id: int | None = None,
    press: Press | None = None,
) -> StoredGame:
    """Create the place's game from a fresh table, play the opening, post the board.

    The ``press`` that asked for the game is answered as soon as the game exists, before the
    board is drawn and sent. GameAlreadyActiveError: the place has a game already;
    ChallengeGoneError: the challenge ``challenge_id`` was taken meanwhile. In a group or a
    topic (a room of several tables) the game starts at a free table of it: SeatTakenError
    when one of the players already plays at another, RoomFullError when none is free.
    """
    svc = services(context)
    chat_id = place.key
    if place.is_inline:
        table = replace(table, inline_message=place.inline_message_id)
    topic = place.topic_ref
    if topic is not None:  # a forum topic: the group can find its tables (see places)
        table = replace(table, topic=topic)
        await svc.repo.remember_topic(topic[0], chat_id, topic[1])
    if press is not None:
        seed_at = chat_id if press.seed_place is None else press.seed_place
        table = await with_fresh_dice(svc, seed_at, table, press.card)
    table = await settle(svc, table)
    deadline = deadline_for(table)
    table = replace(table, deadline=deadline)  # the caption shows it
    stored, place, table = await _create(svc, place, table, deadline, challenge_id)
    chat_id = stored.chat_id
    if press is not None:
        await press.answer()
    await dice_words.post_commitment(context.bot, place, table)
    message_id = await svc.painter.post(stored, table)
    stored = replace(stored, board_message_id=message_id, shown_version=stored.version)
    if deadline is not None:
        # The first turn's clock starts when its board can be seen, not before it is drawn.
        deadline = deadline_for(table) or deadline
        await svc.repo.set_deadline(chat_id, deadline)
        svc.follow_clock(context.application, stored, table, Clock.NEW, deadline)
    return stored


async def busy(svc: Services, chat_id: int) -> bool:
    """Does the place have a game a new one may not replace? A record nobody can read does
    not lock it for ever (``start_game`` replaces it); a newer version's game stays
    (NewerGameError propagates, and the chat is told)."""
    try:
        stored = await svc.repo.load_game(chat_id)
    except NewerGameError:
        raise
    except CorruptGameError:
        return False
    return stored is not None
