"""Property tests (hypothesis): the engine against a brute-force reference, and whole games.

The reference (``reference_moves``) is written from docs/RULES.md, not from the engine; a property
that only re-read the engine's own output could never notice a play it failed to find.
Positions are drawn to reach the rules' corners: checkers on the bar and closed entry
points, bear-offs (exact die, a higher die, a checker still outside), six-point blocks
with and without an opposing checker past them, and long's first turns (6-6, 4-4, 3-3 for
either side, Black's 4-4 after White's 5-5).
"""

from __future__ import annotations

import random

from engine_support import move_state
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from reference_moves import CLASSIC, LONG, Reference, opposite, reference, single_steps

from engine import GameState, MatchConfig, Phase, ResultKind, Side, Variant
from engine.board import CHECKERS, OFF, SIZE, pips, start, validate

#: Derandomised: the same examples on every run, so that a failure is reproducible and the
#: strength measured by planting bugs does not change from run to run.
SETTINGS = settings(
    max_examples=500,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
DICE = st.tuples(st.integers(1, 6), st.integers(1, 6))
#: Doubles as often as the rest: four steps are where order, dead ends and blocks bite.
ROLLS = st.one_of(st.integers(1, 6).map(lambda d: (d, d)), DICE)


# --------------------------------------------------------------------------- positions
def _spread(rng: random.Random, counts: list[int], points: list[int], n: int) -> None:
    for _ in range(n):
        counts[rng.choice(points)] += 1


def _opponent(
    rng: random.Random, variant: str, mine: list[int], places: list[int], n: int
) -> list[int]:
    """``n`` opposing checkers on my points ``places`` that I do not hold (their numbering)."""
    theirs = [0] * SIZE
    free = [p for p in places if mine[p] == 0]
    for _ in range(n):
        if not free:
            break
        theirs[opposite(variant, rng.choice(free))] += 1
    theirs[OFF] += CHECKERS - sum(theirs)
    return theirs


def _made_points(rng: random.Random, variant: str, mine: list[int], places: list[int]) -> list[int]:
    """The opponent in pairs on points I do not hold among ``places`` (their numbering)."""
    theirs = [0] * SIZE
    free = [p for p in places if mine[p] == 0]
    for p in rng.sample(free, min(len(free), rng.randint(2, 6))):
        theirs[opposite(variant, p)] += 2
    theirs[OFF] += CHECKERS - sum(theirs)
    return theirs


def classic_position(rng: random.Random) -> tuple[tuple[int, ...], tuple[int, ...]]:
    mine = [0] * SIZE
    mode = rng.choice(["middle", "bar", "bear-off", "bear-off", "race", "jammed", "jammed"])
    if mode == "jammed":
        # One to five checkers facing made points: often only one die, or none, can be
        # played (the larger-die rule), and with doubles some first steps lead nowhere.
        mine[OFF] = rng.choice([10, 12, 13, 14, 14, 14])
        _spread(rng, mine, [25, *range(14, 25)], 15 - mine[OFF])
    elif mode == "bar":
        mine[25] = rng.randint(1, 3)
        _spread(rng, mine, list(range(1, 25)), rng.randint(4, 12))
    elif mode == "bear-off":
        mine[OFF] = rng.randint(0, 12)
        home = rng.sample(range(1, 7), rng.randint(1, 4))
        _spread(rng, mine, home, rng.randint(1, 15 - mine[OFF]))
        if rng.random() < 0.25:
            mine[rng.randint(7, 9)] += 1  # a straggler: no bearing off yet
    elif mode == "race":
        _spread(rng, mine, list(range(1, 13)), rng.randint(5, 15))
    else:
        _spread(rng, mine, rng.sample(range(1, 25), rng.randint(3, 9)), 15)
    mine[OFF] += CHECKERS - sum(mine)
    # The opponent: often on my entry points (their home), with blots and made points.
    places = list(range(19, 25)) * 3 + list(range(1, 25)) if mode == "bar" else list(range(1, 25))
    if mode == "jammed":
        top = max(p for p in range(1, 26) if mine[p])
        theirs = _made_points(rng, CLASSIC, mine, list(range(max(1, top - 13), min(top, 25))))
    else:
        theirs = _opponent(rng, CLASSIC, mine, places, rng.randint(6, 15))
    if rng.random() < 0.2 and theirs[OFF]:
        theirs[OFF] -= 1
        theirs[25] += 1
    return tuple(mine), tuple(theirs)


def long_position(rng: random.Random) -> tuple[tuple[int, ...], tuple[int, ...]]:
    mine = [0] * SIZE
    mode = rng.choice(["early", "block", "block", "bear-off", "middle", "jammed"])
    if mode == "jammed":
        mine[OFF] = rng.choice([10, 12, 13, 14, 14, 14])
        _spread(rng, mine, list(range(13, 25)), 15 - mine[OFF])
    elif mode == "early":
        mine[24] = rng.randint(8, 14)
        _spread(rng, mine, list(range(13, 24)), 15 - mine[24])
    elif mode == "block":
        # Four or five points in a row along the opponent's path: one step can make six.
        path = [*range(12, 0, -1), *range(24, 12, -1)]
        first = rng.randint(0, 18)
        run = path[first : first + rng.randint(4, 5)]
        for p in run:
            mine[p] += 1
        _spread(rng, mine, [*run, *path[max(0, first - 6) : first + 11]], 15 - len(run))
    elif mode == "bear-off":
        mine[OFF] = rng.randint(0, 12)
        home = rng.sample(range(1, 7), rng.randint(1, 4))
        _spread(rng, mine, home, rng.randint(1, 15 - mine[OFF]))
        if rng.random() < 0.25:
            mine[rng.randint(7, 9)] += 1
    else:
        _spread(rng, mine, rng.sample(range(1, 25), rng.randint(3, 10)), 15)
    mine[OFF] += CHECKERS - sum(mine)
    # The opponent: sometimes only behind a block, sometimes already past it.
    places = list(range(1, 25))
    if mode == "block" and rng.random() < 0.5:
        places = [*range(12, 0, -1)][: rng.randint(1, 12)]
    if mode == "jammed":
        top = max(p for p in range(1, 25) if mine[p])
        theirs = _made_points(rng, LONG, mine, list(range(max(1, top - 13), top)))
    else:
        theirs = _opponent(rng, LONG, mine, places, rng.randint(3, 15))
    return tuple(mine), tuple(theirs)


# --------------------------------------------------------------------------- the comparison
def rules_of(state: GameState) -> tuple[list[int], int]:
    """The dice to play and the head allowance, from docs/RULES.md#long-head-rule."""
    d1, d2 = state.dice
    dice = [d1] * 4 if d1 == d2 else sorted([d1, d2], reverse=True)
    if state.variant is Variant.CLASSIC:
        return dice, 15
    first = not state.has_moved[state.turn]
    if first and d1 == d2 == 4 and state.turn is Side.BLACK and state.white_first_roll == (5, 5):
        return [4], 1
    return dice, 2 if first and d1 == d2 and d1 in (3, 4, 6) else 1


def check_against_reference(state: GameState, rng: random.Random) -> None:
    """Every legal play found and none extra; the steps and the buttons agree too."""
    variant = CLASSIC if state.variant is Variant.CLASSIC else LONG
    mine, theirs = state.turn_start[state.turn], state.turn_start[state.turn.other]
    dice, head_limit = rules_of(state)
    ref = reference(variant, mine, theirs, state.dice, head_limit, dice)
    plays = state.legal_plays()
    keys = [p.key for p in plays]
    assert set(keys) == ref.positions, "every legal play is found, and nothing else"
    assert len(set(keys)) == len(keys), "plays are distinct positions"
    larger = max(dice)
    single_die_possible = ref.used == 1 and len(dice) == 2 and dice[0] != dice[1]
    larger_playable = any(s.die == larger for s, _ in ref.children(ref.root))
    for play in plays:
        assert len(play.steps) == ref.used, "every play uses the most dice possible"
        if single_die_possible and larger_playable:
            assert play.steps[0].die == larger, "one die only: the larger one"
        node = ref.root
        for step in play.steps:  # each step is a legal single step of the reference
            options = {(s.src, s.dst, s.die, s.hit): n for s, n in ref.children(node)}
            key = (step.src, step.dst, step.die, step.hit)
            assert key in options, f"{step} is not a legal step here"
            node = options[key]
        assert (node[0], node[1]) == play.key
        validate(play.mine, play.theirs, state.variant)
        assert sum(play.mine) == CHECKERS and sum(play.theirs) == CHECKERS
        dropped = pips(mine) - pips(play.mine)
        if not any(s.dst == OFF for s in play.steps):
            assert dropped == sum(s.die for s in play.steps), "pips drop by the dice used"
    assert state.play_complete == (not plays)
    # Build one play step by step, checking the buttons against the reference each time.
    node = ref.root
    made = 0
    while True:
        want = {(s.src, s.dst, s.hit) for s, _ in ref.good_steps(node, made)}
        got = {(s.src, s.dst, s.hit) for s in state.legal_steps()}
        assert got == want, f"legal steps after {state.steps}"
        if not got:
            break
        step = rng.choice(state.legal_steps())
        state = state.step(step)
        node = next(
            n
            for s, n in ref.children(node)
            if (s.src, s.dst, s.die)
            == (
                step.src,
                step.dst,
                step.die,
            )
        )
        made += 1
    assert state.play_complete, "a play built from legal steps is complete"
    assert (state.checkers[state.turn], state.checkers[state.turn.other]) in ref.positions | {
        (mine, theirs)
    }
    state.confirm()


def _state(variant: Variant, mine, theirs, dice, side: Side, **kw) -> GameState:
    return move_state(variant, mine, theirs, dice, side=side, **kw)


@SETTINGS
@given(st.integers(0, 2**32), ROLLS, st.sampled_from(list(Side)))
def test_classic_plays_match_the_reference(seed, dice, side):
    rng = random.Random(seed)
    mine, theirs = classic_position(rng)
    check_against_reference(_state(Variant.CLASSIC, mine, theirs, dice, side), rng)


@SETTINGS
@given(st.integers(0, 2**32), ROLLS, st.sampled_from(list(Side)), st.booleans())
def test_long_plays_match_the_reference(seed, dice, side, first_turn):
    rng = random.Random(seed)
    mine, theirs = long_position(rng)
    first_turn = first_turn and mine[24] >= 2  # a first turn still has checkers on the head
    state = _state(Variant.LONG, mine, theirs, dice, side, first_turn=first_turn)
    check_against_reference(state, rng)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(
    st.sampled_from([Variant.CLASSIC, Variant.LONG]),
    st.tuples(st.integers(1, 6), st.integers(1, 6)).filter(lambda d: d[0] != d[1]),
    st.integers(0, 2**32),
)
def test_one_lone_checker_that_can_use_either_die_but_not_both(variant, dice, seed):
    """The larger-die rule: the point both dice lead to is closed, the points on the way
    often open, so either die alone may be playable and the larger one must be played."""
    rng = random.Random(seed)
    name = CLASSIC if variant is Variant.CLASSIC else LONG
    a, b = dice
    mine = [0] * SIZE
    src = rng.choice([25, *range(13, 25)] if name == CLASSIC else range(a + b + 1, 25))
    mine[src], mine[OFF] = 1, 14
    theirs = [0] * SIZE
    land = src - a - b
    for p in {land, src - a, src - b, rng.randint(1, 24)}:
        if 1 <= p <= 24 and (p == land or rng.random() < 0.3) and mine[p] == 0:
            theirs[opposite(name, p)] = 2
    theirs[OFF] = CHECKERS - sum(theirs)
    state = _state(variant, tuple(mine), tuple(theirs), dice, rng.choice(list(Side)))
    check_against_reference(state, rng)


@settings(max_examples=200, deadline=None, derandomize=True)
@given(DICE, st.sampled_from(list(Side)), st.integers(0, 2**32))
def test_long_first_turns_match_the_reference_for_either_side(dice, side, seed):
    """The head rule's exceptions: 6-6, 4-4, 3-3 on a first turn, from the start or after
    the opponent's first move, and Black's 4-4 after White's opening 5-5."""
    rng = random.Random(seed)
    begin = start(Variant.LONG)
    theirs = begin
    if rng.random() < 0.5:  # the opponent has already made a first move
        t = list(begin)
        for _ in range(rng.randint(1, 2)):
            t[24] -= 1
            t[rng.randint(13, 23)] += 1
        theirs = tuple(t)
    white_first = (5, 5) if side is Side.BLACK and rng.random() < 0.5 else None
    if white_first is not None and rng.random() < 0.7:
        dice = (4, 4)
    state = _state(
        Variant.LONG, begin, theirs, dice, side, first_turn=True, white_first_roll=white_first
    )
    check_against_reference(state, rng)


@settings(max_examples=60, deadline=None, derandomize=True)
@given(st.sampled_from([Variant.CLASSIC, Variant.LONG]), st.integers(0, 2**32))
def test_positions_of_random_games_match_the_reference(variant, seed):
    rng = random.Random(seed)
    for state in play_random(variant, seed, max_turns=rng.randint(3, 90))[-3:]:
        if state.phase is Phase.MOVE:
            check_against_reference(state, rng)


# --------------------------------------------------------------------------- whole games
def play_random(variant: Variant, seed: int, max_turns: int = 600) -> list[GameState]:
    """Play a random game; return the states in the MOVE phase, then the final state."""
    rng = random.Random(seed)
    state = GameState.new_match(MatchConfig(variant, last_roll=rng.random() < 0.5))
    seen = []
    for _ in range(max_turns):
        if state.is_over:
            break
        if state.phase is Phase.OPENING:
            state = state.roll_opening(rng.randint(1, 6), rng.randint(1, 6))
            continue
        if state.phase is Phase.ROLL:
            state = state.roll(rng.randint(1, 6), rng.randint(1, 6))
        seen.append(state)
        plays = state.legal_plays()
        state = state.play(rng.choice(plays)) if plays else state.confirm()
    return [*seen, state]


@settings(max_examples=15, deadline=None)
@given(st.sampled_from([Variant.CLASSIC, Variant.LONG]), st.integers(0, 100_000))
def test_a_random_game_always_terminates_with_a_valid_result(variant, seed):
    final = play_random(variant, seed, max_turns=2000)[-1]
    assert final.is_over, "a random game must end"
    r = final.result
    kinds = {
        Variant.CLASSIC: {ResultKind.SINGLE, ResultKind.GAMMON, ResultKind.BACKGAMMON},
        Variant.LONG: {ResultKind.OIN, ResultKind.MARS, ResultKind.DRAW},
    }
    assert r.kind in kinds[variant]
    if r.winner is not None:
        assert final.checkers[r.winner][OFF] == CHECKERS
        assert r.points >= 1
    else:
        assert all(c[OFF] == CHECKERS for c in final.checkers)


def test_the_reference_itself_knows_the_basic_rules():
    """A few facts of docs/RULES.md, so that a broken reference cannot pass silently."""
    c_start = start(Variant.CLASSIC)
    ref = reference(CLASSIC, c_start, c_start, (3, 1))
    assert ref.used == 2 and len(ref.positions) == 16  # the opening 3-1 has 16 plays
    bar = [0] * SIZE
    bar[25], bar[OFF] = 1, 14
    closed = [0] * SIZE
    for q in range(1, 7):
        closed[q] = 2
    closed[OFF] = 3
    assert isinstance(reference(CLASSIC, tuple(bar), tuple(closed), (6, 5)), Reference)
    assert reference(CLASSIC, tuple(bar), tuple(closed), (6, 5)).used == 0  # all closed
    l_start = start(Variant.LONG)
    assert reference(LONG, l_start, l_start, (6, 5), 1).used == 2
    assert {m for m, _ in reference(LONG, l_start, l_start, (6, 5), 1).positions} == {
        tuple(1 if p == 13 else 14 if p == 24 else 0 for p in range(SIZE))
    }
    assert single_steps(LONG, l_start, l_start, 6, 1, 1) == []  # the head is used up
