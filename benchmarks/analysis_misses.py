"""The checker plays GNU Backgammon marks "very bad" that the post-game analysis does not
mark a blunder: why each one is missed.

Why: the analysis is held to flagging every blunder GNU Backgammon flags. A miss is either
the search's (GNU Backgammon's best play never reached the analysis's deeper stages: the
0-ply screen or the 1-ply finalists dropped it), or the network's (the analysis values
the plays two rolls ahead and still finds the play made close to the best). This replays
the games of ``benchmarks.analysis_gnubg`` (whose cached GNU Backgammon analysis says which
plays are very bad) and, for each one the analysis does not mark a blunder, values every
play GNU Backgammon's own analysis filter keeps (the best 16 within 0.32 at 0-ply, and
the play made) at 2-ply, as the analysis values its finalists (``wide``). Classes:

- ``search``: the wide valuation marks it a blunder: the analysis's pruning is the cause;
- ``gap``: the wide valuation agrees with GNU Backgammon's best play but finds it better
  than the play made by 0.12 or less: the network's judgement of the gap;
- ``rank``: the wide valuation prefers another play to GNU Backgammon's best: the
  network's judgement of the plays.

GNU Backgammon's best play (``hint`` at 2-ply, its three best rows) is cached in
``benchmarks/data/analysis_misses_gnubg.json``; without GNU Backgammon the positions not
cached are classed without it (``?``).

On the 30 stored games (189 plays GNU Backgammon calls very bad): with a 0-ply screen of
the best 3 within 0.2 the analysis missed 27, one ``search`` (``f28ABALWszkgAA``: the
play best one roll ahead was fourth at 0-ply) and 26 the network's; with GNU
Backgammon's filter (16 within 0.32, ``engine.ai.analysis.DEEP_CANDIDATES``) it misses
26: ``gap`` 16, ``rank`` 10, ``search`` none. In the ``rank`` cases the network's 2-ply
valuation of the positions themselves differs (its winning and gammon chances, the same
at 0, 1 and 2 plies), not the analysis's search or scale.

``--rollout GAMES`` also plays the play made and GNU Backgammon's best out to the end
(``benchmarks.rollout``: 0-ply, the same dice for both) and values the mean chances as
the analysis values a play: would rolling out the close plays find the missed blunders?
Not at a usable price: with 216 games each, 11 of the 26 come out above 0.12 (16 with
another dice seed: the noise of such a rollout is several hundredths), and rolled out the
same way (``--close 0.06``) the 127 plays the analysis rates between 0.06 and 0.12 put
45 above 0.12, of which GNU Backgammon calls 6 very bad and 39 not (58: 10 and 48, with
the other seed): a rollout verdict would add far more false blunders than it finds.

Run from the repository root (about three CPU minutes for 30 games; four more with
``--rollout 216``)::

    python -m benchmarks.analysis_misses --games 30
    python -m benchmarks.analysis_misses --games 30 --rollout 216
    python -m benchmarks.analysis_misses --games 30 --rollout 216 --close 0.06
"""

from __future__ import annotations

import argparse
import json
import time
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np

from benchmarks import hints as hint_bench
from benchmarks.analysis_gnubg import references, self_play
from benchmarks.gnubg_cli import gnubg_path
from benchmarks.rollout import roll_out
from engine import GameState, Play, position_id_for
from engine.ai.analysis import (
    BLUNDER,
    _two_ply_equities,
    cubeful_play_equities,
    play_equities,
    review_decision,
    screened,
)
from engine.ai.levels import reply_rules
from engine.ai.search import ReplyRules, grow, look_ahead, zero_ply
from engine.errors import EngineError
from engine.notation import read_play

CACHE = Path(__file__).parent / "data" / "analysis_misses_gnubg.json"


