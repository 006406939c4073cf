"""The Italian texts of the full game review: the HTML document and the messages about it.

The document is HTML for a browser, not Telegram HTML: everything a player wrote (names)
is escaped by the view with ``html.escape``; these texts are plain. Numbers are written
the Italian way (decimal comma), as in the chat's analysis.
"""

from __future__ import annotations

from bot.texts.review import equity, number

# --- In the chat ---------------------------------------------------------------------

BTN_FULL_REVIEW = "📄 Analisi completa"
#: ``/analisi completa``: the word after the command that asks for the document.
FULL_WORD = "completa"
ALERT_FULL_REVIEW_RUNNING = "Preparo l'analisi completa: arriva tra poco."
ALERT_EXPIRED = "Questa partita non è più conservata: l'analisi completa non si può fare."
FULL_REVIEW_FAILED = "L'analisi completa non è riuscita: riprova tra poco."
ALERT_JUST_SENT = "L'analisi completa è appena arrivata: è il documento qui sopra."
JUST_SENT = "📄 L'analisi completa è appena arrivata: è il documento qui sopra."
ALREADY_RUNNING = "📄 L'analisi completa è già in preparazione."


def full_review_caption(title: str) -> str:
    """The message under the document (Telegram HTML: ``title`` is already escaped)."""
    return (
        f"📄 <b>Analisi completa · {title}</b>\n"
        "Ogni decisione dei due giocatori, con una figura per ogni errore. Si apre con "
        "qualsiasi browser, anche sul telefono."
    )


def file_name(game_number: int) -> str:
    return f"tavola-analisi-partita-{game_number}.html"


# --- The document --------------------------------------------------------------------

DOC_TITLE = "Analisi completa"
PLAYERS_TITLE = "I giocatori"
DECISIONS_TITLE = "Tutte le decisioni"
COL_DECISIONS = "Decisioni"
COL_ERROR_RATE = "Tasso d'errore"
COL_DOUBTFUL = "Dubbie"
COL_ERRORS = "Errori"
COL_BLUNDERS = "Errori gravi"
COL_CUBE_ERRORS = "Errori di cubo"
PLAYED = "Giocata"
BEST = "Migliore"
LOST = "Persa"
FORCED = "mossa obbligata: non c'era scelta"
NOT_COUNTED = "non conteggiata: nessuna vera scelta"
NO_LOSS = "la scelta migliore"
PICTURE_PLAY = (
    "Frecce gialle numerate: la mossa migliore, nell'ordine dei passi. "
    "Frecce rosse sottili: la mossa giocata."
)
PICTURE_CUBE = "La posizione della decisione di cubo."

SEVERITY_NAMES = {
    "doubtful": "dubbia",
    "error": "errore",
    "blunder": "errore grave",
}


def title(variant_name: str, game_number: int) -> str:
    return f"{variant_name}, partita {game_number}"


def picture_alt(rank: int) -> str:
    return f"Posizione della decisione {rank}"


def subtitle(white: str, black: str, setting: str) -> str:
    return f"{white} (Bianco) contro {black} (Nero) · {setting}"


def decision_heading(number: int, name: str, what: str) -> str:
    return f"{number}. {name} · {what}"


def roll(dice: tuple[int, int]) -> str:
    return f"tiro {max(dice)}-{min(dice)}"


def double_choice(doubled: bool) -> str:
    return "raddoppia" if doubled else "non raddoppia"


def take_choice(took: bool) -> str:
    return "accetta il raddoppio" if took else "rinuncia al raddoppio"


CUBE_DOUBLE = "cubo: raddoppiare?"
CUBE_TAKE = "cubo: accettare il raddoppio?"


def play_equity(value: float | None) -> str:
    return "" if value is None else f"equità {equity(value)}"


def cube_equity(value: float) -> str:
    return f"equità {equity(value)} rispetto alla scelta migliore"


def lost(value: float) -> str:
    return number(value, 3)


def legend(doubtful: float, error: float, blunder: float) -> str:
    return (
        "Ogni decisione dei due giocatori, nell'ordine: la scelta fatta, la migliore "
        "secondo il computer e l'equità persa (in punti per partita, a cubo 1). Le mosse "
        "sono valutate guardando un tiro avanti, con equità senza cubo; le decisioni di "
        "cubo sono valutate con il cubo e il punteggio, rispetto alla scelta migliore. "
        "Dubbia da "
        f"{number(doubtful, 2)}, errore da {number(error, 2)}, errore grave da "
        f"{number(blunder, 2)}. Il tasso d'errore è la media persa per decisione ×1000. "
        "Per ogni errore c'è la figura della posizione."
    )


def footer(seconds: float) -> str:
    return f"Tavola · analisi calcolata in {number(seconds)} s."
