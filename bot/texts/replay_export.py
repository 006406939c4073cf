"""Texts of the finished game's extras: the replay (/rivedi) and the match file (/esporta).

The replay's captions are drawn on the pictures (plain text); the messages are HTML.
"""

from __future__ import annotations

from html import escape

from bot.texts.messages import ALERT_STALE_BUTTON, color_name
from bot.texts.review import ALERT_WRITE_ME_FIRST

BTN_REPLAY = "🎞 Rivedi"
FIRST_PLAYER = "Giocatore 1"  # when the match's table has expired and its names with it
SECOND_PLAYER = "Giocatore 2"
BTN_EXPORT = "📄 Esporta"

NO_FINISHED_GAME = (
    "In questa chat non c'è ancora una partita finita da rivedere o da esportare: "
    "gioca una partita fino alla fine e riprova."
)
REPLAY_WORKING = "🎞 Preparo l'animazione della partita…"
EXPORT_WORKING = "📄 Preparo il file del match…"
ALREADY_WORKING = (
    "Sto già preparando un'animazione o un file per questa chat: un attimo di pazienza."
)
JOB_FAILED = "Non sono riuscito a preparare il file: riprova tra poco."
STALE_BUTTON = ALERT_STALE_BUTTON
#: An inline board's files go privately, and the bot may write only to who started it.
WRITE_ME_FIRST = ALERT_WRITE_ME_FIRST
REPLAY_JUST_SENT = "L'animazione di questa partita è appena stata inviata qui sopra."
EXPORT_JUST_SENT = "Il file di questo match è appena stato inviato qui sopra."


def replay_caption(first: str, second: str, game_number: int) -> str:
    """The message under the animation."""
    return (
        f"🎞 <b>La partita rivista</b> · partita {game_number}: "
        f"{escape(first)} contro {escape(second)}"
    )


def export_caption(classic: bool, games: int, cubeless: bool = False) -> str:
    """The message under the match file: what it is and what opens it."""
    count = "1 partita" if games == 1 else f"{games} partite"
    if cubeless:
        return (
            f"📄 Il match ({count}) nel formato <b>.sgf</b> di GNU Backgammon, che dice che "
            "si è giocato senza cubo (il formato .mat non può dirlo): si apre con GNU "
            "Backgammon (File → Apri)."
        )
    if classic:
        return (
            f"📄 Il match ({count}) nel formato <b>.mat</b> di Jellyfish: si apre con "
            "GNU Backgammon (File → Importa), eXtremeGammon, BGBlitz e gli altri programmi."
        )
    return (
        f"📄 La serie di Backgammon lungo ({count}) come testo: una riga per turno, "
        "dadi e mosse con i punti numerati da chi muove (24 è la testa, 0 è fuori)."
    )


# --- captions drawn on the replay's frames ------------------------------------------


def frame_start(white: str, black: str, game_number: int) -> str:
    return (
        f"Partita {game_number}: {white} ({color_name(True)}) contro {black} ({color_name(False)})"
    )


def frame_move(number: int, name: str, dice: tuple[int, int], notation: str) -> str:
    """'7. Anna 5-2: 13/8 13/11', or the roll that could not be played."""
    roll = f"{max(dice)}-{min(dice)}"
    return f"{number}. {name} {roll}: {notation or 'non può muovere'}"


def frame_double(number: int, name: str, cube: int) -> str:
    return f"{number}. {name} raddoppia a {cube}"


def frame_take(number: int, name: str) -> str:
    return f"{number}. {name} accetta il raddoppio"


def frame_drop(number: int, name: str) -> str:
    return f"{number}. {name} rifiuta il raddoppio"


def frame_resigned(name: str) -> str:
    return f"{name} abbandona"


def frame_timeout(name: str) -> str:
    return f"{name}: tempo scaduto"
