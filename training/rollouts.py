"""Full rollouts: positions valued by games played to the end from them.

Why here: the distillation's rollout teacher (``training.distill collect --teacher
rollout``) and the rollout study of the hints (``benchmarks.rollout``) play the same games;
both import this module (the bot's ``engine.ai`` never does).

Every game is played by both sides greedily at 0-ply: the play whose resulting position is
best for the mover by the evaluation in force (the shipped network, or another one within
``engine.ai.model.evaluating_with``), the bear-off database where both sides are home
(``search.evaluate_positions``). All the games of all the positions advance in lockstep,
one evaluation call per turn for every position they reach, which is what makes thousands
of games affordable in Python (about 11 ms of CPU a game in the middle game).

Two ways to roll the dice, both deterministic for the seed:

- ``common``: game ``g`` rolls the same dice at every turn from every start (common random
  numbers: the differences between candidate plays are much less noisy than their values);
  the benchmark's choice.
- independent (the default): every game of every start draws its own dice, turn by turn,
  from one generator in the order of the games; the teacher's choice, so that the noise of
  neighbouring training positions is not shared.

With ``exact`` a game also ends as soon as both sides are home, its result the database's
exact outcome probabilities instead of a sampled result: the same expectation with no
noise, and shorter games.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import numpy as np

from engine.ai import bearoff
from engine.ai.arrays import Flags, Probs, counts_of, counts_to_roll, sides_of
from engine.ai.outcomes import equity, final, flip
from engine.ai.search import ReplyRules, evaluate_positions
from engine.board import OFF
from engine.types import Variant

#: Turns rolled in advance for each game with common dice; a game still going after them
#: rolls on from a second generator.
TURNS = 256

#: A pre-roll position: (the side on roll, the side waiting) as ``bytes(checkers)``.
Start = tuple[bytes, bytes]


@dataclass(slots=True)
class _Game:
    """One game being rolled out: the side to roll and the side waiting; whether the side
    to roll is the start's waiting side (whose results are flipped)."""

    start: int
    index: int
    roller: bytes
    waiting: bytes
    flipped: bool = False
    turn: int = 0


class _Dice:
    """The dice of every game: common (game ``g`` rolls row ``g`` of a table, then a second
    generator) or independent (one draw per game still going, turn by turn)."""

    def __init__(self, games: int, seed: int, common: bool) -> None:
        self.rng = np.random.default_rng(seed)
        self.table = self.rng.integers(1, 7, size=(games, TURNS, 2)) if common else None
        self.extra = random.Random(seed)

    def turn(self, active: list[_Game]) -> list[tuple[int, int]]:
        """This turn's roll of each active game, in order (and count the turn)."""
        for game in active:
            game.turn += 1
        if self.table is None:
            rolled = self.rng.integers(1, 7, size=(len(active), 2))
            return [(int(a), int(b)) for a, b in rolled]
        return [
            (int(self.table[g.index, g.turn - 1, 0]), int(self.table[g.index, g.turn - 1, 1]))
            if g.turn <= TURNS
            else (self.extra.randint(1, 6), self.extra.randint(1, 6))
            for g in active
        ]


def _home_at_start(variant: Variant, starts: list[Start], results: Probs) -> Flags:
    """Fill in the exact results of the starts where both sides are home; return them."""
    on = counts_of([r for r, _ in starts])
    off = counts_of([w for _, w in starts])
    home: Flags = bearoff.all_home(on) & bearoff.all_home(off)
    if home.any():
        probs = bearoff.race_probs(variant, on[home], off[home])
        for s, p in zip(np.flatnonzero(home), probs, strict=True):
            results[s] = p
    return home


def roll_out(
    variant: Variant,
    starts: list[Start],
    games: int,
    seed: int,
    *,
    common: bool = False,
    exact: bool = False,
) -> Probs:
    """(len(starts), games, K) outcome vectors of every game, for the side on roll at its
    start (the ``outcomes`` layout: classic win, win gammon, win backgammon, lose gammon,
    lose backgammon)."""
    dice = _Dice(games, seed, common)
    rules = ReplyRules(variant)
    results = np.zeros((len(starts), games, variant.rules.n_outcomes))
    active = [
        _Game(s, g, roller, waiting)
        for s, (roller, waiting) in enumerate(starts)
        for g in range(games)
    ]
    if exact and starts:
        home = _home_at_start(variant, starts, results)
        active = [g for g in active if not home[g.start]]
    while active:
        rows: list[bytes] = []
        groups: list[tuple[_Game, int, int]] = []
        going: list[_Game] = []
        for game, (d1, d2) in zip(active, dice.turn(active), strict=True):
            replies = rules.replies(d1, d2, tuple(game.roller), tuple(game.waiting))
            if not replies:  # no move: the other side rolls
                game.roller, game.waiting = game.waiting, game.roller
                game.flipped = not game.flipped
                going.append(game)
                continue
            done = next((r for r in replies if r[OFF] == 15), None)
            if done is not None:  # the side on roll bears its last checker off
                winner, loser = sides_of(done)
                vec = final(variant, tuple(winner), tuple(loser))
                results[game.start, game.index] = flip(variant, vec) if game.flipped else vec
                continue
            groups.append((game, len(rows), len(rows) + len(replies)))
            rows.extend(replies)
        if rows:
            going.extend(_choose(variant, rows, groups, results, exact))
        active = going
    return results


def _choose(
    variant: Variant,
    rows: list[bytes],
    groups: list[tuple[_Game, int, int]],
    results: Probs,
    exact: bool,
) -> list[_Game]:
    """Play each group's best reply at 0-ply (one evaluation of every distinct position);
    return the games still going (with ``exact``, those not ended at the database)."""
    index: dict[bytes, int] = {}
    at = np.array([index.setdefault(r, len(index)) for r in rows])
    on, off = counts_to_roll(list(index))
    probs = evaluate_positions(variant, on, off)  # for the side to roll next
    home = (bearoff.all_home(on) & bearoff.all_home(off))[at] if exact else None
    eq = equity(variant, probs)[at]
    probs = probs[at]
    going: list[_Game] = []
    for game, a, b in groups:
        best = a + int(np.argmin(eq[a:b]))  # the reply worst for the side to roll next
        game.roller, game.waiting = sides_of(rows[best])[::-1]
        game.flipped = not game.flipped
        if home is not None and home[best]:  # the database knows the outcome
            p = probs[best]
            results[game.start, game.index] = flip(variant, p) if game.flipped else p
            continue
        going.append(game)
    return going


def rollout_values(
    variant: Variant, starts: list[Start], games: int, seed: int, *, exact: bool = True
) -> Probs:
    """(len(starts), K) mean outcome probabilities of ``games`` independent games from each
    start, for its side on roll (the same convention as the one-ply teacher's values)."""
    values: Probs = roll_out(variant, starts, games, seed, exact=exact).mean(axis=1)
    return values
