"""Legal steps and legal plays for one roll, for both variants.

The generator walks every order of the dice breadth-first, one level per die, keeping each
(position, dice left, head moves) node once so that transpositions are explored once. The
deepest level reached holds the plays that use the most dice (maximum-usage rule); they are
deduplicated by resulting position, and the larger-die rule applies when only one die of a
non-double can be played.

Variant rules live in two small step functions: ``_classic_raw`` (hitting, bar entry) and
``_long_raw`` (closed points, head rule, six-point block rule). Both share bearing off. They
return plain tuples because this is the engine's hot path (see ``benchmarks/engine.py``).
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

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


#: A raw step as the search produces it: (src, dst, hit, mine after, theirs after, head used).
#: Building :class:`Step` objects (frozen dataclasses) is slow, so the search works on raw
#: tuples and makes Steps only for the plays it returns.
RawStep = tuple[int, int, bool, Checkers, Checkers, int]

_STEP_CACHE: dict[tuple[int, int, int, bool], Step] = {}


def _step(src: int, dst: int, die: int, hit: bool) -> Step:
    """A shared Step object (they are immutable, so one per distinct value is enough)."""
    key = (src, dst, die, hit)
    step = _STEP_CACHE.get(key)
    if step is None:
        step = _STEP_CACHE[key] = Step(src, dst, die, hit)
    return step


def _classic_raw(mine: Checkers, theirs: Checkers, die: int, top: int = 24) -> list[RawStep]:
    """Single steps with ``die``; checkers above point ``top`` are not moved (see plays)."""
    out: list[RawStep] = []
    # With checkers on the bar they must enter first: the bar is then the only source, and
    # entering is an ordinary landing (my point 25-d is the opponent's point d).
    sources = (BAR,) if mine[BAR] else range(min(top, 24), 0, -1)
    home = not any(mine[7:])
    for src in sources:
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
                out.append((src, dst, True, tuple(m), tuple(t), 0))
            else:
                out.append((src, dst, False, tuple(m), theirs, 0))
        elif home and (src == die or not any(mine[src + 1 : 7])):
            m = list(mine)
            m[src] -= 1
            m[OFF] += 1
            out.append((src, OFF, False, tuple(m), theirs, 0))
    return out


def _classic_steps(mine: Checkers, theirs: Checkers, die: int) -> list[Child]:
    return [
        (_step(s, d, die, hit), m, t, h) for s, d, hit, m, t, h in _classic_raw(mine, theirs, die)
    ]


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


@lru_cache(maxsize=4096)
def _long_tables(theirs: Checkers) -> tuple[tuple[bool, ...], tuple[bool, ...]]:
    """For a fixed opponent (long never changes it during a turn): which of my points are
    closed, and for each path index ``hi`` whether an opposing checker stands past it."""
    closed = tuple(bool(theirs[LONG_OPPOSITE[p]]) for p in range(25))
    past = tuple(any(theirs[1 : 24 - hi]) for hi in range(24))
    return closed, past


def _long_raw(
    mine: Checkers, theirs: Checkers, die: int, head_used: int, head_limit: int, top: int = 24
) -> list[RawStep]:
    """Single steps with ``die``; checkers above point ``top`` are not moved (see plays)."""
    closed, past = _long_tables(theirs)
    path_point, path_index = _PATH_POINT, _PATH_INDEX
    out: list[RawStep] = []
    home = not any(mine[7:])
    if head_used >= head_limit:
        top = min(top, 23)
    for src in range(min(top, 24), 0, -1):
        if not mine[src]:
            continue
        dst = src - die
        if dst >= 1:
            if closed[dst]:
                continue
            m = list(mine)
            m[src] -= 1
            m[dst] += 1
            if not mine[dst]:
                # A new point: does it complete a run of six along the opponent's path?
                k = path_index[dst]
                lo = k
                while lo > 0 and m[path_point[lo - 1]]:
                    lo -= 1
                hi = k
                while hi < 23 and m[path_point[hi + 1]]:
                    hi += 1
                if hi - lo >= 5 and not past[hi]:
                    continue
            out.append((src, dst, False, tuple(m), theirs, head_used + (src == 24)))
        elif home and (src == die or not any(mine[src + 1 : 7])):
            m = list(mine)
            m[src] -= 1
            m[OFF] += 1
            out.append((src, OFF, False, tuple(m), theirs, head_used + (src == 24)))
    return out


def _long_steps(
    mine: Checkers, theirs: Checkers, die: int, head_used: int, head_limit: int
) -> list[Child]:
    return [
        (_step(s, d, die, hit), m, t, h)
        for s, d, hit, m, t, h in _long_raw(mine, theirs, die, head_used, head_limit)
    ]


class TurnGenerator:
    """Legal plays and steps for one turn: a variant, a roll and the head allowance."""

    __slots__ = ("dice", "head_limit", "variant")

    def __init__(self, variant: Variant, dice: tuple[int, ...], head_limit: int = 1) -> None:
        self.variant = variant
        self.dice = tuple(sorted(dice, reverse=True))
        self.head_limit = head_limit

    def _raw(
        self, mine: Checkers, theirs: Checkers, die: int, head_used: int, top: int = 24
    ) -> list[RawStep]:
        if self.variant is Variant.CLASSIC:
            return _classic_raw(mine, theirs, die, top)
        return _long_raw(mine, theirs, die, head_used, self.head_limit, top)

    def _order_free(self, mine: Checkers, theirs: Checkers) -> bool:
        """May the steps of this double be searched in one canonical order only?

        With a double, any legal sequence of steps stays legal when reordered from the
        highest source point down: my steps never close a point to myself, entering from
        the bar comes first anyway, and bearing off only gets easier once the higher
        checkers have moved. The one exception is long's six-point block rule, where an
        earlier step can make a later one legal; so in long this holds only if no six-point
        block could be formed anywhere this turn (checked on every point the turn's
        checkers could touch).
        """
        if len(self.dice) != 4:
            return False
        if self.variant is Variant.CLASSIC:
            return True
        closed, past = _long_tables(theirs)
        die = self.dice[0]
        reach = [False] * 25
        for p in range(1, 25):
            if mine[p]:
                for q in range(p, max(p - 4 * die, 1) - 1, -die):
                    if not closed[q]:
                        reach[q] = True
        run = 0
        for k in range(24):
            if reach[_PATH_POINT[k]]:
                run += 1
                if run >= 6 and not past[k]:
                    return False
            else:
                run = 0
        return True

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
            for s, d, hit, m, t, h in self._raw(mine, theirs, die, head_used):
                out.append(((_step(s, d, die, hit), m, t, h), rest))
        return out

    def plays(self, mine: Checkers, theirs: Checkers, head_used: int = 0) -> list[Play]:
        """All distinct legal plays (by resulting position), maximum-usage rules applied.

        Breadth-first, one level per die: every node of a level is a distinct (position,
        dice left, head moves) reached by playing that many dice, so the deepest non-empty
        level holds exactly the plays that use the most dice. Each node remembers the
        first parent that reached it, which gives one sequence of steps per play.
        """
        raw = self._raw
        start: Node = (mine, theirs, self.dice, head_used)
        # Per node: the steps of the first path that reached it, that path's sort key (the
        # steps' (-src, -die) pairs packed into one int) and ``top``: in canonical mode a
        # node only moves checkers from at most the highest source any step into it came
        # from (see _order_free).
        canonical = self._order_free(mine, theirs)
        # Long never changes the opponent during a turn: leave it out of the node keys,
        # which are hashed once per generated step.
        classic = self.variant is Variant.CLASSIC
        if not classic:
            start = (mine, self.dice, head_used)  # type: ignore[assignment]
        info: dict[Node, list] = {start: [(), 0, 25]}
        level: list[Node] = [start]
        depth = 0
        while True:
            nxt: list[Node] = []
            for node in level:
                if classic:
                    m, t, left, h = node
                else:
                    m, left, h = node  # type: ignore[misc]
                    t = theirs
                steps, order, limit = info[node]
                if not canonical:
                    limit = 25
                last = 0
                for i, die in enumerate(left):
                    if die == last:
                        continue  # dice are sorted: the same die again gives the same steps
                    last = die
                    rest = left[:i] + left[i + 1 :]
                    for src, dst, hit, m2, t2, h2 in raw(m, t, die, h, limit):
                        key = (m2, t2, rest, h2) if classic else (m2, rest, h2)
                        seen = info.get(key)
                        if seen is None:
                            info[key] = [
                                (*steps, _step(src, dst, die, hit)),
                                order * 256 + 255 - (src * 8 + die),
                                src,
                            ]
                            nxt.append(key)
                        elif src > seen[2]:
                            seen[2] = src
            if not nxt:
                break
            level = nxt
            depth += 1
        if depth == 0:
            return []  # no checker can move: the turn passes
        if depth == 1 and len(self.dice) == 2 and self.dice[0] != self.dice[1]:
            larger = [n for n in level if info[n][0][0].die == self.dice[0]]
            if larger:
                level = larger
        found: dict[tuple[Checkers, Checkers], Node] = {}
        for node in level:
            found.setdefault((node[0], node[1] if classic else theirs), node)
        keyed = [(info[node][1], m, t, info[node][0]) for (m, t), node in found.items()]
        keyed.sort(key=lambda k: k[0])
        return [Play(steps, m, t) for _, m, t, steps in keyed]

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
