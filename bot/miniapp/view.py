"""What the page shows of a table, as JSON: the same picture the PNG board draws
(``presenter.board_view``), turned to the viewer's side, and what the viewer may do now.

The page computes no rules: the legal steps and the actions the viewer may take come from
here, decided by the same engine calls as the board's buttons (``flow.apply_action``).
Positions are given in *board numbering* (the bottom side's own: point 1 bottom right,
24 top right), so the page only maps numbers to places.
"""

from __future__ import annotations

import re
import time
from typing import Any

from bot.game import flow, move_list
from bot.game.actions import Action
from bot.game.table import Table
from bot.views import presenter
from engine import Phase
from render import BoardView, convert_point
from render import Side as RenderSide
from storage import FinishedGame, StoredGame

#: A saved game the page may show: in progress, or archived once its match ended.
Saved = StoredGame | FinishedGame

#: Actions whose availability the page is told (each decided by the rules, not by the page).
OFFERED = (Action.ROLL, Action.DOUBLE, Action.TAKE, Action.DROP, Action.UNDO, Action.CONFIRM)
_TABLE_ID = re.compile(r"t(m?)([0-9]{1,20})")
_TAGS = re.compile(r"<[^>]+>")


def table_id(key: int) -> str:
    """A place's key as a Mini App start parameter (Telegram allows ``A-Za-z0-9_-``)."""
    return f"t{'m' if key < 0 else ''}{abs(key)}"


def table_key(table_ref: str) -> int | None:
    """The place key a start parameter names, or None for anything else."""
    found = _TABLE_ID.fullmatch(table_ref)
    if found is None:
        return None
    value = int(found.group(2))
    return -value if found.group(1) else value


def _other(side: RenderSide) -> RenderSide:
    return "black" if side == "white" else "white"


def _to_board(point: int, side: RenderSide, bottom: RenderSide, variant: str) -> int:
    """A point of ``side``'s own numbering in the bottom side's numbering (0 off, 25 bar)."""
    if side == bottom or not 1 <= point <= 24:
        return point
    return convert_point(point, "classic" if variant == "classic" else "long")


def _points(view: BoardView, bottom: RenderSide) -> list[list[Any]]:
    """Per board point 1..24 (index 0 unused): [count, side or None]."""
    points: list[list[Any]] = [[0, None] for _ in range(25)]
    for side in ("white", "black"):
        counts = view.white if side == "white" else view.black
        for own in range(1, 25):
            if counts[own]:
                points[_to_board(own, side, bottom, view.variant)] = [counts[own], side]
    return points


def _plain(text: str) -> str:
    return _TAGS.sub("", text).replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")


def viewer_side(table: Table, index: int | None) -> RenderSide:
    """Who sits at the bottom of the page: the viewer when they play, else as on the PNG."""
    if index is None:
        return presenter.orientation(table)
    return presenter.render_side(table.state.side_of(index))


def describe(
    table: Table, where: Saved, index: int | None, now: float | None = None
) -> dict[str, Any]:
    """The page's picture of the table for the viewer at seat ``index`` (None: watching),
    saved at ``where`` (a game in progress, or an archived one whose match has ended)."""
    stored = where
    s = table.state
    view = presenter.board_view(table)
    bottom = viewer_side(table, index)
    sides = {"white": 0, "black": 1}
    turn = view.turn
    on_turn = index is not None and not s.is_over and table.actor == table.players[index]
    can = {a.name.lower(): False for a in (*OFFERED, Action.RESIGN)}
    legal: list[dict[str, int]] = []
    if on_turn and index is not None:
        for action in OFFERED:
            can[action.name.lower()] = not isinstance(
                flow.apply_action(table, index, action, ()), flow.Refusal
            )
        if s.phase is Phase.MOVE:
            mover = presenter.render_side(s.turn)
            legal = [
                {
                    "src": st.src,
                    "dst": st.dst,
                    "die": st.die,
                    "from": _to_board(st.src, mover, bottom, view.variant),
                    "to": _to_board(st.dst, mover, bottom, view.variant),
                }
                for st in s.legal_steps()
            ]
    if index is not None and not s.is_over:
        can["resign"] = not isinstance(
            flow.apply_action(table, index, Action.RESIGN, ()), flow.Refusal
        )
    last = [
        {
            "side": st.side,
            "from": _to_board(st.src, st.side, bottom, view.variant),
            "to": _to_board(st.dst, st.side, bottom, view.variant),
            "hit": st.hit,
        }
        for st in view.last_play
    ]
    players = []
    for side in (bottom, _other(bottom)):
        i = sides[side]
        players.append(
            {
                "side": side,
                "name": view.names[i],
                "pips": None if view.pips is None else view.pips[i],
                "score": view.score[i],
                "bar": (view.white if side == "white" else view.black)[25],
                "off": (view.white if side == "white" else view.black)[0],
                "you": index is not None and side == bottom,
            }
        )
    return {
        "table": table_id(stored.chat_id),
        "game": stored.game_id,
        "version": stored.version,
        "variant": view.variant,
        "bottom": bottom,
        "seat": index,
        "players": players,
        "points": _points(view, bottom),
        "turn": turn,
        "phase": s.phase.name.lower(),
        "on_turn": on_turn,
        "dice": [{"value": d.value, "used": d.used} for d in view.dice],
        "cube": None
        if view.cube_value is None
        else {
            "value": view.cube_value,
            "owner": view.cube_owner,
            "offered_by": view.cube_offered_by,
            "active": view.cube_active,
        },
        "match_length": view.match_length,
        "crawford": view.crawford,
        "legal": legal,
        "can": can,
        "steps": len(s.steps) if s.phase is Phase.MOVE else 0,
        "last": last,
        "status": view.status,
        "banner": list(view.banner),
        "notes": [_plain(n) for n in table.notes],
        "plays": [_plain(p) for p in table.last_plays],
        "deadline": table.deadline,
        "now": time.time() if now is None else now,
        "over": s.is_over,
    }


def moves_job(table_doc: dict[str, Any]) -> list[str]:
    """The move list of a table's document, one line per event (run in a worker)."""
    return [_plain(line) for line in move_list.lines(Table.from_doc(table_doc))]
