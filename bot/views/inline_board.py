"""The board of a table that lives in an inline message: caption and buttons.

In a chat, an offer to resign is asked in a short message of its own. A bot cannot send
messages into a chat through inline mode, only edit the one message: there the offer is
asked on the board itself, its question under the caption and its buttons above the
game's (which stay, so the offer survives the opponent's moves as it does in a chat).
"""

from __future__ import annotations

from telegram import InlineKeyboardMarkup

from bot.game.table import Table
from bot.texts import messages as T
from bot.views import presenter


def caption(table: Table, game_id: int, version: int) -> str:
    text = presenter.caption(table)
    prompt = _open_prompt(table, game_id, version)
    if prompt is None:
        return text
    joined = f"{text}\n\n{prompt[0]}"
    return joined if T.telegram_length(joined) <= T.MAX_CAPTION_CHARS else prompt[0]


def keyboard(table: Table, game_id: int, version: int) -> InlineKeyboardMarkup | None:
    board = presenter.keyboard(table, game_id, version)
    prompt = _open_prompt(table, game_id, version)
    if prompt is None or prompt[1] is None:
        return board
    rows = [*prompt[1].inline_keyboard, *(board.inline_keyboard if board else ())]
    return InlineKeyboardMarkup(rows)


def _open_prompt(
    table: Table, game_id: int, version: int
) -> tuple[str, InlineKeyboardMarkup | None] | None:
    """The resign prompt while its offer waits for an answer (closed offers are told by
    the caption's notes and banner)."""
    if table.open_offer is None or table.state.is_over:
        return None
    return presenter.resign_prompt(table, game_id, version)
