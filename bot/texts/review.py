"""The Italian texts of hints (/suggerimento) and of the post-game analysis (/analisi).

Kept apart from `messages` because they speak the language of equity and errors, which
the rest of the bot never uses. Same conventions: Telegram HTML, names through
`player()`, numbers written the Italian way (decimal comma).
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.texts.messages import escape, label, player

# --- Challenge options -----------------------------------------------------------------

HINTS_ON = "suggerimenti"
SHARED_ANALYSIS_ON = "analisi nel gruppo"


def btn_card_hints(on: bool) -> str:
    return f"Suggerimenti: {'sì' if on else 'no'}"


def btn_card_shared_analysis(on: bool) -> str:
    return f"Analisi nel gruppo: {'sì' if on else 'no'}"


# --- Hints -----------------------------------------------------------------------------

BTN_HINT = "💡"
HINTS_OFF = (
    "In questa partita i suggerimenti sono spenti: si accendono sulla scheda della sfida "
    "(o con la parola <code>suggerimenti</code> dopo /sfida), così li hanno tutti e due."
)
ALERT_HINTS_OFF = "In questa partita i suggerimenti sono spenti."
HINT_NOT_NOW = (
    "Il suggerimento è per la tua decisione: chiedilo nel tuo turno, dopo aver tirato i dadi, "
    "prima di tirare se puoi raddoppiare, o quando ti offrono il raddoppio."
)
ALERT_HINT_NOT_NOW = "Il suggerimento arriva nel tuo turno: per la mossa, o per il cubo."
HINT_FAILED = "Il suggerimento non è pronto: riprova tra un momento."


def equity(value: float) -> str:
    """An equity with three decimals and the Italian comma: "+0,123", "−0,045"."""
    sign = "−" if value < 0 else "+"
    return f"{sign}{abs(value):.3f}".replace(".", ",")


def hint_only_play(name: str, notation: str) -> str:
    return (
        f"💡 {player(name)}, con questo tiro c'è una sola mossa: <code>{escape(notation)}</code>."
    )


def hint_no_play(name: str) -> str:
    return f"💡 {player(name)}, con questo tiro non si muove nessuna pedina."


# --- Analysis --------------------------------------------------------------------------

BTN_ANALYSIS = "📊 Analisi"
ANALYSIS_RUNNING = "📊 Analisi in corso…"
ANALYSIS_NONE = (
    "Non trovo una partita finita da analizzare in questa chat: l'analisi si fa sull'ultima "
    "partita conclusa (si conserva per qualche settimana)."
)
ALERT_ANALYSIS_NONE = "Non c'è ancora una partita finita da analizzare qui."
ALERT_ANALYSIS_NOT_YOURS = (
    "Questo pulsante è di chi ha giocato la partita: per la tua copia scrivi /analisi."
)
ANALYSIS_FAILED = "L'analisi non è riuscita: riprova tra poco."
ANALYSIS_SENT_PRIVATELY = "📊 Ti ho mandato l'analisi in privato."
ANALYSIS_OPEN_PRIVATE = (
    "Non posso scriverti in privato finché non apri la chat con me: premi il pulsante, "
    "poi <b>Avvia</b>, e chiedi di nuovo /analisi qui."
)
BTN_OPEN_PRIVATE = "Apri la chat privata"
ALERT_ANALYSIS_PRIVATE = "Ti mando l'analisi in privato."
ALERT_WRITE_ME_FIRST = (
    "Te lo mando in privato: prima apri la chat con me e premi Avvia, poi riprova."
)

SEVERITY_NAMES = {
    "doubtful": "dubbia",
    "error": "errore",
    "blunder": "errore grave",
}


@dataclass(frozen=True, slots=True)
class PlayerLine:
    """One player's figures, as the analysis reports them."""

    name: str
    colour: str
    decisions: int
    error_rate: float
    doubtful: int
    errors: int
    blunders: int
    cube_errors: int | None  # None: a game without cube
    #: Match-winning chance lost per decision, in percent (None: a money game).
    mwc_rate: float | None = None
    cube_decisions: int = 0
    cube_rate: float = 0.0


def number(value: float, decimals: int = 1) -> str:
    return f"{value:.{decimals}f}".replace(".", ",")


def percent(value: float, decimals: int = 2) -> str:
    """A share of the match already in percent: "0,45%"."""
    return f"{number(value, decimals)}%"


