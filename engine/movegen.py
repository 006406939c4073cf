"""Legal steps and legal plays for one roll, for both variants.

The generator walks every order of the dice with a depth-first search, remembering the
(position, dice left, head moves) nodes it has already expanded so that transpositions are
explored once. Terminal nodes are deduplicated by resulting position. Afterwards the
maximum-usage rule keeps only plays that use the most dice, and the larger-die rule applies
when only one die of a non-double can be played.

Variant rules live in two small step functions: ``_classic_steps`` (hitting, bar entry) and
``_long_steps`` (closed points, head rule, six-point block rule). Both share bearing off.
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.board import BAR, LONG_OPPOSITE, OFF, Checkers
from engine.moves import Play, Step
from engine.types import Variant

Node = tuple[Checkers, Checkers, tuple[int, ...], int]
Child = tuple[Step, Checkers, Checkers, int]

#: The opponent's path in the mover's numbering (long): 12, 11, ..., 1, 24, ..., 13.
_PATH_POINT: tuple[int, ...] = tuple(((12 - k - 1) % 24) + 1 for k in range(24))
_PATH_INDEX: tuple[int, ...] = tuple([0] + [(12 - p) % 24 for p in range(1, 25)] + [0])


def _bear_off_allowed(mine: Checkers, src: int, die: int) -> bool:
    """Exact die, or a higher die from the highest occupied point (all checkers home)."""
    if src == die:
        return True
    return sum(mine[src + 1 : 7]) == 0


def _classic_steps(mine: Checkers, theirs: Checkers, die: int) -> list[Child]:
    out: list[Child] = []
    if mine[BAR]:
        dst = BAR - die
        blockers = theirs[die]  # my point 25-d is the opponent's point d
        if blockers >= 2:
            return out
        m = list(mine)
        m[BAR] -= 1
        m[dst] += 1
        if blockers == 1:
            t = list(theirs)
            t[die] -= 1
            t[BAR] += 1
            out.append((Step(BAR, dst, die, True), tuple(m), tuple(t), 0))
        else:
            out.append((Step(BAR, dst, die, False), tuple(m), theirs, 0))
        return out
    home = sum(mine[7:]) == 0
    for src in range(24, 0, -1):
        if not mine[src]:
            continue
        dst = src - die
        if dst >= 1:
            opp = 25 - dst
            blockers = theirs[opp]
            if blockers >= 2:
                continue
            m = list(mine)
            m[src] -= 1
            m[dst] += 1
            if blockers == 1:
                t = list(theirs)
                t[opp] -= 1
                t[BAR] += 1
                out.append((Step(src, dst, die, True), tuple(m), tuple(t), 0))
            else:
                out.append((Step(src, dst, die, False), tuple(m), theirs, 0))
        elif home and _bear_off_allowed(mine, src, die):
            m = list(mine)
            m[src] -= 1
            m[OFF] += 1
            out.append((Step(src, OFF, die, False), tuple(m), theirs, 0))
    return out


def makes_block(mine: Checkers | list[int], theirs: Checkers, dst: int) -> bool:
    """True if the run of points through ``dst`` is an illegal six-point block.

    The run is measured along the opponent's path; it is legal only if some opposing
    checker already stands past it (further along that path).
    """
    k = _PATH_INDEX[dst]
    lo = k
    while lo > 0 and mine[_PATH_POINT[lo - 1]]:
        lo -= 1
    hi = k
    while hi < 23 and mine[_PATH_POINT[hi + 1]]:
        hi += 1
    if hi - lo + 1 < 6:
        return False
    # An opposing checker on their point q is at path index 24 - q: past the block if > hi.
    return not any(theirs[1 : 24 - hi])


def _long_steps(
    mine: Checkers, theirs: Checkers, die: int, head_used: int, head_limit: int
) -> list[Child]:
    out: list[Child] = []
    home = sum(mine[7:]) == 0
    for src in range(24, 0, -1):
        if not mine[src]:
            continue
        head = src == 24
        if head and head_used >= head_limit:
            continue
        dst = src - die
        if dst >= 1:
            if theirs[LONG_OPPOSITE[dst]]:
                continue
            m = list(mine)
            m[src] -= 1
            m[dst] += 1
            if not mine[dst] and makes_block(m, theirs, dst):
                continue
            out.append((Step(src, dst, die), tuple(m), theirs, head_used + head))
        elif home and _bear_off_allowed(mine, src, die):
            m = list(mine)
            m[src] -= 1
            m[OFF] += 1
            out.append((Step(src, OFF, die), tuple(m), theirs, head_used + head))
    return out


class TurnGenerator:
    """Legal plays and steps for one turn: a variant, a roll and the head allowance."""

    __slots__ = ("dice", "head_limit", "variant")

    def __init__(self, variant: Variant, dice: tuple[int, ...], head_limit: int = 1) -> None:
        self.variant = variant
        self.dice = tuple(sorted(dice, reverse=True))
        self.head_limit = head_limit

    def children(
        self, mine: Checkers, theirs: Checkers, dice_left: tuple[int, ...], head_used: int
    ) -> list[tuple[Child, tuple[int, ...]]]:
        """Every single step from this node, each with the dice left after it."""
        out: list[tuple[Child, tuple[int, ...]]] = []
        seen: set[int] = set()
        for i, die in enumerate(dice_left):
            if die in seen:
                continue
            seen.add(die)
            rest = dice_left[:i] + dice_left[i + 1 :]
            if self.variant is Variant.CLASSIC:
                steps = _classic_steps(mine, theirs, die)
            else:
                steps = _long_steps(mine, theirs, die, head_used, self.head_limit)
            out.extend((child, rest) for child in steps)
        return out

    def plays(self, mine: Checkers, theirs: Checkers, head_used: int = 0) -> list[Play]:
        """All distinct legal plays (by resulting position), maximum-usage rules applied."""
        terminals: dict[tuple[Checkers, Checkers], tuple[Step, ...]] = {}
        expanded: set[Node] = set()
        stack: list[tuple[Checkers, Checkers, tuple[int, ...], int, tuple[Step, ...]]] = [
            (mine, theirs, self.dice, head_used, ())
        ]
        best = 0
        while stack:
            m, t, left, h, steps = stack.pop()
            node = (m, t, left, h)
            if node in expanded:
                continue
            expanded.add(node)
            kids = self.children(m, t, left, h) if left else []
            if not kids:
                depth = len(steps)
                if depth < best:
                    continue
                if depth > best:
                    best = depth
                    terminals = {}
                terminals.setdefault((m, t), steps)
                continue
            for (step, m2, t2, h2), rest in kids:
                stack.append((m2, t2, rest, h2, (*steps, step)))
        if best == 0:
            return []  # no checker can move: the turn passes
        plays = [Play(steps, m, t) for (m, t), steps in terminals.items()]
        if best == 1 and len(self.dice) == 2 and self.dice[0] != self.dice[1]:
            larger = [p for p in plays if p.steps[0].die == self.dice[0]]
            if larger:
                plays = larger
        plays.sort(key=lambda p: [(-s.src, -s.die) for s in p.steps])
        return plays

    def next_steps(
        self,
        mine: Checkers,
        theirs: Checkers,
        dice_left: tuple[int, ...],
        head_used: int,
        targets: Iterable[tuple[Checkers, Checkers]],
    ) -> list[tuple[Step, Checkers, Checkers, int, tuple[int, ...]]]:
        """Steps from an intermediate node that can still end in one of ``targets``.

        ``targets`` are the results of the turn's legal plays, so a player building a play
        step by step can never wander into an illegal one.
        """
        goal = set(targets)
        memo: dict[Node, bool] = {}

        def reaches(m: Checkers, t: Checkers, left: tuple[int, ...], h: int) -> bool:
            node = (m, t, left, h)
            if node in memo:
                return memo[node]
            kids = self.children(m, t, left, h) if left else []
            if not kids:
                ok = (m, t) in goal
            else:
                ok = any(reaches(m2, t2, rest, h2) for (_, m2, t2, h2), rest in kids)
            memo[node] = ok
            return ok

        out = []
        for (step, m2, t2, h2), rest in self.children(mine, theirs, dice_left, head_used):
            if reaches(m2, t2, rest, h2):
                out.append((step, m2, t2, h2, rest))
        return out


def roll_dice(d1: int, d2: int) -> tuple[int, ...]:
    """The dice a roll gives to play: four of a double, else both."""
    return (d1,) * 4 if d1 == d2 else (max(d1, d2), min(d1, d2))
