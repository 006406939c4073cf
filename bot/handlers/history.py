"""A finished game named by its number: ``/rivedi 2``, ``/verifica 2``, ``/posizione 2``,
and ``/partita``'s list of the match's games with their numbers.

The match is the one ``bot.finished`` finds for the place (the match in progress, or the
last one once it is over), so the commands keep working after the match ends. A number
that is no number, or none of the match's finished games, is answered with what to write
instead; nothing changes.
"""

from __future__ import annotations

from collections.abc import Sequence

from telegram import Update
from telegram.ext import ContextTypes

from bot import pipeline, tables
from bot.adapters import places
from bot.adapters.places import Place
from bot.finished import FinishedMatch, KeptGame, finished_match
from bot.game.positions import final_position_text
from bot.handlers.common import reply
from bot.services import services
from bot.texts import history as H
from engine import EngineError
from storage import CorruptGameError, NewerGameError

#: Seconds a worker may take to replay a kept game to its end (tens of milliseconds).
JOB_SECONDS = 20.0


class BadNumberError(ValueError):
    """The command's argument, when it names no finished game; its text says what to write."""


def requested_number(command: str, args: Sequence[str] | None) -> int | None:
    """The game number written after ``command`` (None: none written, the last game).

    BadNumberError when the argument is not a plain positive number."""
    if not args:
        return None
    given = " ".join(args)
    if len(args) != 1 or not args[0].isdecimal() or len(args[0]) > 4:
        raise BadNumberError(H.bad_number(command, given))
    return int(args[0])


def pick(command: str, found: FinishedMatch, number: int | None) -> KeptGame:
    """Game ``number`` of ``found`` (None: its last); BadNumberError when it has none such."""
    if number is None:
        return found.last
    for game in found.games:
        if game.record.game_number == number:
            return game
    numbers = [game.record.game_number for game in found.games]
    raise BadNumberError(H.no_such_game(command, number, numbers))


async def _callers_table(update: Update, context: ContextTypes.DEFAULT_TYPE) -> Place:
    """The table the caller plays (or last played) at: a forum topic keeps its own records,
    and a group's further tables theirs."""
    room, user = places.of_update(update), update.effective_user
    assert room is not None
    if user is None:
        return room
    return await tables.for_history(services(context), room, user.id)


async def _match(
    update: Update, context: ContextTypes.DEFAULT_TYPE, game_id: int | None = None
) -> FinishedMatch | None:
    place = await _callers_table(update, context)
    try:
        return await finished_match(services(context), place.key, game_id)
    except (CorruptGameError, EngineError):
        return None


async def on_position_of_game(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """``/posizione N``: the final position of the match's game N, as /posizione writes one."""
    try:
        number = requested_number("posizione", context.args)
        found = await _match(update, context)
        if found is None:
            await reply(update, H.NO_FINISHED_GAMES)
            return
        game = pick("posizione", found, number)
    except BadNumberError as bad:
        await reply(update, str(bad))
        return
    svc = services(context)
    try:  # replaying the record through the rules is a worker's job
        text = await svc.computer.run(JOB_SECONDS, final_position_text, game.record.to_doc())
    except (EngineError, TimeoutError):
        await reply(update, H.NO_FINISHED_GAMES)
        return
    await reply(update, text)


def games_list(found: FinishedMatch, *, going_on: bool) -> str:
    """The match's finished games, numbered, with who won each and how."""
    lines = []
    for game in found.games:
        result = game.record.result
        if result is None:
            continue
        start = game.record.initial_state()
        winner = None if result.winner is None else start.player_of(result.winner)
        name = None if winner is None else game.players[winner].name
        lines.append(H.game_line(game.record.game_number, name, result.kind, result.points))
    config = found.last.record.config
    return H.match_games(found.names, config.variant, config.length, lines, going_on=going_on)


async def list_when_no_game(update: Update, context: ContextTypes.DEFAULT_TYPE) -> bool:
    """/partita with no game in progress: the last match's games, numbered. False when
    a game is in progress (its board is posted) or there is no finished game either."""
    place = await _callers_table(update, context)
    try:
        if await pipeline.busy(services(context), place.key):
            return False
    except NewerGameError:
        return False  # the board's own answer says so
    found = await _match(update, context)
    if found is None:
        return False
    await reply(update, games_list(found, going_on=False))
    return True


async def list_after_board(
    update: Update, context: ContextTypes.DEFAULT_TYPE, loaded: pipeline.Loaded
) -> None:
    """/partita during a match with finished games: their list follows the board."""
    if loaded.table.state.game_number < 2:
        return  # its first game: nothing finished yet
    found = await _match(update, context, loaded.stored.game_id)
    if found is not None and found.game_id == loaded.stored.game_id:
        await reply(update, games_list(found, going_on=True))
