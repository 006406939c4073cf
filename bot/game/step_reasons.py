"""Why a step button is refused, worded for the player, with the steps legal now.

The engine refuses a single step without saying why; a whole typed play it explains
(``engine.read_play`` raises with a ``MoveProblem``). So a refused step is checked first for
what a step alone tells (a die already played, a checker already moved, the bar, the order
of bearing off), then read as the play made so far plus this step, and the engine's
problem is worded. Pure: no Telegram, no storage.
"""

from __future__ import annotations

from bot.texts import refusals as R
from engine import (
    BAR,
    OFF,
    GameState,
    IllegalMoveError,
    MoveProblem,
    NotationError,
    Step,
    format_steps,
    read_play,
)

HOME = 6  # the highest point of the home board, in the mover's numbering


def _point(p: int) -> str:
    return "bar" if p == BAR else ("off" if p == OFF else str(p))


def next_steps(state: GameState) -> list[str]:
    """The steps legal now, once each, highest checker first ("13/10", "6/off")."""
    seen: dict[str, None] = {}
    for s in sorted(state.legal_steps(), key=lambda s: (-s.src, -s.dst)):
        seen[f"{_point(s.src)}/{_point(s.dst)}"] = None
    return list(seen)


def refusal(state: GameState, src: int, dst: int, die: int) -> str:
    """The alert for a step (src, dst, die) the engine refused in ``state`` (a MOVE phase)."""
    return R.with_next_steps(reason(state, src, dst, die), next_steps(state))


def shortcut_refusal(state: GameState) -> str:
    """The alert for a one-tap play drawn for the turn's start that does not go on from
    the steps made since (a board not redrawn after a first step)."""
    made = format_steps(state.steps)
    return R.with_next_steps(R.moved_otherwise(made, state.dice_left), next_steps(state))


def reason(state: GameState, src: int, dst: int, die: int) -> str:
    """Why the step is not legal now, most useful first."""
    left = state.dice_left
    mine = state.checkers[state.turn]
    if state.play_complete:
        return R.PLAY_COMPLETE
    if die not in left:
        if not left or not 1 <= die <= 6:
            return R.ILLEGAL
        played = any(s.die == die for s in state.steps)
        return R.die_used(die, left) if played else R.die_not_rolled(die, left)
    if not 0 <= src <= BAR or not 0 <= dst <= BAR:
        return R.ILLEGAL
    if mine[src] == 0:
        moved = any(s.src == src for s in state.steps)
        return R.checker_moved(left) if moved else R.no_checker(src)
    if mine[BAR] and src != BAR:
        return R.BAR_FIRST
    if dst == OFF and _all_home(mine) and die > src and any(mine[src + 1 : HOME + 1]):
        return R.bear_off_order(die)
    return _engine_reason(state, Step(src, dst, die))


def _all_home(mine: tuple[int, ...]) -> bool:
    return not any(mine[HOME + 1 :])


def _engine_reason(state: GameState, step: Step) -> str:
    """The engine's problem with the play made so far plus ``step``, in words."""
    text = " ".join(f"{_point(s.src)}/{_point(s.dst)}" for s in (*state.steps, step))
    try:
        read_play(state, text)
    except IllegalMoveError as exc:
        return _worded(state, exc)
    except NotationError:
        return R.ILLEGAL
    return R.ILLEGAL  # the step alone is no step of the dice (forged data)


def _worded(state: GameState, exc: IllegalMoveError) -> str:
    problem = exc.problem
    if problem is MoveProblem.BAR_FIRST:
        return R.BAR_FIRST
    if problem is MoveProblem.NOT_HOME:
        return R.NOT_HOME
    if problem is MoveProblem.CLOSED_POINT and exc.point is not None:
        return R.closed_point(exc.point, long=not state.rules.hits)
    if problem is MoveProblem.HEAD_RULE:
        return R.head_rule(state.head_limit)
    if problem is MoveProblem.BLOCK_RULE:
        return R.BLOCK_RULE
    if problem is MoveProblem.LARGER_DIE:
        return R.larger_die(max(state.turn_dice))
    if problem is MoveProblem.INCOMPLETE:
        return R.INCOMPLETE
    if problem is MoveProblem.NO_CHECKER and exc.point is not None:
        return R.no_checker(exc.point)
    return R.ILLEGAL
