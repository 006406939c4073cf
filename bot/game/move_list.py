"""The plays of a game so far, in notation, read from the table's record.

Used by /mosse and the board's move list button. The record is replayed through the
engine, which knows who was on turn with which dice at each event; that takes tens of
milliseconds for a long game, so the handlers run :func:`job` in a worker process.
"""

from __future__ import annotations

import html
import re
from typing import Any

from bot.game.table import Table
from bot.texts import messages as T
from bot.texts import move_list as M
from engine import Double, Drop, Move, Resign, Take, Timeout, format_steps


def lines(table: Table) -> list[str]:
    """One line per event worth reading: each turn's roll and play, the cube, the end."""
    record = table.record
    if record is None:
        return []
    out: list[str] = []
    number = 0
    for state, event in record.replay():
        name = table.player_at(state.turn).name
        if isinstance(event, Move):
            number += 1
            dice = T.dice(*state.dice) if state.dice else ""
            out.append(M.play(number, name, dice, format_steps(event.steps)))
        elif isinstance(event, Double):
            out.append(M.doubled(name, state.cube_value * 2))
        elif isinstance(event, Take):
            out.append(M.took(name))
        elif isinstance(event, Drop):
            out.append(M.dropped(name))
        elif isinstance(event, Resign) and event.accepted:
            lost = state.resign_value(event.side, event.kind).points
            out.append(M.resigned(table.player_at(event.side).name, lost))
        elif isinstance(event, Timeout):
            out.append(M.timed_out(table.player_at(event.side).name))
    return out


def message(table: Table) -> str:
    """The whole list as one message, the oldest plays left out when it is too long."""
    first, second = table.players
    head = M.title(table.state.game_number, first.name, second.name)
    body = lines(table) or [M.NO_PLAYS_YET]
    while len(body) > 1 and T.telegram_length("\n".join([head, *body])) > M.MAX_LIST_CHARS:
        oldest = 1 if body[0] == M.EARLIER_LEFT_OUT else 0  # the oldest play after the "…"
        body = [M.EARLIER_LEFT_OUT, *body[oldest + 1 :]]
    return "\n".join([head, *body])


def alert(table: Table) -> str:
    """The last plays as a pop-up (plain text, 200 characters) for someone the bot cannot
    write to privately."""
    tail = [_plain(line) for line in lines(table)] or [M.NO_PLAYS_YET]
    shown: list[str] = []
    for line in reversed(tail):
        candidate = "\n".join([line, *shown, M.WRITE_ME_FOR_ALL])
        if len(candidate) > M.MAX_ALERT_CHARS:
            break
        shown.insert(0, line)
    return "\n".join([*shown, M.WRITE_ME_FOR_ALL])[: M.MAX_ALERT_CHARS]


def job(table_doc: dict[str, Any]) -> tuple[str, str]:
    """The list as a message and as a pop-up, for a table's document (in a worker)."""
    table = Table.from_doc(table_doc)
    return message(table), alert(table)


def _plain(text: str) -> str:
    return html.unescape(re.sub(r"</?(?:b|i|code)>", "", text))
