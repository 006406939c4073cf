"""The analysis as the bot writes it: each player's figures, the worst decisions in
notation with their loss, the stated thresholds, and the picture of the worst one."""

from __future__ import annotations

import random
from dataclasses import dataclass

from bot.game.table import COMPUTER_ID, Player, Table
from bot.texts import messages as T
from bot.views import review
from engine import GameState, MatchConfig, Phase, Play, Variant, format_play
from engine.ai import Level, choose_play
from engine.ai.levels import ranked


@dataclass(frozen=True)
class Choice:
    state: GameState
    chosen: Play | bool


def _game_with_blunder(seed: int, length: int = 1) -> tuple[list[Choice], Choice]:
    """A classic game of Medio against itself (cube never turned); its third real choice
    is the worst play."""
    rng = random.Random(seed)
    state = GameState.new_match(MatchConfig(Variant.CLASSIC, length))
    choices: list[Choice] = []
    planted: Choice | None = None
    while not state.is_over:
        if state.phase is Phase.OPENING:
            state = state.roll_opening(rng.randint(1, 6), rng.randint(1, 6))
        elif state.phase is Phase.ROLL:
            state = state.roll(rng.randint(1, 6), rng.randint(1, 6))
        elif not state.legal_plays():
            state = state.confirm()
        else:
            play = choose_play(state, Level.MEDIO, rng)
            assert play is not None
            if planted is None and sum(len(c.state.legal_plays()) > 1 for c in choices) == 2:
                play = ranked(state, deep=False)[-1][0]
                planted = Choice(state, play)
                choices.append(planted)
            else:
                choices.append(Choice(state, play))
            state = state.play(play)
    assert planted is not None
    return choices, planted


def test_the_text_names_the_players_the_thresholds_and_the_planted_blunder() -> None:
    choices, planted = _game_with_blunder(11)
    game = review.review_decisions(choices)
    table = Table(choices[0].state, (Player(1, "Anna"), Player(COMPUTER_ID, T.COMPUTER_NAME)))
    text = review.analysis_text(game, table, choices[0].state)
    assert T.telegram_length(text) <= T.MAX_MESSAGE_CHARS
    assert "<b>Anna</b>" in text and "<b>Computer</b>" in text
    assert "tasso d'errore" in text
    assert "Dubbia oltre 0,03, errore oltre 0,06, errore grave oltre 0,12" in text
    assert "non le mosse forzate" in text
    first = text.split("<b>Le decisioni peggiori</b>\n", 1)[1].split("\n")[0]
    assert isinstance(planted.chosen, Play)
    assert f"giocato <code>{format_play(planted.chosen)}</code>" in first
    assert first.startswith("1. ")
    view, caption = review.worst_view(game, table) or (None, "")
    assert view is not None and view.arrows and not view.last_play
    assert format_play(planted.chosen) in caption


def test_a_match_reports_the_match_winning_chance_lost_and_a_money_game_does_not() -> None:
    """In a match the error rate is also given as the match-winning chance lost per
    decision, and each of the worst decisions with its share of the match; a money game
    has no match to lose."""
    players = (Player(1, "Anna"), Player(2, "Bruno"))
    choices, _ = _game_with_blunder(11)
    table = Table(choices[0].state, players)
    text = review.analysis_text(review.review_decisions(choices), table, choices[0].state)
    assert text.count("(match: ") == 2 and "% a decisione)" in text
    first = text.split("<b>Le decisioni peggiori</b>\n", 1)[1].split("\n")[1]
    assert first.startswith("   persi ") and "% del match)" in first
    assert "probabilità di vincerlo persa" in text

    choices, _ = _game_with_blunder(11, length=0)
    table = Table(choices[0].state, players)
    text = review.analysis_text(review.review_decisions(choices), table, choices[0].state)
    assert "(match: " not in text and "del match)" not in text
    assert "cubo: " in text  # the cube's own figures, in a game with the cube
