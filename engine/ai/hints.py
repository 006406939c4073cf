"""Hints for every decision, valued where the game really stands: the score and the cube.

A play that is best for cubeless points may be wrong in a match: at 3-away/3-away a
gammon lost costs far more than a point does, and a cube the opponent can turn next
changes what a small gain is worth. So a hint ranks the plays of a roll by what they are
worth to the player in the game actually played:

- in a match (or a series) by the **match-winning chance** (MWC), through the match
  equity table (``cube.met``) and the cube's life (``cube.analyse`` for the opponent, who
  may double before their next roll); a single game (a 1-point match) is thereby ranked
  by the chance of winning it, gammons counting nothing;
- in the money game by the **money equity with the cube** (the same cube model at a long
  even score, which plays like money, ``cube.MONEY_AWAY``), gammons following the Jacoby
  rule.

The search is Difficile's move filtering (``levels.ranked``) with three differences: each
stage ranks by that value (as equity normalised to the cube, the "EMG" the reference
programs use, so the filter margins keep their meaning); the two-ply stage compares more
finalists over all 21 rolls, since a hint is asked for rarely and waited for; and that
stage decides the cube where each side is on roll, the cube's life valued at its leaves
(``cube_tree``, as GNU Backgammon's n-ply cubeful evaluation), rather than once from the
chances averaged over both rolls, which credited a volatile play (a loose hit) with the
cube leverage of its average. Plays after which the opponent would double the mover out
are not left tied at the cube's value: the one closer to a take ranks first.

Cube hints give the three futures of a cube decision (no double, double/take,
double/pass) and the proper action, for the side that may double or the side that was
doubled, valued two plies deep with the cube decided at every node below the decision
(``cube_root``), as GNU Backgammon's 2-ply cube analysis does.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

import numpy as np

from engine.ai import cube, cube_root, cube_tree
from engine.ai.arrays import Probs
from engine.ai.levels import (
    DIFFICILE_CANDIDATES,
    DIFFICILE_MARGIN,
    Level,
    TreeValuer,
    TwoPlyStage,
    cube_analysis,
    ranked,
    valued_cube,
)
from engine.ai.outcomes import equity, flip
from engine.ai.search import ROLLS, ReplyRules, TwoPlyTree, one_ply, pre_roll, zero_ply
from engine.ai.tuning import SearchTuning, tuning
from engine.board import OFF
from engine.game import GameState, Phase
from engine.moves import Play
from engine.types import Side

#: How many 1-ply finalists the hint's two-ply stage compares (the computer compares 2).
#: Five rather than four: a one-ply ranking can put the play two plies prefer fifth
#: (a crunched board against a strong one: the 1-ply look-ahead likes breaking the board
#: over moving the back checkers); against GNU Backgammon 2-ply on 320 positions, 5
#: changed 3 hints, all for the better (one from a 0.103 loss to 0.016), 6 none more.
HINT_FINALISTS = 5
#: ... when within this much of the best (normalised equity), all 21 rolls in its last
#: layer (the computer's reduced set halves the cost and loses a little accuracy).
HINT_TWO_PLY_MARGIN = 0.12
#: The hint's two-ply stage may evaluate this many positions (a few seconds of a worker
#: at most: the hint runs in the computer's pool, never on the event loop).
HINT_TWO_PLY_LIMIT = 200_000


#: How deep the hint's two-ply stage decides the cube (``cube_tree``): 2, at every node
#: where a side is on roll, the cube's life valued at the leaves (GNU Backgammon's n-ply
#: cubeful evaluation); 1, the cube's life where the mover is on roll after each reply;
#: 0, once from the chances averaged over both rolls (``at_the_score``). Against GNU
#: Backgammon 2-ply on 320 positions (``benchmarks.hints``): 0 agreed on the best play in
#: 83.1 %, mean loss 0.0039, one loss above 0.1 (0.183, a loose hit at 4-away/2-away);
#: 1: 85.0 %, 0.0029, none; 2: 84.7 %, 0.0031, none, and the only one of the three to
#: find the best bear-off with the cube on the mover's side (where the next roll's
#: redouble decides). 2 costs about twice the hint's CPU of 0 (0.6 s a hint on average).
CUBE_NODES = 2


#: How deep a cube hint looks before the roll: two plies, the cube decided at every node
#: below the decision where it can be turned (``cube_root``, as GNU Backgammon's cubeful
#: n-ply; under the Jacoby rule with the cube centred, the leaves see the gammons through
#: the cash points). Against GNU Backgammon 2-ply on 160 positions (``benchmarks.hints``):
#: one ply, as the computer's own cube decisions, agreed on 92.2 % of decisions; two plies
#: of averaged chances (``two_ply_chances``) on as many; the tree on 93.4 % (double / no
#: double 94.4 %, take / pass 92.5 %), at about 0.25 s of CPU per hint.
CUBE_HINT_PLIES = 2


class Unit(StrEnum):
    """What a hint's numbers are."""

    MWC = "mwc"  # the match-winning chance, 0..1
    POINTS = "points"  # money: points expected, the cube's value included


