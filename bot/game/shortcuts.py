"""Buttons that play several steps in one tap: a whole checker, a pair, or the whole roll.

Players of the backgammon apps move a checker with both dice in one stroke; in a group every
tap that changes the board costs one of Telegram's ~20 edits per minute. So next to the
single steps the keyboard offers:

- **whole checker**: one checker travels with all the dice left (``24/13``; ``24/18*/13`` when
  the point it touches on the way matters because it hits there);
- **pairs** (doubles): two checkers make the same step together (``8/4(2)``);
- **complete plays**: when the roll leaves few distinct plays, each of them (one tap plays
  the whole roll).

Everything here is derived from the engine's legal steps, so a shortcut is exactly a legal
sequence of steps and is applied step by step, with the engine checking each one.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine import BAR, OFF, GameState, Step

#: Complete plays are offered when a roll leaves at most this many distinct plays.
MAX_COMPLETE_PLAYS = 6
#: The search for complete plays stops after this many tree nodes (a huge tree has many
#: plays anyway, so it would not offer them).
MAX_NODES = 400


@dataclass(frozen=True, slots=True)
class Shortcut:
    """A sequence of legal steps played by one button, and its label."""

    label: str
    steps: tuple[Step, ...]


def _point(p: int) -> str:
    return "bar" if p == BAR else "off" if p == OFF else str(p)


def _chain_label(steps: tuple[Step, ...]) -> str:
    """``24/13``, or ``24/18*/13`` when a point on the way is hit."""
    parts = [_point(steps[0].src)]
    for i, s in enumerate(steps):
        last = i == len(steps) - 1
        if s.hit or last:
            parts.append(_point(s.dst) + ("*" if s.hit else ""))
    return "/".join(parts)


def play_label(steps: tuple[Step, ...]) -> str:
    """A complete play as players write it: ``13/7 8/5``, ``8/4(2) 6/2(2)``."""
    counted: dict[str, int] = {}
    for s in steps:
        text = f"{_point(s.src)}/{_point(s.dst)}{'*' if s.hit else ''}"
        counted[text] = counted.get(text, 0) + 1
    return " ".join(t if n == 1 else f"{t}({n})" for t, n in counted.items())


def whole_checker(state: GameState) -> list[Shortcut]:
    """One checker with every die left, when that is a complete legal play."""
    found: dict[tuple[object, ...], Shortcut] = {}

    def follow(s: GameState, chain: tuple[Step, ...]) -> None:
        if s.play_complete and len(chain) > 1 and not s.legal_steps():
            key = (s.checkers[s.turn], s.checkers[s.turn.other])
            label = _chain_label(chain)
            if key not in found or len(label) < len(found[key].label):
                found[key] = Shortcut(label, chain)
            return
        for step in s.legal_steps():
            if step.src == chain[-1].dst and chain[-1].dst != OFF:
                follow(s.step(step), (*chain, step))

    for first in state.legal_steps():
        follow(state.step(first), (first,))
    return sorted(found.values(), key=lambda c: (c.steps[0].src, c.label), reverse=True)


def pairs(state: GameState) -> list[Shortcut]:
    """With doubles, two checkers making the same step together (``8/4(2)``)."""
    if not state.dice or state.dice[0] != state.dice[1] or len(state.dice_left) < 2:
        return []
    result: list[Shortcut] = []
    for step in state.legal_steps():
        after = state.step(step)
        twin = next(
            (s for s in after.legal_steps() if (s.src, s.dst) == (step.src, step.dst)), None
        )
        if twin is not None:
            label = f"{_point(step.src)}/{_point(step.dst)}{'*' if step.hit else ''}(2)"
            result.append(Shortcut(label, (step, twin)))
    return result


def complete_plays(state: GameState, limit: int = MAX_COMPLETE_PLAYS) -> list[Shortcut]:
    """Every distinct way to finish the roll, or [] when there are more than ``limit``."""
    found: dict[tuple[object, ...], tuple[Step, ...]] = {}
    nodes = 0

    def walk(s: GameState, path: tuple[Step, ...]) -> bool:
        nonlocal nodes
        nodes += 1
        if nodes > MAX_NODES:
            return False
        steps = s.legal_steps()
        if not steps:
            if path:
                key = (s.checkers[s.turn], s.checkers[s.turn.other])
                found.setdefault(key, path)
            return len(found) <= limit
        return all(walk(s.step(step), (*path, step)) for step in steps)

    if not walk(state, ()) or len(found) > limit:
        return []
    if any(len(path) < 2 for path in found.values()):
        return []  # one die left: the single steps are the complete plays
    return [Shortcut(play_label(path), path) for path in found.values()]