def decisions(n: int) -> str:
    return "1 decisione" if n == 1 else f"{n} decisioni"


def player_line(p: PlayerLine) -> str:
    match = "" if p.mwc_rate is None else f" (match: {percent(p.mwc_rate)} a decisione)"
    marks = f"dubbie {p.doubtful}, errori {p.errors}, errori gravi {p.blunders}"
    cube = ""
    if p.cube_errors is not None:
        cube = (
            f"\n   cubo: {decisions(p.cube_decisions)}, tasso {number(p.cube_rate)}, "
            f"errori di cubo {p.cube_errors}"
        )
    return (
        f"{label(p.name)} ({p.colour}): {decisions(p.decisions)}, "
        f"tasso d'errore <b>{number(p.error_rate)}</b>{match}\n   {marks}{cube}"
    )


def worst_play(rank: int, name: str, dice: tuple[int, int], made: str, best: str) -> str:
    high, low = max(dice), min(dice)
    return (
        f"{rank}. {label(name)}, tiro {high}-{low}: giocato <code>{escape(made) or '-'}"
        f"</code>, meglio <code>{escape(best) or '-'}</code>"
    )


def worst_double(rank: int, name: str, doubled: bool) -> str:
    did = "ha raddoppiato" if doubled else "non ha raddoppiato"
    better = "era meglio aspettare" if doubled else "era meglio raddoppiare"
    return f"{rank}. {label(name)} {did}: {better}"


def worst_take(rank: int, name: str, took: bool) -> str:
    did = "ha accettato il raddoppio" if took else "ha rinunciato al raddoppio"
    better = "era meglio rinunciare" if took else "era meglio accettare"
    return f"{rank}. {label(name)} {did}: {better}"


def loss(value: float, severity: str, mwc: float | None = None) -> str:
    """What a decision lost: equity at the current cube, and in a match (``mwc``, 0 to 1)
    the share of the match it gave away."""
    name = SEVERITY_NAMES.get(severity)
    match = "" if mwc is None else f" ({percent(100 * mwc)} del match)"
    return f"   persi {number(value, 3)}{match}" + (f" · {name}" if name else "")


def analysis(
    title: str,
    players: list[PlayerLine],
    worst: list[str],
    thresholds: tuple[float, float, float],
    seconds: float,
    match: bool = False,
) -> str:
    """The whole analysis message: each player's figures, the worst decisions, and how to
    read the numbers (the thresholds are stated, as every analysis program does)."""
    lines = [f"📊 <b>Analisi · {escape(title)}</b>", ""]
    lines.extend(player_line(p) for p in players)
    lines.append("")
    if worst:
        lines.append("<b>Le decisioni peggiori</b>")
        lines.extend(worst)
    else:
        lines.append("Nessuna decisione ha perso equità: partita perfetta.")
    doubtful, error, blunder = thresholds
    in_match = (
        " Nel match è anche la probabilità di vincerlo persa, in media per decisione."
        if match
        else ""
    )
    lines.append("")
    lines.append(
        "<i>Equità persa rispetto alla scelta migliore, in punti per partita al valore del "
        "cubo (a 1 ply; cubo e pedine sulla stessa scala, come in GNU Backgammon). "
        f"Dubbia oltre {number(doubtful, 2)}, errore oltre {number(error, 2)}, errore grave "
        f"oltre {number(blunder, 2)} (le soglie di GNU Backgammon). Il tasso d'errore è la "
        f"media persa per decisione ×1000.{in_match} Contano solo le decisioni con una "
        "scelta: non le mosse forzate, né il raddoppio quando non può servire (partita "
        "Crawford, cubo dell'avversario, o il cubo basta già a vincere il match) o è "
        f"chiaramente sbagliato. Calcolata in {number(seconds)} s.</i>"
    )
    return "\n".join(lines)


def analysis_title(variant_name: str, game_number: int) -> str:
    return f"{variant_name}, partita {game_number}"


def worst_caption(line: str, played: bool = True) -> str:
    """The caption of the picture of the worst decision: for a checker play, the best play
    is drawn as numbered arrows and the play made as thin red ones."""
    if not played:
        return f"La decisione peggiore:\n{line}"
    return (
        f"La decisione peggiore:\n{line}\n"
        "<i>Le frecce gialle numerate mostrano la scelta migliore, quelle rosse sottili "
        "la mossa giocata.</i>"
    )
