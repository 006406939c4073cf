"""Full rollouts of a hint's candidate plays: does playing the games out fix the network's
blind spots?

Why: a few hint positions are lost by the network itself, not by the search (fed GNU
Backgammon's chances, the hint's valuation orders the plays as it does; a deeper or a
truncated search keeps the wrong order). The network likes loose blitzing hits and
underrates the gammons of a checker left behind a strong board. A rollout to the end of
the game counts the real gammons and backgammons; this measures whether that is enough
to put GNU Backgammon's best play first, and what a game rolled out costs.

How: each candidate play of a position is played out ``--games`` times to the end, both
sides choosing their play at 0-ply (the network's cubeless equity; the bear-off database
where both sides are home). Game ``g`` rolls the same dice at every turn for every
candidate (common random numbers), so the differences between candidates are much less
noisy than their values. All the games of all the candidates advance in lockstep: one
network call per turn for every position they reach. The mean outcome of each candidate
(win, gammon, backgammon, lose gammon, lose backgammon, for the mover) is then valued at
the match score and the cube exactly as a hint values a network's chances
(``hints.play_mwc``), and shown as the hint shows it (normalised equity, "EMG"), next to
the hint's own 2-ply value and GNU Backgammon's (cached in ``benchmarks/data``). The
standard error is that of the paired difference from the first candidate, dead cube.

The CPU per game is user+sys time of this process over the games rolled out.

Measured (1296 games a candidate, then other seeds): in the regression position the
rollout puts 13/2 first, 0.337 +- 0.071 above 23/17 13/8 (GNU Backgammon: 0.340), its
chances close to GNU Backgammon's 2-ply ones (23/17 13/8: 0.361 to win, 0.323 to lose a
gammon; the network's 2-ply says 0.41 to win); with 216 games a candidate 13/2 was first
for 8 seeds of 8. In the second position the rollout's chances are GNU Backgammon's too
(8/4 5/2*: 0.808 win, 0.218 gammon against its 0.806, 0.188), yet 8/5 8/4 comes out only
0.009 +- 0.023 ahead where GNU Backgammon says 0.183: there the gap is in the valuation at
the score (fed GNU Backgammon's own chances, the hint's cube model gives 8/4 5/2* 0.982,
GNU Backgammon 0.819), which no rollout of cubeless chances can close. Valuing the cube
after the opponent's reply instead (``cube_at_the_leaves``, 1-ply) gives 8/5 8/4 1.030
and 8/4 5/2* 0.840 (GNU Backgammon 1.002 and 0.819) but leaves the regression position's
order wrong; at 1-ply over the 319 checker positions of ``benchmarks.hints`` (choosing
among GNU Backgammon's listed plays) it moved the top agreement from 77.7 % to 79.0 % and
the mean loss from 0.0059 to 0.0055, 3 losses above 0.1 either way. At 2-ply the hint now
decides the cube where each side is on roll (``engine.ai.cube_tree``, as GNU Backgammon's
n-ply cubeful evaluation; ``--tree``: the three valuations of one two-ply tree, each
choosing among GNU Backgammon's five best plays of the 319 positions): valued once from
the averaged chances, top 84.0 %, mean loss 0.0036, one loss above 0.1 (0.183), error of
the values behind the first 0.0333; the cube's life where the mover is on roll after each
reply, 85.6 %, 0.0027, none, 0.0301 (0.03 s of CPU a position); at every node with the
cube's life at the leaves, 85.9 %, 0.0028, none, 0.0299 (0.39 s). A game rolled out
costs 11 ms of CPU in the middle game and 4 ms near the bear-off in batches of thousands,
17 ms in batches of 432 (2 candidates of 216 games: 7 s for a hint).

Run from the repository root, for example::

    python -m benchmarks.rollout --games 216
    python -m benchmarks.rollout --sample 320      # cube_at_the_leaves, 1-ply
    python -m benchmarks.rollout --tree 320        # the hint's 2-ply valuations
    python -m benchmarks.rollout --games 1296 --position bHfAgDDczOABGA:MIF6AAAAAAAE \\
        --plays 13/2 "23/17 13/8"
"""

from __future__ import annotations

import argparse
import json
import math
import resource
from dataclasses import replace
from pathlib import Path

import numpy as np

