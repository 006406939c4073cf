"""Property tests (hypothesis) of the move generator and of whole random games."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from engine import GameState, MatchConfig, Phase, ResultKind, Variant
from engine.board import BAR, CHECKERS, LONG_OPPOSITE, OFF, pips, validate
from engine.movegen import TurnGenerator, makes_block, roll_dice
from engine.notation import format_play

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
DICE = st.tuples(st.integers(1, 6), st.integers(1, 6))


def play_random(variant: Variant, seed: int, max_turns: int = 600) -> list[tuple]:
    """Play a random game; return (state in MOVE phase) snapshots and the final state."""
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


@st.composite
def positions(draw, variant: Variant):
    """A mid-game position from a random game, and a roll to try on it."""
    states = play_random(variant, draw(st.integers(0, 10_000)), max_turns=draw(st.integers(3, 80)))
    moving = [s for s in states if s.phase is Phase.MOVE]
    assume(moving)  # a short game may still be in its opening rolls (ties)
    state = moving[-1]
    mine, theirs = state.turn_start[state.turn], state.turn_start[state.turn.other]
    return mine, theirs, draw(DICE)


def check_plays(variant: Variant, mine, theirs, dice) -> None:
    gen = TurnGenerator(variant, roll_dice(*dice), 1)
    plays = gen.plays(mine, theirs)
    if not plays:
        # no play: no single step is possible with either die
        assert not gen.children(mine, theirs, gen.dice, 0)
        return
    used = {len(p.steps) for p in plays}
    assert len(used) == 1, "every legal play uses the same (maximum) number of dice"
    n = used.pop()
    # maximum usage: no sequence of steps can use more dice than the plays do
    frontier = [(mine, theirs, gen.dice, 0)]
    for _ in range(n):
        frontier = list(
            {(m, t, rest, h) for node in frontier for (_, m, t, h), rest in gen.children(*node)}
        )
    assert all(not gen.children(*node) for node in frontier) or n == len(gen.dice)
    assert len({p.key for p in plays}) == len(plays), "plays are distinct positions"
    for play in plays:
        assert sum(play.mine) == CHECKERS and sum(play.theirs) == CHECKERS
        validate(play.mine, play.theirs, variant)
        dropped = pips(mine) - pips(play.mine)
        if not any(s.dst == OFF for s in play.steps):
            assert dropped == sum(s.die for s in play.steps)
        else:
            assert dropped <= sum(s.die for s in play.steps)
        m, t = list(mine), list(theirs)
        for s in play.steps:  # replay: every landing point is open when landed on
            if variant is Variant.CLASSIC and s.dst != OFF:
                assert t[25 - s.dst] <= 1, "no step lands on or passes a closed point"
                if t[25 - s.dst] == 1:
                    assert s.hit
                    t[25 - s.dst] -= 1
                    t[BAR] += 1
            m[s.src] -= 1
            m[s.dst] += 1
            if variant is Variant.LONG and s.dst != OFF:
                assert theirs[LONG_OPPOSITE[s.dst]] == 0, "no step lands on a closed point"
                assert not makes_block(m, theirs, s.dst) or m[s.dst] > 1
        assert tuple(m) == play.mine and tuple(t) == play.theirs
        assert format_play(play)


@SETTINGS
@given(positions(Variant.CLASSIC))
def test_classic_plays_conserve_checkers_use_max_dice_and_drop_pips_by_the_dice(case):
    check_plays(Variant.CLASSIC, *case)


@SETTINGS
@given(positions(Variant.LONG))
def test_long_plays_conserve_checkers_use_max_dice_and_drop_pips_by_the_dice(case):
    check_plays(Variant.LONG, *case)


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
