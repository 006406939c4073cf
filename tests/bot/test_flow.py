"""The game flow without Telegram: what `advance` plays by itself, and how `apply_action`
turns a button into an engine action or an Italian refusal."""

from __future__ import annotations

from collections import deque
from dataclasses import replace

import pytest

from bot.game import flow
from bot.game.flow import Refusal
from bot.game.table import OfferStage, Player, Table
from bot.texts import messages as T
from bot.texts import refusals as R
from engine import GameState, MatchConfig, Phase, Play, ResultKind, Side, Variant
from engine.notation import read_play

ANNA, BRUNO = 0, 1  # player indexes: the challenger is player 0


class Dice:
    """Scripted dice: every value the flow asks for must have been queued."""

    def __init__(self, dice: tuple[int, ...] = (), rolls: tuple[tuple[int, int], ...] = ()):
        self.dice = deque(dice)
        self.rolls = deque(rolls)

    def die(self) -> int:
        return self.dice.popleft()

    def roll(self) -> tuple[int, int]:
        return self.rolls.popleft()


def new_table(variant: Variant = Variant.CLASSIC, length: int = 1) -> Table:
    return Table(
        GameState.new_match(MatchConfig(variant, length)),
        (Player(1, "Anna"), Player(2, "Bruno")),
    )


def opened(length: int = 1) -> Table:
    """A classic game where Anna won the opening 3-1 and must play it."""
    return flow.advance(new_table(length=length), Dice((3, 1)))


def ok(result: Table | Refusal) -> Table:
    assert isinstance(result, Table), result
    return result


# --------------------------------------------------------------------------- advance
def test_opening_tie_is_rolled_again_and_noted() -> None:
    table = flow.advance(new_table(), Dice((4, 4, 3, 1)))
    assert table.notes == (
        T.opening_tie(4),
        T.opening_roll("Anna", 3, "Bruno", 1),
    )
    assert table.state.phase is Phase.MOVE
    assert table.state.dice == (3, 1)
    assert table.actor.name == "Anna"


def test_without_cube_the_next_players_dice_are_rolled_automatically() -> None:
    table = opened()
    table = ok(flow.apply_action(table, ANNA, "s", (8, 5, 3)))
    table = ok(flow.apply_action(table, ANNA, "s", (6, 5, 1)))
    table = flow.advance(ok(flow.apply_action(table, ANNA, "c", ())), Dice(rolls=((6, 4),)))
    assert table.actor.name == "Bruno"
    assert table.state.phase is Phase.MOVE and table.state.dice == (6, 4)
    assert T.move_played("Anna", "3-1: 8/5 6/5") in table.notes


def test_with_cube_the_flow_stops_before_rolling() -> None:
    table = opened(length=3)
    table = flow.play_whole(table, _play(table, "8/5 6/5"))
    table = flow.advance(table, Dice())  # no dice may be drawn: Bruno must choose first
    assert table.state.phase is Phase.ROLL
    assert table.actor.name == "Bruno"


def test_forced_play_is_played_and_noted() -> None:
    # Long: the first roll of a game moves one checker from the head, so 6-5 is forced.
    table = flow.advance(new_table(Variant.LONG), Dice((2, 5), ((6, 5), (3, 3))))
    assert T.forced_move("Bruno", "6-5 24/13") in table.notes
    assert table.actor.name == "Anna"
    assert table.state.dice == (3, 3)  # a double on the first turn: a real choice


def test_roll_without_legal_play_passes_the_turn() -> None:
    table = new_table()
    # Bruno (Black) is on the bar against Anna's closed home board.
    white = (0, 2, 2, 2, 2, 2, 2, 0, 3, *([0] * 16), 0)
    black = (0, 0, 0, 0, 0, 0, 14, *([0] * 18), 1)
    state = replace(table.state, checkers=(white, black), phase=Phase.ROLL, turn=Side.BLACK)
    table = flow.advance(replace(table, state=state), Dice(rolls=((5, 3), (2, 1))))
    assert T.no_moves("Bruno", 5, 3) in table.notes
    assert table.actor.name == "Anna"
    assert table.state.phase is Phase.MOVE and table.state.dice == (2, 1)


# --------------------------------------------------------------------------- apply_action
def _play(table: Table, text: str) -> Play:
    state = table.state
    assert state.turn_start is not None
    return read_play(state, text)