from engine import GameState, MatchConfig, Phase, Play, Side, Variant, format_play
from engine.ai import cube
from engine.ai.arrays import Probs
from engine.ai.cube_tree import cube_at_every_node
from engine.ai.hints import _roller_mwc, _view, at_the_score, normalised, play_mwc
from engine.ai.levels import reply_rules, valued_cube
from engine.ai.outcomes import flip
from engine.ai.search import ReplyRules, grow, look_ahead, two_ply
from engine.gnubg import decode_match, decode_position
from training import rollouts

CACHE = Path(__file__).parent / "data" / "hints_gnubg.json"
VARIANT = Variant.CLASSIC
#: Position ID, Match ID and roll (None: the Match ID's) of the hint positions studied:
#: the regression position (the network prefers 23/17 13/8 to 13/2) and the largest loss
#: of ``benchmarks.hints`` (a loose blitzing hit, 8/4 5/2*, preferred to 8/5 8/4).
POSITIONS: tuple[tuple[str, str, tuple[int, int] | None], ...] = (
    ("bHfAgDDczOABGA", "MIF6AAAAAAAE", None),
    ("2HuOABCzezMAAA", "MAGuABAAGAAE", None),
)
#: GNU Backgammon 1.07's 2-ply cubeful MWC of the regression position's plays (the
#: published figures of its ``hint`` command, also in ``tests/ai/test_hints.py``).
REGRESSION_GNUBG_MWC = {"13/2": 0.4352, "13/8 13/7": 0.4176, "23/17 13/8": 0.4013}


def state_of(position_id: str, match_id: str, dice: tuple[int, int] | None) -> GameState:
    """The position of gnubg IDs, White (gnubg's player on roll) rolling its dice."""
    info = decode_match(match_id)
    if info.match_length == 0:
        raise ValueError("the study values plays at a match score: give a match position")
    theirs, mine = decode_position(position_id)
    on_roll = info.on_roll
    config = MatchConfig(VARIANT, length=info.match_length, cube=True)
    state = GameState(config, (mine, theirs), Phase.ROLL, Side.WHITE)
    white = state.player_of(Side.WHITE)
    score = [0, 0]
    score[white] = info.score[on_roll]
    score[1 - white] = info.score[1 - on_roll]
    owner = None
    if info.cube_owner is not None:
        owner = Side.WHITE if info.cube_owner == on_roll else Side.BLACK
    state = replace(
        state,
        has_moved=(True, True),
        score=(score[0], score[1]),
        cube_value=info.cube_value,
        cube_owner=owner,
        crawford=info.crawford,
        crawford_done=info.crawford,
    )
    return state.roll(*(dice or info.dice))


def roll_out(plays: list[Play], games: int, seed: int) -> np.ndarray:
    """(candidates, games, K) outcome vectors for the mover after each play, every game
    played to the end at 0-ply by both sides, game ``g`` with the same dice for all
    (``training.rollouts``, common dice)."""
    starts = [(bytes(p.theirs), bytes(p.mine)) for p in plays]  # the opponent rolls
    return flip(VARIANT, rollouts.roll_out(VARIANT, starts, games, seed, common=True))


def aways(state: GameState) -> tuple[int, int]:
    """(points the mover needs, points its opponent needs) in the match."""
    me = state.player_of(state.turn)
    length = state.config.length
    return length - state.score[me], length - state.score[1 - me]


def cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def dead_mwc(state: GameState, outcomes: Probs) -> np.ndarray:
    """Each game's MWC for the mover, its result at the cube (dead cube)."""
    a, b = aways(state)
    c = valued_cube(state)
    return np.array(
        [cube.View.of(VARIANT, o, a, b, state.crawford_done, 0.0).dead(c) for o in outcomes]
    )


def gnubg_values(key: str) -> dict[str, float]:
    """GNU Backgammon's 2-ply normalised equities of the position's plays, if cached."""
    if not CACHE.exists():
        return {}
    answers: dict[str, list[dict[str, float | str]]] = {}
    for section in json.loads(CACHE.read_text()).values():  # one per gnubg settings
        answers.update(section)
    return {str(e["move"]): float(e["eq"]) for e in answers.get(key, [])}


