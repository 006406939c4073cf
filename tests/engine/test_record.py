"""The game record: built by following the engine's transitions, replayed through the
engine to the same final state, written and read back as a compact document, and bad
documents or illegal histories refused."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from typing import Any

import pytest

from engine import (
    DecisionKind,
    Double,
    Drop,
    End,
    EndReason,
    GameRecord,
    GameState,
    InvalidInputError,
    MatchConfig,
    Move,
    OpeningRoll,
    Phase,
    Play,
    Resign,
    ResultKind,
    Roll,
    Side,
    Take,
    Timeout,
    Variant,
    to_dict,
)


def play_game(
    seed: int,
    config: MatchConfig,
    *,
    state: GameState | None = None,
    resign_at: int | None = None,
    timeout_at: int | None = None,
    stepwise: bool = False,
) -> tuple[GameRecord, GameState]:
    """A whole game with random dice and random choices, recorded as the bot records it."""
    rng = random.Random(seed)
    state = state or GameState.new_match(config)
    record = GameRecord.start(state)
    turns = 0
    while not state.is_over:
        before = state
        turns += 1
        if resign_at is not None and turns == resign_at and state.phase is not Phase.OPENING:
            side = state.turn
            levels = state.resign_levels(side)
            record = record.with_declined_resign(side, levels[-1].kind)
            state = state.resign(side, levels[0].kind)
        elif timeout_at is not None and turns == timeout_at:
            state = state.timeout(state.turn)
        elif state.phase is Phase.OPENING:
            state = state.roll_opening(rng.randint(1, 6), rng.randint(1, 6))
        elif state.phase is Phase.ROLL:
            if state.cube_available and rng.random() < 0.05:
                state = state.double()
            else:
                state = state.roll(rng.randint(1, 6), rng.randint(1, 6))
        elif state.phase is Phase.DOUBLED:
            state = state.take() if rng.random() < 0.7 else state.drop()
        else:
            plays = state.legal_plays()
            if not plays:
                state = state.confirm()
            elif stepwise:
                for step in rng.choice(plays).steps:
                    after_step = state.step(step)
                    record = record.follow(state, after_step)
                    state = after_step
                    before = state
                state = state.confirm()
            else:
                state = state.play(rng.choice(plays))
        record = record.follow(before, state)
    return record, state


CLASSIC_MATCH = MatchConfig(Variant.CLASSIC, length=5)
LONG_GAME = MatchConfig(Variant.LONG, length=1, last_roll=True)


def _comparable(state: GameState) -> dict[str, Any]:
    doc = to_dict(state)
    doc.pop("lw", None)  # the previous game's winner: not part of this game
    return doc


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("config", [CLASSIC_MATCH, LONG_GAME], ids=["classic", "long"])
def test_replay_reproduces_the_final_state(seed: int, config: MatchConfig) -> None:
    record, final = play_game(seed, config, stepwise=seed % 2 == 1)
    assert record.finished
    assert record.result == final.result
    assert _comparable(record.final_state()) == _comparable(final)
    again = GameRecord.from_doc(json.loads(json.dumps(record.to_doc())))
    assert again == record
    assert _comparable(again.final_state()) == _comparable(final)


def test_replay_gives_each_event_with_the_state_before_it() -> None:
    record, _ = play_game(3, CLASSIC_MATCH)
    pairs = list(record.replay())
    assert [event for _, event in pairs] == list(record.events)
    first_state, first_event = pairs[0]
    assert first_state.phase is Phase.OPENING
    assert isinstance(first_event, OpeningRoll)
    for state, event in pairs:
        if isinstance(event, Roll):
            assert state.phase is Phase.ROLL
        if isinstance(event, Move):
            assert state.phase is Phase.MOVE
            assert not state.steps
    assert isinstance(pairs[-1][1], End)


def test_opening_ties_are_recorded_and_dice_counted() -> None:
    state = GameState.new_match(MatchConfig(Variant.CLASSIC))
    record = GameRecord.start(state)
    for dice in ((3, 3), (3, 3), (5, 2)):
        after = state.roll_opening(*dice)
        record = record.follow(state, after)
        state = after
    # passing the same state again (a caption-only change) records nothing
    assert record.follow(state, state) == record
    assert record.events == (OpeningRoll((3, 3)), OpeningRoll((3, 3)), OpeningRoll((5, 2)))
    assert record.dice == [3, 3, 3, 3, 5, 2]
    assert record.dice_count == 6
    assert state.phase is Phase.MOVE  # classic: the opening roll is played
    assert record.final_state() == state


def test_steps_and_take_backs_record_only_the_confirmed_play() -> None:
    state = GameState.new_match(MatchConfig(Variant.CLASSIC)).roll_opening(3, 1)
    record = GameRecord.start(GameState.new_match(MatchConfig(Variant.CLASSIC)))
    record = record.follow(GameState.new_match(MatchConfig(Variant.CLASSIC)), state)
    stepped = state.step((24, 21, 3))
    taken_back = stepped.undo()
    moves = [stepped, taken_back, taken_back.step((8, 5, 3)).step((6, 5, 1))]
    before = state
    for after in moves:
        record = record.follow(before, after)
        before = after
    assert len(record.events) == 1
    confirmed = before.confirm()
    record = record.follow(before, confirmed)
    move = record.events[-1]
    assert isinstance(move, Move)
    assert [(s.src, s.dst, s.die) for s in move.steps] == [(8, 5, 3), (6, 5, 1)]
    assert record.to_doc()["ev"] == ["o31", "m8:3,6:1"]


def test_cube_actions_and_decisions() -> None:
    config = MatchConfig(Variant.CLASSIC, length=7)
    s0 = GameState.new_match(config)
    s1 = s0.roll_opening(3, 1)
    s2 = s1.play(s1.legal_plays()[0])
    s3 = s2.double()
    s4 = s3.take()
    s5 = s4.roll(6, 5)
    record = GameRecord.start(s0)
    for before, after in ((s0, s1), (s1, s2), (s2, s3), (s3, s4), (s4, s5)):
        record = record.follow(before, after)
    assert record.events[2:] == (Double(), Take(), Roll((6, 5)))
    decisions = record.decisions()
    kinds = [(d.kind, d.chosen if isinstance(d.chosen, bool) else "play") for d in decisions]
    # player 1 owns the cube after taking, so the roll at s4 was no decision to double
    assert kinds == [
        (DecisionKind.PLAY, "play"),
        (DecisionKind.DOUBLE, True),
        (DecisionKind.TAKE, True),
    ]
    play = decisions[0]
    assert isinstance(play.chosen, Play)
    assert play.state == s1
    assert play.state.phase is Phase.MOVE
    assert play.chosen.key == (s2.checkers[Side.WHITE], s2.checkers[Side.BLACK])
    assert play.side is Side.WHITE
    assert decisions[1].state.phase is Phase.ROLL
    assert decisions[2].state.phase is Phase.DOUBLED
    s6 = s5.play(s5.legal_plays()[0])
    assert s6.cube_available  # White took, so White owns the cube and may redouble
    s7 = s6.roll(2, 1)
    s8 = s7.play(s7.legal_plays()[0])
    assert not s8.cube_available  # Black does not own the cube
    s9 = s8.roll(4, 4)
    for before, after in ((s5, s6), (s6, s7), (s7, s8), (s8, s9)):
        record = record.follow(before, after)
    cube = [d for d in record.decisions() if d.kind is DecisionKind.DOUBLE]
    assert [(d.chosen, d.state) for d in cube] == [(True, s2), (False, s6)]


def test_a_drop_ends_the_game_and_the_record() -> None:
    s0 = GameState.new_match(MatchConfig(Variant.CLASSIC, length=3))
    s1 = s0.roll_opening(6, 1)
    s2 = s1.play(s1.legal_plays()[0])
    s3 = s2.double()
    s4 = s3.drop()
    record = GameRecord.start(s0)
    for before, after in ((s0, s1), (s1, s2), (s2, s3), (s3, s4)):
        record = record.follow(before, after)
    assert record.events[-2:] == (Drop(), End(s4.result))  # type: ignore[arg-type]
    assert record.finished
    assert record.to_doc()["ev"][-1] == "E1sd1x1"  # Black doubled, White passed
    decisions = record.decisions()
    assert (decisions[-1].kind, decisions[-1].chosen) == (DecisionKind.TAKE, False)
    with pytest.raises(InvalidInputError, match="closed"):
        record.with_event(Take())


def test_resignations_declined_and_accepted() -> None:
    record, final = play_game(11, MatchConfig(Variant.CLASSIC), resign_at=20)
    assert final.result is not None and final.result.reason is EndReason.RESIGNED
    declined, accepted = (e for e in record.events if isinstance(e, Resign))
    assert not declined.accepted and accepted.accepted
    assert accepted.kind is final.result.kind
    assert declined.side is accepted.side
    assert record.final_state().result == final.result
    assert GameRecord.from_doc(record.to_doc()) == record


@pytest.mark.parametrize("at", [1, 30])
def test_timeouts(at: int) -> None:
    record, final = play_game(5, LONG_GAME, timeout_at=at)
    assert final.result is not None and final.result.reason is EndReason.TIMEOUT
    assert isinstance(record.events[-2], Timeout)
    assert record.final_state().result == final.result


def test_a_later_game_of_a_series_starts_from_its_own_conditions() -> None:
    config = MatchConfig(Variant.CLASSIC, length=3)
    first = next(
        final
        for seed in range(20)
        if (final := play_game(seed, config)[1]).phase is Phase.GAME_OVER
    )
    nxt = first.next_game()
    record, final = play_game(9, config, state=nxt)
    assert record.game_number == 2
    assert record.score == first.score
    assert record.white_player == first.white_player
    assert _comparable(record.final_state()) == _comparable(final)
    # the transition into another game records nothing in the finished one
    old, _ = play_game(2, config)
    assert old.follow(first, nxt) == old


def test_a_long_series_game_started_by_the_rules_has_no_opening() -> None:
    config = MatchConfig(Variant.LONG, length=3)
    _, first = play_game(1, config)
    assert first.phase is Phase.GAME_OVER
    nxt = first.next_game()
    assert nxt.phase is Phase.ROLL  # the loser starts: no opening roll
    record, final = play_game(4, config, state=nxt)
    assert not record.opening
    assert isinstance(record.events[0], Roll)
    assert _comparable(record.final_state()) == _comparable(final)
    assert GameRecord.from_doc(record.to_doc()) == record


def test_a_record_starts_before_the_first_roll() -> None:
    state = GameState.new_match(MatchConfig(Variant.CLASSIC)).roll_opening(4, 2)
    with pytest.raises(InvalidInputError, match="before the game's first roll"):
        GameRecord.start(state)


# --------------------------------------------------------------------------- bad documents
def _good_doc() -> dict[str, Any]:
    record, _ = play_game(7, CLASSIC_MATCH)
    return record.to_doc()


@pytest.mark.parametrize(
    ("change", "match"),
    [
        (lambda d: d.update(v=2), "version"),
        (lambda d: d.update(v=True), "version"),
        (lambda d: d.pop("ev"), "missing"),
        (lambda d: d.update(cfg=["chess", 1, 1, 1, 0, "loser"]), "malformed"),
        (lambda d: d.update(cfg=["classic", -1, 1, 1, 0, "loser"]), "match length"),
        (lambda d: d.update(sc=[5, 0]), "over before"),
        (lambda d: d.update(sc=[True, 0]), "score"),
        (lambda d: d.update(wp=2), "white player"),
        (lambda d: d.update(ev="o31"), "events"),
        (lambda d: d["ev"].insert(0, "o71"), "event"),
        (lambda d: d["ev"].insert(1, "m24:3,13:1,8:2,6:1,5:1"), "four steps"),
        (lambda d: d["ev"].insert(1, "m26:3"), "step"),
        (lambda d: d["ev"].insert(1, 17), "event"),
        (lambda d: d["ev"].insert(1, "x" * 100), "event"),
        (lambda d: d["ev"].insert(1, "E0sp1x3"), "result"),
        (lambda d: d["ev"].insert(1, "E-sp1x1"), "result"),
        (lambda d: d["ev"].insert(1, d["ev"][-1]), "last event"),
        (lambda d: d["ev"].extend(["x"] * 5000), "at most"),
    ],
)
def test_malformed_documents_are_refused(change: Any, match: str) -> None:
    doc = _good_doc()
    change(doc)
    with pytest.raises(InvalidInputError, match=match):
        GameRecord.from_doc(doc)


@pytest.mark.parametrize("doc", [None, [], "record", 3])
def test_documents_that_are_not_objects_are_refused(doc: Any) -> None:
    with pytest.raises(InvalidInputError, match="JSON object"):
        GameRecord.from_doc(doc)


@pytest.mark.parametrize(
    "tamper",
    [
        lambda ev: ev.__setitem__(1, "r65") if ev[1].startswith("m") else ev.insert(1, "r65"),
        lambda ev: ev.__setitem__(-1, "E1gp2x1" if ev[-1][1] == "0" else "E0gp2x1"),
        lambda ev: ev.insert(len(ev) - 1, "t"),
    ],
)
def test_histories_the_engine_refuses_fail_on_replay(tamper: Any) -> None:
    doc = _good_doc()
    tamper(doc["ev"])
    record = GameRecord.from_doc(doc)  # well-formed...
    with pytest.raises(InvalidInputError, match="event"):
        record.final_state()  # ...but not a game the engine lets happen


def test_a_step_recorded_without_its_hit_is_refused() -> None:
    for seed in range(40):
        record, _ = play_game(seed, CLASSIC_MATCH)
        doc = record.to_doc()
        hits = [i for i, e in enumerate(doc["ev"]) if "*" in e]
        if hits:
            doc["ev"][hits[0]] = doc["ev"][hits[0]].replace("*", "")
            with pytest.raises(InvalidInputError, match="not as played"):
                GameRecord.from_doc(doc).final_state()
            return
    pytest.fail("no random game hit a blot")


def test_a_record_is_a_value() -> None:
    record, _ = play_game(1, LONG_GAME)
    with pytest.raises(AttributeError):
        record.events = ()  # type: ignore[misc]
    assert replace(record, events=record.events[:2]) != record
    assert record.result is not None and record.result.kind in ResultKind
