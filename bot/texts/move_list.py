"""Texts of the move list (/mosse and the board's button) and of the caption's line with
each side's last play. Telegram HTML, like the other texts."""

from __future__ import annotations

from bot.texts.messages import escape, label, player, points, subject

BTN_MOVES = "📜 Mosse"

#: Longest list sent: a message holds 4096 characters; the oldest plays go first.
MAX_LIST_CHARS = 3800
#: Longest list in a pop-up (an alert holds 200 characters, plain text).
MAX_ALERT_CHARS = 200

NO_PLAYS_YET = "Nessuna mossa ancora: la partita è appena cominciata."
EARLIER_LEFT_OUT = "…"
WRITE_ME_FOR_ALL = "Per l'elenco completo scrivimi in privato e premi di nuovo."
STALE = "Questa partita non è più disponibile."


def title(game_number: int, first: str, second: str) -> str:
    return f"<b>Mosse della partita {game_number}</b>: {label(first)} contro {label(second)}"


def play(number: int, name: str, dice: str, notation: str) -> str:
    """One played turn: '3. Anna 6-4: 24/14'; no notation when no move was possible."""
    moved = f"<code>{escape(notation)}</code>" if notation else "nessuna mossa possibile"
    return f"{number}. {label(name)} {dice}: {moved}"


def doubled(name: str, value: int) -> str:
    return f"{subject(name)} raddoppia a {value}"


def took(name: str) -> str:
    return f"{subject(name)} accetta il raddoppio"


def dropped(name: str) -> str:
    return f"{subject(name)} rinuncia al raddoppio"


def resigned(name: str, lost: int) -> str:
    return f"{subject(name)} abbandona ({points(lost)})"


def timed_out(name: str) -> str:
    return f"⏰ Tempo scaduto per {player(name)}"


def last_plays(plays: list[tuple[str, str]]) -> str:
    """The caption's line with each side's last play: 'Ultime mosse: Anna 3-1 8/5 6/5 · …'."""
    shown = " · ".join(f"{escape(name)} <code>{escape(text)}</code>" for name, text in plays)
    return f"Ultime mosse: {shown}"


SENT_PRIVATELY = "Ti ho mandato l'elenco delle mosse in privato."
