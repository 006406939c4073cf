"""The board caption built from a table: users' names in it are escaped once, and it fits
Telegram's 1024-unit caption limit whatever the names are made of."""

from __future__ import annotations

import html
import re
from collections import deque

import pytest

from bot.game import flow
from bot.game.table import COMPUTER_ID, Player, Table
from bot.texts import messages as T
from bot.texts import review as R
from bot.views import presenter
from engine import GameState, MatchConfig, ResultKind, Variant
from engine.notation import read_play


class Dice:
    def __init__(self, *dice: int) -> None:
        self.dice = deque(dice)

    def die(self) -> int:
        return self.dice.popleft()

    def roll(self) -> tuple[int, int]:
        return self.dice.popleft(), self.dice.popleft()


def visible(caption: str) -> str:
    return html.unescape(re.sub(r"</?(b|i|code)>", "", caption))


def utf16(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def table_with_notes(first: str, second: str) -> Table:
    """A 25-point match after an opening, with the most name-heavy notes there are."""
    table = Table(
        GameState.new_match(MatchConfig(Variant.CLASSIC, 25)),
        (Player(1, first), Player(2, second)),
    )
    table = flow.advance(table, Dice(6, 1))
    return table.fresh_notes(
        T.opening_roll(first, 6, second, 1),
        T.resigned(first, second, 3, ResultKind.BACKGAMMON),
        T.timeout_loss(second, first, 2, ResultKind.GAMMON),
        T.match_won(first, Variant.CLASSIC, 25, 24, 3),
        T.double_taken(second, 64),
        T.forced_move(first, "bar/22 bar/22 13/7 13/7"),
    )


@pytest.mark.parametrize(
    ("first", "second"),
    [("😀" * 64, "🎲" * 64), ("<&>" * 21 + "x", "<b>Bruno</b>"), ("Anna", "Bruno")],
    ids=["emoji", "markup", "plain"],
)
def test_caption_fits_telegram_limit_in_utf16_units(first: str, second: str) -> None:
    caption = presenter.caption(table_with_notes(first, second))
    assert utf16(visible(caption)) <= T.MAX_CAPTION_CHARS
    # The newest lines stay: whose turn it is and what to do.
    assert f"Tocca {T.prep('a', first)}{first} (" in visible(caption)


def test_names_in_the_caption_are_escaped_once() -> None:
    caption = presenter.caption(table_with_notes("<i>Eve</i> & co", "Bruno"))
    assert "<b>&lt;i&gt;Eve&lt;/i&gt; &amp; co</b>" in caption
    assert "Tocca a <i>Eve</i> & co (" in visible(caption)
    assert "Tocca ad Anna (" in visible(presenter.caption(table_with_notes("Anna", "Bruno")))


def test_telegram_length_counts_what_telegram_shows() -> None:
    assert T.telegram_length("<b>a&amp;b</b>") == 3
    assert T.telegram_length("<code>😀</code>") == 2


def test_the_roll_is_shown_high_first_in_caption_and_picture() -> None:
    table = Table(
        GameState.new_match(MatchConfig(Variant.CLASSIC, 1)), (Player(1, "Anna"), Player(2, "Ugo"))
    )
    table = flow.advance(table, Dice(1, 3))  # Ugo wins the opening 3-1, rolled low die first
    assert table.state.dice == (3, 1)
    table = flow.play_whole(table, read_play(table.state, "8/5 6/5"))
    table = flow.advance(table, Dice(2, 5))  # Anna's roll falls 2 then 5
    assert table.state.dice == (2, 5)
    assert "5-2 · " in visible(presenter.caption(table))
    assert [die.value for die in presenter.board_view(table).dice] == [5, 2]
    assert presenter.board_view(table).status == "Tocca ad Anna"


@pytest.mark.parametrize(
    ("hints", "computer", "shown"),
    [(False, False, False), (True, False, True), (False, True, True)],
    ids=["people", "people-who-agreed", "computer"],
)
def test_the_hint_button_is_on_the_turn_only_where_hints_are_allowed(
    hints: bool, computer: bool, shown: bool
) -> None:
    second = Player(COMPUTER_ID, T.COMPUTER_NAME) if computer else Player(2, "Bruno")
    table = Table(
        GameState.new_match(MatchConfig(Variant.CLASSIC, 1)),
        (Player(1, "Anna"), second),
        ai_level="medio" if computer else None,
        hints=hints,
    )
    table = flow.advance(table, Dice(6, 1))  # Anna opens: her turn to move
    labels = [b.text for row in presenter.keyboard(table, 1, 1).inline_keyboard for b in row]
    assert (R.BTN_HINT in labels) is shown
    # The table keeps the choice through its stored document.
    assert Table.from_doc(table.to_doc()).hints is hints
