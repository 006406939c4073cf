"""A brute-force reference of the legal plays, written from docs/RULES.md for the tests only.

Why a second generator: the engine's search is built for speed (packed positions, a
canonical order for doubles, shared memos), and a property that only re-checks the engine's
own output cannot notice a play it never produced. This one is slow and obvious: it tries
every die in every order, one checker at a time, on plain lists, and applies the
maximum-usage and larger-die rules to the complete sequences. It shares nothing with
``engine.movegen``; only the board geometry constants come from the engine.

Positions are the engine's: 26 counts per side in that side's own numbering (0 borne off,
1..24 the points, 25 the bar).
"""

from __future__ import annotations

from dataclasses import dataclass

Counts = tuple[int, ...]

CLASSIC = "classic"
LONG = "long"


def opposite(variant: str, point: int) -> int:
    """The opponent's number for my ``point`` (classic 25-p; long: my 24 is their 12, both
    moving the same way round: docs/RULES.md#long-setup)."""
    if variant == CLASSIC:
        return 25 - point
    return (point + 11) % 24 + 1


#: Long: the opponent's path in my numbering, from their head to their home.
OPPONENT_PATH = [
    12,
    11,
    10,
    9,
    8,
    7,
    6,
    5,
    4,
    3,
    2,
    1,
    24,
    23,
    22,
    21,
    20,
    19,
    18,
    17,
    16,
    15,
    14,
    13,
]


@dataclass(frozen=True)
class RefStep:
    src: int
    dst: int
    die: int
    hit: bool


def _all_home(mine: list[int]) -> bool:
    return sum(mine[7:26]) == 0


def _bear_off_ok(mine: list[int], src: int, die: int) -> bool:
    """Exact die from point ``die``; a larger die only from the highest occupied point."""
    if not _all_home(mine):
        return False
    if src == die:
        return True
    return die > src and all(mine[p] == 0 for p in range(src + 1, 7))


def _illegal_block(mine: list[int], theirs: list[int], dst: int) -> bool:
    """Long: does my run of held points through ``dst`` reach six along the opponent's path
    with none of their checkers further along that path than the run?"""
    where = OPPONENT_PATH.index(dst)
    lo = where
    while lo > 0 and mine[OPPONENT_PATH[lo - 1]] > 0:
        lo -= 1
    hi = where
    while hi < 23 and mine[OPPONENT_PATH[hi + 1]] > 0:
        hi += 1
    if hi - lo + 1 < 6:
        return False
    # legal only if an opposing checker is already past the block
    return not any(theirs[opposite(LONG, later)] > 0 for later in OPPONENT_PATH[hi + 1 :])


def single_steps(
    variant: str, mine: Counts, theirs: Counts, die: int, head_moves: int, head_limit: int
) -> list[tuple[RefStep, Counts, Counts, int]]:
    """Every step of one checker by ``die``: (step, mine after, theirs after, head moves)."""
    out = []
    if variant == CLASSIC and mine[25] > 0:
        sources = [25]  # checkers on the bar enter before anything else moves
    else:
        sources = [p for p in range(24, 0, -1) if mine[p] > 0]
    for src in sources:
        if variant == LONG and src == 24 and head_moves >= head_limit:
            continue  # the head rule
        m, t = list(mine), list(theirs)
        dst = src - die
        hit = False
        if dst >= 1:
            opp = opposite(variant, dst)
            if variant == CLASSIC:
                if t[opp] >= 2:
                    continue
                if t[opp] == 1:
                    hit = True
                    t[opp] = 0
                    t[25] += 1
            elif t[opp] > 0:
                continue  # long: any opposing checker closes a point
            m[src] -= 1
            newly_held = m[dst] == 0
            m[dst] += 1
            if variant == LONG and newly_held and _illegal_block(m, t, dst):
                continue
        else:
            if not _bear_off_ok(m, src, die):
                continue
            dst = 0
            m[src] -= 1
            m[0] += 1
        out.append((RefStep(src, dst, die, hit), tuple(m), tuple(t), head_moves + (src == 24)))
    return out


Node = tuple[Counts, Counts, tuple[int, ...], int]  # mine, theirs, dice left, head moves


class Reference:
    """The legal plays of one roll by brute force: every die in every order, remembered per
    (position, dice left, head moves) only so that doubles finish in reasonable time."""

    def __init__(
        self, variant: str, mine: Counts, theirs: Counts, dice: list[int], head_limit: int
    ) -> None:
        self.variant = variant
        self.head_limit = head_limit
        self.dice = tuple(dice)
        self._best: dict[Node, int] = {}
        self._ends: dict[Node, frozenset[tuple[Counts, Counts]]] = {}
        self.root: Node = (mine, theirs, self.dice, 0)
        #: How many dice every legal play uses (the maximum-usage rule).
        self.used = self.most(self.root)

    def children(self, node: Node) -> list[tuple[RefStep, Node]]:
        mine, theirs, left, heads = node
        out = []
        for i, die in enumerate(left):
            if die in left[:i]:
                continue
            rest = left[:i] + left[i + 1 :]
            for step, m, t, h in single_steps(
                self.variant, mine, theirs, die, heads, self.head_limit
            ):
                out.append((step, (m, t, rest, h)))
        return out

    def most(self, node: Node) -> int:
        """The most dice that can still be played from ``node``."""
        if node not in self._best:
            self._best[node] = max((1 + self.most(n) for _, n in self.children(node)), default=0)
        return self._best[node]

    def ends(self, node: Node) -> frozenset[tuple[Counts, Counts]]:
        """Positions at the end of the longest sequences from ``node``."""
        if node not in self._ends:
            best = self.most(node)
            if best == 0:
                found = frozenset({(node[0], node[1])})
            else:
                found = frozenset().union(
                    *(self.ends(n) for _, n in self.children(node) if self.most(n) == best - 1)
                )
            self._ends[node] = found
        return self._ends[node]

    def good_steps(self, node: Node, made: int) -> list[tuple[RefStep, Node]]:
        """The steps from ``node`` (after ``made`` steps) that stay on a legal play."""
        need = self.used - made - 1
        kids = [(s, n) for s, n in self.children(node) if need >= 0 and self.most(n) == need]
        if self.used == 1 and len(self.dice) == 2 and self.dice[0] != self.dice[1]:
            larger = [(s, n) for s, n in kids if s.die == max(self.dice)]
            if larger:
                kids = larger  # either die alone but not both: the larger one
        return kids

    @property
    def positions(self) -> set[tuple[Counts, Counts]]:
        """The positions of the legal plays (none when no checker can move)."""
        if self.used == 0:
            return set()
        out: set[tuple[Counts, Counts]] = set()
        for _, n in self.good_steps(self.root, 0):
            out |= self.ends(n)
        return out


def reference(
    variant: str,
    mine: Counts,
    theirs: Counts,
    roll: tuple[int, int],
    head_limit: int = 15,
    dice: list[int] | None = None,
) -> Reference:
    """The reference for a roll; ``dice`` overrides the dice to play (long's 4 after 5-5)."""
    d1, d2 = roll
    if dice is None:
        dice = [d1] * 4 if d1 == d2 else sorted([d1, d2], reverse=True)
    return Reference(variant, mine, theirs, dice, head_limit)
