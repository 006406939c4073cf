"""Every user-facing string of the bot except the rules, in Italian, as pure data.

Kept free of Telegram imports so that handlers, tests and the e2e fake server can share
the exact wording. Texts are Telegram HTML (<b>, <i>, <code> only); every value that comes
from a user (names above all) goes through `escape()` before it is embedded, so a name
like "<b>Ugo & co" can neither break the markup nor inject formatting.

Conventions: informal "tu", short sentences, the same word for the same thing everywhere
(punto, pedina, tiro, cubo, match for classic, serie for long).
"""

from __future__ import annotations

import html
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from engine import MatchConfig, MoveProblem, ResultKind, SeriesStart, Variant
from engine.ai import Level

# --- Telegram limits the texts are written for (checked by the tests) -----------------

MAX_MESSAGE_CHARS = 4096
MAX_CAPTION_CHARS = 1024
MAX_ALERT_CHARS = 200
MAX_COMMAND_DESCRIPTION_CHARS = 256


def telegram_length(text: str) -> int:
    """How long Telegram counts one of our HTML texts against its limits: without the
    tags, entities decoded, in UTF-16 code units (an emoji in a name counts twice)."""
    shown = html.unescape(re.sub(r"</?(?:b|i|code)>", "", text))
    return len(shown.encode("utf-16-le")) // 2


def escape(text: str) -> str:
    """Make arbitrary user text safe inside Telegram HTML (only &, < and > matter)."""
    return html.escape(text, quote=False)


def quote(text: str, limit: int) -> str:
    """User text echoed back, cut to `limit` characters and escaped.

    Cut before escaping, so an entity like "&amp;" is never split, and short enough that
    a reply quoting a 4096-character message still fits in one message.
    """
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    return escape(text)


def label(name: str) -> str:
    """A name escaped and in bold, as a label (a score line, a list): no article."""
    return f"<b>{escape(name)}</b>"


def player(name: str) -> str:
    """A user's name, escaped and in bold, as it appears in running text. The computer is a
    common noun there and takes the article everywhere ("vince il Computer")."""
    if name == COMPUTER_NAME:
        return f"il {label(name)}"
    return label(name)


def subject(name: str) -> str:
    """``player`` at the start of a sentence ("Il Computer vince la partita")."""
    shown = player(name)
    return shown[:1].upper() + shown[1:] if name == COMPUTER_NAME else shown


def to(preposition: str, name: str) -> str:
    """A preposition and a name in running text: "ad Anna", "di Ivo", "al Computer"."""
    if name == COMPUTER_NAME and preposition in _WITH_ARTICLE:
        return f"{_WITH_ARTICLE[preposition]}{label(name)}"
    return f"{prep(preposition, name)}{player(name)}"


#: Prepositions that change before a name starting with a vowel, as standard Italian
#: writes them: the euphonic "d" only before the same vowel ("ad Anna", "ed Elena", but
#: "a Ugo"). "Di" is never elided before a name ("di Ivo", "di Irene"): elision is for
#: common words, and a name must stay whole to be read.
_BEFORE_VOWEL: dict[str, tuple[str, str]] = {
    "a": ("a", "ad "),
    "e": ("e", "ed "),
}


#: The computer is a common noun, not a name: it takes the article ("tocca al Computer").
_WITH_ARTICLE: dict[str, str] = {"a": "al ", "di": "del ", "per": "per il "}


def prep(preposition: str, name: str) -> str:
    """The preposition to write before ``name``, with its trailing space (or apostrophe).

    Names are users' own, so they start with anything: only the first letter counts, read
    without its accent ("Àlex" takes "ad"); a name starting with "@", a digit or an emoji
    keeps the plain form. The computer opponent takes the article.
    """
    if name == COMPUTER_NAME and preposition in _WITH_ARTICLE:
        return _WITH_ARTICLE[preposition]
    vowel, form = _BEFORE_VOWEL.get(preposition, ("", ""))
    first = unicodedata.normalize("NFD", name.strip()[:1].lower())[:1]
    return form if vowel and first == vowel else f"{preposition} "


def points(n: int) -> str:
    """'1 punto' / 'N punti': the unit every score is written in."""
    return "1 punto" if n == 1 else f"{n} punti"


# --- Words shared by settings, results and cards ----------------------------------------

VARIANT_NAMES: dict[Variant, str] = {
    Variant.CLASSIC: "Backgammon classico",
    Variant.LONG: "Backgammon lungo",
}
VARIANT_SHORT_NAMES: dict[Variant, str] = {Variant.CLASSIC: "Classico", Variant.LONG: "Lungo"}

WHITE = "Bianco"
BLACK = "Nero"


def color_name(white: bool) -> str:
    """The side's name as shown next to a player ('Bianco' or 'Nero')."""
    return WHITE if white else BLACK


CUBE_ON = "con cubo"
CUBE_OFF = "senza cubo"


def cube_value(value: int) -> str:
    """The cube as the caption's first line shows it: 'cubo 2'."""
    return f"cubo {value}"


#: Long's scoring setting, named by the result it lets count double (or not).
SCORING_NAMES: dict[bool, str] = {False: "Oin", True: "Mars"}
LAST_ROLL_ON = "ultimo lancio"
LAST_ROLL_OFF = "senza ultimo lancio"

#: Who opens the later games of a series, said plainly (the /sfida words stay "al perdente"
#: and "a turno").
SERIES_START_NAMES: dict[SeriesStart, str] = {
    SeriesStart.LOSER: "Poi comincia chi perde",
    SeriesStart.ALTERNATE: "Poi si comincia a turno",
}

LEVEL_NAMES: dict[Level, str] = {
    Level.FACILE: "Facile",
    Level.MEDIO: "Medio",
    Level.DIFFICILE: "Difficile",
}
COMPUTER_NAME = "Computer"

RESULT_NAMES: dict[ResultKind, str] = {
    ResultKind.SINGLE: "vittoria semplice",  # the same words on the resign buttons
    ResultKind.GAMMON: "gammon",
    ResultKind.BACKGAMMON: "backgammon",
    ResultKind.OIN: "Oin",
    ResultKind.MARS: "Mars",
    ResultKind.DRAW: "patta",
}


def kind_shown(kind: ResultKind, config: MatchConfig) -> ResultKind:
    """The result as the game's settings name it: where only Oin counts, a Mars is an Oin
    (it scores 1 point like any win), so the word Mars never shows in such a game."""
    if kind is ResultKind.MARS and not config.rules.has_cube and not config.mars:
        return ResultKind.OIN
    return kind


def turn_limit(seconds: int | None) -> str:
    """A turn time limit in words; None (or 0) means no limit."""
    if not seconds:
        return "senza limite di tempo"
    return f"{duration(seconds)} per turno"


#: Below this much time left, the caption says how long is left rather than only the hour.
SHORT_TIME_LEFT = 300


def next_game_deadline(due: datetime, now: datetime) -> str:
    """The caption's clock line between two games: when the next one starts by itself."""
    left = max(0, round((due - now).total_seconds()))
    at = (
        f"alle {due:%H:%M}"
        if due.date() == now.date()
        else f"il {due.day}/{due.month} alle {due:%H:%M}"
    )
    if left >= SHORT_TIME_LEFT:
        return f"⏱ La partita successiva comincia da sola {at}"
    return f"⏱ La partita successiva comincia da sola tra {duration(left)}"


def turn_deadline(due: datetime, now: datetime) -> str:
    """The caption's clock line: the hour the turn must be played by, in the chat's time
    ("entro le 21:34", "entro domani alle 9:05", "entro il 3/12 alle 9:05"), and how long is
    left when it is short. Both times are aware datetimes in the same zone."""
    left = max(0, round((due - now).total_seconds()))
    if due.date() == now.date():
        hour = f"entro le {due:%H:%M}"
    elif due.date() == (now + timedelta(days=1)).date():
        hour = f"entro domani alle {due:%H:%M}"
    else:
        hour = f"entro il {due.day}/{due.month} alle {due:%H:%M}"
    if left >= SHORT_TIME_LEFT:
        return f"⏱ Tempo per il turno: {hour}"
    if left >= 60:
        short = f"{-(-left // 60)} minuti" if left > 60 else "1 minuto"
    else:
        short = duration(max(1, left))
    return f"⏱ Restano {short} per il turno ({hour})"


