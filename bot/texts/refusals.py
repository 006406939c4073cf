"""Why a press on the board is refused, in short Italian (alerts: no HTML).

Each refusal of a move button names its reason and, when the turn goes on, the steps the
player may make now, so a refused tap is never a dead end.
"""

from __future__ import annotations

from collections.abc import Sequence

MAX_STEPS_NAMED = 5  # the legal next steps named in one alert (an alert holds 200 chars)


def _dice(dice: Sequence[int]) -> str:
    """The dice left, high first, as every roll is written ("5 e 3")."""
    return " e ".join(str(d) for d in sorted(set(dice), reverse=True))


def die_used(die: int, left: Sequence[int]) -> str:
    return f"il {die} l'hai già giocato: ora muovi col {_dice(left)}"


def die_not_rolled(die: int, left: Sequence[int]) -> str:
    return f"non hai un {die}: muovi col {_dice(left)}"


def moved_otherwise(made: str, left: Sequence[int]) -> str:
    return f"hai già mosso {made}: ora muovi col {_dice(left)}"


def checker_moved(left: Sequence[int]) -> str:
    return f"quella pedina l'hai già mossa: ora muovi col {_dice(left)}"


def no_checker(point: int) -> str:
    return f"non hai pedine sul {point}"


BAR_FIRST = "devi prima rientrare dalla barra"
NOT_HOME = "non puoi ancora portare fuori: prima porta tutte le pedine nel tuo campo interno"
BLOCK_RULE = "in lungo non puoi formare un blocco di sei davanti alle pedine avversarie"
ILLEGAL = "quel passo non è permesso qui"
PLAY_COMPLETE = "hai già giocato tutti i dadi che puoi: conferma la mossa o annullala"


def bear_off_order(die: int) -> str:
    return f"col {die} non puoi ancora portare fuori: prima le pedine più alte"


def closed_point(point: int, *, long: bool) -> str:
    by = "occupato da una pedina avversaria" if long else "chiuso dall'avversario"
    return f"il punto {point} è {by}"


def head_rule(limit: int) -> str:
    if limit == 1:
        return "dalla testa puoi muovere una sola pedina per turno"
    return f"dalla testa puoi muovere al massimo {limit} pedine in questo turno"


def larger_die(die: int) -> str:
    return f"puoi giocare un solo dado, e dev'essere il {die}"


INCOMPLETE = "così non potresti giocare tutti i dadi che puoi: scegli un altro passo"


def with_next_steps(reason: str, steps: Sequence[str]) -> str:
    """The alert: the reason, capitalised, then the legal steps of this moment."""
    text = reason[:1].upper() + reason[1:]
    if not steps:
        return f"{text}."
    named = ", ".join(steps[:MAX_STEPS_NAMED])
    more = ", …" if len(steps) > MAX_STEPS_NAMED else ""
    return f"{text}. Ora puoi: {named}{more}"


NO_DOUBLE_OFFERED = "Non c'è nessun raddoppio a cui rispondere."
ANSWER_THE_DOUBLE_FIRST = "Prima si risponde al raddoppio."
GAME_NOT_OVER = "La partita è ancora in corso."
MATCH_NOT_OVER = "Il match non è ancora finito."

WAIT_WORTH_SAYING = 1.0  # s: a shorter wait for the redraw goes unmentioned


def _seconds(wait: float) -> int:
    return max(1, round(wait))


def board_updated(wait: float) -> str:
    """A press that no longer applies: the board on screen is behind the game."""
    if wait >= WAIT_WORTH_SAYING:
        return f"Il tavolo è cambiato: la tavola si aggiorna tra {_seconds(wait)} s."
    return "Il tavolo è cambiato: guarda la posizione aggiornata e riprova."


def with_redraw_wait(refusal: str, wait: float) -> str:
    """A refusal on a board behind the game, and when the board catches up."""
    if wait >= WAIT_WORTH_SAYING:
        return f"{refusal} La tavola si aggiorna tra {_seconds(wait)} s."
    return refusal


def redraw_soon(wait: float) -> str:
    """The answer to a saved press whose picture waits for the group's budget."""
    return f"✔ Fatto: la tavola si aggiorna tra {_seconds(wait)} s"
