"""Legal steps and legal plays for one roll, for both variants.

The generator walks every order of the dice breadth-first, one level per die, keeping each
(position, dice left) node once so that transpositions are explored once. The deepest level
reached holds the plays that use the most dice (maximum-usage rule); they are deduplicated
by resulting position, and the larger-die rule applies when only one die of a non-double
can be played.

This is the engine's hot path (every click of the bot, every node of the computer's
search; see ``benchmarks/engine.py``), so the search works on positions packed into one
integer, one byte per count (``pack``): a step is one addition of a precomputed delta, a
node is hashed as one int, and ``int.to_bytes`` reads the counts back. Step objects and
checker tuples are made only for the plays returned.

The rules object of the variant (``engine.rules``) says which single-step generator a
turn uses: ``_classic_moves`` when checkers are hit (blots, the bar, points closed by two)
or ``_long_moves`` when they are not (points closed by one, head rule, six-point block
rule), and ``_long_moves_unblocked`` in a long turn where no six-point block can be made
(most of them; checked once per turn), which skips the block test. Both variants share
bearing off (one possible source per die, found in constant time). With hitting a move
changes the opponent too, so the packed positions hold both sides; without it, only the
mover's. In that commonest long turn every step is a plain addition, so the searches loop
over source points inline (``_free_sources``) instead of calling a step function per node:
the bot's per-roll search and the computer's replies spend most of their time there.
A double's levels come out in the plays' order by construction, so they are never sorted.

:class:`Turn` is one roll's search kept for the whole turn: the legal plays, and the legal
next steps from any node of it (the buttons), answered from the same packed positions with
a memo, so building a play step by step never searches the roll again. ``turn`` caches
Turns by (variant, roll, first-turn facts, position): the bot reloads a game for every
click. ``generator_for`` shares one TurnGenerator per (variant, dice, head allowance).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from itertools import compress
from typing import NamedTuple

from engine.board import LONG_OPPOSITE, Checkers
from engine.moves import Play, Step
from engine.rules import Rules
from engine.rules import roll_dice as roll_dice
from engine.types import Variant

#: The opponent's path in the mover's numbering (long): 12, 11, ..., 1, 24, ..., 13.
_PATH_POINT: tuple[int, ...] = tuple(((12 - k - 1) % 24) + 1 for k in range(24))
_PATH_INDEX: tuple[int, ...] = tuple([0] + [(12 - p) % 24 for p in range(1, 25)] + [0])

# --------------------------------------------------------------------------- packing
#: ``_ONE[i]`` adds one checker at byte ``i``: 0..25 the mover, 26..51 the opponent (classic).
_ONE: tuple[int, ...] = tuple(1 << (8 * i) for i in range(52))
_THEIR_BAR = 51
#: Node keys carry which dice are used (non-doubles) above the position's bytes: both
#: sides' bytes when checkers are hit (classic), else the mover's (long).
_BOTH_SHIFT, _MINE_SHIFT = 8 * 52, 8 * 26
#: The position's bytes of a key: both sides (classic) or the mover's (long).
_POS_MASK = (1 << (8 * 52)) - 1
_MINE_MASK = (1 << (8 * 26)) - 1
#: Points 7..24 of the mover (bytes 7..24 once shifted): all empty means every checker is home.
_OUTSIDE_MASK = (1 << (8 * 18)) - 1
#: Points 1..6 of the mover (bytes 1..6 once shifted).
_HOME_MASK = (1 << (8 * 6)) - 1
#: ``_LOW[k]``: the low k bytes, to test points src+1..6 for a bear-off with a higher die.
_LOW: tuple[int, ...] = tuple((1 << (8 * k)) - 1 for k in range(8))
#: Per die, per source point: the delta of a plain step (a bear-off when the die passes 1).
_DELTA: tuple[tuple[int, ...], ...] = tuple(
    tuple(_ONE[max(src - die, 0)] - _ONE[src] for src in range(26)) for die in range(7)
)
#: Per die, per source point: the delta of a step that hits a blot (classic).
_HIT_DELTA: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        _ONE[src - die] - _ONE[src] - _ONE[51 - (src - die)] + _ONE[_THEIR_BAR]
        if src - die >= 1
        else 0
        for src in range(26)
    )
    for die in range(7)
)


#: ``_DOWN[top]``: the source points from ``top`` down to 1 (ranges made once, not per call).
_DOWN: tuple[range, ...] = tuple(range(top, 0, -1) for top in range(26))


#: The bytes of one side in a ``TurnGenerator.packed_results`` string (one count a byte).
SIDE_BYTES = 26


def pack(c: Checkers) -> int:
    """One side's 26 counts as an int, one byte each (index 0 in the lowest byte)."""
    return int.from_bytes(bytes(c), "little")


def unpack(value: int) -> Checkers:
    """The inverse of :func:`pack`."""
    return tuple(value.to_bytes(26, "little"))