def duration(seconds: int) -> str:
    """'45 secondi', '1 minuto', '2 minuti', '1 ora': round units only, as offered."""
    if seconds % 3600 == 0:
        hours = seconds // 3600
        return "1 ora" if hours == 1 else f"{hours} ore"
    if seconds % 60 == 0:
        minutes = seconds // 60
        return "1 minuto" if minutes == 1 else f"{minutes} minuti"
    return "1 secondo" if seconds == 1 else f"{seconds} secondi"


#: What a contest of several games is called: a match in classic, a series in long.
MATCH_WORDS: dict[Variant, str] = {Variant.CLASSIC: "match", Variant.LONG: "serie"}
#: The same word with its article, for "vince il match" / "vince la serie".
MATCH_WORDS_WITH_ARTICLE: dict[Variant, str] = {
    Variant.CLASSIC: "il match",
    Variant.LONG: "la serie",
}
SINGLE_GAME = "Partita singola"
#: The money game (classic, match length 0): one game for points with the cube up to 64.
MONEY_GAME = "Partita libera"
JACOBY_ON = "regola Jacoby"
JACOBY_OFF = "senza regola Jacoby"
#: After a gammon or backgammon that counted as a single win under the Jacoby rule.
JACOBY_NOTE = "Regola Jacoby: senza raddoppi il gammon conta come una vittoria semplice."


def match_length(variant: Variant, target: int) -> str:
    """'Match a 5 punti' (classic) or 'Serie a 3 punti' (long); one game when target is 1;
    'Partita libera' for a money game (target 0)."""
    if target == 0:
        return MONEY_GAME
    if target == 1:
        return SINGLE_GAME
    return f"{MATCH_WORDS[variant].capitalize()} a {points(target)}"


def settings_summary(config: MatchConfig, turn_seconds: int | None) -> str:
    """One line describing a game's settings, for challenge cards and /partita.

    Classic shows the cube, long shows scoring, last roll and who starts; a 1-point
    classic match never has a cube (docs/RULES.md#classic-matches-and-crawford), so the
    line says so regardless of the setting: ``config.cube_in_play`` is the engine's answer.
    """
    target = config.length
    parts = [VARIANT_NAMES[config.variant], match_length(config.variant, target)]
    if config.rules.has_cube:
        parts.append(CUBE_ON if config.cube_in_play else CUBE_OFF)
        if config.money and config.cube_in_play:
            parts.append(JACOBY_ON if config.jacoby else JACOBY_OFF)
    else:  # long: scoring, last roll, who starts the later games
        parts.append(SCORING_NAMES[config.mars])
        parts.append(LAST_ROLL_ON if config.last_roll else LAST_ROLL_OFF)
        if target > 1:
            parts.append(SERIES_START_NAMES[config.series_start])
    parts.append(turn_limit(turn_seconds))
    return " · ".join(parts)


CAPTION_SCORING: dict[bool, str] = {True: "punteggio: Oin e Mars", False: "punteggio: solo Oin"}
CAPTION_SERIES_START: dict[SeriesStart, str] = {
    SeriesStart.LOSER: "ogni partita la comincia chi ha perso la precedente",
    SeriesStart.ALTERNATE: "le partite si cominciano a turno",
}


def caption_settings(config: MatchConfig, turn_seconds: int | None) -> list[str]:
    """The game's settings in the board caption's first line, in readable words, so they
    stay in view for the whole game (the variant and length come before them)."""
    parts: list[str] = []
    if config.rules.has_cube:
        if not config.cube_in_play:
            parts.append(CUBE_OFF)
        elif config.money:
            parts.append(JACOBY_ON if config.jacoby else JACOBY_OFF)
    else:  # long: scoring, last roll, who starts the later games
        parts.append(CAPTION_SCORING[config.mars])
        if config.last_roll:
            parts.append(LAST_ROLL_ON)
        if config.length > 1:
            parts.append(CAPTION_SERIES_START[config.series_start])
    parts.append(turn_limit(turn_seconds))
    return parts


# --- Buttons -------------------------------------------------------------------------

BTN_PLAY_COMPUTER = "Gioca col computer"
BTN_RULES = "Regole"
BTN_LEADERBOARD = "Classifica"
BTN_STATS = "Statistiche"
BTN_HELP = "Aiuto"
BTN_BACK = "« Indietro"

BTN_ACCEPT_CHALLENGE = "Accetta"
BTN_DECLINE_CHALLENGE = "Rifiuta"
BTN_CANCEL_CHALLENGE = "Ritira la sfida"
BTN_START_CHALLENGE = "Lancia la sfida"

BTN_ROLL = "Tira i dadi"
BTN_DOUBLE = "Raddoppia"
BTN_CONFIRM = "Conferma"
BTN_UNDO = "Annulla"
BTN_RESIGN = "Abbandona"
BTN_TAKE = "Accetto"
BTN_DROP = "Rinuncio"
BTN_RESIGN_YES = "Sì, abbandono"
BTN_RESIGN_NO = "No, continuo"
BTN_RESIGN_ACCEPT = "Accetto l'abbandono"
BTN_RESIGN_DECLINE = "Rifiuto, si gioca"
BTN_NEXT_GAME = "Partita successiva"
NEXT_GAME_STARTED_BY_ITSELF = (
    "⏱ La partita successiva è cominciata da sola: il tempo di pausa è finito."
)
BTN_REMATCH = "Rivincita"


# --- /start, main menu, /aiuto -------------------------------------------------------


def welcome(first_name: str, private: bool = True) -> str:
    """/start: greets the user and says what the bot does in two lines.

    A private chat has no opponent to challenge: there it points to the computer, and to a
    group for playing a friend.
    """
    intro = (
        f"Ciao {player(first_name)}! Sono <b>Tavola</b> e con me giochi a "
        "<b>backgammon</b>, classico o lungo, contro un amico o contro il computer.\n\n"
    )
    if private:
        return intro + (
            "Qui puoi giocare contro il computer con /gioca. Per sfidare un amico "
            "aggiungimi a un gruppo e scrivi /sfida lì."
        )
    return intro + "Per sfidare qualcuno in questo gruppo scrivi /sfida, oppure usa il menu."


GROUP_GREETING = (
    "Ciao a tutti! Sono <b>Tavola</b>: con me in questo gruppo si gioca a backgammon.\n"
    "Per cominciare scrivete /sfida e scegliete il gioco con i pulsanti; /aiuto spiega il resto."
)
"""Said once when the bot is added to a group: two lines on how to start."""

PLAY_IN_PRIVATE = (
    "Contro il computer si gioca in privato: premi il pulsante per aprire la chat con me."
)
BTN_PLAY_IN_PRIVATE = "Gioca in privato"


COMMANDS: tuple[tuple[str, str], ...] = (
    ("sfida", "Lancia una sfida: aperta a tutti, o per qualcuno se rispondi a un suo messaggio"),
    ("gioca", "Gioca contro il computer: Facile, Medio o Difficile"),
    ("mossa", "Scrivi la tua mossa in notazione, per esempio /mossa 13/7 8/7"),
    ("partita", "Mostra la tua partita in corso, o i tavoli in corso in questa chat"),
    ("mosse", "Le mosse della partita in corso finora, di tutti e due, in notazione"),
    (
        "posizione",
        "Mostra il codice della posizione (Position ID e Match ID nel classico); "
        "/posizione 2: la fine della partita 2",
    ),
    ("abbandona", "Abbandona la partita in corso, dopo averti detto quanto perdi"),
    (
        "suggerimento",
        "Le mosse migliori per il tuo tiro, o il consiglio sul cubo, al punteggio",
    ),
    (
        "analisi",
        "L'analisi dell'ultima partita finita: gli errori di ciascuno e le mosse migliori "
        "(/analisi completa: ogni decisione, in un file da aprire nel browser)",
    ),
    (
        "rivedi",
        "Rivedi l'ultima partita finita come animazione, mossa per mossa; /rivedi 2: la partita 2",
    ),
    (
        "esporta",
        "Scarica il match come file .mat per GNU Backgammon (senza cubo .sgf, lungo testo)",
    ),
    ("regole", "Le regole del backgammon classico e del backgammon lungo"),
    ("classifica", "La classifica dei giocatori di questa chat"),
    ("statistiche", "Le tue partite: vittorie, sconfitte e punti"),
    ("impostazioni", "Le tue impostazioni di gioco, come la conferma automatica"),
    ("verifica", "Come controllare i dadi dell'ultima partita conclusa (/verifica 2: della 2)"),
    ("seme", "La tua parola per i dadi: entra nel sale delle tue partite"),
    ("aiuto", "L'elenco dei comandi e come si gioca"),
)
"""(command, description) pairs of the command menus (``bot.adapters.menus``); also the source
of /aiuto."""