@pytest.mark.parametrize(
    ("player", "action", "args", "alert"),
    [
        (BRUNO, "s", (24, 21, 3), T.ALERT_NOT_YOUR_TURN),
        (BRUNO, "c", (), T.ALERT_NOT_YOUR_TURN),
        (ANNA, "r", (), T.ALERT_ALREADY_ROLLED),
        (ANNA, "d", (), T.ALERT_DOUBLE_AFTER_ROLL),
        (ANNA, "u", (), T.ALERT_NOTHING_TO_UNDO),
        (ANNA, "c", (), T.ALERT_MOVE_INCOMPLETE),
        (
            ANNA,
            "s",
            (8, 2, 6),
            "Non hai un 6: muovi col 3 e 1. Ora puoi: 24/23, 24/21, 13/10, 8/7, 8/5, …",
        ),
        (
            ANNA,
            "s",
            (99, -4, 6),
            "Non hai un 6: muovi col 3 e 1. Ora puoi: 24/23, 24/21, 13/10, 8/7, 8/5, …",
        ),
        (
            ANNA,
            "s",
            (99, -4, 3),
            "Quel passo non è permesso qui. Ora puoi: 24/23, 24/21, 13/10, 8/7, 8/5, …",
        ),
        (ANNA, "t", (), "Non c'è nessun raddoppio a cui rispondere."),
        (ANNA, "p", (), "Non c'è nessun raddoppio a cui rispondere."),
        (ANNA, "x", (), "La partita è ancora in corso."),
        (ANNA, "m", (), "Il match non è ancora finito."),
        (ANNA, "y", (), T.ALERT_PROMPT_CLOSED),
        (ANNA, "n", (), T.ALERT_PROMPT_CLOSED),
    ],
)
def test_refusals_while_anna_moves(
    player: int, action: str, args: tuple[int, ...], alert: str
) -> None:
    table = opened()
    assert flow.apply_action(table, player, action, args) == Refusal(alert)


def test_steps_can_be_undone_until_confirmed() -> None:
    table = opened()
    start = table.state.checkers
    stepped = ok(flow.apply_action(table, ANNA, "s", (8, 5, 3)))
    assert len(stepped.state.steps) == 1
    undone = ok(flow.apply_action(stepped, ANNA, "u", ()))
    assert undone.state.checkers == start and undone.state.steps == ()


def test_roll_button_is_left_to_the_caller_and_refused_before_it_is_time() -> None:
    table = opened(length=3)
    table = flow.play_whole(table, _play(table, "8/5 6/5"))
    assert flow.apply_action(table, BRUNO, "s", (24, 21, 3)) == Refusal(T.ALERT_ROLL_FIRST)
    assert flow.apply_action(table, ANNA, "r", ()) == Refusal(T.ALERT_NOT_YOUR_TURN)
    same = ok(flow.apply_action(table, BRUNO, "r", ()))
    assert same.state == table.state  # the handler rolls with the server's dice
    rolled = flow.roll(same, Dice(rolls=((5, 2),)))
    assert rolled.state.phase is Phase.MOVE and rolled.state.dice == (5, 2)


def test_cube_in_a_single_game_is_refused() -> None:
    table = opened()
    table = flow.play_whole(table, _play(table, "8/5 6/5"))
    # In a 1-point game Bruno's dice were not rolled yet only because advance was not called.
    assert flow.apply_action(table, BRUNO, "d", ()) == Refusal(T.ALERT_CUBE_OFF)


def test_double_take_and_ownership() -> None:
    table = opened(length=3)
    table = flow.play_whole(table, _play(table, "8/5 6/5"))
    doubled = ok(flow.apply_action(table, BRUNO, "d", ()))
    assert doubled.state.phase is Phase.DOUBLED
    assert T.double_offered("Bruno", 2) in doubled.notes
    assert flow.apply_action(doubled, BRUNO, "t", ()) == Refusal(T.ALERT_NOT_YOUR_TURN)
    taken = ok(flow.apply_action(doubled, ANNA, "t", ()))
    assert taken.state.cube_value == 2
    assert taken.state.cube_owner is taken.state.side_of(ANNA)
    assert T.double_taken("Anna", 2) in taken.notes


def test_double_dropped_ends_the_game_with_a_note() -> None:
    table = opened(length=3)
    table = flow.play_whole(table, _play(table, "8/5 6/5"))
    doubled = ok(flow.apply_action(table, BRUNO, "d", ()))
    dropped = ok(flow.apply_action(doubled, ANNA, "p", ()))
    assert dropped.state.phase is Phase.GAME_OVER
    assert dropped.notes[-1] == T.double_dropped("Anna", "Bruno", 1)
    assert "<b>Bruno</b> vince la partita" in dropped.notes[-1]  # who won the game
    assert dropped.state.score == (0, 1)
    assert flow.apply_action(dropped, ANNA, "s", (8, 5, 3)) == Refusal(T.ALERT_GAME_OVER)
    assert flow.apply_action(dropped, ANNA, "m", ()) == Refusal(R.MATCH_NOT_OVER)
    following = ok(flow.apply_action(dropped, BRUNO, "x", ()))
    assert following.state.phase is Phase.OPENING and following.notes == ()
    assert following.state.score == (0, 1)


