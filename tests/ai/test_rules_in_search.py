"""The computer's look-ahead and the trainer play the game's own head rule (the rules
object's ``turn_dice``), including Black's single step of 4 after White's first 5-5."""

from __future__ import annotations

import pytest

from engine import Variant
from engine.ai.search import ReplyRules
from training import train


class _StopError(Exception):
    pass


class _Dice:
    """A random.Random stand-in that deals the given dice, then stops the game."""

    def __init__(self, *dice: int) -> None:
        self.dice = list(dice)

    def randint(self, a: int, b: int) -> int:
        if not self.dice:
            raise _StopError
        return self.dice.pop(0)


@pytest.mark.parametrize(
    ("first", "second", "expected"),
    [
        ((5, 5), (4, 4), [((5, 5, 5, 5), 1), ((4,), 1)]),
        ((6, 6), (4, 4), [((6, 6, 6, 6), 2), ((4, 4, 4, 4), 2)]),
        ((5, 5), (3, 3), [((5, 5, 5, 5), 1), ((3, 3, 3, 3), 2)]),
    ],
)
def test_the_trainer_plays_the_games_first_turns(monkeypatch, first, second, expected) -> None:
    seen = []
    real = train.TurnGenerator

    def recording(variant, dice, head_limit):
        gen = real(variant, dice, head_limit)
        seen.append((gen.dice, gen.head_limit))
        return gen

    monkeypatch.setattr(train, "TurnGenerator", recording)
    variant = Variant.LONG
    evaluator = train.fresh(variant, 4, 1)
    with pytest.raises(_StopError):
        train.play_wave(evaluator, variant, [_Dice(*first, *second)])
    assert seen == expected


def test_replies_take_the_dice_from_the_rules() -> None:
    for variant in Variant:
        rules = variant.rules
        for first in (False, True):
            for after in (False, True):
                reply = ReplyRules(variant, first_turn=first, after_five_five=after)
                for d1 in range(1, 7):
                    for d2 in range(1, 7):
                        gen = reply.generator(d1, d2)
                        dice, head = rules.turn_dice(d1, d2, first, after)
                        assert (gen.dice, gen.head_limit) == (dice, head)