#: Left out of the private chats' menu: a private chat's leaderboard has one player.
NOT_IN_PRIVATE_MENU = frozenset({"classifica"})
#: Left out of the groups' menu: a game against the computer and the personal settings are
#: for a private chat (/gioca in a group only points there).
NOT_IN_GROUP_MENU = frozenset({"gioca", "impostazioni"})
#: Handled but in no menu: /start (Telegram's own button) and /help (/aiuto's alias).
HIDDEN_COMMANDS = frozenset({"start", "help"})

#: The bot's description (setMyDescription, at most 512 characters): what a new user reads
#: in the empty chat before pressing Start.
BOT_DESCRIPTION = (
    "Tavola: backgammon classico e backgammon lungo (nardy), in italiano.\n\n"
    "• In un gruppo: /sfida e gioca con gli amici, a punti, con il cubo e il tempo per turno "
    "che preferite.\n"
    "• In privato: /gioca contro il computer, Facile, Medio o Difficile.\n\n"
    "Dadi verificabili, suggerimenti, analisi e animazioni delle partite, classifiche. "
    "Le regole complete con /regole, tutti i comandi con /aiuto."
)
#: The short description (setMyShortDescription, at most 120 characters): shown on the
#: bot's profile and when it is shared.
BOT_SHORT_DESCRIPTION = (
    "Backgammon classico e lungo in italiano: sfida gli amici nei gruppi o gioca contro il "
    "computer."
)


def help_text() -> str:
    """/aiuto: every command with its description, then how a turn works."""
    lines = ["<b>Comandi</b>"]
    lines.extend(f"/{command} - {escape(description)}" for command, description in COMMANDS)
    lines.append("")
    lines.append("<b>Come si gioca</b>")
    lines.append(
        "Nel tuo turno premi <b>Tira i dadi</b> (senza cubo si tira da solo), poi scegli "
        "i passi con i pulsanti oppure scrivi la mossa con /mossa. Puoi annullare i passi "
        "finché non hai usato tutti i dadi: poi il turno passa da solo. Se in /impostazioni "
        "spegni la conferma automatica, a mossa completa premi <b>Conferma</b>. Nel "
        "classico, prima di tirare, puoi anche premere <b>Raddoppia</b>. /mosse elenca le "
        "mosse della partita."
    )
    lines.append(SEVERAL_TABLES_HELP)
    lines.append("Le regole complete sono in /regole.")
    lines.append("")
    lines.extend(CHALLENGE_WORDS_HELP)
    return "\n".join(lines)


SEVERAL_TABLES_HELP = (
    "In un gruppo si gioca su più tavoli alla volta: ogni coppia al suo, e ognuno a un solo "
    "tavolo per chat. I comandi sulla partita (/abbandona, /mossa, /mosse, /posizione...) "
    "valgono per la tua; /partita mostra la tua tavola, o i tavoli in corso se non giochi."
)

CHALLENGE_WORDS_HELP: tuple[str, ...] = (
    "<b>Le parole di /sfida</b>",
    "In un gruppo /sfida apre una scheda con i pulsanti; le parole che aggiungi la "
    "preparano già, per esempio <code>/sfida lunga 3 30s</code>.",
    "• gioco: <code>classico</code> o <code>lungo</code> (anche <code>classica</code>, "
    "<code>lunga</code>)",
    "• punti: un numero da 1 a 25, per esempio <code>5</code> (o <code>a punti 5</code>); "
    "<code>libera</code> per la partita libera a punti col cubo fino a 64 (classico), "
    "con la regola Jacoby se non scrivi <code>senza jacoby</code>",
    "• cubo (classico): <code>con cubo</code> oppure <code>senza cubo</code>",
    "• lungo: <code>oin</code> o <code>mars</code>, <code>ultimo lancio</code>, "
    "<code>a turno</code> o <code>al perdente</code>",
    "• tempo per turno: <code>30s</code>, <code>5m</code>, <code>1h</code>, <code>1g</code> "
    "(almeno 30 secondi, al massimo 1 giorno) oppure <code>senza limite</code>",
    "• aiuti: <code>suggerimenti</code> (💡 durante il turno, per tutti e due) e "
    "<code>analisi</code> (l'analisi di fine partita nel gruppo invece che in privato)",
    "• avversario: <code>@nome</code>, oppure rispondi a un suo messaggio",
)
"""/aiuto's part on the words /sfida understands (bot.game.options parses them)."""


def step_noted(steps: str, dice_left: tuple[int, ...]) -> str:
    """The answer to a first step whose board is not redrawn yet (no HTML: a toast).

    The dice left are named high first, as every roll is written."""
    left = " e ".join(str(d) for d in sorted(dice_left, reverse=True))
    return f"✔ {steps} · ora muovi col {left}"


SETTINGS_ON = "sì"
SETTINGS_OFF = "no"


def settings_text(name: str, auto_confirm: bool) -> str:
    """/impostazioni: a player's settings and what they do."""
    state = SETTINGS_ON if auto_confirm else SETTINGS_OFF
    return (
        f"<b>Impostazioni {prep('di', name)}{escape(name)}</b>\n"
        f"Conferma automatica: <b>{state}</b>\n"
        "Con la conferma automatica il turno passa appena hai usato tutti i dadi; "
        "senza, controlli la mossa e premi Conferma (o Annulla)."
    )


def btn_auto_confirm(enabled: bool) -> str:
    return "Disattiva la conferma automatica" if enabled else "Attiva la conferma automatica"


STORAGE_DOWN = "Il tavolo è momentaneamente irraggiungibile, riprova tra poco."
GAME_TOO_NEW = "Questo tavolo è gestito da una versione più recente di Tavola, riprova tra poco."
GENERIC_ERROR = "Qualcosa è andato storto. Riprova tra poco; se il problema resta, usa /partita."
BTN_CHOOSE_GROUP = "Scegli il gruppo"
INVITE_TOO_LONG = "Troppe impostazioni per un invito: togline qualcuna e riprova."


def invite_to_group(settings: str) -> str:
    """/sfida in private: the link that posts the challenge in a group of the user's choice."""
    return (
        "<b>Sfida un amico</b>\n"
        f"<i>{escape(settings)}</i>\n\n"
        "Premi il pulsante e scegli il gruppo: la sfida comparirà lì, aperta a tutti."
    )


# --- /sfida settings (the words after the command) -----------------------------------

MAX_QUOTED_OPTION = 30
OPTIONS_TURN_RANGE = "Il tempo per turno va da 30 secondi a 1 giorno (es. 30s, 5m, 1h)."


def options_length_range(max_length: int) -> str:
    return f"La lunghezza va da 1 a {max_length} punti."


#: "/sfida lungo libera": the money game is classic only.
OPTIONS_MONEY_CLASSIC_ONLY = "La partita libera (col cubo) si gioca solo nel classico."


def options_unknown_word(word: str) -> str:
    """A word after /sfida that is no setting: named back (escaped) with examples."""
    return (
        f"Non conosco «{quote(word, MAX_QUOTED_OPTION)}». Esempi: /sfida lungo 3, "
        "/sfida classico 5 senza cubo, /sfida lungo oin ultimo a turno 5m."
    )


# --- Challenges ----------------------------------------------------------------------


def open_challenge(challenger: str, settings: str) -> str:
    """A challenge anyone in the chat may accept; `settings` comes from settings_summary."""
    return (
        f"{subject(challenger)} cerca un avversario.\n"
        f"<i>{escape(settings)}</i>\n\n"
        "Premi <b>Accetta</b> per giocare."
    )


