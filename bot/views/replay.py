"""The replay of a finished game: its plays as the frames of an animated GIF.

A frame shows the board after each action (a play, a double, a take, a drop), with the
dice and the play written above it and the play's steps highlighted, as on the live
board; the first frame is the starting position and the last one the result. Drawing
some fifty boards and encoding them takes about a second of CPU, so ``replay_gif_job``
runs in a worker process (the computer's pool) and only bytes come back; the match
file's job (``export_job``) too, since it replays every game of the match.
"""

from __future__ import annotations

import dataclasses
import datetime
from collections.abc import Iterator
from typing import Any

from bot.game.table import Player, Table
from bot.texts import replay_export as RX
from bot.views.presenter import board_view, render_side
from engine import (
    ActionKind,
    EndReason,
    GameRecord,
    GameState,
    GameTranscript,
    MatchTranscript,
    format_steps,
    match_file_suffix,
    record_transcript,
    replay_game,
    roll_dice,
    sgf_file_name,
    wants_sgf,
    write_match,
    write_sgf,
)
from render import BoardView, Die, ReplayFrame, replay_gif
from render import Side as RenderSide


def _table(state: GameState, names: tuple[str, str]) -> Table:
    # Ids only tell a person from the computer, which the picture does not show.
    return Table(state=state, players=(Player(1, names[0]), Player(2, names[1])))


def _frames(
    start: GameState, game: GameTranscript, names: tuple[str, str], bottom: int | None
) -> Iterator[ReplayFrame]:
    played = list(replay_game(start, game))
    # Who plays White: fixed in classic, settled by the opening roll in long.
    white = played[0][0].white_player if played else start.white_player
    orientation: RenderSide = "white"
    if bottom is not None and bottom != white:
        orientation = "black"
    shown = GameState(  # names at their colours
        match_part=start.match_part,
        game_part=start.game_part,
        turn_part=start.turn_part,
        white_player=white,
    )
    first = _plain(board_view(_table(shown, names)))
    caption = RX.frame_start(names[white], names[1 - white], game.number)
    yield ReplayFrame(first, caption, orientation)
    number = 0
    for after, action in played:
        view = _plain(board_view(_table(after, names)))
        if action is None:  # resigned, or out of time
            result = after.result
            assert result is not None and result.winner is not None
            loser = names[after.player_of(result.winner.other)]
            timeout = result.reason is EndReason.TIMEOUT
            text = RX.frame_timeout(loser) if timeout else RX.frame_resigned(loser)
            yield ReplayFrame(view, text, orientation)
            continue
        number += 1
        name = names[action.player]
        if action.kind is ActionKind.MOVE:
            assert action.dice is not None
            side = render_side(after.side_of(action.player))
            dice = tuple(Die(d) for d in roll_dice(*action.dice))
            if not after.is_over:
                view = dataclasses.replace(view, turn=side, perspective=side, dice=dice)
            notation = format_steps(action.steps)
            yield ReplayFrame(view, RX.frame_move(number, name, action.dice, notation), orientation)
        elif action.kind is ActionKind.DOUBLE:
            yield ReplayFrame(view, RX.frame_double(number, name, action.cube), orientation)
        elif action.kind is ActionKind.TAKE:
            yield ReplayFrame(view, RX.frame_take(number, name), orientation)
        else:
            yield ReplayFrame(view, RX.frame_drop(number, name), orientation)


def _plain(view: BoardView) -> BoardView:
    """The live board's view without its prompt line (a replay has nobody on turn)."""
    return dataclasses.replace(view, status="")


def replay_frames(
    start: GameState,
    game: GameTranscript,
    names: tuple[str, str],
    bottom_player: int | None = None,
) -> list[ReplayFrame]:
    """The frames of ``game`` played from ``start``: the start, one per action, and one
    more when the game ended by resignation or time. ``bottom_player`` sits at the bottom
    of the pictures (None: whoever plays White)."""
    return list(_frames(start, game, names, bottom_player))


def replay_gif_job(
    record_doc: dict[str, Any], names: tuple[str, str], bottom_player: int | None = None
) -> bytes:
    """A recorded game's replay as GIF bytes. Runs in a worker process (also inline in
    tests); the record is checked move by move as it is replayed."""
    start, game = record_transcript(GameRecord.from_doc(record_doc))
    return replay_gif(replay_frames(start, game, names, bottom_player))


def export_job(
    record_docs: list[dict[str, Any]], names: tuple[str, str], date: datetime.date
) -> tuple[str, str]:
    """The file name and text of a match's finished games (in order, from the first).
    Runs in a worker process (also inline in tests)."""
    records = [GameRecord.from_doc(doc) for doc in record_docs]
    if not records:
        raise ValueError("no finished game to export")
    config = records[0].config
    games = tuple(record_transcript(r)[1] for r in records)
    match = MatchTranscript(config, names, games, date)
    if wants_sgf(config):  # the cube was off: only gnubg's SGF can say so
        return sgf_file_name(date), write_sgf(match)
    return f"tavola-{date:%Y%m%d}{match_file_suffix(config)}", write_match(match)
