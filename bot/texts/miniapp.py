"""The Mini App's Italian texts: the page's own, and the buttons it shares with the chat
(taken from ``messages`` so the two never read differently). The page gets them as JSON."""

from __future__ import annotations

from bot.texts import messages as T

TITLE = "Tavola"
REFUSED_SIGNATURE = (
    "Accesso non valido o scaduto: riapri il tavolo dal pulsante nella chat di Telegram."
)
TOO_FAST = "Troppe richieste: aspetta un attimo e riprova."
NO_TABLE = "Tavolo non indicato."
NO_GAME = "Nessuna partita in corso su questo tavolo."
OPEN_BUTTON = "🎲 Apri il tavolo"
MENU_BUTTON = "Tavola"
MINIAPP_OFF = "Mini App spenta: TAVOLA_MINIAPP_URL non impostata."

PAGE: dict[str, str] = {
    "title": TITLE,
    "roll": "🎲 " + T.BTN_ROLL,
    "double": T.BTN_DOUBLE,
    "take": T.BTN_TAKE,
    "drop": T.BTN_DROP,
    "undo": "↩️ " + T.BTN_UNDO,
    "confirm": "✅ " + T.BTN_CONFIRM,
    "resign": T.BTN_RESIGN,
    "watching": "Stai guardando la partita",
    "your_turn": "Tocca a te",
    "waiting": "Tocca a {name}",
    "pips": "pip",
    "score": "Punti",
    "to": "a {n}",
    "money": "partita libera",
    "moves": "Mosse",
    "no_moves": "Nessuna mossa ancora.",
    "connecting": "Connessione al tavolo…",
    "offline": "Connessione persa: riprovo…",
    "saved": "Salvato",
    "clock": "Tempo",
    "cube": "Cubo",
    "crawford": "Crawford",
    "over": "Partita finita",
    "resign_asked": "Abbandono proposto: rispondi nella chat.",
    "no_game": NO_GAME,
    "refused": REFUSED_SIGNATURE,
    "drag_hint": "Tocca o trascina una pedina: le destinazioni si illuminano.",
}


def catalogue() -> dict[str, str]:
    return dict(PAGE)