@dataclass(frozen=True, slots=True)
class Basis:
    """What a hint's values rest on, from the asking player's side: the score, the cube
    and the Crawford rule (the words a hint shows so that its numbers can be read)."""

    money: bool
    length: int  # points that win the match (0: the money game)
    score: tuple[int, int]  # (the player's points, the opponent's)
    cube: int
    owner: str | None  # "me", "opponent", or None when centred (or no cube)
    cube_in_play: bool  # the match uses the cube at all
    crawford: bool  # this is the Crawford game: no double in it
    post_crawford: bool  # the Crawford game was played: the cube is back

    @property
    def unit(self) -> Unit:
        return Unit.POINTS if self.money else Unit.MWC


def basis_of(state: GameState, side: Side | None = None) -> Basis:
    """The score and the cube as ``side`` sees them (by default the side on turn: the
    mover, the one who may double, or in DOUBLED the one who must answer)."""
    side = state.turn if side is None else side
    me = state.player_of(side)
    owner = None
    if state.cube_owner is not None:
        owner = "me" if state.cube_owner is side else "opponent"
    return Basis(
        money=state.config.money,
        length=state.config.length,
        score=(state.score[me], state.score[1 - me]),
        cube=state.cube_value,
        owner=owner,
        cube_in_play=state.config.cube_in_play,
        crawford=state.crawford,
        post_crawford=state.crawford_done and not state.crawford,
    )


# ----------------------------------------------------------------- the value of a play
def normalised(state: GameState, side: Side, mwc: float) -> float:
    """``side``'s MWC as equity normalised to the cube (the reference programs' "EMG"):
    +1 is winning a single game at the current cube, -1 losing one."""
    a, b = cube_tree.aways(state, side)
    c, done = valued_cube(state), state.crawford_done
    win, lose = cube.met(a - c, b, done), cube.met(a, b - c, done)
    return (2.0 * mwc - (win + lose)) / (win - lose)


def shown(state: GameState, side: Side, mwc: float) -> float:
    """A value in the hint's unit: the MWC in a match, points (cube included) for money."""
    if state.config.money:
        return normalised(state, side, mwc) * state.cube_value
    return mwc


def _roller_mwc(state: GameState, roller: Side, view: cube.View) -> float:
    """The MWC of ``roller``, about to roll with the chances of ``view``: cubeful when the
    cube is live (doubling first when that is right), dead otherwise."""
    here = cube_tree.CubeState(valued_cube(state), state.cube_owner)
    return cube_tree.leaf_mwc(state, roller, view, here)


def play_mwc(state: GameState, play: Play, probs: Probs) -> float:
    """The mover's MWC after ``play`` (``probs``: the mover's chances, opponent to roll)."""
    mover = state.turn
    if play.mine[OFF] == 15:  # the game is won: the score decides the rest
        view = _view(state, mover, probs, play.mine, play.theirs)
        return view.dead(valued_cube(state))
    opp = mover.other
    view = _view(state, opp, flip(state.variant, probs), play.theirs, play.mine)
    return 1.0 - _roller_mwc(state, opp, view)