def wide_values(state: GameState, made: int) -> dict[int, float]:
    """Every play the analysis's screen keeps (GNU Backgammon's filter, and the play made)
    valued at 2-ply, keyed by its index among the legal plays."""
    plays = state.legal_plays()
    top = screened(play_equities(state, zero_ply(state.variant, plays)), made)
    candidates = [plays[i] for i in top]
    ahead = look_ahead(state.variant, candidates, reply_rules(state))
    tree = grow(state.variant, ahead, list(range(len(top))), ReplyRules(state.variant))
    assert tree is not None  # no limit
    values = _two_ply_equities(state, candidates, tree)
    return {i: float(v) for i, v in zip(top, values, strict=True)}


def rollout_loss(state: GameState, best: Play, made: Play, games: int, seed: int) -> float:
    """How much worse the play made is than ``best`` once both are played out to the end
    (``games`` each, 0-ply, the same dice for both: ``benchmarks.rollout``), the mean
    chances valued as the analysis values a play's (cubeful, at the score)."""
    outcomes = roll_out([best, made], games, seed).mean(axis=1)
    values = cubeful_play_equities(state, [best, made], outcomes)
    return float(values[0] - values[1])


def ranks(state: GameState, plays: list[Play]) -> tuple[list[int], list[int]]:
    """The plays' order at 0-ply and at 1-ply (cubeful), best first."""
    eq0 = play_equities(state, zero_ply(state.variant, plays))
    ahead = look_ahead(state.variant, plays, reply_rules(state))
    eq1 = cubeful_play_equities(state, plays, ahead.probs)
    return (
        [int(i) for i in np.argsort(-eq0, kind="stable")],
        [int(i) for i in np.argsort(-eq1, kind="stable")],
    )


def gnubg_best(states: list[GameState]) -> dict[str, Any]:
    """GNU Backgammon's three best plays per position (cached; asked when installed)."""
    cache: dict[str, Any] = json.loads(CACHE.read_text()) if CACHE.exists() else {}
    missing = [s for s in states if hint_bench.key_of(s) not in cache]
    if missing and gnubg_path() is not None:
        cache.update({k: v[:3] for k, v in hint_bench.ask_gnubg(missing).items()})
        rows = ",\n".join(f"{json.dumps(k)}: {json.dumps(cache[k])}" for k in sorted(cache))
        CACHE.write_text("{\n" + rows + "\n}\n")
    return cache


def missed_plays(games: int, seed: int) -> list[tuple[str, GameState, Play, float]]:
    """(where, state, play made, gnubg's error) of every play gnubg calls very bad."""
    matches = self_play(games, seed)
    refs = references(matches, 2)
    found = []
    for match in matches:
        if match.key not in refs:
            continue
        for number, (record, gnu) in enumerate(zip(match.records, refs[match.key], strict=True), 1):
            bad = {
                (d.player, d.position): d.error
                for d in gnu.decisions
                if d.kind == "play" and d.error > BLUNDER
            }
            for decision in record.decisions():
                state = decision.state
                key = (state.player_of(state.turn), position_id_for(state))
                if key in bad and isinstance(decision.chosen, Play):
                    found.append((f"{match.kind} g{number}", state, decision.chosen, bad[key]))
    return found


