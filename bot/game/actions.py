"""The game's button actions, as a typed enum.

Each action's value is the short code carried in callback data (Telegram allows 64 bytes),
and ``ARITY`` says how many integer arguments follow it, so decoding can refuse malformed
or forged data before anything is loaded.
"""

from __future__ import annotations

from enum import StrEnum


class Action(StrEnum):
    ROLL = "r"
    DOUBLE = "d"
    TAKE = "t"
    DROP = "p"  # "passo": refuse the double
    STEP = "s"  # args: src, dst, die
    STEPS = "w"  # several steps in one tap: src, dst, die for each (2 to 4 steps)
    UNDO = "u"
    CONFIRM = "c"
    RESIGN = "a"  # ask to resign: a prompt of its own follows
    RESIGN_LEVEL = "o"  # classic, on the prompt: the resigner offers a level; arg: its points
    RESIGN_YES = "y"  # long, on the prompt: the resigner confirms
    RESIGN_NO = "n"  # on the prompt: the resigner changes their mind
    RESIGN_ACCEPT = "k"  # classic, on the prompt: the opponent accepts the offer
    RESIGN_DECLINE = "z"  # classic, on the prompt: the opponent declines it
    LEAVE_MATCH = "l"  # on the prompt: the resigner leaves the whole match or series
    NEXT_GAME = "x"
    REMATCH = "m"  # between people: offers the rematch, or accepts the other's offer
    REMATCH_DECLINE = "q"  # on an inline board's rematch offer: refuse (or withdraw) it
    HINT = "h"  # the best plays for the roll (not a move: nothing changes)
    ANALYSIS = "v"  # on the final board: the analysis of the game just finished


ARITY: dict[Action, int] = {action: 0 for action in Action} | {
    Action.STEP: 3,
    Action.STEPS: 3,
    Action.RESIGN_LEVEL: 1,
}
MAX_STEPS = 4  # a roll of doubles has four steps


def arity_ok(action: Action, count: int) -> bool:
    """Is ``count`` a valid number of integer arguments for ``action``?"""
    if action is Action.STEPS:
        return count % 3 == 0 and 2 <= count // 3 <= MAX_STEPS
    return count == ARITY[action]


#: Actions that change whose turn it is or end a game: a double click must not repeat them,
#: so they need a button drawn for the stored version exactly.
EXACT_VERSION = frozenset(set(Action) - {Action.STEP, Action.STEPS, Action.UNDO, Action.HINT})

#: Actions of the resign prompt, a message of its own: they are checked against the open
#: offer (and its message), not against the board's version, so the prompt survives the
#: opponent's moves.
PROMPT_ACTIONS = frozenset(
    {
        Action.RESIGN_LEVEL,
        Action.RESIGN_YES,
        Action.RESIGN_NO,
        Action.RESIGN_ACCEPT,
        Action.RESIGN_DECLINE,
        Action.LEAVE_MATCH,
    }
)

#: Everything about resigning: either player may act, on turn or not.
RESIGN_ACTIONS = PROMPT_ACTIONS | {Action.RESIGN}

#: Actions that start a new stretch of play: the caption's notes restart from them. Rolling
#: is not one: what the opponent just played stays in view until the player has moved.
FRESH_NOTES = frozenset(
    {
        Action.DOUBLE,
        Action.TAKE,
        Action.DROP,
        Action.CONFIRM,
        Action.NEXT_GAME,
        Action.REMATCH,
        Action.RESIGN_YES,
        Action.RESIGN_ACCEPT,
        Action.LEAVE_MATCH,
    }
)
