"""The three levels of the computer opponent and what they do with a state.

- Facile: scores every play with the network and picks at random among the reasonable
  ones, favouring the better: it makes the small mistakes a beginner makes (a slightly
  worse point, a looser builder) but never throws a game away. In a race it stays within
  a tiny window of the best play, so it never wastes a bear-off.
- Medio: the best play at 0-ply, except that when its two best plays are within a small
  margin a one-ply look-ahead decides between them: the cheap part of Difficile's search,
  spent where a 0-ply estimate is least sure (a few milliseconds on those moves).
- Difficile: move filtering: the best few plays at 0-ply re-scored by a one-ply look-ahead
  over the opponent's 21 rolls, and the best two of those, when close and affordable, by
  a two-ply look-ahead that starts from the replies the one-ply stage chose and, in
  classic, values its last layer with a reduced set of rolls; cube decisions from a
  one-ply estimate.

Every level values positions where both sides are home exactly, with the bear-off
database (``search.evaluate_positions``).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from enum import StrEnum

from engine.ai import cube
from engine.ai.arrays import Probs
from engine.ai.outcomes import equity, flip
from engine.ai.race import is_race
from engine.ai.search import (
    ReplyRules,
    TwoPlyTree,
    deepen,
    grow,
    look_ahead,
    one_ply_pre_roll,
    pre_roll,
    zero_ply,
)
from engine.ai.tuning import SearchTuning, tuning
from engine.game import GameState, Phase
from engine.moves import Play
from engine.types import Side


class Level(StrEnum):
    FACILE = "facile"
    MEDIO = "medio"
    DIFFICILE = "difficile"


#: Facile: plays within this much equity of the best are candidates...
FACILE_WINDOW = 0.3
#: ... weighted by exp(-loss / FACILE_TEMPERATURE).
FACILE_TEMPERATURE = 0.12
#: Facile in a race: only plays this close to the best (no wasted bear-offs)...
FACILE_RACE_WINDOW = 0.02
#: ... weighted by exp(-loss / FACILE_RACE_TEMPERATURE).
FACILE_RACE_TEMPERATURE = 0.005
#: Medio: its best two 0-ply plays get the 1-ply look-ahead when they are this close
#: (wider margins gain a little more and cost more time than Medio's budget allows).
MEDIO_CANDIDATES = 2
MEDIO_MARGIN = 0.03
#: Difficile: how many 0-ply candidates get the 1-ply look-ahead, and within what margin.
DIFFICILE_CANDIDATES = 8
DIFFICILE_MARGIN = 0.25
#: Difficile: the two best 1-ply candidates get the 2-ply look-ahead when they are close
#: (a clear 1-ply decision rarely changes two plies deeper) and the deeper layer is not
#: too big: how close, how big and the rolls of that layer are each variant's search
#: settings (``engine.ai.tuning``). Classic's last layer reads a reduced set of rolls,
#: half the cost, so it affords the look-ahead on many more moves; long's reads all 21.
TWO_PLY_CANDIDATES = 2


#: What a two-ply stage may rank its finalists by instead of the search's valuer of their
#: averaged chances: (state, the finalists, their two-ply tree) -> one value per finalist,
#: in the valuer's units (the hint's cube decided at every node, ``cube_tree``).
TreeValuer = Callable[[GameState, list[Play], TwoPlyTree], Probs]


@dataclass(frozen=True, slots=True)
class TwoPlyStage:
    """How a search's two-ply stage runs: how many 1-ply finalists it compares, and the
    settings (how close they must be, how big the layer may grow, which rolls it reads);
    ``tree_value``, when given, values the finalists from the whole two-ply tree."""

    finalists: int
    settings: SearchTuning
    tree_value: TreeValuer | None = None


#: What a search ranks plays by: (state, some of its plays, their outcome probabilities for
#: the mover, one row each) -> one value per play, higher better, in units comparable to
#: cubeless points (the filter margins are in those units).
Valuer = Callable[[GameState, list[Play], Probs], Probs]


def cubeless(state: GameState, plays: list[Play], probs: Probs) -> Probs:
    """The computer's own ranking: cubeless equity, the score and the cube left aside."""
    return _equity(state, probs)


def reply_rules(state: GameState) -> ReplyRules:
    """The rules of the opponent's next turn, after the side on turn plays."""
    opp = state.turn.other
    return ReplyRules(
        state.variant,
        first_turn=not state.has_moved[opp],
        after_five_five=state.rules.head_rule and state.turn is Side.WHITE and state.dice == (5, 5),
    )


