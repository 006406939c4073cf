"""The table keeps its game's record as the flow moves it: every roll and play, offers to
resign declined and accepted, a fresh record for the next game, and all of it (with the
dice proof) through the stored document."""

from __future__ import annotations

import pytest

from bot.game import flow
from bot.game.dice import DiceProof
from bot.game.flow import Refusal
from bot.game.table import Player, Table
from engine import (
    End,
    GameRecord,
    GameState,
    MatchConfig,
    Move,
    OpeningRoll,
    Resign,
    ResultKind,
    Roll,
    SeededDice,
    Side,
    Variant,
    derive_dice,
    dice_commitment,
)

SEED = "5e" * 32
ANNA, BRUNO = 0, 1


class Dice:
    """Scripted dice: every value the flow asks for must have been queued."""

    def __init__(self, dice: tuple[int, ...] = (), rolls: tuple[tuple[int, int], ...] = ()):
        self.dice = list(dice)
        self.rolls = list(rolls)

    def die(self) -> int:
        return self.dice.pop(0)

    def roll(self) -> tuple[int, int]:
        return self.rolls.pop(0)


def new_table(variant: Variant = Variant.CLASSIC, length: int = 1) -> Table:
    return Table(
        GameState.new_match(MatchConfig(variant, length)),
        (Player(1, "Anna"), Player(2, "Bruno")),
    )


def ok(result: Table | Refusal) -> Table:
    assert isinstance(result, Table), result
    return result


def test_the_opening_and_plays_are_recorded() -> None:
    table = flow.advance(new_table(), Dice((2, 2, 3, 1)))  # a tie first
    assert table.record is not None
    assert table.record.events == (OpeningRoll((2, 2)), OpeningRoll((3, 1)))
    played = flow.confirm(table.with_state(table.state.step((8, 5, 3)).step((6, 5, 1))))
    assert played.record is not None
    move = played.record.events[-1]
    assert isinstance(move, Move) and [s.src for s in move.steps] == [8, 6]
    rolled = flow.advance(played, Dice(rolls=((6, 5),)))  # no cube in one point: rolled
    assert rolled.record is not None and rolled.record.events[-1] == Roll((6, 5))
    assert rolled.record.final_state() == rolled.state


def test_declined_and_accepted_resignations_are_recorded() -> None:
    table = flow.advance(new_table(), Dice((3, 1)))
    asked = ok(flow.apply_action(table, BRUNO, "a", ()))
    offered = ok(flow.apply_action(asked, BRUNO, "o", (2,)))
    declined = ok(flow.apply_action(offered, ANNA, "z", ()))
    assert declined.record is not None
    assert declined.record.events[-1] == Resign(Side.BLACK, ResultKind.GAMMON, accepted=False)
    asked_again = ok(flow.apply_action(declined, BRUNO, "a", ()))
    offered_again = ok(flow.apply_action(asked_again, BRUNO, "o", (1,)))
    again = ok(flow.apply_action(offered_again, ANNA, "k", ()))
    assert again.record is not None and again.record.finished
    assert sum(isinstance(e, Resign) for e in again.record.events) == 2
    resign, end = again.record.events[-2:]
    assert resign == Resign(Side.BLACK, ResultKind.SINGLE, accepted=True)
    assert isinstance(end, End) and end.result == again.state.result


def test_the_next_game_starts_a_new_record() -> None:
    table = flow.advance(new_table(length=3), Dice((3, 1)))
    asked = ok(flow.apply_action(table, BRUNO, "a", ()))
    done = ok(flow.apply_action(ok(flow.apply_action(asked, BRUNO, "o", (1,))), ANNA, "k", ()))
    assert done.record is not None and done.record.finished
    nxt = ok(flow.apply_action(done, ANNA, "x", ()))
    assert nxt.record is not None
    assert nxt.record.game_number == 2 and nxt.record.events == ()
    assert nxt.record.score == done.state.score
    opened = flow.advance(nxt, Dice((6, 1)))
    assert opened.record is not None and opened.record.events == (OpeningRoll((6, 1)),)


def test_record_and_dice_proof_survive_the_stored_document() -> None:
    proof = DiceProof(SEED, "4000123")
    table = new_table(Variant.LONG).with_dice(proof)
    seeded = table.seeded_dice()
    assert seeded is not None and seeded.next_index == 0
    table = flow.advance(table, seeded)
    assert table.record is not None and table.record.dice_count >= 2
    back = Table.from_doc(table.to_doc())
    assert back.record == table.record
    assert back.dice == proof and back.dice.commitment == dice_commitment(SEED)
    # the game's dice are the committed sequence, in the record's order
    assert table.record.dice == derive_dice(SEED, "4000123", table.record.dice_count)
    following = back.seeded_dice()
    assert isinstance(following, SeededDice)
    assert following.die() == derive_dice(SEED, "4000123", 1, start=table.record.dice_count)[0]


@pytest.mark.parametrize(
    "change",
    [
        lambda t: t["tbl"].update(rec={"v": 1}),
        lambda t: t["tbl"].update(dp=["12", "3"]),
        lambda t: t["tbl"].update(dp=[SEED, ""]),
    ],
)
def test_a_malformed_record_or_proof_is_refused(change: object) -> None:
    doc = new_table().with_dice(DiceProof(SEED, "1")).to_doc()
    change(doc)  # type: ignore[operator]
    with pytest.raises(ValueError, match="malformed"):
        Table.from_doc(doc)


def test_a_table_saved_without_a_record_plays_on_unrecorded() -> None:
    table = flow.advance(new_table(), Dice((3, 1)))
    doc = table.to_doc()
    del doc["tbl"]["rec"]
    old = Table.from_doc(doc)
    assert old.record is None
    moved = flow.confirm(old.with_state(old.state.step((8, 5, 3)).step((6, 5, 1))))
    assert moved.record is None
    # a seed without the record that counts the dice used is never trusted to continue
    assert old.with_dice(DiceProof(SEED, "1")).seeded_dice() is None
    assert GameRecord.start(new_table().state).events == ()