def test_classic_resign_is_offered_at_a_level_and_the_opponent_answers() -> None:
    table = opened()
    asked = ok(flow.apply_action(table, BRUNO, "a", ()))  # allowed out of turn
    assert asked.resign is not None and asked.resign.stage is OfferStage.ASKED
    assert asked.state == table.state
    assert flow.apply_action(asked, ANNA, "o", (1,)) == Refusal(T.ALERT_RESIGN_NOT_YOURS)
    assert flow.apply_action(asked, BRUNO, "k", ()) == Refusal(T.ALERT_RESIGN_FOR_OPPONENT)
    assert flow.apply_action(asked, BRUNO, "a", ()) == Refusal(T.ALERT_RESIGN_OPEN)
    assert flow.apply_action(asked, ANNA, "a", ()) == Refusal(T.ALERT_RESIGN_PENDING)
    kept = ok(flow.apply_action(asked, BRUNO, "n", ()))
    assert kept.open_offer is None and kept.resign.stage is OfferStage.CANCELLED

    offered = ok(flow.apply_action(asked, BRUNO, "o", (2,)))
    assert offered.resign.stage is OfferStage.OFFERED
    assert (offered.resign.kind, offered.resign.points) == (ResultKind.GAMMON, 2)
    assert flow.apply_action(offered, BRUNO, "o", (1,)) == Refusal(T.ALERT_PROMPT_CLOSED)
    declined = ok(flow.apply_action(offered, ANNA, "z", ()))
    assert declined.resign.stage is OfferStage.DECLINED and declined.state == table.state

    done = ok(flow.apply_action(offered, ANNA, "k", ()))
    state = done.state
    assert state.phase is Phase.MATCH_OVER
    assert state.result is not None and state.result.winner is state.side_of(ANNA)
    assert (state.result.kind, state.result.points) == (ResultKind.GAMMON, 2)
    assert done.notes[-1] == T.resigned("Bruno", "Anna", 2, ResultKind.GAMMON)
    # A single game is no match nor series: no "vince il match" after it.
    assert not any("vince il match" in note for note in done.notes)
    assert done.resign.stage is OfferStage.ACCEPTED
    rematch = ok(flow.apply_action(done, ANNA, "m", ()))
    assert rematch.state.phase is Phase.OPENING and rematch.state.score == (0, 0)


def test_acting_on_turn_withdraws_ones_own_offer_but_not_the_opponents() -> None:
    mine = ok(flow.apply_action(opened(), ANNA, "a", ()))
    stepped = ok(flow.apply_action(mine, ANNA, "s", (8, 5, 3)))
    assert stepped.open_offer is None and stepped.resign.stage is OfferStage.WITHDRAWN
    theirs = ok(flow.apply_action(opened(), BRUNO, "a", ()))
    stepped = ok(flow.apply_action(theirs, ANNA, "s", (8, 5, 3)))
    assert stepped.open_offer is not None


def test_an_offer_open_when_the_game_ends_otherwise_is_moot() -> None:
    asked = ok(flow.apply_action(opened(), BRUNO, "a", ()))
    over = asked.with_state(asked.state.timeout(asked.state.turn))
    assert flow.close_moot_offer(over).resign.stage is OfferStage.MOOT
    assert flow.close_moot_offer(asked) == asked


def test_resign_is_refused_before_the_opening_and_after_the_end() -> None:
    assert flow.apply_action(new_table(), ANNA, "a", ()) == Refusal(T.ALERT_GAME_OVER)
    asked = ok(flow.apply_action(opened(), ANNA, "a", ()))
    done = ok(flow.apply_action(ok(flow.apply_action(asked, ANNA, "o", (1,))), BRUNO, "k", ()))
    assert flow.apply_action(done, BRUNO, "a", ()) == Refusal(T.ALERT_GAME_OVER)


def test_typed_play_replaces_steps_made_with_buttons() -> None:
    table = opened()
    stepped = ok(flow.apply_action(table, ANNA, "s", (24, 21, 3)))
    played = flow.play_whole(stepped, _play(table, "8/5 6/5"))
    assert played.state.turn is not table.state.turn
    assert played.notes[-1] == T.move_played("Anna", "3-1: 8/5 6/5")
    assert played.state.last_play is not None
    assert sorted((s.src, s.dst) for s in played.state.last_play.steps) == [(6, 5), (8, 5)]


def test_a_bear_off_whose_plays_all_end_alike_is_played_for_the_player() -> None:
    """Three checkers left on the 1 and 2 points: with 6-5 every way to play bears off two
    of them and leaves the same position, so nobody has to choose."""
    base = opened()
    home = [0] * 26
    home[0], home[1], home[2] = 12, 2, 1  # own numbering: index 0 is borne off
    state = replace(
        base.state, checkers=(tuple(home), base.state.checkers[1]), phase=Phase.ROLL, dice=None
    )
    state = replace(state, turn_start=None, steps=())
    table = replace(base, state=state)
    who = table.actor.name
    after = flow.advance(table, Dice(rolls=((6, 5), (2, 1))))
    assert any(note.startswith(T.forced_move(who, "")[:10]) for note in after.notes), after.notes
    assert after.state.checkers[Side.WHITE][0] == 14