def ranked(
    state: GameState,
    deep: bool,
    *,
    max_plies: int = 2,
    width: int = DIFFICILE_CANDIDATES,
    margin: float = DIFFICILE_MARGIN,
    value: Valuer = cubeless,
    two_ply: TwoPlyStage | None = None,
) -> list[tuple[Play, float]]:
    """Legal plays with their value for the mover (``value``: cubeless equity unless
    told otherwise), best first.

    With ``deep``, move filtering as the reference programs do it: the best ``width``
    0-ply candidates (within ``margin``) are re-scored at 1-ply, and the best few of those,
    when the decision is close and the look-ahead affordable, at 2-ply (``two_ply``: how
    many, how close, how big and with which rolls; Difficile's by default). Each stage's
    survivors rank above the plays it dropped, which keep their shallower value, capped at
    the deeper stage's lowest. ``max_plies`` 1 stops after the 1-ply stage (Medio's search,
    and the Difficile of earlier versions kept as a benchmark reference).
    """
    plays = state.legal_plays()
    if not plays:
        return []
    variant = state.variant

    def valued(indices: list[int], probs: Probs) -> list[tuple[int, float]]:
        return _sorted(indices, value(state, [plays[i] for i in indices], probs))

    everyone = list(range(len(plays)))
    scored = valued(everyone, zero_ply(variant, plays))
    if deep:
        top = _filter(scored, width, margin)
        if len(top) > 1:
            ahead = look_ahead(variant, [plays[i] for i in top], reply_rules(state))
            shallow = valued(top, ahead.probs)
            scored = _merge(shallow, scored)
            stage = two_ply or TwoPlyStage(TWO_PLY_CANDIDATES, tuning(variant))
            settings = stage.settings
            final = _filter(shallow, stage.finalists, settings.two_ply_margin)
            if len(final) > 1 and max_plies >= 2:
                keep = [top.index(i) for i in final]
                limit, rolls = settings.two_ply_limit, settings.reduced_rolls
                finalists = [plays[i] for i in final]
                if stage.tree_value is not None:
                    tree = grow(variant, ahead, keep, ReplyRules(variant), limit, rolls)
                    if tree is not None:
                        deep_values = stage.tree_value(state, finalists, tree)
                        scored = _merge(_sorted(final, deep_values), scored)
                else:
                    deeper = deepen(variant, ahead, keep, ReplyRules(variant), limit, rolls)
                    if deeper is not None:
                        scored = _merge(valued(final, deeper), scored)
    return [(plays[i], e) for i, e in scored]


def _sorted(indices: Iterable[int], eq: Probs) -> list[tuple[int, float]]:
    """(play index, equity) pairs, best first (stable: generation order breaks ties)."""
    pairs = [(i, float(e)) for i, e in zip(indices, eq, strict=True)]
    return sorted(pairs, key=lambda t: -t[1])


def _filter(scored: list[tuple[int, float]], most: int, margin: float) -> list[int]:
    """The first ``most`` play indices within ``margin`` of the best."""
    best = scored[0][1]
    return [i for i, e in scored[:most] if e >= best - margin]


def _merge(
    deeper: list[tuple[int, float]], scored: list[tuple[int, float]]
) -> list[tuple[int, float]]:
    """The deeper stage's ranking first, then the others, never above its lowest."""
    floor = deeper[-1][1]
    seen = {i for i, _ in deeper}
    return deeper + [(i, min(e, floor)) for i, e in scored if i not in seen]


def _equity(state: GameState, probs: Probs) -> Probs:
    """Cubeless equity under the game's settings: with "Oin" scoring a mars counts 1."""
    if not state.rules.big_results_count(state.config, state.cube_value > 1):
        probs = probs.copy()
        probs[:, 1:] = 0.0
    return equity(state.variant, probs)


def choose_play(state: GameState, level: Level, rng: random.Random) -> Play | None:
    """The play the level makes for the state's roll, or None when no checker can move."""
    _require(state, Phase.MOVE)
    if level is Level.DIFFICILE:
        scored = ranked(state, deep=True)
    elif level is Level.MEDIO:
        scored = ranked(state, deep=True, max_plies=1, width=MEDIO_CANDIDATES, margin=MEDIO_MARGIN)
    else:
        return _facile_choice(state, rng)
    return scored[0][0] if scored else None


def _facile_choice(state: GameState, rng: random.Random) -> Play | None:
    """A random play among the reasonable 0-ply ones, the better ones likelier."""
    scored = ranked(state, deep=False)
    if not scored:
        return None
    best = scored[0][1]
    window, temperature = FACILE_WINDOW, FACILE_TEMPERATURE
    if is_race(state.variant, state.checkers[state.turn], state.checkers[state.turn.other]):
        window, temperature = FACILE_RACE_WINDOW, FACILE_RACE_TEMPERATURE
    pool = [(p, e) for p, e in scored if e >= best - window][:8]
    weights = [math.exp((e - best) / temperature) for _, e in pool]
    return rng.choices([p for p, _ in pool], weights=weights, k=1)[0]


def hint(state: GameState, n: int = 3) -> list[tuple[Play, float]]:
    """The ``n`` best plays for the current roll with their estimated cubeless equity."""
    _require(state, Phase.MOVE)
    return ranked(state, deep=True)[:n]


def valued_cube(state: GameState) -> int:
    """The cube the valuation sees: the real one in a match; 1 in a money game, which
    scales with the stake (its real cube is the view's ``scale``, kept for the limit)."""
    return 1 if state.config.money else state.cube_value


