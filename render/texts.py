"""The few Italian words printed on the board picture.

Kept apart from the drawing code so the wording can be reviewed in one place; the
bot's own texts (captions, buttons) live in the bot package.
"""

from __future__ import annotations

from render.view import Variant

PIP = "pip"
POINTS = "punti"
CRAWFORD = "Crawford"
UNLIMITED = "Senza limite di punti"


SINGLE_GAME = "Partita singola"


def match_line(variant: Variant, match_length: int, crawford: bool) -> str:
    """What is being played for, e.g. "Match a 7 punti · Crawford"."""
    if match_length <= 0:
        line = UNLIMITED
    elif match_length == 1:  # one game is the whole contest: no match, no series
        line = SINGLE_GAME
    else:
        unit = "punto" if match_length == 1 else POINTS
        kind = "Match" if variant == "classic" else "Serie"
        line = f"{kind} a {match_length} {unit}"
    if crawford:
        line += f" · {CRAWFORD}"
    return line
