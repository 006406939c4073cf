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
from typing import Any

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


# One word sets one option: word -> (option, value). The options are ChallengeOptions'
# and MatchConfig's fields, gathered in a draft while the words are read.
_WORD_SETS: dict[str, tuple[str, Any]] = {
    **dict.fromkeys(
        ("classico", "classica", "classic", "backgammon"), ("variant", Variant.CLASSIC)
    ),
    **dict.fromkeys(("lungo", "lunga", "long", "nardy", "narde"), ("variant", Variant.LONG)),
    **dict.fromkeys(("libera", "libero", "soldi", "money"), ("length", 0)),  # the money game
    "jacoby": ("jacoby", True),
    **dict.fromkeys(("nojacoby", "senzajacoby"), ("jacoby", False)),
    **dict.fromkeys(("nocubo", "senzacubo"), ("cube", False)),
    **dict.fromkeys(("cubo", "concubo"), ("cube", True)),  # "con cubo": "con" is a filler
    "oin": ("mars", False),
    "mars": ("mars", True),
    **dict.fromkeys(("ultimo", "ultimolancio"), ("last_roll", True)),
    **dict.fromkeys(("turno", "aturno", "alternato"), ("series", SeriesStart.ALTERNATE)),
    **dict.fromkeys(("perdente", "alperdente"), ("series", SeriesStart.LOSER)),
    **dict.fromkeys(("suggerimenti", "suggerimento", "aiuti"), ("hints", True)),
    "analisi": ("shared_analysis", True),
}
# "senza X": the option X turns off.
_WITHOUT: dict[str, tuple[str, Any]] = {
    "cubo": ("cube", False),
    "jacoby": ("jacoby", False),
    "limite": ("turn", None),
    "tempo": ("turn", None),
}
# The word after these one is part of them ("ultimo lancio").
_TWO_WORDS = {"ultimo": "lancio"}


def _read_word(draft: dict[str, Any], words: list[str], i: int) -> int:
    """Apply the option at ``words[i]`` to ``draft``; how many words it took."""
    w = words[i].lower()
    nxt = words[i + 1].lower() if i + 1 < len(words) else ""
    if _USERNAME.fullmatch(w):
        draft["username"] = w[1:]
    elif w in _WORD_SETS:
        option, value = _WORD_SETS[w]
        draft[option] = value
        return 2 if _TWO_WORDS.get(w) == nxt else 1
    elif w == "senza" and nxt in _WITHOUT:
        option, value = _WITHOUT[nxt]
        draft[option] = value
        return 2
    elif w.isascii() and w.isdigit() and nxt in _UNIT_SECONDS and len(w) <= 5:
        draft["turn"] = _seconds(int(w), nxt)  # "30 secondi", "2 minuti"
        return 2
    elif w.isascii() and w.isdigit():  # not "²" or "٣", which int() may refuse
        if not 1 <= int(w) <= MAX_LENGTH:
            raise OptionsError(T.options_length_range(MAX_LENGTH))
        draft["length"] = int(w)
    elif (t := _time(w)) is not None:
        draft["turn"] = t
    elif w not in _FILLER:
        raise OptionsError(T.options_unknown_word(words[i]))
    return 1


def parse_options(words: list[str], default_turn_seconds: int) -> ChallengeOptions:
    """The options /sfida's words (and /gioca's) ask for, the rest at their defaults.

    Raises OptionsError, with the Italian reason, on a word it does not know or a value
    out of range."""
    draft: dict[str, Any] = {
        "variant": Variant.CLASSIC,
        "length": 1,
        "cube": True,
        "mars": True,
        "last_roll": False,
        "series": SeriesStart.LOSER,
        "turn": default_turn_seconds,
        "username": None,
        "hints": False,
        "shared_analysis": False,
        "jacoby": True,
    }
    i = 0
    while i < len(words):
        i += _read_word(draft, words, i)
    variant, length = draft["variant"], draft["length"]
    if length == 0 and not variant.rules.has_cube:
        raise OptionsError(T.OPTIONS_MONEY_CLASSIC_ONLY)
    cube = draft["cube"] or length == 0  # the money game is played with the cube
    config = MatchConfig(
        variant, length, cube, draft["mars"], draft["last_roll"], draft["series"], draft["jacoby"]
    )
    return ChallengeOptions(
        config, draft["turn"], draft["username"], draft["hints"], draft["shared_analysis"]
    )
