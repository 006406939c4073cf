"""Post-game analysis: how much equity each player gave away, decision by decision.

The input is the list of decisions of one game (``GameRecord.decisions()``): the state in
which a player had to choose, and what they chose. Only the ``state`` and ``chosen``
attributes are read, and the kind of decision follows from the state's phase:

- Phase.MOVE: a checker play; ``chosen`` is the ``Play`` made.
- Phase.ROLL: double or not (classic, cube available); ``chosen`` is True for a double.
- Phase.DOUBLED: take or drop; ``chosen`` is True for a take.

Checker plays are scored as Difficile searches: every play gets the network's 0-ply
equity, then the best (``DEEP_CANDIDATES`` within ``DEEP_MARGIN``, GNU Backgammon's
analysis filter) and the play made
are re-scored by the 1-ply look-ahead (``engine.ai.search.look_ahead``); when the play
made is not the best there, it and the close finalists (``TWO_PLY_FINALISTS`` within
``TWO_PLY_MARGIN``) are valued again two rolls ahead (``engine.ai.search.grow``, as
GNU Backgammon's 2-ply, the cube decided at every node of the tree as the hint does:
``engine.ai.cube_tree``), so the play made is always compared with the best at the same
depth. Equities are in
points of a game at the current cube ("normalised": a loss does not grow with the cube)
and, as GNU Backgammon's, cubeful where a cube can still be turned and valued by the
match score in a classic match (``cubeful_play_equities``, ``play_equities``). Cube
decisions are valued with the cube model (``engine.ai.cube``) two plies deep, the cube
decided at every node below the decision where it can be turned (``engine.ai.cube_root``,
as GNU Backgammon's 2-ply cube analysis), in match-winning chance (MWC), and
normalised the way GNU Backgammon normalises them (its "EMG", equivalent to money game):
the MWC difference divided by half the MWC swing of a single game at the current cube
value, so a cube error reads the same at cube 1, 2 or 4 and adds up with the checker
plays into one error rate. The loss is also kept in MWC itself (``Review.mwc_loss``: the
normalised loss times that half swing, as GNU Backgammon converts it back), which is what
a match player gives away.

Thresholds (GNU Backgammon 1.07's defaults, ``show analysis``), on the normalised loss of
one decision (strictly more than the threshold, as GNU Backgammon marks them):

- doubtful: more than ``DOUBTFUL`` (0.03)
- error ("bad"): more than ``ERROR`` (0.06)
- blunder ("very bad"): more than ``BLUNDER`` (0.12)

The error rate is the average loss per decision times 1000 (GNU Backgammon's "mEMG"), and
in a match also the average MWC lost per decision. Only decisions with a real choice are
counted, as GNU Backgammon 1.07 counts "unforced moves" and "close or actual cube
decisions":

- a play only when the roll has more than one legal play;
- every double, take and drop actually made;
- a turn on which the player could have doubled but did not, only when the cube is live
  (``cube_is_live``: not the Crawford game, not owned by the opponent, below its limit,
  and turning it can gain - in a match the doubler needs more points than the cube is
  worth, which also rules out the leader after the Crawford game and double match point)
  and the decision was close: doubling was right, or not doubling was better than
  doubling by less than ``CLOSE_CUBE`` (0.16). A 0-ply screen (``CLEAR_NO_DOUBLE``)
  spares the 2-ply estimate for the obvious ones.

Resignations are not analysed.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Protocol

import numpy as np

from engine.ai import cube, cube_root, cube_tree
from engine.ai.arrays import Probs
from engine.ai.cube_tree import aways, cube_at_every_node
from engine.ai.hints import normalised, two_ply_chances
from engine.ai.levels import reply_rules, valued_cube
from engine.ai.outcomes import equity, flip
from engine.ai.search import (
    ReplyRules,
    TwoPlyTree,
    grow,
    look_ahead,
    pre_roll,
    zero_ply,
)
from engine.game import GameState, Phase
from engine.moves import Play
from engine.record import DecisionKind
from engine.types import Side

#: Normalised equity lost by one decision above which it is marked doubtful, an error, a
#: blunder (GNU Backgammon 1.07's "doubtful", "bad" and "very bad").
DOUBTFUL = 0.03
ERROR = 0.06
BLUNDER = 0.12
#: A cube not turned counts as a decision when not doubling beat doubling by less than this
#: (normalised equity; GNU Backgammon's fixed threshold for a "close" cube decision).
CLOSE_CUBE = 0.16

#: How many of the best 0-ply plays are re-scored at 1 ply (with the play made), and only
#: those within ``DEEP_MARGIN`` 0-ply equity of the best: GNU Backgammon 1.07's analysis
#: filter at 2-ply (16 within 0.32). A narrower screen (3 within 0.2) dropped plays the
#: network ranks fourth at 0-ply and first one roll ahead, so a blunder read as an error;
#: the 1-ply look-ahead of the extra plays costs about a third more CPU per game.
DEEP_CANDIDATES = 16
DEEP_MARGIN = 0.32
#: When the play made is not the best at 1-ply, it and up to this many of the best 1-ply
#: plays, those within ``TWO_PLY_MARGIN`` of the best, are valued again at 2-ply.
TWO_PLY_FINALISTS = 2
TWO_PLY_MARGIN = 0.1
#: How many of the worst decisions the analysis keeps.
WORST_KEPT = 3


class Severity(StrEnum):
    NONE = "none"
    DOUBTFUL = "doubtful"
    ERROR = "error"
    BLUNDER = "blunder"


def severity(loss: float) -> Severity:
    """How a decision that lost ``loss`` equity is classed (thresholds in the module doc)."""
    if loss > BLUNDER:
        return Severity.BLUNDER
    if loss > ERROR:
        return Severity.ERROR
    if loss > DOUBTFUL:
        return Severity.DOUBTFUL
    return Severity.NONE


class DecisionLike(Protocol):
    """What the analysis reads of a recorded decision (``engine.record.Decision``)."""

    @property
    def state(self) -> GameState: ...

    @property
    def chosen(self) -> Play | bool | None: ...


@dataclass(frozen=True)
class Review:
    """One analysed decision: what was chosen, what was best, and what it cost.

    ``state`` is the position of the decision (without its caches, so a review pickles
    small between processes). For a play, ``chosen`` and ``best`` are plays (``chosen`` is
    None when the play made is not one of the roll's legal plays); for the cube they are
    booleans (True: double, or take). ``loss`` is normalised (points of a game at the
    current cube); ``mwc_loss`` is the match-winning chance it gave away (0 to 1; 0 in a
    money game, where ``loss * state.cube_value`` is what it cost in points).
    """

    index: int  # position in the game's list of decisions
    side: Side
    kind: DecisionKind
    state: GameState
    chosen: Play | bool | None
    best: Play | bool
    loss: float
    mwc_loss: float = 0.0
    #: For a play compared with rivals, the best play's value on the analysis's scale
    #: (normalised, cubeful, at the depth it was compared at: the play made is worth
    #: ``best_equity - loss``); None for the cube and for a play that had no rival near it.
    best_equity: float | None = None

    @property
    def severity(self) -> Severity:
        return severity(self.loss)


@dataclass(frozen=True)
class PlayerReport:
    """One side's figures over the game."""

    side: Side
    decisions: int = 0  # counted decisions (plays with a choice, close or actual cube)
    plays: int = 0
    cube_decisions: int = 0
    total_loss: float = 0.0
    doubtful: int = 0
    errors: int = 0
    blunders: int = 0
    cube_errors: int = 0  # cube decisions marked as errors or blunders (lost over ERROR)
    play_loss: float = 0.0  # the part of total_loss lost on checker plays
    cube_loss: float = 0.0  # ... and on cube decisions
    mwc_loss: float = 0.0  # match-winning chance lost over the game (0 in money play)

    @property
    def error_rate(self) -> float:
        """Average normalised equity lost per decision, times 1000 (GNU Backgammon's
        "mEMG"; 0 without decisions)."""
        return 1000.0 * self.total_loss / self.decisions if self.decisions else 0.0

    @property
    def mwc_rate(self) -> float:
        """Average match-winning chance lost per decision, in percent (GNU Backgammon's
        "MWC" error rate; 0 without decisions or in money play)."""
        return 100.0 * self.mwc_loss / self.decisions if self.decisions else 0.0

    @property
    def play_rate(self) -> float:
        """The error rate of the checker plays alone (per play with a choice, ×1000)."""
        return 1000.0 * self.play_loss / self.plays if self.plays else 0.0

    @property
    def cube_rate(self) -> float:
        """The error rate of the cube decisions alone (per counted cube decision, ×1000)."""
        return 1000.0 * self.cube_loss / self.cube_decisions if self.cube_decisions else 0.0

    def counted(self, review: Review) -> PlayerReport:
        """This report with one more decision."""
        level = review.severity
        cube_kind = review.kind is not DecisionKind.PLAY
        return replace(
            self,
            decisions=self.decisions + 1,
            plays=self.plays + (not cube_kind),
            cube_decisions=self.cube_decisions + cube_kind,
            total_loss=self.total_loss + review.loss,
            doubtful=self.doubtful + (level is Severity.DOUBTFUL),
            errors=self.errors + (level is Severity.ERROR),
            blunders=self.blunders + (level is Severity.BLUNDER),
            cube_errors=self.cube_errors + (cube_kind and review.loss > ERROR),
            play_loss=self.play_loss + (0.0 if cube_kind else review.loss),
            cube_loss=self.cube_loss + (review.loss if cube_kind else 0.0),
            mwc_loss=self.mwc_loss + review.mwc_loss,
        )


@dataclass(frozen=True)
class Analysis:
    """The figures of both sides (indexed by ``Side``) and the worst decisions, worst first.

    ``reviews`` holds every counted decision (those with a choice), in the game's order.
    """

    players: tuple[PlayerReport, PlayerReport]
    worst: tuple[Review, ...] = field(default=())
    reviews: tuple[Review, ...] = field(default=())

    def worst_of(self, side: Side) -> tuple[Review, ...]:
        return tuple(r for r in self.worst if r.side is side)


def analyse(decisions: Iterable[DecisionLike], keep: int = WORST_KEPT) -> Analysis:
    """Review every decision of a game; keep the ``keep`` costliest per side and overall."""
    reports = [PlayerReport(Side.WHITE), PlayerReport(Side.BLACK)]
    counted: list[Review] = []
    for index, decision in enumerate(decisions):
        review = review_decision(index, decision.state, decision.chosen)
        if review is None:
            continue
        reports[review.side] = reports[review.side].counted(review)
        counted.append(review)
    reviews = sorted((r for r in counted if r.loss > 0), key=lambda r: (-r.loss, r.index))
    # The worst overall, and each side's own worst (for the message each player receives).
    kept = {r.index for r in reviews[:keep]}
    for side in Side:
        kept.update(r.index for r in [r for r in reviews if r.side is side][:keep])
    worst = tuple(r for r in reviews if r.index in kept)
    return Analysis((reports[0], reports[1]), worst, tuple(counted))


def review_decision(index: int, state: GameState, chosen: Play | bool | None) -> Review | None:
    """The review of one decision, or None when it offered no real choice."""
    if state.phase is Phase.MOVE:
        return _review_play(index, state, chosen if isinstance(chosen, Play) else None)
    if state.phase is Phase.ROLL and state.cube_available:
        return _review_double(index, state, bool(chosen))
    if state.phase is Phase.DOUBLED:
        return _review_take(index, state, bool(chosen))
    return None


# --------------------------------------------------------------------------- checker plays
def play_equities(state: GameState, probs: Probs) -> Probs:
    """The mover's equity of each row of outcome probabilities, normalised to the cube.

    Cubeless points under the game's settings (with "Oin" scoring a mars counts 1), except
    in a classic match, where every result is valued by where it leaves the match: a
    gammon counts nothing at double match point or in a 1-point match, and more than in
    money play when the extra points take the match (``_match_equities``).
    """
    if not state.rules.big_results_count(state.config, state.cube_value > 1):
        probs = probs.copy()
        probs[:, 1:] = 0.0
    if state.rules.has_cube and not state.config.money:  # a classic match
        return _match_equities(state, probs)
    return equity(state.variant, probs)


def _match_equities(state: GameState, probs: Probs) -> Probs:
    """Cubeless match equity, normalised as GNU Backgammon's "EMG": the match-winning
    chance of playing the game out at the current cube, mapped so that a single win at
    that cube reads +1 and a single loss -1."""
    a, b = aways(state, state.turn)
    c, done = state.cube_value, state.crawford_done
    won = [cube.met(a - k * c, b, done) for k in (1, 2, 3)]
    lost = [cube.met(a, b - k * c, done) for k in (1, 2, 3)]
    p = np.clip(probs, 0.0, 1.0)
    win = p[:, 0]
    gammon, backgammon = np.minimum(p[:, 1], win), np.minimum(p[:, 2], p[:, 1])
    lose = 1.0 - win
    lose_gammon = np.minimum(p[:, 3], lose)
    lose_backgammon = np.minimum(p[:, 4], lose_gammon)
    mwc = (
        (win - gammon) * won[0]
        + (gammon - backgammon) * won[1]
        + backgammon * won[2]
        + (lose - lose_gammon) * lost[0]
        + (lose_gammon - lose_backgammon) * lost[1]
        + lose_backgammon * lost[2]
    )
    swing = max(won[0] - lost[0], 1e-9)
    result: Probs = 2.0 * (mwc - lost[0]) / swing - 1.0
    return result


def cubeful_play_equities(state: GameState, plays: list[Play], probs: Probs) -> Probs:
    """The mover's normalised cubeful equity after each play (``probs``: the mover's
    outcome probabilities after it, the opponent to roll), as GNU Backgammon values plays.

    A live cube makes every winning chance worth more: the side ahead can cash, the side
    behind can pass, so equity moves faster with the chances than the cubeless game's
    (about 1.4 times at Janowski's efficiency in contact). The position after the play is
    valued by the cube model (``engine.ai.cube.cubeful``, the opponent on roll with the
    cube as it stands) and normalised like the cube decisions. Under the Jacoby rule with
    the cube centred the gammons the play keeps or gives up still count through the cash
    points (``engine.ai.cube.cubeful_jacoby``), not through the points played out. Where
    no cube can be turned (cubeless games, the Crawford game, long) it is the cubeless
    value, ``play_equities``.
    """
    live = state.rules.has_cube and state.config.cube_in_play and not state.crawford
    if not live:
        return play_equities(state, probs)
    jacoby = state.config.jacoby_in_force and state.cube_owner is None
    if not jacoby and not state.rules.big_results_count(state.config, state.cube_value > 1):
        probs = probs.copy()
        probs[:, 1:] = 0.0
    roller = state.turn.other
    a, b = aways(state, roller)
    c, done = state.cube_value, state.crawford_done
    owner = cube.owner_seen_by(state.cube_owner, roller)
    won, lost = cube.met(b - c, a, done), cube.met(b, a - c, done)  # the mover's single game
    swing = max(won - lost, 1e-9)
    rows = flip(state.variant, np.clip(probs, 0.0, 1.0))
    out = np.empty(len(plays))
    for i, (play, p) in enumerate(zip(plays, rows, strict=True)):
        x = cube.cube_efficiency(play.theirs, play.mine)
        view = cube.View.of(state.variant, p, a, b, done, x)
        mwc = 1.0 - (cube.cubeful_jacoby(view, c) if jacoby else cube.cubeful(view, c, owner))
        out[i] = 2.0 * (mwc - lost) / swing - 1.0
    return out


def screened(eq0: Probs, made: int | None) -> list[int]:
    """The plays (indices into ``eq0``, their 0-ply equities) looked at more deeply: the
    best ``DEEP_CANDIDATES`` within ``DEEP_MARGIN`` of the best, best first, then the play
    ``made`` when it is not among them."""
    order = [int(i) for i in np.argsort(-eq0, kind="stable")]
    top = [i for i in order[:DEEP_CANDIDATES] if eq0[i] >= eq0[order[0]] - DEEP_MARGIN]
    if made is not None and made not in top:
        top.append(made)
    return top


def _review_play(index: int, state: GameState, chosen: Play | None) -> Review | None:
    plays = state.legal_plays()
    if len(plays) <= 1:
        return None
    keys = [p.key for p in plays]
    made = keys.index(chosen.key) if chosen is not None and chosen.key in keys else None
    eq0 = play_equities(state, zero_ply(state.variant, plays))
    top = screened(eq0, made)
    looked_ahead = len(top) > 1
    if not looked_ahead:  # one candidate (the play made, or no rival near it): no look-ahead
        scored = {top[0]: float(eq0[top[0]])}
    else:
        scored = _deeper_values(state, [plays[i] for i in top], top, made)
    best = max(scored, key=lambda i: scored[i])
    # A play that is not legal here (a corrupt record) counts as the worst 0-ply play.
    loss = scored[best] - scored[made] if made is not None else scored[best] - float(min(eq0))
    loss = max(0.0, loss)
    return Review(
        index,
        state.turn,
        DecisionKind.PLAY,
        state,
        plays[made] if made is not None else None,
        plays[best],
        loss,
        loss * match_unit(state, state.turn),
        scored[best] if looked_ahead else None,
    )


def _deeper_values(
    state: GameState, candidates: list[Play], top: list[int], made: int | None
) -> dict[int, float]:
    """The candidates' values (keyed by their index among the legal plays, ``top``) at 1-ply
    and, when the play made is not the best at 1-ply, the play made and the close
    finalists (``TWO_PLY_FINALISTS`` within ``TWO_PLY_MARGIN``) at 2-ply, compared only
    with one another: a 1-ply look-ahead misjudges some plays by a tenth of a point, enough
    to class a blunder as a mere error."""
    ahead = look_ahead(state.variant, candidates, reply_rules(state))
    values = cubeful_play_equities(state, candidates, ahead.probs)
    scored = dict(zip(top, (float(e) for e in values), strict=True))
    leader = max(scored, key=lambda i: scored[i])
    if made is None or made == leader:
        return scored
    ranked = sorted(range(len(top)), key=lambda k: -values[k])
    keep = [
        k for k in ranked[:TWO_PLY_FINALISTS] if values[k] >= values[ranked[0]] - TWO_PLY_MARGIN
    ]
    if top.index(made) not in keep:
        keep.append(top.index(made))
    tree = grow(state.variant, ahead, keep, ReplyRules(state.variant))
    assert tree is not None  # no limit
    values2 = _two_ply_equities(state, [candidates[k] for k in keep], tree)
    return {top[k]: float(e) for k, e in zip(keep, values2, strict=True)}


def _two_ply_equities(state: GameState, plays: list[Play], tree: TwoPlyTree) -> Probs:
    """The normalised equity after each of ``plays`` (``tree.keep``) two rolls ahead.

    With a live cube, the cube is decided at every node of the tree as GNU Backgammon's
    n-ply cubeful evaluation does (``cube_tree.cube_at_every_node``, as the hint): valuing
    it once from the chances averaged over both rolls credits a volatile play (a loose
    hit) with the cube leverage of its average. Under the Jacoby rule with the cube
    centred, and where no cube can be turned, the averaged chances are valued as at 1-ply
    (``cubeful_play_equities``), which knows the Jacoby cash points.
    """
    live = state.rules.has_cube and state.config.cube_in_play and not state.crawford
    jacoby = state.config.jacoby_in_force and state.cube_owner is None
    if not live or jacoby:
        return cubeful_play_equities(state, plays, tree.probs())
    mover = state.turn
    return np.array([normalised(state, mover, v) for v in cube_at_every_node(state, tree)])


# --------------------------------------------------------------------------- cube
def match_unit(state: GameState, side: Side) -> float:
    """Half the MWC swing between ``side`` winning and losing a single game at the current
    cube: the MWC worth one point of normalised equity (GNU Backgammon's ``eq2mwc``).

    0 in a money game, which has no match to win.
    """
    if state.config.money:
        return 0.0
    a, b = aways(state, side)
    c, done = state.cube_value, state.crawford_done
    return (cube.met(a - c, b, done) - cube.met(a, b - c, done)) / 2.0


def cube_is_live(state: GameState) -> bool:
    """Could the side on turn double now, and gain by it? (GNU Backgammon's ``GetDPEq``.)

    The engine's ``cube_available`` (not the Crawford game, the cube centred or the side's
    own, below its limit) and, in a match, a doubler needing more points than the cube is
    worth: otherwise a win at the current cube already takes the match, as for the leader
    after the Crawford game and at double match point, and the cube is dead.
    """
    if not state.cube_available:
        return False
    if state.config.money:
        return True
    away, _ = aways(state, state.turn)
    return away > state.cube_value


@dataclass(frozen=True, slots=True)
class CubeValues:
    """The futures of a cube decision in the doubler's match-winning chance (the cube model
    the computer decides with, ``engine.ai.cube``), and the scale that turns a difference
    of them into normalised equity (half the swing of a game at the current cube)."""

    futures: cube.CubeAnalysis
    scale: float

    @property
    def taker_should_take(self) -> bool:
        return self.futures.take

    @property
    def should_double(self) -> bool:
        return self.futures.double

    @property
    def double_value(self) -> float:
        """What doubling is worth: the taker answers in their own interest."""
        return min(self.futures.double_take, self.futures.double_pass)

    @property
    def holding_value(self) -> float:
        """What not doubling is worth (the cube stays live, with its later value)."""
        return self.futures.no_double

    @property
    def take_gap(self) -> float:
        return abs(self.futures.double_take - self.futures.double_pass)


def _futures(state: GameState, deep: bool) -> cube.CubeAnalysis:
    """The cube model's three futures for the doubler, from the chances before its roll:
    two plies deep (``deep``, the depth GNU Backgammon's 2-ply analysis reads the cube
    at: for each roll the best play, valued by a look-ahead over the replies) or the
    network's 0-ply estimate (the screen). Two plies deep with a cube that can be turned
    (``CUBE_TREE``), the cube is decided at every node of that look-ahead
    (``cube_root.tree_futures``); otherwise the chances averaged over it
    (``engine.ai.hints.two_ply_chances``) are valued once, as below.

    The model is the computer's (``engine.ai.levels.cube_analysis``), except under the
    Jacoby rule with the cube centred: gammons do not count while the cube stays in the
    middle, but they do once it is turned, so the double's futures see them, and so do
    the cash points of the cube kept centred (``cube.cubeful_jacoby``: playing on or
    cashing is worth one point, but each side passes a double sooner when it risks a
    gammon), as GNU Backgammon's cubeful evaluation does; the computer's own model leaves
    them out.
    """
    doubler = state.turn.other if state.phase is Phase.DOUBLED else state.turn
    if deep and CUBE_TREE and cube_tree.live(state):
        return cube_root.tree_futures(state, doubler)
    jacoby = state.config.jacoby_in_force and state.cube_owner is None
    variant, board = state.variant, state.checkers
    on, off = board[doubler], board[doubler.other]
    p = two_ply_chances(state, doubler) if deep else pre_roll(variant, on, off)
    if not jacoby and not state.rules.big_results_count(state.config, state.cube_value > 1):
        p = p.copy()
        p[1:] = 0.0  # "Oin": every result counts one point
    a, b = aways(state, doubler)
    c = valued_cube(state)
    x = cube.cube_efficiency(on, off)
    view = cube.View.of(variant, p, a, b, state.crawford_done, x, scale=state.cube_value // c)
    futures = cube.analyse(view, c, centred=state.cube_owner is None)
    if jacoby:
        futures = replace(futures, no_double=cube.cubeful_jacoby(view, c))
    return futures


def cube_values(state: GameState, deep: bool = True) -> CubeValues:
    """Value the three futures for the side about to roll (the doubler: the side on turn
    in ROLL, the other in DOUBLED) from a 2-ply estimate of the chances (``deep``, the
    depth of GNU Backgammon's analysis; the computer's own decisions read one ply) or the
    network's 0-ply one (as Medio)."""
    futures = _futures(state, deep)
    doubler = state.turn.other if state.phase is Phase.DOUBLED else state.turn
    a, b = aways(state, doubler)
    c, done = state.cube_value, state.crawford_done
    if state.config.money:  # valued at cube 1 (money scales with the stake): normalised
        unit = cube.met(a - 1, b, done) - cube.met(a, b - 1, done)
    else:
        unit = cube.met(a - c, b, done) - cube.met(a, b - c, done)
    return CubeValues(futures, max(unit / 2.0, 1e-6))


#: Value the cube decisions two plies deep with the cube decided at every node below the
#: root (``cube_root``, GNU Backgammon's n-ply cubeful evaluation) where a cube can be
#: turned (under the Jacoby rule with the cube centred, its leaves see the gammons through
#: the cash points); False: Janowski's model once, from the chances averaged over both rolls.
CUBE_TREE = True

#: A position not doubled whose 0-ply estimate says "no double" by this much normalised
#: equity or more is no cube decision at all: the 2-ply estimate (the cost of the
#: analysis) is skipped. Well above ``CLOSE_CUBE``, so a 2-ply estimate that would find
#: the decision close is rarely skipped.
CLEAR_NO_DOUBLE = 0.3


def _cube_review(
    index: int, state: GameState, kind: DecisionKind, chosen: bool, best: bool, loss: float
) -> Review:
    """A cube decision's review; its MWC loss is the normalised loss converted back."""
    doubler = state.turn.other if state.phase is Phase.DOUBLED else state.turn
    mwc = loss * match_unit(state, doubler)
    return Review(index, state.turn, kind, state, chosen, best, loss, mwc)


def _review_double(index: int, state: GameState, doubled: bool) -> Review | None:
    if not doubled:
        if not cube_is_live(state):
            return None  # a dead cube: not doubling is no decision
        quick = cube_values(state, deep=False)
        if quick.holding_value - quick.double_value >= CLEAR_NO_DOUBLE * quick.scale:
            return None
    values = cube_values(state)
    should = values.should_double
    gap = abs(values.double_value - values.holding_value) / values.scale
    if not doubled and not should and gap >= CLOSE_CUBE:
        return None  # no double where doubling was clearly wrong: not a close decision
    loss = gap if doubled is not should else 0.0
    return _cube_review(index, state, DecisionKind.DOUBLE, doubled, should, loss)


def _review_take(index: int, state: GameState, took: bool) -> Review:
    values = cube_values(state)
    should = values.taker_should_take
    gap = values.take_gap / values.scale
    loss = gap if took is not should else 0.0
    return _cube_review(index, state, DecisionKind.TAKE, took, should, loss)
