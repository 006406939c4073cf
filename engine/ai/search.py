"""Scoring candidate plays: 0-ply (the evaluation of each resulting position), 1-ply (the
average over the opponent's 21 rolls of the position after their best reply) and 2-ply
(the same, each position after the reply valued by my 21 rolls and my best play, or by
a reduced set of rolls standing for them, ``RollSet``).

The evaluation is the network, except where both sides are home: there the bear-off
database gives the exact outcome probabilities (``evaluate_positions``).

All scores are outcome-probability vectors from the mover's point of view; ``equity``
turns them into cubeless points. Every position of a search layer is encoded and evaluated
in one numpy call, which is what makes the look-ahead affordable in Python.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from engine.ai import bearoff
from engine.ai.arrays import Counts, Probs, counts_to_roll, sides_of
from engine.ai.model import evaluate, network
from engine.ai.outcomes import equity, final, flip
from engine.board import OFF, Checkers
from engine.movegen import TurnGenerator, generator_for
from engine.moves import Play
from engine.types import Variant

#: The 21 distinct rolls and their weights out of 36.
ROLLS: tuple[tuple[int, int, int], ...] = tuple(
    (a, b, 1 if a == b else 2) for a in range(1, 7) for b in range(1, a + 1)
)

#: (die, die, weight out of 36) triples: all 21 rolls, or a reduced set standing for them
#: in the last layer of the two-ply look-ahead (fitted by ``training.rollfit``, shipped
#: with each variant's search settings, ``engine.ai.tuning``).
RollSet = tuple[tuple[int, int, float], ...]


@dataclass(frozen=True, slots=True)
class ReplyRules:
    """What the opponent's next turn allows (long's first-turn head exceptions, answered by
    the variant's rules object)."""

    variant: Variant
    first_turn: bool = False  # the opponent has not moved yet this game
    after_five_five: bool = False  # long: the mover is White and just rolled 5-5

    def generator(self, d1: int, d2: int) -> TurnGenerator:
        rules = self.variant.rules
        dice, head = rules.turn_dice(d1, d2, self.first_turn, self.after_five_five)
        return generator_for(self.variant, dice, head)

    def replies(self, d1: int, d2: int, mine: Checkers, theirs: Checkers) -> list[bytes]:
        """The checkers after each legal reply of ``mine`` to the roll d1-d2, in the order
        of the plays, as ``bytes(mover) + bytes(opponent)`` (``packed_results``).

        The look-ahead needs only the positions, and reads them into numpy arrays: skipping
        the steps and the tuples is what makes generating the replies cheap.
        """
        return self.generator(d1, d2).packed_results(mine, theirs)


def warm_up() -> None:
    """Load the networks and the bear-off database now rather than in a first decision
    (a worker process calls this when it starts)."""
    for variant in Variant:
        network(variant)
    bearoff.tables()


def evaluate_positions(variant: Variant, on: Counts, off: Counts) -> Probs:
    """Outcome probabilities for the side on roll: exact from the bear-off database when
    both sides are home, the network's estimate otherwise."""
    on = np.asarray(on)
    off = np.asarray(off)
    probs = evaluate(variant, on, off)
    bearoff.exact_where_home(variant, on, off, probs)
    return probs


def zero_ply(variant: Variant, plays: list[Play]) -> Probs:
    """(n, K) outcome probabilities for the mover after each play."""
    on = np.array([p.theirs for p in plays])
    off = np.array([p.mine for p in plays])
    probs = flip(variant, evaluate_positions(variant, on, off))
    for i, p in enumerate(plays):
        if p.mine[OFF] == 15:
            probs[i] = final(variant, p.mine, p.theirs)
    return probs


def pre_roll(variant: Variant, on: Checkers, off: Checkers) -> Probs:
    """0-ply outcome probabilities for ``on``, who is about to roll."""
    probs: Probs = evaluate_positions(variant, np.array([on]), np.array([off]))[0]
    return probs