#: Every Step there can be, made once (they are immutable): ``_STEPS[src][die][hit]``, the
#: landing point following from the source and the die (0 once past point 1: borne off).
_STEPS: tuple[tuple[tuple[Step, Step], ...], ...] = tuple(
    tuple(
        (Step(src, max(src - die, 0), die, False), Step(src, max(src - die, 0), die, True))
        for die in range(7)
    )
    for src in range(26)
)


def _step(src: int, dst: int, die: int, hit: bool) -> Step:
    """The shared Step of these values (``dst`` follows from ``src`` and ``die``)."""
    return _STEPS[src][die][hit]


# --------------------------------------------------------------------------- single steps
def _classic_moves(pos: int, die: int, top: int, _rules: object = None) -> list[tuple[int, int]]:
    """(source, position after) of every single step with ``die``; ``pos`` packs both sides.

    Checkers above point ``top`` are not moved (the canonical order of doubles, see
    ``TurnGenerator._order_free``). With checkers on the bar they must enter first: the bar
    is then the only source, and entering is an ordinary landing (my point 25-d is the
    opponent's point d).
    """
    b = pos.to_bytes(52, "little")
    delta, hit = _DELTA[die], _HIT_DELTA[die]
    if b[25]:
        blockers = b[26 + die]  # my landing point 25-die is their point die
        if blockers >= 2:
            return []
        return [(25, pos + (hit[25] if blockers else delta[25]))]
    out: list[tuple[int, int]] = []
    append = out.append
    # compress() skips the empty points in C: only occupied sources reach the loop body.
    for src in compress(_DOWN[top], b[top:0:-1]):
        dst = src - die
        if dst >= 1:
            blockers = b[51 - dst]
            if blockers < 2:
                append((src, pos + (hit[src] if blockers else delta[src])))
        elif (dst == 0 or not (pos >> (8 * src + 8)) & _LOW[6 - src]) and not (
            pos >> 56
        ) & _OUTSIDE_MASK:
            append((src, pos + delta[src]))
    return out


def makes_block(mine: Checkers | list[int], theirs: Checkers, dst: int) -> bool:
    """True if the run of points through ``dst`` is an illegal six-point block (long).

    The run is measured along the opponent's path; it is legal only if some opposing
    checker already stands past it (further along that path). The generator has its own
    packed form of this test; this readable one explains a refused typed move.
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


class _LongTables(NamedTuple):
    """What a long turn's steps need to know of the opponent, who does not move during it."""

    #: ``past[k]``: an opposing checker stands past path index k (further along their path).
    past: tuple[bool, ...]
    #: ``open_from[die]``: 0xff on the byte of every source point whose landing point with
    #: ``die`` is open (bear-offs excluded), so that ``pos & open_from[die]`` keeps only
    #: the sources of ordinary steps, in C.
    open_from: tuple[int, ...]
    #: 0x01 on the byte of every point 1..24 without an opposing checker.
    open_points: int
    #: The lowest path index at which a run of six can start and have no opposing checker
    #: past its end (24 when every run has one): where a block can be illegal.
    first_unguarded: int


@lru_cache(maxsize=4096)
def _long_tables(theirs: Checkers) -> _LongTables:
    # closed[p]: an opposing checker stands on my point p.
    closed = tuple(bool(theirs[LONG_OPPOSITE[p]]) for p in range(25))
    past = tuple(any(theirs[1 : 24 - hi]) for hi in range(24))
    open_from = tuple(
        sum(255 << (8 * src) for src in range(die + 1, 25) if not closed[src - die])
        for die in range(7)
    )
    open_points = sum(1 << (8 * p) for p in range(1, 25) if not closed[p])
    unguarded = next((k for k in range(24) if not past[k]), 29)
    return _LongTables(past, open_from, open_points, max(unguarded - 5, 0))


#: Byte translation: every count to 1 if non-zero (which points are held).
_NONZERO = bytes([0] + [1] * 255)
_SIX = bytes([1] * 6)


def _long_moves(pos: int, die: int, top: int, rules: _LongRules) -> list[tuple[int, int]]:
    """(source, position after) of every single step with ``die``; ``pos`` packs the mover.

    A step onto a new point is refused when it completes a run of six along the opponent's
    path with no opposing checker past it (the block rule). Once the head allowance is
    used, the head (point 24) is not a source.
    """
    open_from, past, spare, start_head, _ = rules
    b = pos.to_bytes(26, "little")
    # Nothing ever lands on point 24, so the head moves made are the checkers gone.
    if top > 23 and start_head - b[24] >= spare:
        top = 23
    delta = _DELTA[die]
    path_point, path_index = _PATH_POINT, _PATH_INDEX
    few = b[1:25].count(0) >= 20  # at most 4 points held: no step can make six in a row
    out: list[tuple[int, int]] = []
    sources = (pos & open_from[die]).to_bytes(26, "little")
    for src in compress(_DOWN[top], sources[top:0:-1]):
        dst = src - die
        if not b[dst] and not few:
            # A new point: does it complete a run of six along the opponent's path?
            # (The source counts as empty if its last checker is the one moving.)
            gone = src if b[src] == 1 else -1
            k = path_index[dst]
            lo = k
            while lo > 0:
                q = path_point[lo - 1]
                if not b[q] or q == gone:
                    break
                lo -= 1
            hi = k
            while hi < 23:
                q = path_point[hi + 1]
                if not b[q] or q == gone:
                    break
                hi += 1
            if hi - lo >= 5 and not past[hi]:
                continue
        out.append((src, pos + delta[src]))
    if not (pos >> 56) & _OUTSIDE_MASK:
        _bear_off(pos, die, top, out)
    return out


