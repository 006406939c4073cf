"""Saving a table and showing it: the two things every action ends with.

``commit`` writes the new table with the version check (and, when a game has just ended,
records its result in the same atomic step); ``show`` draws the board and edits the board
message in place, or posts it when there is none yet.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from dataclasses import dataclass
from enum import Enum

from telegram import InputMediaPhoto, Message
from telegram.constants import ParseMode
from telegram.error import BadRequest
from telegram.ext import ContextTypes

from bot import presenter
from bot.services import Services, services
from bot.table import Table
from engine import Phase
from render import board_png
from storage import GameResult, StoredGame

log = logging.getLogger(__name__)


def needs_human(table: Table) -> bool:
    """True when the game waits for a person on turn (so a turn deadline applies)."""
    s = table.state
    return not s.is_over and s.phase is not Phase.OPENING and not table.actor.is_computer


def deadline_for(table: Table) -> float | None:
    if table.turn_seconds and needs_human(table):
        return time.time() + table.turn_seconds
    return None


class Clock(Enum):
    """What a save does to the turn clock."""

    KEEP = "keep"  # the same person still has to finish the same turn
    NEW = "new"  # somebody else must act now: a fresh deadline
    STOP = "stop"  # nobody is on the clock (game over, the computer's turn, no limit)


def clock_change(before: Table, after: Table) -> Clock:
    """A turn has one deadline: steps, take-backs and a resign prompt do not restart it."""
    if not (after.turn_seconds and needs_human(after)):
        return Clock.STOP
    same_turn = (
        needs_human(before)
        and before.actor.user_id == after.actor.user_id
        and before.state.game_number == after.state.game_number
    )
    return Clock.KEEP if same_turn else Clock.NEW


@dataclass(frozen=True, slots=True)
class Saved:
    """A committed table: the stored game, and the clock's new deadline if one was set."""

    game: StoredGame
    clock: Clock
    due_at: float | None = None


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
    )


async def commit(svc: Services, stored: StoredGame, before: Table, after: Table) -> Saved:
    """Save ``after`` over ``stored``; VersionConflictError/GameNotFoundError propagate.

    The turn deadline is written in the same atomic step: set anew when another person
    must act, kept while the same person is still playing their turn, cleared otherwise.
    """
    doc = after.to_doc()
    clock = clock_change(before, after)
    due = deadline_for(after) if clock is Clock.NEW else None
    if after.state.is_over and not before.state.is_over:
        outcome = await svc.repo.finish_game(
            stored,
            doc,
            game_result(stored.chat_id, stored.game_id, after),
            clear_deadline=True,
        )
        game = StoredGame(
            stored.chat_id, stored.game_id, outcome.version, doc, stored.board_message_id
        )
        return Saved(game, Clock.STOP)
    game = await svc.repo.save_game(
        stored, doc, deadline_at=due, clear_deadline=clock is Clock.STOP
    )
    return Saved(game, clock, due)


async def render_png(table: Table) -> bytes:
    """Draw in a worker thread: the event loop keeps serving other chats meanwhile."""
    view = presenter.board_view(table)
    return await asyncio.to_thread(board_png, view, orientation=presenter.orientation(table))


async def post(context: ContextTypes.DEFAULT_TYPE, stored: StoredGame, table: Table) -> Message:
    """Post the board as a new message and remember it as the chat's board message."""
    png = await render_png(table)
    msg = await context.bot.send_photo(
        stored.chat_id,
        photo=png,
        caption=presenter.caption(table),
        parse_mode=ParseMode.HTML,
        reply_markup=presenter.keyboard(table, stored.game_id, stored.version),
    )
    await services(context).repo.set_board_message(stored.chat_id, stored.game_id, msg.message_id)
    return msg


async def show(context: ContextTypes.DEFAULT_TYPE, stored: StoredGame, table: Table) -> None:
    """Edit the board message in place (post a new one if it is gone)."""
    if stored.board_message_id is None:
        await post(context, stored, table)
        return
    png = await render_png(table)
    media = InputMediaPhoto(png, caption=presenter.caption(table), parse_mode=ParseMode.HTML)
    try:
        await context.bot.edit_message_media(
            media,
            chat_id=stored.chat_id,
            message_id=stored.board_message_id,
            reply_markup=presenter.keyboard(table, stored.game_id, stored.version),
        )
    except BadRequest as exc:
        text = str(exc).lower()
        if "not modified" in text:
            return  # the same picture, caption and buttons: nothing to do
        if "not found" in text or "can't be edited" in text:
            log.info("board message of chat %s is gone; posting a new one", stored.chat_id)
            await post(context, stored, table)
            return
        raise


async def retire_keyboard(
    context: ContextTypes.DEFAULT_TYPE, chat_id: int, message_id: int
) -> None:
    """Remove the buttons from an old board message (best effort)."""
    with contextlib.suppress(BadRequest):
        await context.bot.edit_message_reply_markup(chat_id, message_id, reply_markup=None)
