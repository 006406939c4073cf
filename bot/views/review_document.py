"""The full game review as one self-contained HTML file: every decision, a picture per error.

``review_document_job`` runs in a worker process (judging every decision takes seconds of
CPU, drawing the pictures a few milliseconds each): it replays the game's record, judges
each decision with the analysis (``engine.ai.game_review``), draws the board of each
decision marked doubtful or worse with both plays as arrows, and writes a single HTML
page with the pictures inside as ``data:`` URIs (PNG, 480 pixels wide), the styles inline
and no script, so it opens in any browser, offline, on a phone as on a computer. Names are
escaped (a player's name is text, never markup).
"""

from __future__ import annotations

import base64
import html
import time
from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Any

from bot.game.table import Table
from bot.texts import messages as T
from bot.texts import review_document as D
from bot.texts.review import number
from bot.views import presenter
from bot.views.review import decision_view
from engine import GameRecord, GameState, Play, Side, format_play
from engine.ai import (
    BLUNDER,
    DOUBTFUL,
    ERROR,
    DecisionKind,
    GameReview,
    PlayerReport,
    ReviewedDecision,
    Severity,
    review_game,
)
from render import Side as RenderSide
from render import board_png

#: The width of the pictures: small (about 22 KB each), sharp enough on a phone.
PICTURE_WIDTH = 480

_STYLE = """
body{margin:0;background:#f4efe6;color:#222;font:16px/1.45 system-ui,-apple-system,
"Segoe UI",Roboto,sans-serif}
main{max-width:760px;margin:0 auto;padding:12px}
h1{font-size:1.4em;margin:.3em 0}h2{font-size:1.15em;margin:1.2em 0 .4em}
.sub,.legend,footer{color:#555;font-size:.9em}
table.players{border-collapse:collapse;width:100%;font-size:.9em}
table.players th,table.players td{border-bottom:1px solid #d8cfc0;padding:4px 6px;
text-align:right}
table.players tbody th{text-align:left;font-weight:normal}
ol.decisions{list-style:none;padding:0;margin:0}
li.decision{background:#fff;border-left:6px solid #cfc6b6;border-radius:6px;
margin:8px 0;padding:8px 10px}
li.doubtful{border-left-color:#e0b400}li.error{border-left-color:#e07000}
li.blunder{border-left-color:#c4001a}li.forced{opacity:.75}
.head{font-weight:600}.badge{display:inline-block;border-radius:4px;padding:0 6px;
margin-left:6px;font-size:.85em;color:#fff;background:#888}
.doubtful .badge{background:#b08a00}.error .badge{background:#c05f00}
.blunder .badge{background:#c4001a}
dl{display:grid;grid-template-columns:auto 1fr;gap:2px 10px;margin:6px 0 0}
dt{color:#666}dd{margin:0}code{font-size:1em;background:#f1ece2;padding:0 3px;
border-radius:3px}
figure{margin:8px 0 0}figure img{width:100%;max-width:480px;height:auto;display:block}
figcaption{font-size:.85em;color:#555}
"""


def _e(text: str) -> str:
    return html.escape(text, quote=True)


@dataclass(frozen=True)
class _Context:
    table: Table
    orientation: RenderSide

    def name(self, state: GameState, side: Side) -> str:
        return self.table.players[state.player_of(side)].name


def _picture(rank: int, row: ReviewedDecision, ctx: _Context) -> str:
    """The board of a marked decision, as an inline PNG with its caption."""
    assert row.review is not None
    view = decision_view(row.review, ctx.table)
    data = board_png(view, orientation=ctx.orientation, size=PICTURE_WIDTH)
    uri = "data:image/png;base64," + base64.b64encode(data).decode("ascii")
    caption = D.PICTURE_PLAY if row.kind is DecisionKind.PLAY else D.PICTURE_CUBE
    alt = D.picture_alt(rank)
    return (
        f'<figure><img class="board" src="{uri}" alt="{_e(alt)}" width="{PICTURE_WIDTH}">'
        f"<figcaption>{_e(caption)}</figcaption></figure>"
    )


def _choice_text(row: ReviewedDecision, value: Play | bool | None) -> str:
    if row.kind is DecisionKind.PLAY:
        return format_play(value) if isinstance(value, Play) else "?"
    if row.kind is DecisionKind.DOUBLE:
        return D.double_choice(bool(value))
    return D.take_choice(bool(value))


def _what(row: ReviewedDecision) -> str:
    if row.kind is DecisionKind.PLAY:
        dice = row.state.dice
        return D.roll(dice) if dice is not None else ""
    return D.CUBE_DOUBLE if row.kind is DecisionKind.DOUBLE else D.CUBE_TAKE


def _field(key: str, term: str, text: str, extra: str) -> str:
    """One line of a decision: a play or choice (in code style), its equity after it."""
    shown = (
        f"<code>{_e(text)}</code>" if key in ("played", "best") and text != D.NO_LOSS else _e(text)
    )
    after = f" · {_e(extra)}" if extra else ""
    return f'<dt>{_e(term)}</dt><dd class="{key}">{shown}{after}</dd>'


def _equity(row: ReviewedDecision, value: float | None, relative: float) -> str:
    """A choice's equity: a checker play's own (cubeless); a cube action's against the
    best action (the analysis values cube actions by comparison)."""
    if row.kind is DecisionKind.PLAY:
        return D.play_equity(value)
    return D.cube_equity(relative) if row.loss > 0 else ""