def personal_challenge(challenger: str, opponent: str, settings: str) -> str:
    """A challenge addressed to one user; only they may accept or decline it."""
    return (
        f"{subject(challenger)} sfida {player(opponent)}!\n"
        f"<i>{escape(settings)}</i>\n\n"
        f"{player(opponent)}, accetti?"
    )


def challenge_accepted(challenger: str, opponent: str) -> str:
    """The card once the challenge is taken, just before the board appears."""
    return f"{subject(opponent)} accetta la sfida {to('di', challenger)}. Si comincia!"


def leave_match_button(variant: Variant) -> str:
    """The resign prompt's button that leaves the whole match or series."""
    return f"Lascia {MATCH_WORDS_WITH_ARTICLE[variant]}"


def leave_match_ask(name: str, variant: Variant) -> str:
    """The prompt of /abbandona between two games: only the match or series can be left."""
    return (
        f"🏳 {subject(name)}, vuoi lasciare {MATCH_WORDS_WITH_ARTICLE[variant]}? "
        f"Chi {_IT[variant]} lascia {_IT[variant]} perde."
    )


def match_left(loser: str, winner: str, variant: Variant) -> str:
    """Someone left the whole match or series: it is forfeited to the opponent."""
    return (
        f"🏳 {subject(loser)} lascia {MATCH_WORDS_WITH_ARTICLE[variant]}: "
        f"{player(winner)} {_IT[variant]} vince a tavolino."
    )


#: The pronoun of "il match" / "la serie".
_IT: dict[Variant, str] = {Variant.CLASSIC: "lo", Variant.LONG: "la"}


def rematch_offered(challenger: str, opponent: str, settings: str) -> str:
    """The card of a rematch offered to the other player of a finished match: nothing
    starts until they accept."""
    return (
        f"🔁 {subject(challenger)} offre la rivincita {to('a', opponent)}!\n"
        f"{settings}\n{player(opponent)}, accetti?"
    )


def rematch_offered_inline(challenger: str, opponent: str, minutes: int) -> str:
    """Under an inline board: the rematch offered, waiting for the opponent's answer."""
    return (
        f"🔁 {subject(challenger)} offre la rivincita {to('a', opponent)}: "
        f"{player(opponent)}, accetti? (scade tra {minutes} min)"
    )


def rematch_declined(challenger: str, opponent: str) -> str:
    return f"{subject(opponent)} rifiuta la rivincita {to('di', challenger)}."


def rematch_withdrawn(challenger: str) -> str:
    return f"{subject(challenger)} ritira la proposta di rivincita."


def rematch_expired(challenger: str) -> str:
    return f"La rivincita proposta {to('da', challenger)} è scaduta: nessuno l'ha accettata."


BTN_ACCEPT_REMATCH = "✅ Accetta la rivincita"
BTN_DECLINE_REMATCH = "Rifiuta"
ALERT_REMATCH_WAITING = "Hai già proposto la rivincita: aspetta la risposta dell'avversario."
ALERT_REMATCH_OFFERED = "Rivincita proposta: si comincia quando l'avversario accetta."


def challenge_declined(challenger: str, opponent: str) -> str:
    return f"{subject(opponent)} ha rifiutato la sfida {to('di', challenger)}."


def challenge_cancelled(challenger: str) -> str:
    return f"{subject(challenger)} ha ritirato la sfida."


def challenge_expired(challenger: str) -> str:
    return f"La sfida {to('di', challenger)} è scaduta: nessuno l'ha accettata in tempo."


def challenge_card(challenger: str, opponent: str | None, settings: str) -> str:
    """The card /sfida opens: the settings so far, changed with its buttons by the
    challenger alone, until they launch it."""
    lines = [f"<b>Nuova sfida</b> {to('di', challenger)}"]
    if opponent is not None:
        lines.append(f"Avversario: {player(opponent)}")
    lines.append(f"<i>{escape(settings)}</i>")
    lines.append("")
    lines.append(
        f"{player(challenger)}, regola le impostazioni con i pulsanti e poi premi "
        f"<b>{BTN_START_CHALLENGE}</b>."
    )
    return "\n".join(lines)


def challenge_card_expired(challenger: str) -> str:
    """A card left without being launched, once its time is up."""
    return f"La sfida {to('di', challenger)} non è stata lanciata in tempo ed è scaduta."


CARD_CHOSEN = "✓ "  # marks the value in force among a row of choices
CARD_LENGTHS = (0, 1, 3, 5, 7)  # 0: the money game ("Libera"), classic only
CARD_TIMES = (30, 60, 300, 600, 3600, 86400, 0)  # 0: no limit


def btn_card_length(target: int) -> str:
    """'1 partita', '3 punti', 'Libera': a length choice on the card (0: money game)."""
    if target == 0:
        return BTN_CARD_MONEY
    return "1 partita" if target == 1 else points(target)


BTN_CARD_MONEY = "Libera"


def btn_card_jacoby(on: bool) -> str:
    """The money game's Jacoby rule on a button: 'Jacoby: sì' (or no)."""
    return f"Jacoby: {SETTINGS_ON if on else SETTINGS_OFF}"


def btn_card_time(seconds: int) -> str:
    """'30 s', '5 min', '1 ora', 'Nessun limite': a turn limit choice on the card."""
    if not seconds:
        return "Nessun limite"
    if seconds % 86400 == 0:
        return "1 giorno" if seconds == 86400 else f"{seconds // 86400} giorni"
    if seconds % 3600 == 0:
        return duration(seconds)
    if seconds % 60 == 0:
        return f"{seconds // 60} min"
    return f"{seconds} s"


def btn_card_cube(on: bool) -> str:
    return f"Cubo: {SETTINGS_ON if on else SETTINGS_OFF}"


def btn_card_scoring(mars: bool) -> str:
    """Long's scoring on a button: 'Punteggio: Mars' (or Oin)."""
    return f"Punteggio: {SCORING_NAMES[mars]}"


def btn_card_last_roll(on: bool) -> str:
    return f"Ultimo lancio: {SETTINGS_ON if on else SETTINGS_OFF}"


def btn_card_series_start(start: SeriesStart) -> str:
    """Who starts the later games of a long series, on a button."""
    return SERIES_START_NAMES[start]


GAME_ALREADY_RUNNING = (
    "C'è già una partita in corso in questa chat. Usa /partita per vederla, "
    "oppure aspetta che finisca."
)
CHALLENGE_ALREADY_OPEN = "C'è già una sfida aperta in questa chat: accettala o ritirala prima."
NO_GAME_RUNNING = "In questa chat non c'è nessuna partita in corso. Lanciane una con /sfida."

PLAY_MENU = "<b>Gioca col computer</b>\nScegli il gioco."


SETUP_CHOOSE_LEVEL = "Scegli il livello."
SETUP_CHOOSE_LENGTH = "Quanti punti?"
SETUP_CHOOSE_LONG_OPTIONS = "Scegli il punteggio e l'ultimo lancio, poi inizia la partita."
SETUP_CHOOSE_MONEY_OPTIONS = (
    "Regola Jacoby: senza raddoppi gammon e backgammon contano come una vittoria semplice. "
    "Scegli, poi inizia la partita."
)
BTN_START_GAME = "Inizia la partita"


def computer_setup(
    question: str,
    variant: Variant | None = None,
    level: Level | None = None,
    target: int | None = None,
) -> str:
    """A step of /gioca: the choices made so far (game, level, length), then the next
    question."""
    lines = ["<b>Gioca col computer</b>"]
    if variant is not None:
        lines.append(f"Gioco: {VARIANT_NAMES[variant]}")
    if level is not None:
        lines.append(f"Livello: {LEVEL_NAMES[level]}")
    if variant is not None and target is not None:
        lines.append(f"Durata: {match_length(variant, target)}")
    lines.append(question)
    return "\n".join(lines)


def computer_game_started(name: str, level: Level) -> str:
    """The set-up message once a game against the computer begins."""
    return f"{player(name)} contro il {COMPUTER_NAME} ({LEVEL_NAMES[level]}). Buona partita!"


# --- Turn prompts (captions of the board message) ------------------------------------