def _long_moves_unblocked(pos: int, die: int, top: int, rules: _LongRules) -> list[tuple[int, int]]:
    """``_long_moves`` for a turn in which no six-point block can be made (see
    ``TurnGenerator._block_impossible``): every open landing point is a legal step."""
    open_from, _, spare, start_head, _ = rules
    if top > 23 and start_head - (pos >> 192 & 255) >= spare:
        top = 23
    delta = _DELTA[die]
    sources = (pos & open_from[die]).to_bytes(26, "little")
    out = [(src, pos + delta[src]) for src in compress(_DOWN[top], sources[top:0:-1])]
    if not (pos >> 56) & _OUTSIDE_MASK:
        _bear_off(pos, die, top, out)
    return out


def _bear_off(pos: int, die: int, top: int, out: list[tuple[int, int]]) -> None:
    """Add the bear-offs with ``die`` (every checker home): from the point the die names,
    or from a lower point when no checker stands higher."""
    src = _bear_off_source(pos, die, top)
    if src:
        out.append((src, pos + _DELTA[die][src]))


def _bear_off_source(pos: int, die: int, top: int) -> int:
    """The one point a bear-off with ``die`` can start from (every checker home), or 0:
    the point the die names if it is held, else the highest held point if it is lower
    than the die. Sources above ``top`` are not moved."""
    if die <= top and (pos >> (8 * die)) & 255:
        return die
    # The highest held point of 1..6, from the bit length of their six bytes.
    high = (((pos >> 8) & _HOME_MASK).bit_length() + 7) >> 3
    return high if high < die and high <= top else 0


def _free_sources(pos: int, die: int, top: int, rules: _LongRules) -> list[int]:
    """The source points of ``_long_moves_unblocked`` (same order): each step's position
    is ``pos + _DELTA[die][src]``. The searches that need only positions loop over these
    ints inline instead of calling a step function per node and building pairs."""
    if top > 23 and rules.start_head - (pos >> 192 & 255) >= rules.spare:
        top = 23
    sources = (pos & rules.open_from[die]).to_bytes(26, "little")
    srcs = list(compress(_DOWN[top], sources[top:0:-1]))
    if not (pos >> 56) & _OUTSIDE_MASK:
        src = _bear_off_source(pos, die, top)
        if src:
            srcs.append(src)
    return srcs


def _free_pair_positions(rules: _LongRules, root: int, big: int, small: int) -> list[int]:
    """``TurnGenerator._pair_positions`` for a long turn in which no block can be made."""
    open_from, _, spare, start_head, _ = rules
    first_big = _free_sources(root, big, 25, rules)
    first_small = _free_sources(root, small, 25, rules)
    orders: dict[int, int] = {}
    setdefault = orders.setdefault
    for first, die, other in ((first_big, big, small), (first_small, small, big)):
        step, delta, mask = _DELTA[die], _DELTA[other], open_from[other]
        for src in first:
            child = root + step[src]
            order = (255 - (src * 8 + die)) * 256 + 255 - other
            top = 23 if start_head - (child >> 192 & 255) >= spare else 25
            sources = (child & mask).to_bytes(26, "little")
            for src2 in compress(_DOWN[top], sources[top:0:-1]):
                setdefault(child + delta[src2], order - src2 * 8)
            if not (child >> 56) & _OUTSIDE_MASK:
                src2 = _bear_off_source(child, other, top)
                if src2:
                    setdefault(child + delta[src2], order - src2 * 8)
    if not orders:
        # Only one die can be played: the larger one if it can.
        die = big if first_big else small
        step = _DELTA[die]
        for src in first_big or first_small:
            setdefault(root + step[src], 255 - (src * 8 + die))
    return sorted(orders, key=orders.__getitem__)


def _free_double_positions(rules: _LongRules, root: int, die: int, n: int) -> list[int]:
    """``TurnGenerator._positions_single`` in canonical order for a long double in which
    no block can be made: the final positions, in the plays' order."""
    delta = _DELTA[die]
    seen = {root}
    add = seen.add
    limits = {root: 25}
    level = [root]
    depth = 0
    last = n - 1
    while depth < n:
        nxt: list[int] = []
        append = nxt.append
        track = depth < last
        for key in level:
            for src in _free_sources(key, die, limits[key], rules):
                child = key + delta[src]
                if child not in seen:
                    add(child)
                    append(child)
                    if track:
                        limits[child] = src
                elif track and src > limits[child]:
                    limits[child] = src
        if not nxt:
            break
        level = nxt
        depth += 1
    return level if depth else []


