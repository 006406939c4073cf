"""A turn of many automatic plays with long names still fits a caption: the oldest notes
give way whole (marked "…"), never a line cut in the middle of a word."""

from __future__ import annotations

import html
import re

from bot.game.table import Player, Table
from bot.texts import messages as T
from bot.views import presenter
from engine import GameState, MatchConfig, Variant

LONG = "Ꙩ" * 30 + "😀" * 34  # 64 characters, 98 UTF-16 units


def visible(text: str) -> str:
    return html.unescape(re.sub(r"</?(b|i|code)>", "", text))


def test_many_forced_plays_are_shortened_by_whole_notes() -> None:
    anna, bruno = ("A" + LONG)[:64], ("B" + LONG)[:64]
    table = Table(
        GameState.new_match(MatchConfig(Variant.CLASSIC, 25)),
        (Player(1, anna), Player(2, bruno)),
    )
    plays = ["6-6: bar/19 bar/19 19/13 19/13", "5-5: bar/20 20/15 15/10 10/5", "2-1: 24/22 22/21"]
    notes = [
        T.forced_move(name, play) if i % 2 else T.no_moves(name, i + 1, 5)
        for i, (name, play) in enumerate((name, play) for play in plays for name in (anna, bruno))
    ]
    bare = presenter.caption(table)
    table = table.fresh_notes(*notes)
    untrimmed = T.telegram_length(bare) + T.telegram_length("\n".join(notes)) + 1
    assert untrimmed > T.MAX_CAPTION_CHARS  # too long as it stands

    caption = presenter.caption(table)
    assert T.telegram_length(caption) <= T.MAX_CAPTION_CHARS
    lines = caption.split("\n")
    # Whole lines only: each is a line the caption would have had, or the "…" marker.
    assert T.EARLIER_NOTES_OMITTED in lines
    kept = lines[lines.index(T.EARLIER_NOTES_OMITTED) + 1 :]
    assert all(line in notes for line in kept[:-2]), kept
    assert notes[-1] in lines  # the newest play stays, the oldest went
    assert notes[0] not in lines
    # The header, the score and whose turn it is stay.
    assert lines[0].startswith("<b>Backgammon classico</b>")
    assert "25" in visible(lines[1])
    assert any(visible(line).startswith("Tocca a") for line in lines)
