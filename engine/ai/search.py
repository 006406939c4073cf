"""Scoring candidate plays: 0-ply (the network on each resulting position) and 1-ply
(the average over the opponent's 21 rolls of the position after their best reply).

All scores are outcome-probability vectors from the mover's point of view; ``equity``
turns them into cubeless points. Every position of a search layer is encoded and evaluated
in one numpy call, which is what makes the look-ahead affordable in Python.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from engine.ai.arrays import Counts, Probs
from engine.ai.model import evaluate
from engine.ai.outcomes import equity, final, flip
from engine.board import OFF, Checkers
from engine.movegen import TurnGenerator, generator_for
from engine.moves import Play
from engine.types import Variant

#: The 21 distinct rolls and their weights out of 36.
ROLLS: tuple[tuple[int, int, int], ...] = tuple(
    (a, b, 1 if a == b else 2) for a in range(1, 7) for b in range(1, a + 1)
)


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

    def replies(
        self, d1: int, d2: int, mine: Checkers, theirs: Checkers
    ) -> list[tuple[bytes, bytes]]:
        """(mover, opponent) checkers after each legal reply of ``mine`` to the roll d1-d2,
        in the order of the plays, as ``bytes(checkers)``.

        The look-ahead needs only the positions, and reads them into numpy arrays: skipping
        the steps and the tuples is what makes generating the replies cheap.
        """
        return self.generator(d1, d2).packed_results(mine, theirs)


def _array(rows: list[bytes]) -> Counts:
    """(n, 26) int64 counts from n ``bytes(checkers)`` rows (as ``np.array`` of tuples)."""
    flat = np.frombuffer(b"".join(rows), dtype=np.uint8)
    return flat.reshape(len(rows), -1).astype(np.int64)


def zero_ply(variant: Variant, plays: list[Play]) -> Probs:
    """(n, K) outcome probabilities for the mover after each play."""
    on = np.array([p.theirs for p in plays])
    off = np.array([p.mine for p in plays])
    probs = flip(variant, evaluate(variant, on, off))
    for i, p in enumerate(plays):
        if p.mine[OFF] == 15:
            probs[i] = final(variant, p.mine, p.theirs)
    return probs


def pre_roll(variant: Variant, on: Checkers, off: Checkers) -> Probs:
    """0-ply outcome probabilities for ``on``, who is about to roll."""
    probs: Probs = evaluate(variant, np.array([on]), np.array([off]))[0]
    return probs


def one_ply(variant: Variant, plays: list[Play], rules: ReplyRules) -> Probs:
    """(n, K) outcome probabilities for the mover after each play, looking one roll ahead."""
    out = np.zeros((len(plays), len(final(variant, (0,) * 26, (0,) * 26))))
    ons: list[bytes] = []
    offs: list[bytes] = []
    groups: list[tuple[int, float, int, int]] = []  # (play index, weight, start, stop)
    fixed: list[tuple[int, float, Probs]] = []
    for i, play in enumerate(plays):
        me, opp = play.mine, play.theirs
        if me[OFF] == 15:
            out[i] = final(variant, me, opp)
            continue
        me_bytes, opp_bytes = bytes(me), bytes(opp)
        for d1, d2, w in ROLLS:
            replies = rules.replies(d1, d2, opp, me)
            if not replies:
                ons.append(me_bytes)
                offs.append(opp_bytes)
                groups.append((i, w / 36.0, len(ons) - 1, len(ons)))
                continue
            finished = [them for they, them in replies if they[OFF] == 15]
            if finished:
                loser = tuple(finished[0])
                fixed.append((i, w / 36.0, flip(variant, final(variant, opp, loser))))
                continue
            start = len(ons)
            for they, them in replies:
                ons.append(them)  # me, on roll after the reply
                offs.append(they)
            groups.append((i, w / 36.0, start, len(ons)))
    if ons:
        probs = evaluate(variant, _array(ons), _array(offs))
        eq = equity(variant, probs)
        for i, weight, a, b in groups:
            j = a + int(np.argmin(eq[a:b]))  # the opponent picks what is worst for me
            out[i] += weight * probs[j]
    for i, weight, vec in fixed:
        out[i] += weight * vec
    return out


def one_ply_pre_roll(variant: Variant, on: Checkers, off: Checkers, rules: ReplyRules) -> Probs:
    """Outcome probabilities for ``on`` before rolling: the average of its best plays."""
    total = np.zeros(len(final(variant, on, off)))
    for d1, d2, w in ROLLS:
        plays = rules.generator(d1, d2).plays(on, off)
        if plays:
            probs = zero_ply(variant, plays)
            vec = probs[int(np.argmax(equity(variant, probs)))]
        else:
            vec = flip(variant, pre_roll(variant, off, on))
        total += (w / 36.0) * vec
    return total