class _LongRules(NamedTuple):
    """What the long step functions need besides the position, fixed for the turn (read
    by unpacking, the fastest way in the hot loop)."""

    open_from: tuple[int, ...]  # see _LongTables
    past: tuple[bool, ...]  # see _LongTables
    spare: int  # how many checkers may leave the head this turn
    start_head: int  # how many were on the head at the turn's start
    free: bool  # no six-point block can be made this turn (``_block_impossible``)


_Moves = Callable[[int, int, int, object], list[tuple[int, int]]]


def _canonical_positions(
    moves: _Moves, rules: _LongRules | None, root: int, die: int, n: int
) -> tuple[list[int], int, list[int]]:
    """The final positions of a double searched in canonical order (see
    ``TurnGenerator._order_free``), without parents, and the depth reached."""
    seen: set[int] = {root}
    add = seen.add
    limits: dict[int, int] = {root: 25}
    level = [root]
    depth = 0
    last = n - 1
    while depth < n:
        nxt: list[int] = []
        append = nxt.append
        track = depth < last
        for key in level:
            for src, child in moves(key, die, limits[key], rules):
                if child not in seen:
                    add(child)
                    append(child)
                    if track:
                        limits[child] = src
                elif track and src > limits[child]:
                    limits[child] = src
        if not nxt:
            break
        level = nxt
        depth += 1
    return (level, depth, []) if depth else ([], 0, [])


def _free_double_search(
    rules: _LongRules, root: int, die: int, n: int, parents: dict[int, _Parent]
) -> tuple[list[int], int, list[int]]:
    """``TurnGenerator._search_single`` in canonical order for a long double in which no
    block can be made (the only long double searched canonically), looping over source
    points inline: (the final nodes, their depth, the first level)."""
    delta = _DELTA[die]
    seen = {root}
    add = seen.add
    limits = {root: 25}
    level = [root]
    first: list[int] = []
    depth = 0
    last = n - 1
    while depth < n:
        nxt: list[int] = []
        append = nxt.append
        track = depth < last
        for key in level:
            for src in _free_sources(key, die, limits[key], rules):
                child = key + delta[src]
                if child not in seen:
                    add(child)
                    append(child)
                    parents[child] = (key, src, die)
                    if track:
                        limits[child] = src
                elif track and src > limits[child]:
                    limits[child] = src
        if not nxt:
            break
        level = nxt
        depth += 1
        if depth == 1:
            first = nxt
    return (level, depth, first) if depth else ([], 0, first)


#: Per die, the first level of a two-dice search: (node key, its position) pairs.
_FirstLevel = list[tuple[int, int]]


def _second_level(
    moves: _Moves,
    rules: _LongRules | None,
    steps: tuple[tuple[_FirstLevel, int], tuple[_FirstLevel, int]],
    orders: dict[int, int],
    productive: set[int],
    parents: dict[int, _Parent],
) -> dict[int, int]:
    """The second level of ``TurnGenerator._search_pair``: each position reached by the
    other die from a first-level node, with the order of its first path."""
    if rules is not None and rules.free:
        return _free_second_level(rules, steps, orders, productive, parents)
    level: dict[int, int] = {}
    for nodes, die in steps:
        base = 255 - die
        for key, pos in nodes:
            found = moves(pos, die, 25, rules)
            if not found:
                continue
            productive.add(key)
            order = orders[key] * 256 + base
            for src, child in found:
                if child not in level:
                    level[child] = order - src * 8
                    parents[child] = (key, src, die)
    return level


def _free_second_level(
    rules: _LongRules,
    steps: tuple[tuple[_FirstLevel, int], tuple[_FirstLevel, int]],
    orders: dict[int, int],
    productive: set[int],
    parents: dict[int, _Parent],
) -> dict[int, int]:
    """``_second_level`` for a long turn in which no block can be made: every step adds
    its delta (no hits), so the steps are looped over as source points, without pairs."""
    level: dict[int, int] = {}
    for nodes, die in steps:
        base = 255 - die
        delta = _DELTA[die]
        for key, pos in nodes:
            srcs = _free_sources(pos, die, 25, rules)
            if not srcs:
                continue
            productive.add(key)
            order = orders[key] * 256 + base
            for src in srcs:
                child = pos + delta[src]
                if child not in level:
                    level[child] = order - src * 8
                    parents[child] = (key, src, die)
    return level


# --------------------------------------------------------------------------- the search
#: The last step of the first path into a node: (parent key, source, die).
_Parent = tuple[int, int, int]