@dataclass(slots=True)
class Layer:
    """One roll of look-ahead from many positions at once: for each position and each of
    the 21 rolls, the side to play picks the reply that is best for it at 0-ply.

    ``out[i]`` holds what is already known for the side *not* on roll in position i (the
    one who just played): the finished games, weighted by their rolls. Every other roll is
    a group of replies in ``rows`` (``packed_results``: the replying side's checkers, then
    the waiting side's, who is on roll after the reply); ``choose`` picks a reply per group
    and ``settle`` adds the groups' values, at 0-ply or from a deeper layer expanded from
    the chosen positions.
    """

    variant: Variant
    out: Probs
    rows: list[bytes]
    groups: list[tuple[int, float, int, int]]  # (position, weight, first reply, end)

    @classmethod
    def expand(
        cls,
        variant: Variant,
        positions: list[tuple[bytes, bytes]],
        rules: ReplyRules,
        limit: int | None = None,
        rolls: RollSet = ROLLS,
    ) -> Layer | None:
        """``positions`` are (waiting side, side to roll) pairs of ``bytes(checkers)``;
        None when the replies outnumber ``limit``. ``rolls``: all 21, or a reduced set."""
        k = variant.rules.n_outcomes
        layer = cls(variant, np.zeros((len(positions), k)), [], [])
        for i, (waiting, roller) in enumerate(positions):
            me, opp = tuple(waiting), tuple(roller)
            if me[OFF] == 15:
                layer.out[i] = final(variant, me, opp)
                continue
            for d1, d2, w in rolls:
                replies = rules.replies(d1, d2, opp, me)
                if not replies:  # the roller cannot move: the waiting side rolls next
                    layer._group(i, w / 36.0, [roller + waiting])
                    continue
                done = next((r for r in replies if r[OFF] == 15), None)
                if done is not None:
                    me_after = tuple(sides_of(done)[1])
                    layer.out[i] += (w / 36.0) * flip(variant, final(variant, opp, me_after))
                    continue
                layer._group(i, w / 36.0, replies)
                if limit is not None and len(layer.rows) > limit:
                    return None
        return layer

    def _group(self, i: int, weight: float, replies: list[bytes]) -> None:
        start = len(self.rows)
        self.rows.extend(replies)
        self.groups.append((i, weight, start, len(self.rows)))

    def waiting_to_roll(self, row: int) -> tuple[bytes, bytes]:
        """(the replying side, the waiting side) after the reply ``row``: the position a
        deeper layer expands, the waiting side to roll."""
        return sides_of(self.rows[row])

    def choose(self) -> tuple[list[int], Probs]:
        """Each group's reply (the worst for the waiting side at 0-ply): the rows chosen,
        one per group, and their 0-ply probabilities for the waiting side."""
        if not self.rows:
            return [], np.zeros((0, self.out.shape[1]))
        # A fifth of a deep layer's positions repeat (the same position reached from two
        # candidates, or by two rolls): each distinct one is encoded and evaluated once.
        index: dict[bytes, int] = {}
        rows = np.array([index.setdefault(r, len(index)) for r in self.rows])
        probs = evaluate_positions(self.variant, *counts_to_roll(list(index)))
        eq = equity(self.variant, probs)[rows]
        chosen = [a + int(np.argmin(eq[a:b])) for _, _, a, b in self.groups]
        return chosen, probs[rows[chosen]]

    def settle(self, values: Probs, groups: list[int] | None = None) -> Probs:
        """``out`` plus each group's weight times its value (rows of ``values`` in group
        order, for the waiting side); with ``groups``, only those groups have values (the
        rows of their positions are then the only ones complete)."""
        out = self.out.copy()
        chosen = self.groups if groups is None else [self.groups[g] for g in groups]
        for (i, weight, _, _), vec in zip(chosen, values, strict=True):
            out[i] += weight * vec
        return out


def _after(plays: list[Play]) -> list[tuple[bytes, bytes]]:
    """(the mover, the opponent to roll) after each play: a look-ahead's starting points."""
    return [(bytes(p.mine), bytes(p.theirs)) for p in plays]


@dataclass(slots=True)
class Lookahead:
    """A one-ply look-ahead from some plays, kept so that a deeper stage can start from the
    opponent's replies it chose instead of generating them again."""

    layer: Layer
    chosen: list[int]  # per group of ``layer``, the row of the opponent's chosen reply
    probs: Probs  # (n, K) one-ply outcome probabilities for the mover after each play


def look_ahead(variant: Variant, plays: list[Play], rules: ReplyRules) -> Lookahead:
    """The one-ply look-ahead from each play (``rules``: the opponent's next turn)."""
    layer = Layer.expand(variant, _after(plays), rules)
    assert layer is not None  # no limit
    chosen, values = layer.choose()
    return Lookahead(layer, chosen, layer.settle(values))


