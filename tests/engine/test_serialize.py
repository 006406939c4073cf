"""JSON of the whole game state: versioned, compact (< 1 KB per game), exact round trips."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from engine import GameState, InvalidInputError, MatchConfig, Phase, SeriesStart, Variant
from engine.serialize import SCHEMA_VERSION, from_dict, from_json, to_dict, to_json


def states_of_a_random_game(variant: Variant, seed: int) -> list[GameState]:
    """Every state met in a random game, including mid-turn ones (after each step)."""
    rng = random.Random(seed)
    config = MatchConfig(
        variant, length=3, last_roll=variant is Variant.LONG, series_start=SeriesStart.ALTERNATE
    )
    state = GameState.new_match(config)
    out = [state]
    while state.phase is not Phase.MATCH_OVER and len(out) < 2000:
        if state.phase is Phase.OPENING:
            state = state.roll_opening(rng.randint(1, 6), rng.randint(1, 6))
        elif state.phase is Phase.GAME_OVER:
            state = state.next_game()
        elif state.phase is Phase.DOUBLED:
            state = state.take() if rng.random() < 0.7 else state.drop()
        elif state.phase is Phase.ROLL:
            state = (
                state.double()
                if state.cube_available and rng.random() < 0.05
                else state.roll(rng.randint(1, 6), rng.randint(1, 6))
            )
        else:
            plays = state.legal_plays()
            if plays:
                for step in rng.choice(plays).steps:
                    state = state.step(step)
                    out.append(state)
            state = state.confirm()
        out.append(state)
    return out


@pytest.mark.parametrize("variant", [Variant.CLASSIC, Variant.LONG])
def test_every_state_of_a_game_round_trips_exactly(variant):
    for state in states_of_a_random_game(variant, seed=11):
        text = to_json(state)
        again = from_json(text)
        assert again == state
        assert to_json(again) == text
        if again.phase is Phase.MOVE:
            assert [p.key for p in again.legal_plays()] == [p.key for p in state.legal_plays()]


@pytest.mark.parametrize("variant", [Variant.CLASSIC, Variant.LONG])
def test_json_of_a_game_stays_under_one_kilobyte(variant):
    sizes = [len(to_json(s).encode()) for s in states_of_a_random_game(variant, seed=12)]
    assert max(sizes) < 1024, max(sizes)


def test_document_carries_the_schema_version():
    doc = to_dict(GameState.new_match(MatchConfig()))
    assert doc["schema"] == SCHEMA_VERSION


@pytest.mark.parametrize(
    ("mutate", "words"),
    [
        (lambda d: d.update(schema=SCHEMA_VERSION + 1), "schema"),
        (lambda d: d.pop("ck"), "malformed"),
        (lambda d: d.update(ph="flying"), "malformed"),
        (lambda d: d["ck"][0].__setitem__(24, 3), "checkers"),
        (lambda d: d.update(cfg=["chess", 1, 1, 1, 0, "loser"]), "malformed"),
    ],
)
def test_a_bad_document_is_refused_with_a_reason(mutate, words):
    doc = json.loads(to_json(GameState.new_match(MatchConfig())))
    mutate(doc)
    with pytest.raises(InvalidInputError, match=words):
        from_dict(doc)


def test_text_that_is_not_json_is_refused():
    with pytest.raises(InvalidInputError, match="not JSON"):
        from_json("{nope")


STORED = Path(__file__).resolve().parents[1] / "data" / "stored" / "schema1_games.jsonl"


def stored_documents() -> list[dict]:
    return [json.loads(line) for line in STORED.read_text().splitlines() if line]


@pytest.mark.parametrize("doc", stored_documents(), ids=lambda d: f"{d['cfg'][0]}-{d['ph']}")
def test_a_document_stored_by_schema_1_still_loads_exactly(doc):
    # Written by the engine before GameState was split into match, game and turn parts:
    # the documents already in storage must read back field for field.
    state = from_dict(doc)
    assert to_dict(state) == doc
    assert [list(c) for c in state.checkers] == doc["ck"]
    assert list(state.score) == doc["sc"]
    assert (state.phase.value, int(state.turn), state.cube_value) == (
        doc["ph"],
        doc["tu"],
        doc["cv"],
    )
    assert [[s.src, s.dst, s.die, int(s.hit)] for s in state.steps] == doc.get("sp", [])
    if state.phase is Phase.MOVE:
        assert [list(c) for c in state.turn_start] == doc["ts"]
        assert list(state.dice) == doc["dc"]
        assert state.play_complete or state.legal_steps()


def test_the_stored_documents_cover_every_phase_and_a_turn_in_progress():
    docs = stored_documents()
    for variant in ("classic", "long"):
        phases = {d["ph"] for d in docs if d["cfg"][0] == variant}
        assert {"opening", "roll", "move", "game_over", "match_over"} <= phases
        assert any(d.get("sp") and d["cfg"][0] == variant for d in docs)
