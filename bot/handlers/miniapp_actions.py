"""A page's action played through the board's own pipeline.

The same checks as a button press (the game it names, one of its players, the version it
was decided on), the same rules (``flow.apply_action``), the same commit with the version
check and the same follow-up (``pipeline.commit_then_answer``: the timers, the computer's
reply, the chat's board). The page is answered once the action is saved, so an answer
means saved. A page action is decided on the exact version the page showed and is never
re-applied to a game another writer changed meanwhile: a chat press and a page move made
in the same turn never both apply, the later one is refused with the fresh table.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field
from typing import Any

from telegram.ext import CallbackContext, ContextTypes

from bot import pipeline
from bot.adapters import places
from bot.adapters.ptb_types import BotApp
from bot.game import flow
from bot.game.actions import FRESH_NOTES, Action, arity_ok
from bot.game.table import Table
from bot.handlers import game
from bot.services import of_app
from bot.texts import messages as T
from engine import Phase
from storage import CorruptGameError, NewerGameError

log = logging.getLogger(__name__)

#: The page's names of the actions it may send.
PAGE_ACTIONS: dict[str, Action] = {
    "roll": Action.ROLL,
    "double": Action.DOUBLE,
    "take": Action.TAKE,
    "drop": Action.DROP,
    "step": Action.STEP,
    "undo": Action.UNDO,
    "confirm": Action.CONFIRM,
    "resign": Action.RESIGN,
}
PLAYING = (Phase.ROLL, Phase.MOVE)


@dataclass(frozen=True, slots=True)
class Request:
    """What the page asks: an action on the game and version it showed."""

    game: int
    version: int
    action: Action
    args: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class Outcome:
    """Saved (``ok``), or refused with a short Italian reason and an HTTP status."""

    ok: bool
    status: int = 200
    reason: str = ""


@dataclass
class PageActions:
    """The page's actions of one bot process (the tasks that finish them are kept here)."""

    app: BotApp
    tasks: set[asyncio.Task[object]] = field(default_factory=set)

    async def act(self, key: int, user_id: int, req: Request) -> Outcome:
        if not arity_ok(req.action, len(req.args)):
            return Outcome(False, 400, T.ALERT_STALE_BUTTON)
        svc = of_app(self.app)
        try:
            loaded = await pipeline.load(svc, key)
        except NewerGameError:
            return Outcome(False, 409, T.GAME_TOO_NEW)
        except CorruptGameError:
            log.exception("corrupted game in chat %s", key)
            return Outcome(False, 500, T.GENERIC_ERROR)
        if loaded is None or loaded.stored.game_id != req.game:
            return Outcome(False, 409, T.ALERT_STALE_BUTTON)
        table, stored = loaded.table, loaded.stored
        index = table.index_of(user_id)
        if index is None:
            return Outcome(False, 403, T.ALERT_NOT_A_PLAYER)
        if stored.version != req.version:
            return Outcome(False, 409, T.ALERT_BOARD_UPDATED)
        base = table.fresh_notes() if req.action in FRESH_NOTES else table
        result = flow.apply_action(base, index, req.action, req.args)
        if isinstance(result, flow.Refusal):
            return Outcome(False, 409, result.alert)
        context: ContextTypes.DEFAULT_TYPE = CallbackContext(self.app)
        if req.action is Action.RESIGN:
            place = places.of_game(key, table.inline_message, table.topic)
            if place.is_inline:
                await game.open_offer_on_board(context, loaded, result)
            else:
                await game.open_offer(context, place, loaded, result, reply_to=None)
            return Outcome(True)
        if req.action is Action.ROLL:
            result = flow.roll(result, pipeline.dice_for(svc, result))
        return await self._commit(context, loaded, result)

    async def _commit(
        self, context: ContextTypes.DEFAULT_TYPE, loaded: pipeline.Loaded, after: Table
    ) -> Outcome:
        """Commit through the pipeline; the page's answer comes once the save is done (the
        computer's reply and the chat's board follow in the background)."""
        before = loaded.table
        answered: asyncio.Future[None] = asyncio.get_running_loop().create_future()

        async def answer(saved: Table) -> bool:
            if not answered.done():
                answered.set_result(None)
            return chat_board_due(before, saved)

        task: asyncio.Task[object] = asyncio.create_task(
            pipeline.commit_then_answer(
                context, loaded.stored, before, after, redo=_never_again, answer=answer
            )
        )
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)
        waiting: set[asyncio.Future[Any]] = {task, answered}
        await asyncio.wait(waiting, return_when=asyncio.FIRST_COMPLETED)
        if answered.done():
            return Outcome(True)
        if task.result() is None:  # another writer saved first: the page is behind
            return Outcome(False, 409, T.ALERT_BOARD_UPDATED)
        return Outcome(True)  # pragma: no cover - commit_then_answer always answers a save


def _never_again(fresh: pipeline.Loaded) -> Table | None:
    """A page action is decided on the version the page showed, never on another."""
    return None


def chat_board_due(before: Table, after: Table) -> bool:
    """Must the chat's photo board be redrawn after a page action? Once per turn: not for
    the roll and the steps of the turn being played (the page shows them live), yes when
    the turn passes, a double is offered or answered, or the game ends."""
    b, a = before.state, after.state
    same_turn = (
        not a.is_over
        and a.game_number == b.game_number
        and a.phase in PLAYING
        and b.phase in PLAYING
        and before.actor.user_id == after.actor.user_id
        and not (after.vs_computer and after.actor.is_computer)
    )
    return not same_turn