class TurnGenerator:
    """Legal plays and steps for one turn: a variant, a roll and the head allowance."""

    __slots__ = ("dice", "head_limit", "hits", "rules", "shift", "variant")

    def __init__(self, variant: Variant, dice: tuple[int, ...], head_limit: int = 1) -> None:
        self.variant = variant
        self.rules: Rules = variant.rules
        #: Steps may hit: keys pack both sides (else only the mover's).
        self.hits: bool = self.rules.hits
        #: Where a node key's dice code starts, above the position's bytes.
        self.shift = _BOTH_SHIFT if self.hits else _MINE_SHIFT
        self.dice = tuple(sorted(dice, reverse=True))
        self.head_limit = head_limit

    # ------------------------------------------------------------------ helpers
    def _root(self, mine: Checkers, theirs: Checkers) -> int:
        if self.hits:
            return pack(mine) | pack(theirs) << (8 * 26)
        return pack(mine)

    def _single_die(self) -> bool:
        """All dice equal (a double, or long's one-step 4 after 5-5): only the depth counts."""
        return self.dice[0] == self.dice[-1]

    def _moves_fn(
        self, mine: Checkers, theirs: Checkers, head_used: int
    ) -> tuple[_Moves, _LongRules | None]:
        """``moves(pos, die, top, rules)`` for this variant and turn, and its ``rules``."""
        if self.hits:
            return _classic_moves, None
        tables = _long_tables(theirs)
        free = self._block_impossible(mine, tables)
        rules = _LongRules(
            tables.open_from, tables.past, self.head_limit - head_used, mine[24], free
        )
        # The moves function and its rules go together, which _Moves (rules: object) cannot
        # say: the long ones take only _LongRules, and only ever get them from here.
        moves = _long_moves_unblocked if free else _long_moves
        return moves, rules  # type: ignore[return-value]

    def _block_impossible(self, mine: Checkers, tables: _LongTables) -> bool:
        """Can no six-point block be made this turn, whatever is played (long)?

        Every point the turn's checkers could reach (their points, and each open point a
        die or a sum of dice below) is marked; if no six of them in a row along the
        opponent's path lack an opposing checker past them, no step can break the block
        rule, and the steps need not be checked for it. Worked on one byte per point
        (1: reachable), so that shifting, masking and finding a run are done in C.
        """
        dice = self.dice
        if dice[0] == dice[-1]:
            reaches = [dice[0] * (n + 1) for n in range(len(dice))]
        else:
            reaches = [dice[0], dice[1], dice[0] + dice[1]]
        held = int.from_bytes(bytes(mine).translate(_NONZERO), "little")
        reach = held
        for r in reaches:
            reach |= held >> (8 * r)
        b = (reach & tables.open_points).to_bytes(26, "little")
        path = b[12:0:-1] + b[24:12:-1]  # path order: my points 12..1, then 24..13
        return _SIX not in path[tables.first_unguarded :]

    def _order_free(self, rules: _LongRules | None) -> bool:
        """May the steps of this double be searched in one canonical order only?

        With a double, any legal sequence of steps stays legal when reordered from the
        highest source point down: my steps never close a point to myself, entering from
        the bar comes first anyway, and bearing off only gets easier once the higher
        checkers have moved. The one exception is long's six-point block rule, where an
        earlier step can make a later one legal; so in long this holds only when no block
        can be made this turn.
        """
        if len(self.dice) != 4:
            return False
        return rules is None or rules.free

    def _prepare(
        self, mine: Checkers, theirs: Checkers, head_used: int
    ) -> tuple[_Moves, _LongRules | None, int]:
        """The step function and its rules for this position, and the root node."""
        moves, rules = self._moves_fn(mine, theirs, head_used)
        return moves, rules, self._root(mine, theirs)

    def _search(
        self,
        moves: _Moves,
        rules: _LongRules | None,
        root: int,
        productive: set[int],
        parents: dict[int, _Parent],
    ) -> tuple[list[int], int, list[int]]:
        """Breadth-first over the roll: (the final plays' nodes, their depth, the first
        level's nodes in the order generated).

        Every node of a level is a distinct (position, dice left) reached by playing that
        many dice, so the deepest non-empty level holds exactly the plays that use the most
        dice. Each node remembers the first parent that reached it, which gives one
        sequence of steps per play. In canonical mode (``_order_free``) a node only moves
        checkers from at most the highest source any step into it came from.

        Each node's order packs its first path's (-source, -die) pairs into one int and
        sorts the plays. ``parents`` records that path's last step per node;
        ``productive`` collects the nodes with at least one step (two different dice only).
        """
        if self._single_die():
            canonical = self._order_free(rules)
            if canonical and rules is not None:  # long, no block possible
                return _free_double_search(rules, root, self.dice[0], 4, parents)
            return self._search_single(moves, rules, canonical, root, parents)
        return self._search_pair(moves, rules, root, productive, parents)

    def _search_pair(
        self,
        moves: _Moves,
        rules: _LongRules | None,
        root: int,
        productive: set[int],
        parents: dict[int, _Parent],
    ) -> tuple[list[int], int, list[int]]:
        """``_search`` for two different dice: at most two levels.

        First-level nodes carry which die is used above the position's bytes (bit 1: the
        larger, bit 2: the smaller), since a bear-off can reach the same position with
        either die. A second-level node has used both: its key is its position alone (no
        position repeats within a turn, so it meets no other node's key).
        """
        big, small = self.dice
        shift = self.shift
        orders: dict[int, int] = {}
        # Per die: the first level's (key, position) pairs, the position without its code.
        by_die: tuple[_FirstLevel, _FirstLevel] = ([], [])
        for nodes, bit, die in ((by_die[0], 1, big), (by_die[1], 2, small)):
            tag = bit << shift
            base = 255 - die
            for src, child in moves(root, die, 25, rules):
                key = child | tag
                orders[key] = base - src * 8
                nodes.append((key, child))
                parents[key] = (root, src, die)
        first = [key for key, _ in by_die[0]] + [key for key, _ in by_die[1]]
        if not first:
            return [], 0, first
        # The second level's positions (their own keys) and their orders.
        level = _second_level(
            moves, rules, ((by_die[0], small), (by_die[1], big)), orders, productive, parents
        )
        if level:
            return sorted(level, key=level.__getitem__), 2, first
        # Only one die can be played: the larger one if it can. One die's nodes are in
        # order already (highest source first), and the first of a position is kept.
        distinct: dict[int, int] = {}
        for key, pos in by_die[0] or by_die[1]:
            distinct.setdefault(pos, key)
        return list(distinct.values()), 1, first

    def _pair_positions(self, moves: _Moves, rules: _LongRules | None, root: int) -> list[int]:
        """The final positions of ``_search_pair`` (same plays, same order), for callers
        that want no steps: each level-two position is its own key (no dice code, no
        parents), which spares the big-integer work of tagging and untagging every node."""
        big, small = self.dice
        first_big = moves(root, big, 25, rules)
        first_small = moves(root, small, 25, rules)
        orders: dict[int, int] = {}
        for first, die, other in ((first_big, big, small), (first_small, small, big)):
            for src, child in first:
                order = (255 - (src * 8 + die)) * 256 + 255 - other
                for src2, pos in moves(child, other, 25, rules):
                    if pos not in orders:
                        orders[pos] = order - src2 * 8
        if not orders:
            # Only one die can be played: the larger one if it can.
            for src, pos in first_big or first_small:
                orders.setdefault(pos, 255 - (src * 8 + (big if first_big else small)))
        return sorted(orders, key=orders.__getitem__)

    def _search_single(
        self,
        moves: _Moves,
        rules: _LongRules | None,
        canonical: bool,
        root: int,
        parents: dict[int, _Parent] | None,
    ) -> tuple[list[int], int, list[int]]:
        """``_search`` for a double (one die value): the depth alone says what is left.

        No sort is needed: a step function lists its steps from the highest source down,
        so each level comes out already in the plays' order (a node sorts by its first
        path's sources, highest first, and the level before it was in that order).
        """
        die = self.dice[0]
        n = len(self.dice)
        if parents is None:
            return self._positions_single(moves, rules, canonical, root, die, n)
        seen: set[int] = {root}
        add = seen.add
        limits: dict[int, int] = {root: 25}
        level = [root]
        first: list[int] = []
        depth = 0
        while depth < n:
            nxt: list[int] = []
            append = nxt.append
            # The last level is never expanded: its nodes need no limit.
            track = canonical and depth < n - 1
            for key in level:
                for src, child in moves(key, die, limits[key] if canonical else 25, rules):
                    if child not in seen:
                        add(child)
                        append(child)
                        parents[child] = (key, src, die)
                        if track:
                            limits[child] = src
                    elif track and src > limits[child]:
                        limits[child] = src
            if not nxt:
                break
            level = nxt
            depth += 1
            if depth == 1:
                first = nxt
        if depth == 0:
            return [], 0, first
        # Same position, same key here (no dice code): the level is already distinct.
        return level, depth, first

    @staticmethod
    def _positions_single(
        moves: _Moves, rules: _LongRules | None, canonical: bool, root: int, die: int, n: int
    ) -> tuple[list[int], int, list[int]]:
        """``_search_single`` without parents: the final positions only (and the depth)."""
        if canonical:
            return _canonical_positions(moves, rules, root, die, n)
        seen: set[int] = {root}
        add = seen.add
        level = [root]
        depth = 0
        while depth < n:
            nxt: list[int] = []
            append = nxt.append
            for key in level:
                for _, child in moves(key, die, 25, rules):
                    if child not in seen:
                        add(child)
                        append(child)
            if not nxt:
                break
            level = nxt
            depth += 1
        return (level, depth, []) if depth else ([], 0, [])

    # ------------------------------------------------------------------ public
    def plays(self, mine: Checkers, theirs: Checkers, head_used: int = 0) -> list[Play]:
        """All distinct legal plays (by resulting position), maximum-usage rules applied.

        An empty list means no checker can move: the turn passes.
        """
        parents: dict[int, _Parent] = {}
        finals, _, _ = self._search(*self._prepare(mine, theirs, head_used), set(), parents)
        found = _Found(self.hits, parents, theirs)
        return Play._lazy_list(found, finals)

    def packed_results(self, mine: Checkers, theirs: Checkers, head_used: int = 0) -> list[bytes]:
        """The checkers after each legal play, in the order of ``plays``, as 52-byte
        strings, one count a byte: the mover's 26 then the opponent's 26
        (``bytes(mover) + bytes(opponent)``). No steps are built, which is most of the cost
        of a play.

        The computer's look-ahead turns thousands of these into numpy arrays per move;
        ``numpy.frombuffer`` reads bytes far faster than Python tuples are built and read,
        and one string a position is also what the search hashes to skip repeats.
        """
        moves, rules, root = self._prepare(mine, theirs, head_used)
        dice = self.dice
        if rules is not None and rules.free:
            if len(dice) == 2:
                finals = _free_pair_positions(rules, root, *dice)
            elif len(dice) == 4:
                finals = _free_double_positions(rules, root, dice[0], 4)
            else:
                finals = self._positions_single(moves, rules, False, root, dice[0], len(dice))[0]
        elif dice[0] == dice[-1]:
            canonical = self._order_free(rules)
            finals = self._positions_single(moves, rules, canonical, root, dice[0], len(dice))[0]
        else:
            finals = self._pair_positions(moves, rules, root)
        # These final keys are bare positions (no dice code above them): classic's pack
        # both sides already, long's only the mover (the opponent does not move).
        if not self.hits:
            them = pack(theirs) << (8 * SIDE_BYTES)
            finals = [k | them for k in finals]
        return [k.to_bytes(2 * SIDE_BYTES, "little") for k in finals]


