"""Whether a press must redraw the board, decided from the game's states.

In a group every redraw spends one of about 20 edits a minute. A first step whose every
possible next step already has its button on the board (pressed there, it is applied as a
quick second tap) is told with the press's answer alone; the board is drawn once the turn
ends. The buttons on the board are a function of the state the board was drawn for, so the
decision compares that state with the saved one instead of reading the keyboard back.
"""

from __future__ import annotations

from bot.game.table import Table
from engine import GameState, Phase


def drawn_state(table: Table, version: int, pressed: int, shown: int | None) -> GameState | None:
    """The state the pressed board was drawn for, when the game tells it; None when not.

    ``table`` is the game stored at ``version``; ``pressed`` is the version the pressed
    button was drawn for and ``shown`` the version the board is recorded to show. The state
    at ``version`` is ``table``'s own; the state at the version where the turn's roll was
    saved is the turn's start (no step made yet). Any other version's state is not kept.
    """
    if shown != pressed:
        return None  # the board is not (yet) recorded as the one the button came from
    if pressed == version:
        return table.state
    if pressed == table.turn_version and table.state.phase is Phase.MOVE:
        return table.state.reset_turn()
    return None


def finished_roll(table: Table) -> bool:
    """Have the dice of this turn all been used (so the play could be confirmed)?"""
    state = table.state
    return state.phase is Phase.MOVE and state.play_complete and not state.legal_steps()


def board_serves(drawn: GameState | None, after: Table) -> bool:
    """Can the board drawn for ``drawn`` play the rest of the turn ``after`` is in?

    Only a turn still being played, with a step made and one still to make, whose every
    legal next step was a step button of the drawn board (a board in the turn's move phase
    shows one button per legal step) and whose every button of a die still to play is still
    legal. Anything else (an undo, a last step, a choice the board lacks, a button that
    would be refused, an unknown board) draws.
    """
    state = after.state
    if drawn is None or drawn.phase is not Phase.MOVE:
        return False
    if state.phase is not Phase.MOVE or not state.steps or finished_roll(after):
        return False
    if after.vs_computer and after.actor.is_computer:
        return False
    shown = {(s.src, s.dst, s.die) for s in drawn.legal_steps()}
    legal = {(s.src, s.dst, s.die) for s in state.legal_steps()}
    if not legal <= shown:
        return False
    # Every button of a die still to play works: after "ora muovi col 3" none of the
    # board's 3s is refused (a button of the die played is refused with its reason).
    left = set(state.dice_left)
    return all(step in legal for step in shown if step[2] in left)