def one_ply(variant: Variant, plays: list[Play], rules: ReplyRules) -> Probs:
    """(n, K) outcome probabilities for the mover after each play, looking one roll ahead."""
    return look_ahead(variant, plays, rules).probs


@dataclass(slots=True)
class TwoPlyTree:
    """A two-ply look-ahead kept whole, so that a valuation can read every node (the cube
    decided where each side is on roll) rather than only the averaged chances.

    ``upper`` is the one-ply layer (the opponent's replies from each play), ``chosen`` its
    reply per group; ``groups`` are the upper groups that were deepened, in the order of
    ``lower``'s positions (me to roll after that reply); ``lower_chosen`` is my play per
    group of ``lower`` and ``leaves`` its 0-ply chances, for the opponent then on roll.
    ``keep``: the indices of the plays deepened, in the order asked.
    """

    variant: Variant
    upper: Layer
    chosen: list[int]
    groups: list[int]
    lower: Layer
    lower_chosen: list[int]
    leaves: Probs
    keep: list[int]

    def probs(self) -> Probs:
        """(len(keep), K) two-ply outcome probabilities for the mover after each play."""
        below = flip(self.variant, self.lower.settle(self.leaves))
        return self.upper.settle(below, self.groups)[self.keep]


def grow(
    variant: Variant,
    ahead: Lookahead,
    keep: list[int],
    mine: ReplyRules,
    limit: int | None = None,
    rolls: RollSet = ROLLS,
) -> TwoPlyTree | None:
    """The two-ply tree of the plays ``keep`` (indices into the look-ahead's plays).

    The opponent answers each of their rolls with the reply the look-ahead chose (their
    best at 0-ply); the position reached is then expanded over my ``rolls`` with my best
    play at 0-ply (``mine``: the rules of my next turn). None when this deeper layer would
    evaluate more than ``limit`` positions: the cost of the search is bounded by counting
    positions, so it is the same on every machine.
    """
    layer = ahead.layer
    kept = set(keep)
    groups = [g for g, (i, _, _, _) in enumerate(layer.groups) if i in kept]
    # (the opponent waiting, me to roll) after each chosen reply
    starts = [layer.waiting_to_roll(ahead.chosen[g]) for g in groups]
    deeper = Layer.expand(variant, starts, mine, limit, rolls)
    if deeper is None:
        return None
    lower_chosen, values = deeper.choose()
    return TwoPlyTree(variant, layer, ahead.chosen, groups, deeper, lower_chosen, values, keep)


def deepen(
    variant: Variant,
    ahead: Lookahead,
    keep: list[int],
    mine: ReplyRules,
    limit: int | None = None,
    rolls: RollSet = ROLLS,
) -> Probs | None:
    """Two-ply outcome probabilities for the plays ``keep`` (indices into the look-ahead's
    plays), in that order: the leaves of ``grow``'s tree averaged (None over ``limit``)."""
    tree = grow(variant, ahead, keep, mine, limit, rolls)
    return None if tree is None else tree.probs()


def two_ply(
    variant: Variant,
    plays: list[Play],
    rules: ReplyRules,
    mine: ReplyRules,
    limit: int | None = None,
    rolls: RollSet = ROLLS,
) -> Probs | None:
    """(n, K) outcome probabilities for the mover after each play, two rolls ahead
    (``deepen`` of a fresh look-ahead from all of them)."""
    ahead = look_ahead(variant, plays, rules)
    return deepen(variant, ahead, list(range(len(plays))), mine, limit, rolls)


def one_ply_pre_roll(variant: Variant, on: Checkers, off: Checkers, rules: ReplyRules) -> Probs:
    """Outcome probabilities for ``on`` before rolling: the average of its best plays."""
    total = np.zeros(variant.rules.n_outcomes)
    for d1, d2, w in ROLLS:
        plays = rules.generator(d1, d2).plays(on, off)
        if plays:
            probs = zero_ply(variant, plays)
            vec = probs[int(np.argmax(equity(variant, probs)))]
        else:
            vec = flip(variant, pre_roll(variant, off, on))
        total += (w / 36.0) * vec
    return total
