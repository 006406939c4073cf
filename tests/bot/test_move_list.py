"""The move list of a whole game: every turn of both sides in order, the oldest left out
(marked "…") when the list would not fit one message, and the pop-up within 200 characters."""

from __future__ import annotations

import random

from bot.game import flow, move_list
from bot.game.table import Player, Table
from bot.texts import messages as T
from bot.texts import move_list as M
from engine import GameState, MatchConfig, Variant


class Dice:
    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def die(self) -> int:
        return self.rng.randint(1, 6)

    def roll(self) -> tuple[int, int]:
        return self.die(), self.die()


def played_game(variant: Variant, seed: int) -> Table:
    """A whole game of random legal plays."""
    table = Table(
        GameState.new_match(MatchConfig(variant, 1)), (Player(1, "Anna"), Player(2, "Ugo"))
    )
    dice, rng = Dice(seed), random.Random(seed + 1)
    table = flow.advance(table, dice)
    while not table.state.is_over:
        table = table.with_state(table.state.play(rng.choice(table.state.legal_plays())))
        table = flow.advance(table, dice)
    return table


def test_a_whole_game_is_listed_turn_by_turn_and_trimmed_from_the_oldest() -> None:
    table = played_game(Variant.CLASSIC, 1)
    lines = move_list.lines(table)
    names = [line.split(" ")[1] for line in lines if line[0].isdigit()]
    assert set(names) == {"<b>Anna</b>", "<b>Ugo</b>"}
    numbers = [int(line.split(".")[0]) for line in lines if line[0].isdigit()]
    assert numbers == list(range(1, len(numbers) + 1))
    text = move_list.message(table)
    assert T.telegram_length(text) <= M.MAX_LIST_CHARS
    shown = text.split("\n")
    if len(shown) - 1 < len(lines):  # trimmed: the title, "…", then the latest plays
        assert shown[1] == M.EARLIER_LEFT_OUT
        assert shown[2:] == lines[-(len(shown) - 2) :]
    else:
        assert shown[1:] == lines


def test_the_pop_up_keeps_the_latest_plays_within_an_alert() -> None:
    table = played_game(Variant.LONG, 3)
    short = move_list.alert(table)
    assert len(short) <= T.MAX_ALERT_CHARS
    assert short.endswith(M.WRITE_ME_FOR_ALL)
    last = move_list.lines(table)[-1]
    assert short.split("\n")[-2] in last.replace("<b>", "").replace("</b>", "").replace(
        "<code>", ""
    ).replace("</code>", "")