def _row(rank: int, row: ReviewedDecision, ctx: _Context) -> str:
    severity = row.severity
    marked = severity is not Severity.NONE
    classes = ["decision", severity.value if marked else ""]
    if row.review is None:
        classes.append("forced")
    name = ctx.name(row.state, row.side)
    head = D.decision_heading(rank, name, _what(row))
    badge = f'<span class="badge">{_e(D.SEVERITY_NAMES[severity.value])}</span>' if marked else ""
    played = _choice_text(row, row.chosen)
    items = [("played", D.PLAYED, played, _equity(row, row.chosen_equity, -row.loss))]
    if row.review is None:
        note = D.FORCED if row.kind is DecisionKind.PLAY else D.NOT_COUNTED
        items.append(("note", "", note, ""))
    else:
        best = _choice_text(row, row.review.best)
        if row.loss > 0:
            items.append(("best", D.BEST, best, _equity(row, row.best_equity, 0.0)))
        else:
            items.append(("best", D.BEST, D.NO_LOSS, ""))
        items.append(("lost", D.LOST, D.lost(row.loss), ""))
    fields = "".join(_field(*item) for item in items)
    picture = _picture(rank, row, ctx) if marked else ""
    side = presenter.render_side(row.side)
    return (
        f'<li class="{" ".join(c for c in classes if c)}" id="d{rank}" '
        f'data-index="{row.index}" data-kind="{row.kind.value}" data-side="{side}" '
        f'data-severity="{severity.value}">'
        f'<div class="head">{_e(head)}{badge}</div><dl>{fields}</dl>{picture}</li>'
    )


def _players(review: GameReview, state: GameState, ctx: _Context) -> Iterator[str]:
    """Both players' figures side by side: one column each, so it fits a phone."""
    names = [f"{ctx.name(state, side)} ({T.color_name(side is Side.WHITE)})" for side in Side]
    yield '<table class="players"><thead><tr><th></th>'
    yield "".join(
        f'<th data-side="{presenter.render_side(side)}">{_e(n)}</th>'
        for side, n in zip(Side, names, strict=True)
    )
    yield "</tr></thead><tbody>"
    for title, cells in _figures(review.players, state.config.cube_in_play):
        yield f"<tr><th>{_e(title)}</th>" + "".join(f"<td>{_e(c)}</td>" for c in cells) + "</tr>"
    yield "</tbody></table>"


def _figures(
    reports: tuple[PlayerReport, PlayerReport], cube: bool
) -> Iterator[tuple[str, list[str]]]:
    yield D.COL_DECISIONS, [str(r.decisions) for r in reports]
    yield D.COL_ERROR_RATE, [number(r.error_rate) for r in reports]
    yield D.COL_DOUBTFUL, [str(r.doubtful) for r in reports]
    yield D.COL_ERRORS, [str(r.errors) for r in reports]
    yield D.COL_BLUNDERS, [str(r.blunders) for r in reports]
    if cube:
        yield D.COL_CUBE_ERRORS, [str(r.cube_errors) for r in reports]


def shown(review: GameReview) -> list[ReviewedDecision]:
    """The decisions the document lists: every checker play (forced ones too) and every
    cube action, and a cube not turned only where the analysis counts it as a decision
    (elsewhere nobody would have doubled: it is no decision a player made)."""
    return [
        row
        for row in review.decisions
        if row.kind is not DecisionKind.DOUBLE or row.chosen is True or row.review is not None
    ]


def document(review: GameReview, table: Table, start: GameState, seconds: float) -> str:
    """The whole HTML page of a reviewed game whose first state is ``start``."""
    ctx = _Context(table, presenter.orientation(table))
    title = D.title(T.VARIANT_NAMES[start.variant], start.game_number)
    white, black = ctx.name(start, Side.WHITE), ctx.name(start, Side.BLACK)
    setting = T.settings_summary(start.config, table.turn_seconds)
    parts = [
        '<!DOCTYPE html><html lang="it"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{_e(D.DOC_TITLE)} · {_e(title)}</title><style>{_STYLE}</style></head>",
        f"<body><main><h1>{_e(D.DOC_TITLE)} · {_e(title)}</h1>",
        f'<p class="sub">{_e(D.subtitle(white, black, setting))}</p>',
        f"<h2>{_e(D.PLAYERS_TITLE)}</h2>",
        *_players(review, start, ctx),
        f'<p class="legend">{_e(D.legend(DOUBTFUL, ERROR, BLUNDER))}</p>',
        f"<h2>{_e(D.DECISIONS_TITLE)}</h2>",
        '<ol class="decisions">',
        *(_row(rank, row, ctx) for rank, row in enumerate(shown(review), start=1)),
        "</ol>",
        f"<footer><p>{_e(D.footer(seconds))}</p></footer></main></body></html>",
    ]
    return "\n".join(parts)


@dataclass(frozen=True)
class ReviewDocument:
    """What the worker sends back: the file's name and bytes, and what the caption says."""

    file_name: str
    data: bytes
    decisions: int
    pictures: int
    seconds: float


def review_document_job(record_doc: dict[str, Any], table: Table) -> ReviewDocument:
    """The full review of the game whose record document is ``record_doc``, played at
    ``table`` (names, who sits at the bottom). Runs in a worker process; an illegal record
    raises the engine's error."""
    start_time = time.process_time()
    record = GameRecord.from_doc(record_doc)
    review = review_game(record.decisions())
    rows = shown(review)
    start = record.initial_state()
    table = replace(table, record=None)
    seconds = time.process_time() - start_time
    text = document(review, table, start, seconds)
    pictures = sum(1 for row in rows if row.severity is not Severity.NONE)
    return ReviewDocument(
        D.file_name(start.game_number),
        text.encode("utf-8"),
        len(rows),
        pictures,
        seconds,
    )
