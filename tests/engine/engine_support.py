"""Builders shared by the engine tests: positions from short dicts, states in the MOVE phase.

Kept in one place so each test states only what its rule needs: the checkers that matter,
the roll, and for long the first-turn facts that change the head rule.
"""

from __future__ import annotations

from engine import GameState, MatchConfig, Phase, Side, Variant
from engine.board import CHECKERS, SIZE, Checkers
from engine.notation import format_play


def ck(points: dict[int, int], *, fill_off: bool = True) -> Checkers:
    """Checkers from {point: count}; the rest of the 15 are borne off (index 0)."""
    c = [0] * SIZE
    for point, n in points.items():
        c[point] += n
    if fill_off:
        c[0] += CHECKERS - sum(c)
    assert sum(c) == CHECKERS, points
    return tuple(c)


def move_state(
    variant: Variant,
    mine: Checkers,
    theirs: Checkers,
    dice: tuple[int, int],
    *,
    side: Side = Side.WHITE,
    first_turn: bool = False,
    white_first_roll: tuple[int, int] | None = None,
    config: MatchConfig | None = None,
) -> GameState:
    """A state where ``side`` (the mover) has just rolled ``dice`` in this position."""
    checkers: list[Checkers] = [mine, mine]
    checkers[side], checkers[side.other] = mine, theirs
    moved = [True, True]
    moved[side] = not first_turn
    state = GameState(
        config or MatchConfig(variant),
        (checkers[0], checkers[1]),
        Phase.ROLL,
        side,
        has_moved=(moved[0], moved[1]),
        white_first_roll=white_first_roll,
        starter=Side.WHITE,
    )
    return state.roll(*dice)


def notations(state: GameState) -> set[str]:
    return {format_play(p) for p in state.legal_plays()}


def classic(mine: dict[int, int], theirs: dict[int, int], dice: tuple[int, int]) -> GameState:
    return move_state(Variant.CLASSIC, ck(mine), ck(theirs), dice)


def long_(
    mine: dict[int, int], theirs: dict[int, int], dice: tuple[int, int], **kw: object
) -> GameState:
    return move_state(Variant.LONG, ck(mine), ck(theirs), dice, **kw)  # type: ignore[arg-type]
