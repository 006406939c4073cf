"""The words after /sfida: which game, how long, and the table settings.

``/sfida lungo 3``, ``/sfida classico 5 senza cubo``, ``/sfida @anna lungo oin ultimo
a turno 5m``, ``/sfida libera`` (the money game, ``senza jacoby`` to count gammons with
the cube in the middle), ``/sfida a punti 5``, and the words people write without
thinking of a syntax: ``lunga`` (the game is "la partita"), ``con cubo``, ``cubo``,
``30s``, ``2 minuti``. Unknown words are reported back instead of being silently ignored.

An `OptionsError`'s message is Telegram HTML from `bot.texts.messages`, where the word a
user typed is escaped: it is sent as it is.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.texts import messages as T
from engine import MatchConfig, SeriesStart, Variant

MAX_LENGTH = 25
#: The shortest turn limit: a roll and a few taps fit in it; anything shorter loses on time.
MIN_TURN_SECONDS = 30
MAX_TURN_SECONDS = 86400
TIME_CHOICES = (30, 60, 120, 300, 600, 1800, 3600, 86400)
_UNIT_SECONDS = {
    "s": 1,
    "sec": 1,
    "secondo": 1,
    "secondi": 1,
    "m": 60,
    "min": 60,
    "minuto": 60,
    "minuti": 60,
    "h": 3600,
    "ora": 3600,
    "ore": 3600,
    "g": 86400,
    "giorno": 86400,
    "giorni": 86400,
}
#: "@name": Telegram usernames are ASCII letters, digits and underscores, at most 32 long.
_USERNAME = re.compile(r"@[a-z0-9_]{1,32}")
_FILLER = {"a", "al", "con", "punti", "punto", "partita", "match", "serie", "da", "di"}


class OptionsError(ValueError):
    """A word that is not a setting; the message is Italian HTML, for the user."""


@dataclass(frozen=True, slots=True)
class ChallengeOptions:
    config: MatchConfig
    turn_seconds: int | None
    username: str | None = None  # "/sfida @anna": only that user may accept
    hints: bool = False  # both players may ask for hints during the game
    shared_analysis: bool = False  # the post-game analysis is posted in the group


def turn_seconds_ok(seconds: int) -> bool:
    """Is this a turn limit a challenge may have (buttons and words share the range)?"""
    return MIN_TURN_SECONDS <= seconds <= MAX_TURN_SECONDS


def _seconds(count: int, unit: str) -> int:
    seconds = count * _UNIT_SECONDS[unit]
    if not turn_seconds_ok(seconds):
        raise OptionsError(T.OPTIONS_TURN_RANGE)
    return seconds


def _time(word: str) -> int | None:
    # ASCII digits only: the words also travel in a deep link's start parameter.
    m = re.fullmatch(r"([0-9]{1,5})([a-z]+)", word)
    if not m or m.group(2) not in _UNIT_SECONDS:
        return None
    return _seconds(int(m.group(1)), m.group(2))


def parse_options(  # noqa: C901 - one loop over the words, one case per kind of option
    words: list[str], default_turn_seconds: int
) -> ChallengeOptions:
    variant = Variant.CLASSIC
    length = 1
    cube = True
    mars = True
    last_roll = False
    series = SeriesStart.LOSER
    turn: int | None = default_turn_seconds
    username = None
    hints = shared_analysis = False
    jacoby = True
    i = 0
    lowered = [w.lower() for w in words]
    while i < len(lowered):
        w = lowered[i]
        nxt = lowered[i + 1] if i + 1 < len(lowered) else ""
        if _USERNAME.fullmatch(w):
            username = w[1:]
        elif w in ("classico", "classica", "classic", "backgammon"):
            variant = Variant.CLASSIC
        elif w in ("lungo", "lunga", "long", "nardy", "narde"):
            variant = Variant.LONG
        elif w.isascii() and w.isdigit() and nxt in _UNIT_SECONDS and len(w) <= 5:
            turn = _seconds(int(w), nxt)  # "30 secondi", "2 minuti"
            i += 1
        elif w.isascii() and w.isdigit():  # not "²" or "٣", which int() may refuse
            length = int(w)
            if not 1 <= length <= MAX_LENGTH:
                raise OptionsError(T.options_length_range(MAX_LENGTH))
        elif w in ("libera", "libero", "soldi", "money"):
            length = 0  # the money game: one game for points with the cube
        elif w == "jacoby":
            jacoby = True
        elif w in ("nojacoby", "senzajacoby"):
            jacoby = False
        elif w == "senza" and nxt in ("cubo", "limite", "tempo", "jacoby"):
            if nxt == "cubo":
                cube = False
            elif nxt == "jacoby":
                jacoby = False
            else:
                turn = None
            i += 1
        elif w in ("nocubo", "senzacubo"):
            cube = False
        elif w in ("cubo", "concubo"):  # "con cubo": "con" is a filler word
            cube = True
        elif w == "oin":
            mars = False
        elif w == "mars":
            mars = True
        elif w in ("ultimo", "ultimolancio"):
            last_roll = True
            if nxt == "lancio":
                i += 1
        elif w in ("turno", "aturno", "alternato"):
            series = SeriesStart.ALTERNATE
        elif w in ("perdente", "alperdente"):
            series = SeriesStart.LOSER
        elif w in ("suggerimenti", "suggerimento", "aiuti"):
            hints = True
        elif w == "analisi":
            shared_analysis = True
        elif (t := _time(w)) is not None:
            turn = t
        elif w in _FILLER:
            pass
        else:
            raise OptionsError(T.options_unknown_word(words[i]))
        i += 1
    if length == 0 and not variant.rules.has_cube:
        raise OptionsError(T.OPTIONS_MONEY_CLASSIC_ONLY)
    cube = cube or length == 0  # the money game is played with the cube
    return ChallengeOptions(
        MatchConfig(variant, length, cube, mars, last_roll, series, jacoby),
        turn,
        username,
        hints,
        shared_analysis,
    )
