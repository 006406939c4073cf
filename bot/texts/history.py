"""Texts of the history commands: a finished game named by its number (``/rivedi 2``,
``/verifica 2``, ``/posizione 2``) and the list of a match's games (``/partita``)."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from bot.texts.messages import RESULT_NAMES, match_length, player, points
from engine import ResultKind, Variant

#: The commands that take a game number, in the order the list names them.
NUMBERED_COMMANDS = ("rivedi", "verifica", "posizione")


def bad_number(command: str, given: str) -> str:
    """A game number that is no number (``/rivedi due``)."""
    return (
        f"«{_short(given)}» non è il numero di una partita: scrivi ad esempio "
        f"<code>/{command} 2</code> (o solo /{command} per l'ultima)."
    )


def no_such_game(command: str, number: int, numbers: Sequence[int]) -> str:
    """A number that is none of the match's finished games."""
    if len(numbers) == 1:
        which = f"è finita solo la partita {numbers[0]}"
    else:
        which = f"sono finite le partite da {numbers[0]} a {numbers[-1]}"
    return (
        f"La partita {number} non c'è: di questo match {which}. "
        f"Scrivi ad esempio <code>/{command} {numbers[-1]}</code>."
    )


NO_FINISHED_GAMES = (
    "In questa chat non c'è ancora una partita finita: gioca una partita fino alla fine e riprova."
)


def game_line(number: int, winner: str | None, kind: ResultKind, won: int) -> str:
    """One finished game in the list: its number, who won, how, and the points."""
    if winner is None:
        return f"{number}. patta, nessun punto"
    return f"{number}. vince {player(winner)}: {RESULT_NAMES[kind]}, {points(won)}"


def match_games(
    names: tuple[str, str],
    variant: Variant,
    length: int,
    lines: Sequence[str],
    *,
    going_on: bool,
) -> str:
    """/partita's list of the match's finished games, with the commands that use a number."""
    state = "in corso" if going_on else "finito"
    head = (
        f"<b>Partite finite del match</b> ({state}): {player(names[0])} contro "
        f"{player(names[1])}, {match_length(variant, length).lower()}"
    )
    last = len(lines)
    hint = " · ".join(f"<code>/{c} {last}</code>" for c in NUMBERED_COMMANDS)
    return "\n".join([head, *lines, f"Per una di queste: {hint} (col suo numero)."])


def _short(text: str, limit: int = 20) -> str:
    return escape(text if len(text) <= limit else text[: limit - 1] + "…")