class _Found:
    """One search's nodes, from which lazy plays build their steps and checkers."""

    __slots__ = ("classic", "parents", "theirs")

    def __init__(self, hits: bool, parents: dict[int, _Parent], theirs: Checkers) -> None:
        self.classic = hits  # keys pack both sides, and steps may hit
        self.parents = parents
        self.theirs = theirs

    def checkers(self, key: int) -> tuple[Checkers, Checkers]:
        if self.classic:
            b = (key & _POS_MASK).to_bytes(52, "little")
            return tuple(b[:26]), tuple(b[26:])
        return unpack(key & _MINE_MASK), self.theirs

    def steps(self, key: int) -> tuple[Step, ...]:
        """The steps of the first path that reached ``key``, in order."""
        parents, classic = self.parents, self.classic
        steps: list[Step] = []
        while key in parents:
            parent, src, die = parents[key]
            hit = classic and src > die and (parent >> (8 * (51 - src + die))) & 255 == 1
            steps.append(_STEPS[src][die][hit])
            key = parent
        steps.reverse()
        return tuple(steps)


class Turn:
    """One roll's legal plays, and the legal next steps from any node of that roll.

    A step is legal when it belongs to some legal play: some sequence through it ends in
    one of the plays' positions. Answered by a depth-first search with early exit over the
    same packed positions as the plays, memoised for the whole turn, so a player building
    a play step by step (and the bot's one-tap buttons, which walk these trees) never
    repeats the search.
    """

    __slots__ = (
        "_depth",
        "_dice",
        "_finals",
        "_first",
        "_gen",
        "_goal_set",
        "_good",
        "_moves",
        "_parents",
        "_productive",
        "_root",
        "_rules",
        "_shift",
        "_start",
        "_steps",
        "plays",
    )

    def __init__(self, gen: TurnGenerator, mine: Checkers, theirs: Checkers) -> None:
        productive: set[int] = set()
        parents: dict[int, _Parent] = {}
        moves, rules, root = gen._prepare(mine, theirs, 0)
        finals, depth, first = gen._search(moves, rules, root, productive, parents)
        self._gen = gen
        found = _Found(gen.hits, parents, theirs)
        self.plays: list[Play] = Play._lazy_list(found, finals)
        self._shift = gen.shift
        self._finals = finals
        self._goal_set: set[int] | None = None  # made on first need
        self._moves, self._rules = moves, rules
        self._dice = gen.dice
        self._good: dict[int, bool] | None = None  # made on first need
        self._steps: dict[int, list[Step]] = {}
        self._start = (mine, theirs)
        self._root = root
        self._first = first  # the start's children, in the order _children makes them
        self._parents = parents
        self._productive = productive
        self._depth = depth

    @property
    def _goal(self) -> set[int]:
        """The positions of the legal plays (the bot's first question, the plays and the
        first steps, does not need them, so they are gathered on first need)."""
        goal = self._goal_set
        if goal is None:
            mask = (1 << self._shift) - 1
            goal = self._goal_set = {k & mask for k in self._finals}
        return goal

    def _memo(self) -> dict[int, bool]:
        """The memo of ``_reaches``, seeded with what the search already proved."""
        good = self._good
        if good is None:
            good = self._good = {}
            parents = self._parents
            for play in self.plays:
                # Every node on the path that found a play leads to that play.
                key = play._key
                while key not in good:
                    good[key] = True
                    if key not in parents:
                        break
                    key = parents[key][0]
        return good

    def _root_steps(self) -> list[Step]:
        """The legal first steps, from the search's own first level.

        With two different dice the search already knows which first steps lead on: with
        both dice playable every node after two steps is a play, so a first step is good
        when its node has any step; else only the plays' own nodes are good.
        """
        parents, first, shift = self._parents, self._first, self._shift
        dice = self._dice
        if dice[0] != dice[-1]:
            if self._depth == 2:
                good = [k for k in first if k in self._productive]
            else:
                mask, goal = (1 << shift) - 1, self._goal
                good = [k for k in first if k & mask in goal]
        else:
            rest = (1 << (len(dice) - 1)) - 1
            reaches = self._reaches
            good = [k for k in first if reaches(k, rest)]
        steps = _STEPS
        if not self._gen.hits:
            out = []
            for key in good:
                _, src, die = parents[key]
                out.append(steps[src][die][False])
            return out
        # A step hits when its landing point held one opposing checker at the start.
        theirs = self._start[1]
        out = []
        for key in good:
            _, src, die = parents[key]
            out.append(steps[src][die][src > die and theirs[25 - src + die] == 1])
        return out

    def _children(self, key: int, left: int) -> list[tuple[int, int, int, int]]:
        """(source, die, child key, dice left after) of every single step from a node.

        ``left`` is a bit set of the unused dice (by index into the sorted dice); for a
        double only how many are left matters, so the key carries no dice code then.
        """
        shift, dice = self._shift, self._dice
        single = dice[0] == dice[-1]
        pos = key & ((1 << shift) - 1)
        out: list[tuple[int, int, int, int]] = []
        last = 0
        for i, die in enumerate(dice):
            if not left & (1 << i) or die == last:
                continue
            last = die
            rest = left & ~(1 << i) if not single else left >> 1
            tag = 0 if single else ((1 << len(dice)) - 1 & ~rest) << shift
            for src, child in self._moves(pos, die, 25, self._rules):
                out.append((src, die, child | tag, rest))
        return out

    def _reaches(self, key: int, left: int) -> bool:
        """Can some sequence of steps from this node end in a legal play's position?"""
        memo = self._memo()
        good = memo.get(key)
        if good is None:
            kids = self._children(key, left) if left else []
            if kids:
                good = any(self._reaches(k, rest) for _, _, k, rest in kids)
            else:
                good = key & ((1 << self._shift) - 1) in self._goal
            memo[key] = good
        return good

    @property
    def dice(self) -> tuple[int, ...]:
        """The dice of the turn, largest first (four of a double)."""
        return self._dice

    def is_play(self, mine: Checkers, theirs: Checkers) -> bool:
        """Is this position the result of one of the legal plays?"""
        return self._gen._root(mine, theirs) in self._goal

    def legal_steps(
        self, mine: Checkers, theirs: Checkers, dice_left: tuple[int, ...]
    ) -> list[Step]:
        """The next steps, from this node, that belong to some legal play."""
        dice = self._dice
        if mine is self._start[0] and theirs is self._start[1] and len(dice_left) == len(dice):
            key = self._root  # the turn's start (the usual question)
            left = 0
        elif dice[0] == dice[-1]:
            left = (1 << len(dice_left)) - 1
            key = self._gen._root(mine, theirs)
        else:
            left = sum(1 << i for i, d in enumerate(dice) if d in dice_left)
            tag = ((1 << len(dice)) - 1 & ~left) << self._shift
            key = self._gen._root(mine, theirs) | tag
        steps = self._steps.get(key)
        if steps is None:
            if key == self._root:
                steps = self._root_steps()
            else:
                classic = self._gen.hits
                steps = []
                for src, die, child, rest in self._children(key, left):
                    if self._reaches(child, rest):
                        dst = src - die if src > die else 0
                        hit = classic and dst > 0 and (key >> (8 * (51 - dst))) & 255 == 1
                        steps.append(_step(src, dst, die, hit))
            self._steps[key] = steps
        return list(steps)


@lru_cache(maxsize=256)
def generator_for(variant: Variant, dice: tuple[int, ...], head_limit: int) -> TurnGenerator:
    """The TurnGenerator of a roll, shared: it holds no position, and the computer's
    look-ahead asks for the same few hundred (variant, dice, head allowance) again and again."""
    return TurnGenerator(variant, dice, head_limit)


@lru_cache(maxsize=64)
def turn(
    variant: Variant,
    roll: tuple[int, int],
    first_turn: bool,
    after_white_five_five: bool,
    mine: Checkers,
    theirs: Checkers,
) -> Turn:
    """The Turn of a (position, roll), cached: the bot asks again on every click. Keyed by
    what the state holds (the roll and the facts of long's first-turn rules), so that a
    repeated question costs one lookup; the rules object says what they allow on a miss."""
    dice, head_limit = variant.rules.turn_dice(*roll, first_turn, after_white_five_five)
    return Turn(generator_for(variant, dice, head_limit), mine, theirs)


def clear_caches() -> None:
    """Forget every cached Turn (benchmarks use it to time cold searches)."""
    turn.cache_clear()
