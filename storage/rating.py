"""FIBS-style match ratings, as on backgammon servers.

The favourite's chance to win an N-point match is ``1 / (1 + 10^(-D * sqrt(N) / 2000))`` with D
the rating difference; the winner gains ``4 * sqrt(N) * (1 - p)`` (p: the winner's chance),
the loser loses as much. Longer matches move ratings more because luck weighs less in them.
New players' changes are multiplied by ``max(1, 5 - experience / 100)`` (experience: the sum of
the lengths of the matches played), so a rating settles quickly.

The repository computes each finished match's changes with this module, from the players'
ratings as they are when the match ends, and its counting script adds them once to each
player's statistics; the bot also uses it to preview a change.
"""

from __future__ import annotations

import math

START_RATING = 1500.0


def win_probability(rating: float, opponent: float, match_length: int) -> float:
    """Chance that the player rated ``rating`` wins an N-point match against ``opponent``."""
    return 1.0 / (1.0 + math.pow(10.0, -(rating - opponent) * math.sqrt(match_length) / 2000.0))


def experience_factor(experience: int) -> float:
    return max(1.0, 5.0 - experience / 100.0)


def rating_change(
    rating: float, opponent: float, match_length: int, score: float, experience: int = 400
) -> float:
    """The change of ``rating`` after a match; ``score`` is 1 (won), 0.5 (draw) or 0 (lost)."""
    expected = win_probability(rating, opponent, match_length)
    return experience_factor(experience) * 4.0 * math.sqrt(match_length) * (score - expected)