GAME_WAITING_HERE = "♟ Qui c'è una partita in sospeso: scrivete /partita per riprenderla."
"""Added to the greeting of a group the bot is added back to, where a game was adjourned."""

BOARD_MOVED = "Questo tavolo non è più aggiornato: la partita continua nel messaggio più in basso."
"""The caption of a board replaced by /partita, so nobody acts on an old prompt."""


def turn_of(name: str, white: bool) -> str:
    """'Tocca ad Anna (Bianco)': the first line of every board caption."""
    return f"Tocca {to('a', name)} ({color_name(white)})"


def turn_status(name: str) -> str:
    """'Tocca ad Anna': the status line drawn on the board picture (plain text, no HTML)."""
    return f"Tocca {prep('a', name)}{name}"


def dice(die1: int, die2: int) -> str:
    """A roll as players say it, the higher die first: '6-5', whatever order they fell in."""
    return f"{max(die1, die2)}-{min(die1, die2)}"


ROLL_PROMPT = "Tira i dadi per iniziare il turno."
ROLL_OR_DOUBLE_PROMPT = "Tira i dadi oppure raddoppia."
CHOOSE_CHECKER = "Scegli la pedina da muovere."
CONFIRM_PROMPT = "Mossa completa: premi <b>Conferma</b> o <b>Annulla</b>."


def steps_so_far(notation: str) -> str:
    """The steps played so far in this turn, in notation (e.g. '13/8 13/10')."""
    return f"Mossa: <code>{escape(notation)}</code>"


def opening_roll(white_name: str, white_die: int, black_name: str, black_die: int) -> str:
    """The one-die roll that decides who starts."""
    return (
        f"Tiro d'apertura: {player(white_name)} {white_die}, "
        f"{player(black_name)} {black_die}. Comincia {player(white_name)}."
    )


def opening_tie(die: int) -> str:
    return f"Tiro d'apertura: {die} per entrambi, si tira di nuovo."


def no_moves(name: str, die1: int, die2: int) -> str:
    """Shown when a roll has no legal play at all."""
    return f"{subject(name)} ha tirato {dice(die1, die2)}: nessuna mossa possibile, il turno passa."


FORCED_HEAD = "⏩ Mosse forzate:"
"""Starts the one caption line that gathers the forced plays the bot made for the players."""


def forced_move(name: str, notation: str) -> str:
    """Shown when only one play was legal and the bot played it for the player; later forced
    plays of the same stretch join this line (``more_forced``), one line for them all."""
    return f"{FORCED_HEAD} {forced_item(name, notation)}"


def forced_item(name: str, notation: str) -> str:
    return f"{label(name)} <code>{escape(notation)}</code>"


def more_forced(line: str, name: str, notation: str) -> str:
    """The forced plays' line with one more."""
    return f"{line} · {forced_item(name, notation)}"


def move_played(name: str, notation: str) -> str:
    return f"{subject(name)} ha giocato <code>{escape(notation)}</code>."


# --- Results -------------------------------------------------------------------------


def game_won(winner: str, kind: ResultKind, won: int) -> str:
    """End of one game: `won` is the points after the cube."""
    return f"{subject(winner)} vince la partita: {RESULT_NAMES[kind]}, {points(won)}."


def draw_last_roll(name: str) -> str:
    """Long game ended level because the second player bore off everything in time."""
    return (
        f"Con l'ultimo lancio anche {player(name)} porta fuori tutte le pedine: "
        "<b>patta</b>, nessun punto assegnato."
    )


def last_roll_offered(name: str) -> str:
    return f"{subject(name)} ha diritto all'ultimo lancio: tira per cercare la patta."


@dataclass(frozen=True, slots=True)
class Score:
    """One side of a match/series score line."""

    name: str
    points: int


def score_line(first: Score, second: Score, variant: Variant, target: int) -> str:
    """'Punteggio: Anna 3 - 1 Bruno (match a 5 punti)'."""
    return (
        f"Punteggio: {label(first.name)} {first.points} - {second.points} "
        f"{label(second.name)} ({MATCH_WORDS[variant]} a {points(target)})"
    )


def match_won(
    winner: str, variant: Variant, target: int, winner_points: int, loser_points: int
) -> str:
    """End of a match (classic) or series (long) of more than one game.

    Scored as players write it, with the target named: the last game may carry the score
    past it ('vince il match a 3 punti, 12-0'). A single game has no such line: the
    game's own result already says who won it.
    """
    return (
        f"🏆 {subject(winner)} vince {MATCH_WORDS_WITH_ARTICLE[variant]} a {points(target)}, "
        f"{winner_points}-{loser_points}!"
    )


CRAWFORD_GAME = "Partita <b>Crawford</b>: in questa partita nessuno può raddoppiare."


# --- Cube ----------------------------------------------------------------------------


def double_offered(name: str, value: int) -> str:
    """`value` is the new cube value on offer."""
    return f"{subject(name)} offre il raddoppio a <b>{value}</b>. Accetti o rinunci?"


def double_taken(name: str, value: int) -> str:
    return f"{subject(name)} accetta: il cubo ora vale <b>{value}</b> ed è suo."


def double_dropped(name: str, winner: str, lost: int) -> str:
    """A refused double ends the game: `lost` is the cube value before the double."""
    return f"{subject(name)} rinuncia e cede {points(lost)}: {player(winner)} vince la partita."


# --- Resignation and time ------------------------------------------------------------


def resigned(loser: str, winner: str, lost: int, kind: ResultKind) -> str:
    return (
        f"{subject(loser)} abbandona: {player(winner)} vince {points(lost)} ({RESULT_NAMES[kind]})."
    )


# The resign prompt: a short message of its own, addressed to whoever must answer it.

RESIGN_LEVEL_NAMES: dict[ResultKind, str] = {
    ResultKind.SINGLE: "Vittoria semplice",
    ResultKind.GAMMON: "Gammon",
    ResultKind.BACKGAMMON: "Backgammon",
}


def resign_level_button(kind: ResultKind, lost: int) -> str:
    """A level the resigner may offer (classic): 'Gammon · 2 punti'."""
    return f"{RESIGN_LEVEL_NAMES[kind]} · {points(lost)}"


def resign_choose(resigner: str, opponent: str) -> str:
    """Classic: the resigner picks what to offer; the opponent will accept or decline."""
    return (
        f"🏳 {player(resigner)}, vuoi abbandonare? Scegli cosa offrire "
        f"{to('a', opponent)}, "
        "che potrà accettare o rifiutare."
    )


def resign_offered(resigner: str, opponent: str, lost: int, kind: ResultKind) -> str:
    """Classic: the offer, put to the opponent; `lost` is the points after the cube."""
    return (
        f"🏳 {subject(resigner)} propone di abbandonare: {player(opponent)} vince {points(lost)} "
        f"({RESULT_NAMES[kind]}). {player(opponent)}, accetti?"
    )


def resign_ask_long(resigner: str, opponent: str, lost: int, kind: ResultKind) -> str:
    """Long: the price is the position's (Oin or Mars); the resigner confirms."""
    return (
        f"🏳 {player(resigner)}, vuoi abbandonare? {player(opponent)} vince {points(lost)} "
        f"({RESULT_NAMES[kind]}). Confermi?"
    )


def resign_waiting(resigner: str, opponent: str, lost: int, kind: ResultKind) -> str:
    """A line of the board's caption while an offer waits for the opponent's answer."""
    return (
        f"🏳 {subject(resigner)} propone di abbandonare ({points(lost)}, {RESULT_NAMES[kind]}): "
        f"risponde {player(opponent)}."
    )


def resign_declined(opponent: str, resigner: str) -> str:
    return f"{subject(opponent)} rifiuta l'abbandono {to('di', resigner)}: si continua a giocare."


def resign_cancelled(resigner: str) -> str:
    return f"{subject(resigner)} non abbandona: si continua a giocare."


def resign_withdrawn(resigner: str) -> str:
    return f"{subject(resigner)} ha ripreso a giocare: la proposta di abbandono è ritirata."


RESIGN_MOOT = "La partita è finita in un altro modo: la proposta di abbandono non vale più."


# The result banner on the final picture (plain text: it is drawn, not sent).