def _aways(state: GameState, side: Side) -> tuple[int, int]:
    if state.config.money:  # a long match at even score plays almost like money
        return cube.MONEY_AWAY, cube.MONEY_AWAY
    length = state.config.length
    me = state.player_of(side)
    return length - state.score[me], length - state.score[1 - me]


def _roller_and_board(state: GameState) -> tuple[Side, cube.Board]:
    """The side about to roll and the board it rolls on.

    While a double waits for an answer the doubler is the one about to roll; during a
    move the turn's unconfirmed steps do not count (they can still be taken back).
    """
    roller = state.turn.other if state.phase is Phase.DOUBLED else state.turn
    board = state.turn_start if state.phase is Phase.MOVE and state.turn_start else state.checkers
    return roller, board


def _probs_before_roll(state: GameState, level: Level) -> Probs:
    """Outcome probabilities for the side about to roll (one ply deeper for Difficile)."""
    variant = state.variant
    roller, board = _roller_and_board(state)
    on, off = board[roller], board[roller.other]
    if level is Level.DIFFICILE:
        rules = ReplyRules(variant, first_turn=not state.has_moved[roller])
        return one_ply_pre_roll(variant, on, off, rules)
    return pre_roll(variant, on, off)


def _roller_view(state: GameState, level: Level) -> cube.View:
    """The game as the side about to roll sees it: its chances, the score, the cube's life."""
    roller, board = _roller_and_board(state)
    p = _probs_before_roll(state, level)
    if not state.rules.big_results_count(state.config, state.cube_value > 1):
        p = p.copy()
        p[1:] = 0.0  # "Oin": every result counts 1
    x = cube.cube_efficiency(board[roller], board[roller.other])
    a, b = _aways(state, roller)
    scale = state.cube_value // valued_cube(state)
    return cube.View.of(state.variant, p, a, b, state.crawford_done, x, scale=scale)


def cube_analysis(state: GameState, level: Level) -> cube.CubeAnalysis:
    """No double, double/take and double/pass for the side about to roll, in its MWC.

    In ROLL that is the side on turn; in DOUBLED it is the doubler (the cube not yet turned).
    """
    view = _roller_view(state, level)
    return cube.analyse(view, valued_cube(state), centred=state.cube_owner is None)


def cube_decision(state: GameState, level: Level) -> bool:
    """Should the side on turn (the computer) double now, before rolling?"""
    if not state.cube_available:
        return False
    return cube_analysis(state, level).double


def accept_double(state: GameState, level: Level) -> bool:
    """Take (True) or drop (False) the double offered to the side on turn."""
    _require(state, Phase.DOUBLED)
    return cube_analysis(state, level).take


def accept_resignation(state: GameState, resigner: Side, points: int, level: Level) -> bool:
    """Accept an offer to resign worth ``points`` (before the cube) from ``resigner``?

    The offer is accepted when it is worth at least what playing on is worth to the winner.
    In a match both are match-winning chances: the offer's points times the cube against
    the cubeful value of the position (the side to roll may double first, the owner may
    redouble later). A single game (a 1-point match) is scored in points, so there the
    offer is compared with the cubeless points the winner expects. The position is valued
    before the roll of the side to play. A long series has neither cube nor Crawford rule:
    the classic table stands in for its match equities, an approximation (long's mars
    rates differ from classic's gammon rates) that still weighs a mars by the score.
    """
    if state.is_over or state.phase is Phase.OPENING:
        raise ValueError("no game in progress")
    roller, _ = _roller_and_board(state)
    winner = resigner.other
    if state.config.length == 1:
        p = _probs_before_roll(state, level)
        p_winner = flip(state.variant, p) if roller is resigner else p
        return points >= float(_equity(state, p_winner[None, :])[0])
    a, b = _aways(state, winner)
    accepted = cube.met(a - points * valued_cube(state), b, state.crawford_done)
    playing = _playing_on(state, roller, _roller_view(state, level))
    if roller is resigner:
        playing = 1.0 - playing
    return accepted >= playing - 1e-9


def _playing_on(state: GameState, roller: Side, view: cube.View) -> float:
    """The roller's MWC if the game goes on: cubeful when the cube is live, else dead."""
    c = valued_cube(state)
    if not state.config.cube_in_play or state.crawford:
        return view.dead(c)
    owner = cube.owner_seen_by(state.cube_owner, roller)
    if state.phase is Phase.DOUBLED:  # the answer is pending: the taker chooses
        analysis = cube.analyse(view, c, centred=owner is cube.Owner.CENTRE)
        return min(analysis.double_take, analysis.double_pass)
    if state.cube_available:
        analysis = cube.analyse(view, c, centred=owner is cube.Owner.CENTRE)
        if analysis.double:
            return min(analysis.double_take, analysis.double_pass)
    return cube.cubeful(view, c, owner)


def _require(state: GameState, phase: Phase) -> None:
    if state.phase is not phase:
        raise ValueError(f"the computer cannot act in phase {state.phase.value}")