def _view(
    state: GameState, side: Side, p: Probs, on: tuple[int, ...], off: tuple[int, ...]
) -> cube.View:
    """The game as ``side`` (whose checkers are ``on``) sees it with chances ``p``."""
    if not state.rules.big_results_count(state.config, state.cube_value > 1):
        p = p.copy()
        p[1:] = 0.0  # Jacoby (cube centred in money) or Oin: every result counts 1
    a, b = cube_tree.aways(state, side)
    x = cube.cube_efficiency(on, off) if state.config.cube_in_play else 0.0
    return cube.View.of(state.variant, p, a, b, state.crawford_done, x)


def at_the_score(state: GameState, plays: list[Play], probs: Probs) -> Probs:
    """The hint's valuer (``levels.Valuer``): each play's MWC after it, as normalised
    equity so that the search's margins keep their meaning."""
    mover = state.turn
    return np.array(
        [
            normalised(state, mover, play_mwc(state, p, row))
            for p, row in zip(plays, probs, strict=True)
        ]
    )


def _tree_valuer(depth: int) -> TreeValuer:
    """The hint's two-ply valuer: the cube decided at every node of the tree down to
    ``depth`` (``cube_tree``), as normalised equity."""

    def value(state: GameState, plays: list[Play], tree: TwoPlyTree) -> Probs:
        mover = state.turn
        mwc = cube_tree.cube_at_every_node(state, tree, depth)
        return np.array([normalised(state, mover, v) for v in mwc])

    return value


def _hint_tuning(state: GameState) -> SearchTuning:
    """The two-ply stage of a hint: the variant's settings, wider, over all 21 rolls."""
    base = tuning(state.variant)
    return SearchTuning(
        max(base.two_ply_margin, HINT_TWO_PLY_MARGIN),
        max(base.two_ply_limit, HINT_TWO_PLY_LIMIT),
        ROLLS,
    )


@dataclass(frozen=True, slots=True)
class CheckerHint:
    """The best plays of a roll, best first, each with its value in ``basis.unit``."""

    basis: Basis
    plays: tuple[tuple[Play, float], ...]


def checker_hint(state: GameState, n: int = 3, cube_nodes: int = CUBE_NODES) -> CheckerHint:
    """The ``n`` best plays for the roll being played, valued at the score and the cube.

    The steps already made this turn are ignored: the hint is for the whole roll.
    ``cube_nodes``: how deep the two-ply stage decides the cube (``CUBE_NODES``; 0 values
    the cube once, from the averaged chances, as earlier versions did).
    """
    if state.phase is not Phase.MOVE:
        raise ValueError(f"a checker-play hint needs a roll to play, not {state.phase.value}")
    if state.steps:
        state = state.reset_turn()
    scored = ranked(
        state,
        deep=True,
        width=DIFFICILE_CANDIDATES,
        margin=DIFFICILE_MARGIN,
        value=at_the_score,
        two_ply=TwoPlyStage(
            HINT_FINALISTS, _hint_tuning(state), _tree_valuer(cube_nodes) if cube_nodes else None
        ),
    )[:n]
    mover = state.turn
    plays = tuple((p, _from_normalised(state, mover, e)) for p, e in scored)
    return CheckerHint(basis_of(state, mover), plays)


def _from_normalised(state: GameState, side: Side, emg: float) -> float:
    """The inverse of ``normalised``, then in the hint's unit."""
    a, b = cube_tree.aways(state, side)
    c, done = valued_cube(state), state.crawford_done
    win, lose = cube.met(a - c, b, done), cube.met(a, b - c, done)
    return shown(state, side, ((win - lose) * emg + win + lose) / 2.0)