def banner_result(winner: str, won: int, kind: ResultKind) -> str:
    """'Anna vince 2 punti · gammon' on the picture of a finished game."""
    who = f"Il {winner}" if winner == COMPUTER_NAME else winner
    return f"{who} vince {points(won)} · {RESULT_NAMES[kind]}"


def banner_timeout(loser: str) -> str:
    """The first line of the picture of a game lost on time: the time, before the points."""
    return f"Tempo scaduto {prep('per', loser)}{loser}"


def banner_draw() -> str:
    return "Pareggio con l'ultimo lancio"


def banner_score(first: str, first_points: int, second: str, second_points: int) -> str:
    return f"{first} {first_points} – {second_points} {second}"


def banner_match_won(winner: str, variant: Variant) -> str:
    who = f"Il {winner}" if winner == COMPUTER_NAME else winner
    return f"{who} vince {MATCH_WORDS_WITH_ARTICLE[variant]}!"


def remaining(seconds: float) -> str:
    """Time left as a person says it: whole minutes from a minute up (a timer that fires
    a moment late still says "10 minuti", not "599 secondi"), else seconds."""
    if seconds >= 60:
        return duration(round(seconds / 60) * 60)
    return duration(max(1, round(seconds)))


def timeout_reminder(name: str, seconds_left: float) -> str:
    return f"⏰ {player(name)}, hai ancora {remaining(seconds_left)} per giocare il tuo turno."


def timeout_loss(loser: str, winner: str, lost: int, kind: ResultKind) -> str:
    return (
        f"⏰ Tempo scaduto {to('per', loser)}: {player(winner)} vince "
        f"{points(lost)} ({RESULT_NAMES[kind]})."
    )


# --- Refusals (answerCallbackQuery alerts, at most 200 characters, no HTML) ----------

ALERT_NOT_YOUR_TURN = "Non è il tuo turno."
ALERT_STALE_BUTTON = "Questo pulsante non è più valido."
ALERT_OWN_CHALLENGE = "Non puoi accettare la tua sfida."
ALERT_NOT_FOR_YOU = "Questa sfida non è per te."
ALERT_NOT_CHALLENGER = "Solo chi ha lanciato la sfida può ritirarla."
ALERT_NOT_YOUR_CARD = "Solo chi propone la sfida può cambiarne le impostazioni."
ALERT_NOT_A_PLAYER = "Non stai giocando questa partita."
ALERT_GAME_OVER = "La partita è finita."
ALERT_ROLL_FIRST = "Prima tira i dadi."
ALERT_ALREADY_ROLLED = "Hai già tirato i dadi."
ALERT_DOUBLE_AFTER_ROLL = "Puoi raddoppiare solo prima di tirare i dadi."
ALERT_CUBE_NOT_YOURS = "Il cubo è dell'avversario: non puoi raddoppiare."
ALERT_CUBE_MAX = "Il cubo è già a 64: non si raddoppia oltre."
ALERT_CUBE_OFF = "In questa partita si gioca senza cubo."
ALERT_CRAWFORD = "Partita Crawford: niente raddoppi."
ALERT_NOTHING_TO_UNDO = "Non c'è nessun passo da annullare."
ALERT_MOVE_INCOMPLETE = "La mossa non è completa: usa ancora i dadi che puoi giocare."
ALERT_ILLEGAL_STEP = "Quel passo non è permesso."
ALERT_BOARD_UPDATED = "Il tavolo è cambiato: guarda la posizione aggiornata e riprova."
ALERT_RESIGN_OPEN = "Hai già proposto di abbandonare: rispondi al suo messaggio."
ALERT_RESIGN_PENDING = "L'avversario propone di abbandonare: rispondi prima alla sua proposta."
ALERT_RESIGN_NOT_YOURS = "Solo chi abbandona sceglie qui."
ALERT_RESIGN_FOR_OPPONENT = "Tocca all'avversario accettare o rifiutare il tuo abbandono."
ALERT_CHALLENGE_EXPIRED = (
    "Questa sfida è scaduta: scrivi di nuovo il nome del bot per lanciarne una."
)
ALERT_INLINE_OFF = "Le partite lanciate da qui non sono attive su questo bot."
#: Why a board's button no longer acts, case by case (the generic stale alert says no why).
ALERT_BUTTON_UNKNOWN = (
    "Questo pulsante non viene da una tavola del bot: usa quelli dell'ultima tavola."
)
ALERT_BUTTON_GAME_OVER = "La partita di questo pulsante è finita: il pulsante non vale più."
ALERT_BUTTON_OLD_BOARD = (
    "Questa tavola è stata sostituita da una più recente: usa i pulsanti di quella."
)
ALERT_PROMPT_CLOSED = "Questa proposta è già chiusa: il pulsante non vale più."
ALERT_DOUBLE_PENDING = "C'è un raddoppio in attesa di risposta: prima accetta o rinuncia."
ALERT_MATCH_OVER = "Il match è finito: non c'è una partita successiva."

ALERTS: tuple[str, ...] = (
    ALERT_NOT_YOUR_TURN,
    ALERT_STALE_BUTTON,
    ALERT_OWN_CHALLENGE,
    ALERT_NOT_FOR_YOU,
    ALERT_NOT_CHALLENGER,
    ALERT_NOT_YOUR_CARD,
    ALERT_NOT_A_PLAYER,
    ALERT_GAME_OVER,
    ALERT_ROLL_FIRST,
    ALERT_ALREADY_ROLLED,
    ALERT_DOUBLE_AFTER_ROLL,
    ALERT_CUBE_NOT_YOURS,
    ALERT_CUBE_MAX,
    ALERT_CUBE_OFF,
    ALERT_CRAWFORD,
    ALERT_NOTHING_TO_UNDO,
    ALERT_BOARD_UPDATED,
    ALERT_MOVE_INCOMPLETE,
    ALERT_ILLEGAL_STEP,
    ALERT_RESIGN_OPEN,
    ALERT_RESIGN_PENDING,
    ALERT_RESIGN_NOT_YOURS,
    ALERT_RESIGN_FOR_OPPONENT,
    ALERT_CHALLENGE_EXPIRED,
    ALERT_INLINE_OFF,
    ALERT_BUTTON_UNKNOWN,
    ALERT_BUTTON_GAME_OVER,
    ALERT_BUTTON_OLD_BOARD,
    ALERT_PROMPT_CLOSED,
    ALERT_DOUBLE_PENDING,
    ALERT_MATCH_OVER,
    ALERT_REMATCH_WAITING,
    ALERT_REMATCH_OFFERED,
)
"""Every alert, so tests and the fake server can check them against the 200-char limit."""


# --- Typed moves (/mossa) ------------------------------------------------------------

MAX_QUOTED_MOVE = 100  # a real play is far shorter; a 4096-character one must still fit

MOVE_USAGE = (
    "Scrivi la mossa dopo il comando, dal tuo lato, per esempio "
    "<code>/mossa 13/7 8/7</code> oppure <code>/mossa 24/15</code>."
)


_BACKWARDS = re.compile(r"(?<![0-9])([0-9]{1,2})[/-]([0-9]{1,2})(?![0-9])")

MOVE_BACKWARDS = (
    "va all'indietro: le pedine si muovono dai numeri alti ai bassi, contati dal tuo lato "
    "(per esempio <code>{example}</code>)."
)


def move_bad_notation(text: str) -> str:
    """The text could not be read as notation; a step from a low point to a higher one
    (the player counted from the other side) is named as going the wrong way."""
    for match in _BACKWARDS.finditer(text):
        src, dst = int(match.group(1)), int(match.group(2))
        if 1 <= src < dst <= 24:
            example = f"{dst}/{src}"
            return f"<code>{quote(text, MAX_QUOTED_MOVE)}</code> " + MOVE_BACKWARDS.format(
                example=example
            )
    return (
        f"Non capisco <code>{quote(text, MAX_QUOTED_MOVE)}</code>. Usa la forma <code>da/a</code>, "
        "per esempio <code>13/7 8/7</code>, <code>bar/22</code>, <code>6/off</code> "
        "o <code>8/5(2)</code>."
    )


def move_illegal(notation: str) -> str:
    """Readable notation, but not a legal play for this roll and position."""
    return (
        f"<code>{quote(notation, MAX_QUOTED_MOVE)}</code> non è una mossa legale con questo tiro."
    )