def study(state: GameState, key: str, names: list[str] | None, games: int, seed: int) -> None:
    legal = {format_play(p): p for p in state.legal_plays()}
    reference = gnubg_values(key)
    if key.startswith(POSITIONS[0][0]):
        mwc = REGRESSION_GNUBG_MWC
        reference = {n: normalised(state, state.turn, v) for n, v in mwc.items()}
    if names is None:  # GNU Backgammon's five best
        names = [n for n in reference if n in legal][:5]
    plays = [legal[n] for n in names]
    mover = state.turn
    two = two_ply(VARIANT, plays, ReplyRules(VARIANT), ReplyRules(VARIANT))
    assert two is not None
    at_two = at_the_score(state, plays, two)
    leaves = cube_at_the_leaves(state, plays)
    start = cpu()
    outcomes = roll_out(plays, games, seed)
    spent = cpu() - start
    dead = [dead_mwc(state, o) for o in outcomes]
    print(f"\n{key}  roll {state.dice}  {games} games a candidate")
    print(
        f"{'play':<20}{'win':>7}{'gam':>7}{'lgam':>7}{'roll EMG':>10}{'±diff':>8}"
        f"{'2ply EMG':>10}{'leafcube':>10}{'gnubg':>8}"
    )
    for i, (name, play) in enumerate(zip(names, plays, strict=True)):
        mean = outcomes[i].mean(axis=0)
        emg = normalised(state, mover, play_mwc(state, play, mean))
        diff = dead[i] - dead[0]
        se = float(np.std(diff, ddof=1) / math.sqrt(games)) if i else 0.0
        se_emg = se * 2.0 / _emg_span(state)
        ref = reference.get(name, float("nan"))
        print(
            f"{name:<20}{mean[0]:7.3f}{mean[1]:7.3f}{mean[3]:7.3f}{emg:10.3f}"
            f"{se_emg:8.3f}{at_two[i]:10.3f}{leaves[i]:10.3f}{ref:8.3f}"
        )
    n = games * len(plays)
    print(f"CPU {spent:.1f} s for {n} games: {1000 * spent / n:.1f} ms a game")


def cube_at_the_leaves(state: GameState, plays: list[Play]) -> np.ndarray:
    """Each play's value (normalised equity) one ply deep with the cube valued after the
    opponent's reply rather than before it: for each of their rolls, the mover's cubeful
    MWC on roll (cashing or doubling where right, ``hints._roller_mwc``) from the 0-ply
    chances after the reply they choose; games over are valued as they ended. The
    opponent's own double before their roll is not looked at.

    Why: the hint values the cube once, from chances averaged over the opponent's rolls,
    which credits a volatile play (a loose hit: a cash after most rolls, a lost game after
    the return hits) with the cube leverage of its average."""
    ahead = look_ahead(VARIANT, plays, reply_rules(state))
    layer, mover = ahead.layer, state.turn
    _, values = layer.choose()
    mwc = np.zeros(len(plays))
    weight = np.zeros(len(plays))
    for (i, w, _, _), row, chances in zip(layer.groups, ahead.chosen, values, strict=True):
        them, me = layer.waiting_to_roll(row)
        mwc[i] += w * _roller_mwc(
            state, mover, _view(state, mover, chances, tuple(me), tuple(them))
        )
        weight[i] += w
    for i, play in enumerate(plays):
        ended = 1.0 - weight[i]
        if ended > 1e-9:
            view = _view(state, mover, layer.out[i] / ended, play.mine, play.theirs)
            mwc[i] += ended * view.dead(valued_cube(state))
    return np.array([normalised(state, mover, v) for v in mwc])


def leaves_against_gnubg(n: int) -> None:
    """At 1-ply, the hint's valuation and ``cube_at_the_leaves`` over the checker positions
    of ``benchmarks.hints`` (its sample and GNU Backgammon's cached answers), each choosing
    among the plays GNU Backgammon lists: how often the choice is its best, and the loss."""
    from benchmarks.hints import key_of, references, sample

    plays, _ = sample(n, 0, 1)
    refs = references([s for _, s in plays])
    losses: dict[str, list[float]] = {"hint's valuation": [], "cube at the leaves": []}
    for _, state in plays:
        legal = {format_play(p): p for p in state.legal_plays()}
        listed = [(str(r["move"]), float(r["eq"])) for r in refs.get(key_of(state), [])]
        listed = [(m, eq) for m, eq in listed if m in legal]
        if len(listed) < 2:
            continue
        candidates = [legal[m] for m, _ in listed]
        ahead = look_ahead(VARIANT, candidates, reply_rules(state))
        now = at_the_score(state, candidates, ahead.probs)
        for name, values in zip(losses, (now, cube_at_the_leaves(state, candidates)), strict=True):
            losses[name].append(listed[0][1] - listed[int(np.argmax(values))][1])
    for name, found in losses.items():
        lost = np.array(found)
        print(
            f"{name:<20} {len(lost)} positions: top {np.mean(lost < 1e-9):.1%}, mean loss "
            f"{lost.mean():.4f}, above 0.1: {int((lost > 0.1).sum())}, largest {lost.max():.3f}"
        )