# ----------------------------------------------------------------------- cube hints
class CubeAdvice(StrEnum):
    """What a cube hint tells the side that may double, or the side that was doubled."""

    DOUBLE = "double"
    NO_DOUBLE = "no double"
    TOO_GOOD = "too good"  # the opponent would pass, but playing for the gammon is worth more
    TAKE = "take"
    PASS = "pass"


@dataclass(frozen=True, slots=True)
class CubeHint:
    """A cube decision's three futures in ``basis.unit``, from the doubler's side, and the
    advice for the player who asked (``doubled``: they were doubled and must answer)."""

    basis: Basis  # from the asking player's side
    doubled: bool
    no_double: float
    double_take: float
    double_pass: float
    action: cube.CubeAction
    advice: CubeAdvice


def cube_available_to_hint(state: GameState) -> bool:
    """Is there a cube decision for the side on turn: doubling now, or answering a double?"""
    return state.phase is Phase.DOUBLED or state.cube_available


def two_ply_chances(state: GameState, doubler: Side) -> Probs:
    """The outcome probabilities of ``doubler``, about to roll, two plies deep: for each of
    its 21 rolls its best play (chosen at 0-ply) valued by a look-ahead over the opponent's
    replies, all in one batch (the depth of the reference programs' 2-ply cube decisions;
    the computer's own decisions read one ply)."""
    variant = state.variant
    on, off = state.checkers[doubler], state.checkers[doubler.other]
    rules = ReplyRules(variant, first_turn=not state.has_moved[doubler])
    total = np.zeros(variant.rules.n_outcomes)
    chosen: list[Play] = []
    weights: list[float] = []
    for d1, d2, w in ROLLS:
        plays = rules.generator(d1, d2).plays(on, off)
        if not plays:  # no move: the opponent rolls next, valued at 0-ply
            total += (w / 36.0) * flip(variant, pre_roll(variant, off, on))
            continue
        probs = zero_ply(variant, plays)
        chosen.append(plays[int(np.argmax(equity(variant, probs)))])
        weights.append(w / 36.0)
    if chosen:
        replies = ReplyRules(variant, first_turn=not state.has_moved[doubler.other])
        total += np.asarray(weights) @ one_ply(variant, chosen, replies)
    return total


def _analysis(state: GameState, doubler: Side, plies: int) -> cube.CubeAnalysis:
    """No double, double/take and double/pass for ``doubler``, in its MWC."""
    if plies < 2:
        return cube_analysis(state, Level.DIFFICILE)
    if cube_tree.live(state):  # the cube decided at every node below
        return cube_root.tree_futures(state, doubler)
    board = state.checkers
    view = _view(
        state, doubler, two_ply_chances(state, doubler), board[doubler], board[doubler.other]
    )
    return cube.analyse(view, valued_cube(state), centred=state.cube_owner is None)


def cube_hint(state: GameState, plies: int = CUBE_HINT_PLIES) -> CubeHint:
    """The proper cube action for the side on turn, with the equities it rests on
    (``plies``: how deep the chances before the roll are read, 1 or 2)."""
    if not cube_available_to_hint(state):
        raise ValueError("no cube decision for the side on turn")
    doubled = state.phase is Phase.DOUBLED
    doubler = state.turn.other if doubled else state.turn
    analysis = _analysis(state, doubler, plies)
    action = analysis.action
    if doubled:
        advice = CubeAdvice.TAKE if analysis.take else CubeAdvice.PASS
    elif action is cube.CubeAction.TOO_GOOD:
        advice = CubeAdvice.TOO_GOOD
    else:
        advice = CubeAdvice.DOUBLE if analysis.double else CubeAdvice.NO_DOUBLE
    return CubeHint(
        basis=basis_of(state, state.turn),
        doubled=doubled,
        no_double=shown(state, doubler, analysis.no_double),
        double_take=shown(state, doubler, analysis.double_take),
        double_pass=shown(state, doubler, analysis.double_pass),
        action=action,
        advice=advice,
    )