def _where(point: int | None) -> str:
    """'sul punto 7', or 'sulla barra' (point 25 in the mover's numbering)."""
    return "sulla barra" if point == 25 else f"sul punto {point}"


#: Why a typed move is refused, by the engine's reason. ``{where}`` is "sul punto N" (or
#: "sulla barra"), ``{point}`` the point, ``{need}`` the dice to use, ``{dice}`` the roll.
MOVE_PROBLEMS: dict[MoveProblem, str] = {
    MoveProblem.ILLEGAL: "non è una mossa legale con questo tiro.",
    MoveProblem.NO_MOVE: "con questo tiro non c'è nessuna mossa possibile.",
    MoveProblem.NO_CHECKER: "non hai pedine da muovere {where}.",
    MoveProblem.WRONG_DICE: (
        "non corrisponde al tiro {dice}: ogni tratto deve valere un dado, o la somma di più dadi."
    ),
    MoveProblem.CLOSED_POINT: "il punto {point} è chiuso, lo tiene l'avversario.",
    MoveProblem.NO_BLOT: (
        "l'asterisco dice che colpisci {where}, ma lì non c'è una pedina avversaria sola."
    ),
    MoveProblem.NO_HITTING: (
        "nel backgammon lungo non si colpisce: scrivi la mossa senza <code>*</code>."
    ),
    MoveProblem.BAR_FIRST: (
        "hai pedine sulla barra: prima devono rientrare tutte, per esempio <code>bar/22</code>."
    ),
    MoveProblem.NOT_HOME: (
        "puoi portare fuori le pedine solo quando sono tutte e quindici nella tua casa (punti 1-6)."
    ),
    MoveProblem.HEAD_RULE: (
        "dalla testa (punto 24) esce una sola pedina per turno; due solo al primo tiro "
        "con 6-6, 4-4 o 3-3."
    ),
    MoveProblem.BLOCK_RULE: (
        "formeresti sei punti di fila senza nessuna pedina avversaria più avanti: "
        "la regola del blocco non lo permette."
    ),
    MoveProblem.LARGER_DIE: "si può giocare un dado solo, e deve essere il più alto.",
    MoveProblem.INCOMPLETE: "la mossa non è completa: con questo tiro devi usare {need} dadi.",
}


def move_refused(
    notation: str,
    problem: MoveProblem,
    dice_rolled: tuple[int, int],
    *,
    point: int | None = None,
    need: int | None = None,
) -> str:
    """A typed move the rules refuse, with the reason the engine found."""
    reason = MOVE_PROBLEMS[problem].format(
        where=_where(point), point=point, need=need, dice=dice(*dice_rolled)
    )
    return f"<code>{quote(notation, MAX_QUOTED_MOVE)}</code>: {reason}"


def move_ambiguous(notation: str, options: Sequence[str]) -> str:
    """More than one legal play matches; lists them so the player can pick one."""
    listed = "\n".join(f"• <code>{escape(option)}</code>" for option in options)
    return (
        f"<code>{quote(notation, MAX_QUOTED_MOVE)}</code> può voler dire più mosse. "
        f"Scrivi quella che intendi:\n{listed}"
    )


def position_classic(position_id: str, match_id: str) -> str:
    """/posizione in classic: the two ids GNU Backgammon reads with "set board"/"set matchid"."""
    return (
        "<b>Posizione (GNU Backgammon)</b>\n"
        f"Position ID: <code>{escape(position_id)}</code>\n"
        f"Match ID: <code>{escape(match_id)}</code>"
    )


def position_long(long_id: str) -> str:
    """/posizione in long: Tavola's own compact id (gnubg does not play long nardy)."""
    return f"<b>Posizione (Backgammon lungo)</b>\nID: <code>{escape(long_id)}</code>"


MOVE_NOT_NOW = "Adesso non puoi muovere: aspetta il tuo turno e tira i dadi."


# --- Statistics and leaderboard ------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PlayerStats:
    """What /statistiche shows for one user."""

    name: str
    games: int
    wins: int
    losses: int
    draws: int
    points_won: int
    points_lost: int
    money_games: int = 0
    money_points_won: int = 0
    money_points_lost: int = 0


def stats_text(stats: PlayerStats) -> str:
    if stats.games == 0:
        return f"{player(stats.name)} non ha ancora giocato nessuna partita. Prova con /sfida!"
    rate = round(100 * stats.wins / stats.games)
    lines = [
        f"<b>Statistiche {prep('di', stats.name)}{escape(stats.name)}</b>",
        f"Partite: {stats.games}",
        f"Vittorie: {stats.wins} ({rate}%)",
        f"Sconfitte: {stats.losses}",
    ]
    if stats.draws:
        lines.append(f"Patte: {stats.draws}")
    if stats.money_games < stats.games:  # the points of matches and single games
        lines.append(f"Punti vinti: {stats.points_won} · persi: {stats.points_lost}")
    if stats.money_games:
        lines.append(
            f"Partite libere: {stats.money_games} · punti vinti: {stats.money_points_won}"
            f" · persi: {stats.money_points_lost}"
        )
    return "\n".join(lines)


#: Where every player's Elo rating starts (storage's ``start_rating``).
START_RATING = 1500


def elo_line(ratings: Sequence[tuple[Variant, float]]) -> str:
    """The ratings under /statistiche, named and explained: the word alone says nothing."""
    shown = " · ".join(f"{VARIANT_SHORT_NAMES[v]} {r:.0f}" for v, r in ratings)
    return (
        f"Punteggio Elo: {shown}\n"
        f"<i>Un punteggio per variante: si parte da {START_RATING}, sale quando vinci un "
        "match o una serie e scende quando perdi. Battere chi ha un punteggio più alto fa "
        "salire di più, perdere contro chi l'ha più basso fa scendere di più.</i>"
    )


LEADERBOARD_EMPTY = (
    "La classifica di questa chat è ancora vuota: un match o una serie conta quando finisce "
    "(una partita singola subito). Le partite già giocate sono in /statistiche."
)
LEADERBOARD_NOTE = (
    f"<i>Ordine per punteggio Elo (si parte da {START_RATING}); un match o una serie "
    "conta quando finisce.</i>"
)


def rating_title(variant: Variant) -> str:
    """The heading of one variant's ranking in /classifica."""
    return f"<b>Classifica · {VARIANT_SHORT_NAMES[variant]}</b>"


def rating_row(rank: int, name: str, rating: float, wins: int | None, games: int | None) -> str:
    """'1. Anna: 1543 (4/6 partite vinte)' in /classifica; the record only when known."""
    record = f" ({wins}/{games} partite vinte)" if wins is not None and games else ""
    return f"{rank}. {escape(name)}: {rating:.0f}{record}"


# --------------------------------------------------------------------------- verifiable dice
def dice_commitment(commitment: str) -> str:
    """Shown with the button that starts a game: the seed of its dice is already fixed."""
    return f"🎲 Dadi verificabili, impegno: <code>{commitment}</code>"


#: Hex digits of a seed or commitment shown in a caption: enough to recognise it; the whole
#: values are in /verifica and in the message that starts each game.
SHORT_HASH = 12


def dice_seed_revealed(seed: str, whole: bool = False, salt: str | None = None) -> str:
    """In the caption of a finished game: the seed, now public (the start of it, or the
    whole of it, with the salt, where /verifica cannot be asked: an inline message)."""
    if whole:
        tail = "" if salt is None else f", sale <code>{escape(salt)}</code>"
        return f"🎲 Seme dei dadi: <code>{seed}</code>{tail}"
    return f"🎲 Seme dei dadi: <code>{seed[:SHORT_HASH]}…</code>, tutto con /verifica"


def next_dice_commitment(commitment: str, whole: bool = False) -> str:
    if whole:
        return f"🎲 Impegno per la prossima partita: <code>{commitment}</code>"
    return (
        f"🎲 Impegno per la prossima partita: <code>{commitment[:SHORT_HASH]}…</code>, "
        "tutto con /verifica"
    )


def next_dice_commitment_in_full(commitment: str) -> str:
    """/verifica: the whole commitment of the game the result's buttons start (a new
    card shows a commitment of its own)."""
    return (
        "<b>Prossima partita</b> (Partita successiva o Rivincita): "
        f"impegno <code>{commitment}</code>"
    )