def tree_against_gnubg(n: int, most: int = 5) -> None:
    """At 2-ply, the hint's three valuations of one two-ply tree (``hints.CUBE_NODES``: 0,
    the cube valued once from the averaged chances; 1, where the mover is on roll after
    each reply; 2, at every node, the cube's life at the leaves) over the checker positions
    of ``benchmarks.hints``, each choosing among GNU Backgammon's ``most`` best plays: how
    often the choice is its best, the loss, and how far each play's value behind the first
    is from GNU Backgammon's (mean absolute error): the valuation alone, the search's
    filtering left aside."""
    from benchmarks.hints import key_of, references, sample

    plays, _ = sample(n, 0, 1)
    refs = references([s for _, s in plays])
    names = ("once (0)", "mover on roll (1)", "every node (2)")
    losses: dict[str, list[float]] = {name: [] for name in names}
    errors: dict[str, list[float]] = {name: [] for name in names}
    spent = dict.fromkeys(names, 0.0)
    for _, state in plays:
        legal = {format_play(p): p for p in state.legal_plays()}
        listed = [(str(r["move"]), float(r["eq"])) for r in refs.get(key_of(state), [])]
        listed = [(m, eq) for m, eq in listed if m in legal][:most]
        if len(listed) < 2:
            continue
        candidates = [legal[m] for m, _ in listed]
        ahead = look_ahead(VARIANT, candidates, reply_rules(state))
        tree = grow(VARIANT, ahead, list(range(len(candidates))), ReplyRules(VARIANT))
        assert tree is not None  # no limit
        mover = state.turn
        gnubg = np.array([eq for _, eq in listed])
        for depth, name in enumerate(names):
            start = cpu()
            if depth == 0:
                values = at_the_score(state, candidates, tree.probs())
            else:
                mwc = cube_at_every_node(state, tree, depth)
                values = np.array([normalised(state, mover, v) for v in mwc])
            spent[name] += cpu() - start
            losses[name].append(gnubg[0] - gnubg[int(np.argmax(values))])
            errors[name].extend(np.abs((values - values[0]) - (gnubg - gnubg[0]))[1:])
    for name in names:
        lost = np.array(losses[name])
        print(
            f"{name:<18} {len(lost)} positions: top {np.mean(lost < 1e-9):.1%}, mean loss "
            f"{lost.mean():.4f}, above 0.1: {int((lost > 0.1).sum())}, largest "
            f"{lost.max():.3f}; error of the values behind the first "
            f"{np.mean(errors[name]):.4f}; CPU {spent[name] / len(lost):.3f} s a position"
        )


def _emg_span(state: GameState) -> float:
    """MWC between winning and losing a single game at the cube: the EMG's unit (x2)."""
    a, b = aways(state)
    c, done = valued_cube(state), state.crawford_done
    return cube.met(a - c, b, done) - cube.met(a, b - c, done)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=216, help="games per candidate")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--position", help="POSITION:MATCH[:DICE], e.g. bHfAgDDczOABGA:MIF6AAAAAAAE:65"
    )
    parser.add_argument("--plays", nargs="*", help="plays to roll out (default gnubg's 5 best)")
    parser.add_argument(
        "--tree",
        type=int,
        help="instead: the hint's 2-ply valuations on this many positions of benchmarks.hints",
    )
    parser.add_argument(
        "--sample",
        type=int,
        help="instead: cube_at_the_leaves on this many positions of benchmarks.hints",
    )
    args = parser.parse_args()
    if args.sample:
        leaves_against_gnubg(args.sample)
        return
    if args.tree:
        tree_against_gnubg(args.tree)
        return
    chosen = POSITIONS
    if args.position:
        pos, match, *roll = args.position.split(":")
        dice = (int(roll[0][0]), int(roll[0][1])) if roll else None
        chosen = ((pos, match, dice),)
    for pos, match, roll in chosen:
        state = state_of(pos, match, roll)
        key = f"{pos}:{match}"
        names = args.plays
        if names is None and pos == POSITIONS[0][0]:
            names = list(REGRESSION_GNUBG_MWC)
        study(state, key, names, args.games, args.seed)


if __name__ == "__main__":
    main()