def close_plays_rolled_out(games: int, seed: int, low: float, rollout: int) -> None:
    """Every play the analysis rates between ``low`` and ``BLUNDER`` below its best, rolled
    out against that best: how many the rollout puts above ``BLUNDER``, split by whether
    GNU Backgammon calls the play very bad (found) or not (false blunders)."""
    matches = self_play(games, seed)
    refs = references(matches, 2)
    counts: Counter[str] = Counter()
    for match in matches:
        if match.key not in refs:  # not analysed by GNU Backgammon (absent, not cached)
            continue
        for record, gnu in zip(match.records, refs[match.key], strict=True):
            errors = {(d.player, d.position): d.error for d in gnu.decisions if d.kind == "play"}
            for index, decision in enumerate(record.decisions()):
                state, chosen = decision.state, decision.chosen
                if not isinstance(chosen, Play):
                    continue
                review = review_decision(index, state, chosen)
                if review is None or not low <= review.loss <= BLUNDER:
                    continue
                error = errors.get((state.player_of(state.turn), position_id_for(state)))
                if error is None or not isinstance(review.best, Play):
                    continue
                over = rollout_loss(state, review.best, chosen, rollout, seed) > BLUNDER
                very_bad = error > BLUNDER
                counts[f"{'over' if over else 'under'} {BLUNDER}, gnubg very bad {very_bad}"] += 1
    print(f"plays the analysis rates {low}-{BLUNDER} below its best, rolled out ({rollout} games):")
    for key, n in sorted(counts.items()):
        print(f"  {key}: {n}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=30)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument(
        "--rollout",
        type=int,
        default=0,
        metavar="GAMES",
        help="also roll out the play made and gnubg's best, GAMES games each",
    )
    ap.add_argument(
        "--close",
        type=float,
        default=None,
        metavar="LOW",
        help="with --rollout: roll out instead every play rated LOW to 0.12 below the best",
    )
    args = ap.parse_args()
    if args.close is not None:
        close_plays_rolled_out(args.games, args.seed, args.close, args.rollout or 216)
        return
    start = time.process_time()
    found = missed_plays(args.games, args.seed)
    missed = []
    for where, state, chosen, error in found:
        review = review_decision(0, state, chosen)
        if review is not None and review.loss <= BLUNDER:
            missed.append((where, state, chosen, error, review.loss))
    best_rows = gnubg_best([m[1] for m in missed])
    classes: Counter[str] = Counter()
    rolled: list[float] = []
    for where, state, chosen, error, loss in missed:
        plays = state.legal_plays()
        keys = [p.key for p in plays]
        made = keys.index(chosen.key)
        wide = wide_values(state, made)
        top = max(wide, key=lambda i: wide[i])
        gnu: int | None = None
        for row in best_rows.get(hint_bench.key_of(state), [])[:1]:
            try:
                gnu = keys.index(read_play(state, row["move"]).key)
            except (EngineError, ValueError):
                gnu = None
        order0, order1 = ranks(state, plays)
        if wide[top] - wide[made] > BLUNDER:
            cls = "search"
        elif gnu is None:
            cls = "?"
        else:
            cls = "gap" if gnu in wide and wide[gnu] >= wide[top] - 1e-9 else "rank"
        classes[cls] += 1
        gnu_at = (
            "?"
            if gnu is None
            else f"0p#{order0.index(gnu) + 1} 1p#{order1.index(gnu) + 1} "
            f"wide {wide[top] - wide[gnu]:.3f}"
            if gnu in wide
            else f"0p#{order0.index(gnu) + 1} (not kept)"
        )
        rolled_at = ""
        if args.rollout and gnu is not None:
            rolled.append(rollout_loss(state, plays[gnu], chosen, args.rollout, args.seed))
            rolled_at = f"; rollout {rolled[-1]:.3f}"
        print(
            f"[{cls:6}] {where:12} {position_id_for(state)} {state.dice} {len(plays):3d} plays: "
            f"gnubg {error:.3f}, analysis {loss:.3f}, wide {wide[top] - wide[made]:.3f}; "
            f"made 0p#{order0.index(made) + 1} 1p#{order1.index(made) + 1}; "
            f"gnubg's best {gnu_at}; cube {state.cube_value}{rolled_at}",
            flush=True,
        )
    print(
        f"very bad plays {len(found)}, not marked blunders {len(missed)}: "
        + ", ".join(f"{k} {v}" for k, v in sorted(classes.items()))
        + f"; CPU {time.process_time() - start:.0f} s"
    )
    if rolled:
        over = sum(v > BLUNDER for v in rolled)
        print(f"rolled out ({args.rollout} games each): {over} of {len(rolled)} over {BLUNDER}")


if __name__ == "__main__":
    main()