VERIFY_EXPLAINED = (
    "<b>Dadi verificabili</b>\n"
    "Prima di ogni partita scelgo in segreto un <i>seme</i> di 32 byte e ne mostro "
    "l'<i>impegno</i> (sulla sfida, sul menu di /gioca o sotto il risultato): lo fisso "
    "senza svelarlo. Quando la partita comincia, il <i>sale</i> è fatto delle parole dei "
    "due giocatori in quel momento: <code>v2.parola1.parola2</code>, nell'ordine dei "
    "giocatori. Ognuno sceglie la sua con /seme (da 1 a 32 lettere o cifre; finché non la "
    "sceglie vale il suo id Telegram): cambiandola dopo aver visto l'impegno si è sicuri che "
    "il seme non è stato scelto per quel sale. Impegno e sale restano in chat nel messaggio "
    "che apre la partita, mai modificato.\n"
    "<b>I byte</b>: il seme sono 64 cifre esadecimali, decodificate in 32 byte; l'impegno è "
    "SHA-256 di quei 32 byte, in esadecimale minuscolo. Il dado numero n (da 0, tiri "
    "d'apertura compresi, prima il dado del primo giocatore) è HMAC-SHA256 con chiave i 32 "
    "byte del seme e messaggio il testo <code>sale:n:b</code> in UTF-8 (n e b in decimale, "
    "b da 0): si leggono i 32 byte in ordine, si saltano quelli da 252 a 255, e il primo "
    "valido x dà il dado x % 6 + 1 (se nessuno è valido si prova b+1). Il tiro k (da 1) "
    "sono i dadi 2k-2 e 2k-1. Così nessuna faccia è favorita e durante la partita nessuno "
    "può prevedere i dadi. A fine partita rivelo il seme: chiunque può ricalcolare tutto."
)
VERIFY_NOTHING = "In questa chat non c'è ancora una partita conclusa da controllare."
VERIFY_SCRIPTED = (
    "L'ultima partita conclusa non ha usato dadi verificabili (dadi preparati per una "
    "prova): non c'è nulla da controllare."
)


#: Past this many characters the rolls (listed twice: the line and the command) are not
#: listed, so /verifica stays one message; the command then prints them.
VERIFY_MAX_ROLLS_CHARS = 700


def verify_last_game(
    names: tuple[str, str],
    game_number: int,
    proof: tuple[str, str, str],
    rolls: Sequence[tuple[int, int]],
    words: tuple[str, str] | None = None,
    *,
    latest: bool = True,
) -> str:
    """/verifica for the chat's last finished game (``latest``; else the game its number
    named): the values and the command to run (``verify_dice.py``, the file /verifica
    programma sends)."""
    seed, salt, commitment = proof
    shown = ",".join(f"{a}-{b}" for a, b in rolls)
    listed = len(shown) <= VERIFY_MAX_ROLLS_CHARS
    command = (
        f"python verify_dice.py --seed {seed} --salt {salt} "
        f"--commitment {commitment} --rolls {len(rolls)}"
    )
    if listed:
        command += f" --dice {shown}"
    if words is None:
        salt_note = " (partita di prima delle parole: il numero della pressione che la avviò)"
    else:
        salt_note = f" (parole: {player(names[0])} «{escape(words[0])}», " + (
            f"{player(names[1])} «{escape(words[1])}»)"
        )
    rolls_line = shown if listed else "troppi da elencare qui, li stampa il comando"
    return (
        f"<b>{'Ultima partita conclusa' if latest else 'Partita conclusa'}</b>: "
        f"{player(names[0])} contro {player(names[1])}, "
        f"partita {game_number}\n"
        f"Impegno: <code>{commitment}</code>\n"
        f"Sale: <code>{escape(salt)}</code>{salt_note}\n"
        f"Seme: <code>{seed}</code>\n"
        f"Tiri ({len(rolls)}, ognuno coi due dadi; all'apertura uno per giocatore): "
        f"{rolls_line}\n"
        "Per controllarli: /verifica programma manda <code>verify_dice.py</code>, un solo "
        "file di Python con la sola libreria standard (si può leggere tutto); poi:\n"
        f"<code>{escape(command)}</code>\n"
        "Esce con 0 solo se impegno e tiri tornano tutti."
    )


VERIFY_PROGRAM_CAPTION = (
    "Il controllo dei dadi: un file Python, solo libreria standard, nessun altro codice di "
    "Tavola. Il comando da lanciare è in /verifica."
)
VERIFY_PROGRAM_WORD = "programma"


def dice_words_on_card(name: str, word: str) -> str:
    """On a card with a commitment: the salt will be the players' words (a default shown)."""
    return (
        f"🔑 Sale: le parole dei giocatori all'avvio; ora {player(name)} «{escape(word)}», "
        "chi accetta la sua (cambiala con /seme)"
    )


def dice_words_on_setup(word: str) -> str:
    """On the /gioca page with a commitment: the salt is the player's word and the computer's."""
    return (
        f"🔑 Sale: la tua parola all'avvio, ora «{escape(word)}» (cambiala con /seme), "
        "e 0 per il computer"
    )


def dice_game_opened(names: tuple[str, str], game_number: int, commitment: str, salt: str) -> str:
    """The message that opens a game with verifiable dice, never edited: its values stay."""
    return (
        f"🎲 {player(names[0])} contro {player(names[1])}, partita {game_number}: "
        f"impegno <code>{commitment}</code>, sale <code>{escape(salt)}</code>. "
        "Il seme arriva a fine partita; il controllo con /verifica."
    )


def dice_word_now(word: str, chosen: bool) -> str:
    """/seme without a word: the player's word now, and how to change it."""
    how = "scelta da te" if chosen else "quella predefinita, il tuo id Telegram"
    return (
        f"🔑 La tua parola per i dadi è «{escape(word)}» ({how}). Entra nel sale delle "
        "partite che cominciano da ora. Per cambiarla: /seme parola (da 1 a 32 lettere o "
        "cifre, senza spazi)."
    )


def dice_word_set(word: str) -> str:
    return (
        f"🔑 Fatto: la tua parola per i dadi è «{escape(word)}», nel sale delle partite "
        "che cominciano da ora."
    )


DICE_WORD_INVALID = (
    "La parola per i dadi va da 1 a 32 lettere (senza accenti) o cifre, senza spazi: "
    "per esempio /seme trifoglio7."
)


# --- Inline mode: challenges from any chat ------------------------------------------


def inline_card_title(config: MatchConfig) -> str:
    """The title of one challenge among the inline results: the game and its length."""
    return f"{VARIANT_NAMES[config.variant]} · {match_length(config.variant, config.length)}"


def inline_card_description(settings: str, opponent: str | None) -> str:
    """The line under an inline result's title (plain text: no HTML there)."""
    return f"Sfida {opponent}: {settings}" if opponent else f"Sfida aperta: {settings}"


# --- Who is a player ------------------------------------------------------------------

#: To an anonymous admin or a channel identity trying to challenge or play.
WRITE_AS_YOURSELF = (
    "Stai scrivendo come amministratore anonimo o come canale: "
    "scrivi come te stesso per sfidare o giocare."
)

#: First of a board caption's notes when older ones were left out to fit Telegram's limit.
EARLIER_NOTES_OMITTED = "…"

# --- Refusals of forged, replayed or misplaced button data ----------------------------

#: A settings button pressed by someone else than the player whose settings it shows.
ALERT_NOT_YOUR_SETTINGS = "Queste impostazioni non sono tue: scrivi /impostazioni per le tue."
#: An inline card whose message the bot cannot match to the card Telegram says was sent.
ALERT_CARD_NOT_RECOGNISED = (
    "Questa sfida non è stata riconosciuta: riprova tra qualche secondo o proponine una nuova."
)
#: The copy of an inline card sent a second time (a card is good for one message only).
INLINE_CARD_SENT_TWICE = (
    "Questa sfida è già stata inviata in un altro messaggio: proponine una nuova."
)
ALERTS = (*ALERTS, ALERT_NOT_YOUR_SETTINGS, ALERT_CARD_NOT_RECOGNISED)
