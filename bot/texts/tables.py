"""The words of several tables in one chat: who plays where, and why a second table for a
seated person is refused. HTML (the names are escaped by ``messages``)."""

from __future__ import annotations

from dataclasses import dataclass

from bot.texts.messages import VARIANT_SHORT_NAMES, label, match_length, player, subject
from engine import Variant

NOT_SEATED = (
    "Non stai giocando a nessun tavolo di questa chat. I tavoli in corso: /partita. "
    "Per giocare: /sfida."
)
ROOM_FULL = "Tutti i tavoli di questa chat sono occupati: riprova quando una partita finisce."
OWN_CHALLENGE_OPEN = (
    "Hai già una sfida aperta in questa chat: aspetta la risposta o ritirala prima di lanciarne "
    "un'altra."
)


def you_play_already(opponent: str | None) -> str:
    """A seated person asks for a second table."""
    if opponent is None:
        return "Stai già giocando una partita in questa chat: finiscila prima (/partita)."
    return (
        f"Stai già giocando con {player(opponent)} in questa chat: finisci quella partita "
        "prima (/partita)."
    )


def plays_already(name: str, opponent: str | None) -> str:
    """The person challenged, or who accepts, already sits at another table."""
    if opponent is None:
        return f"{subject(name)} sta già giocando una partita in questa chat."
    return f"{subject(name)} sta già giocando con {player(opponent)} in questa chat."


def plays_already_alert(name: str, opponent: str | None) -> str:
    """``plays_already`` for an alert (no HTML)."""
    if opponent is None:
        return f"{name} sta già giocando una partita in questa chat."
    return f"{name} sta già giocando con {opponent} in questa chat."


def you_play_already_alert(opponent: str | None) -> str:
    if opponent is None:
        return "Stai già giocando una partita in questa chat: finiscila prima."
    return f"Stai già giocando con {opponent} in questa chat: finisci quella partita prima."


@dataclass(frozen=True, slots=True)
class TableLine:
    """A table in play, as a list shows it."""

    first: str
    second: str
    variant: Variant
    length: int
    score: tuple[int, int]


def table_line(t: TableLine) -> str:
    """'• Anna – Bruno · Classico, Match a 5 punti · 2-1'."""
    shown = f"• {label(t.first)} – {label(t.second)} · {VARIANT_SHORT_NAMES[t.variant]}, "
    shown += match_length(t.variant, t.length)
    if t.length > 1:
        shown += f" · {t.score[0]}-{t.score[1]}"
    return shown


def tables_in_play(lines: list[TableLine]) -> str:
    """The tables of a chat, for /partita and the challenge card."""
    head = "<b>Tavoli in corso</b>" if len(lines) > 1 else "<b>Tavolo in corso</b>"
    return "\n".join([head, *(table_line(t) for t in lines)])


def tables_for_spectator(lines: list[TableLine]) -> str:
    """/partita from someone who plays at none of the tables."""
    return tables_in_play(lines) + "\nNon giochi a nessuno di questi tavoli: per giocare, /sfida."
