"""The Italian texts of score-aware hints: the plays of a roll and the cube decisions.

A hint's numbers only mean something with what they rest on, so every hint says it: the
score and the match length, the cube and who holds it, the Crawford game; in a match the
numbers are the chance of winning the match, in the money game points. Same conventions
as the other texts: Telegram HTML, names through `player()`, the Italian decimal comma.
"""

from __future__ import annotations

from bot.texts.messages import MATCH_WORDS, escape, player, points
from engine import Variant
from engine.ai import CheckerHint, CubeAdvice, CubeHint, HintBasis, HintUnit


def _number(value: float, decimals: int) -> str:
    return f"{value:.{decimals}f}".replace(".", ",")


def _signed(value: float, decimals: int) -> str:
    """'+0,123' / '−0,045': a signed number the Italian way."""
    sign = "−" if value < 0 else "+"
    return f"{sign}{_number(abs(value), decimals)}"


def value(unit: HintUnit, v: float) -> str:
    """A hint's value: '43,5 %' (chance of winning the match) or '+0,123' (points)."""
    if unit is HintUnit.MWC:
        return f"{_number(100 * v, 1)} %"
    return _signed(v, 3)


def gap(unit: HintUnit, v: float) -> str:
    """What a play gives away against the best: '−1,8 %' or '−0,045'."""
    if unit is HintUnit.MWC:
        return f"{_signed(100 * v, 1)} %"
    return _signed(v, 3)


def _cube_words(basis: HintBasis) -> str:
    if not basis.cube_in_play:
        return "senza cubo"
    if basis.crawford:
        return "partita Crawford (senza cubo)"
    owner = {None: "", "me": ", tuo", "opponent": ", dell'avversario"}[basis.owner]
    after = ", dopo la Crawford" if basis.post_crawford else ""
    return f"cubo a {basis.cube}{owner}{after}"


def basis_words(basis: HintBasis, variant: Variant) -> str:
    """What the numbers rest on: 'al punteggio 2-4 (match a 5 punti), cubo a 2, tuo'."""
    if basis.money:
        return f"nella partita libera, {_cube_words(basis)}"
    if basis.length == 1:
        return "in una partita singola (conta solo vincerla)"
    me, opp = basis.score
    match = f"{MATCH_WORDS[variant]} a {points(basis.length)}"
    return f"al punteggio {me}-{opp} ({match}), {_cube_words(basis)}"


def _unit_note(unit: HintUnit, variant: Variant) -> str:
    """What the numbers are: 'probabilità di vincere il match' or points."""
    if unit is HintUnit.MWC:
        return f"probabilità di vincere {'la serie' if variant is Variant.LONG else 'il match'}"
    return "equità in punti, cubo compreso"


def _after_play_note(unit: HintUnit, variant: Variant) -> str:
    if unit is HintUnit.MWC:
        return f"{_unit_note(unit, variant).capitalize()} dopo ogni mossa"
    return "Equità in punti dopo ogni mossa (cubo compreso)"


def checker_hint(
    name: str, dice: tuple[int, int], variant: Variant, hint: CheckerHint, notations: list[str]
) -> str:
    """The caption of the hint picture: what the values rest on, then the best plays, best
    first, each with its value and (after the first) what it gives away."""
    unit = hint.basis.unit
    lines = [
        f"💡 Suggerimenti per {player(name)} · tiro {dice[0]}-{dice[1]}",
        f"Valori {basis_words(hint.basis, variant)}:",
    ]
    best = hint.plays[0][1]
    for i, (notation, (_, v)) in enumerate(zip(notations, hint.plays, strict=True), start=1):
        lost = "" if i == 1 else f" · {gap(unit, v - best)}"
        lines.append(f"{i}. <code>{escape(notation) or '-'}</code> ({value(unit, v)}{lost})")
    lines.append(
        f"<i>{_after_play_note(unit, variant)}, stimata dal computer; "
        "le frecce mostrano la prima mossa, con i passi nell'ordine in cui farli.</i>"
    )
    return "\n".join(lines)


#: The advice of a cube hint, in the words of the board's buttons where they exist.
ADVICE: dict[CubeAdvice, str] = {
    CubeAdvice.DOUBLE: "Raddoppia",
    CubeAdvice.NO_DOUBLE: "Non raddoppiare",
    CubeAdvice.TOO_GOOD: "Troppo forte (gioca per il gammon)",
    CubeAdvice.TAKE: "Accetta",
    CubeAdvice.PASS: "Rifiuta",
}


def cube_hint(name: str, variant: Variant, hint: CubeHint) -> str:
    """A cube hint: the advice, then the equities it rests on.

    For the side that may double, the three futures from its side (no double, double and
    take, double and pass); for the side that was doubled, taking and passing from its own.
    """
    unit = hint.basis.unit
    lines = [
        f"💡 Cubo: suggerimento per {player(name)}, {basis_words(hint.basis, variant)}",
        f"<b>{ADVICE[hint.advice]}</b>",
    ]
    if hint.doubled:
        mine = (1.0 - hint.double_take, 1.0 - hint.double_pass)
        if unit is HintUnit.POINTS:
            mine = (-hint.double_take, -hint.double_pass)
        lines += [f"· se accetti: {value(unit, mine[0])}", f"· se rifiuti: {value(unit, mine[1])}"]
    else:
        if hint.advice is CubeAdvice.DOUBLE:
            answer = "accettare" if hint.double_take <= hint.double_pass else "rifiutare"
            lines[-1] += f" (l'avversario dovrebbe {answer})"
        lines += [
            f"· senza raddoppio: {value(unit, hint.no_double)}",
            f"· raddoppio accettato: {value(unit, hint.double_take)}",
            f"· raddoppio rifiutato: {value(unit, hint.double_pass)}",
        ]
    lines.append(f"<i>La tua {_unit_note(unit, variant)}, stimata dal computer.</i>")
    return "\n".join(lines)
