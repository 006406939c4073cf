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


def _game_with_blunder(seed: int) -> tuple[list[Choice], Choice]:
    """A classic game of Medio against itself; its third real choice is the worst play."""
    rng = random.Random(seed)
    state = GameState.new_match(MatchConfig(Variant.CLASSIC, 1))
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
    assert "Dubbia da 0,03, errore da 0,06, errore grave da 0,12" in text
    first = text.split("<b>Le decisioni peggiori</b>\n", 1)[1].split("\n")[0]
    assert isinstance(planted.chosen, Play)
    assert f"giocato <code>{format_play(planted.chosen)}</code>" in first
    assert first.startswith("1. ")
    view, caption = review.worst_view(game, table) or (None, "")
    assert view is not None and view.arrows and not view.last_play
    assert format_play(planted.chosen) in caption
