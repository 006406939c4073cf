"""Short, versioned callback data for inline buttons (Telegram allows 1..64 bytes).

Game buttons carry the game id and the stored version they were drawn for, so a stale
button, a double click or forged data can be refused before anything changes:
``g:<game>:<version>:<action>[:args]``. Other families: challenges ``c:<id>:<action>``,
rules navigation ``r:<variant>:<section>``, the computer-game set-up ``p:...`` and the
main menu ``m:<item>``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

MAX_BYTES = 64


class BadCallbackData(ValueError):
    """Callback data that we did not produce (or that an old release produced)."""


@dataclass(frozen=True, slots=True)
class GameButton:
    game_id: int
    version: int
    action: str
    args: tuple[int, ...] = ()

    def encode(self) -> str:
        parts = ["g", str(self.game_id), str(self.version), self.action, *map(str, self.args)]
        return _checked(":".join(parts))


GAME_ACTIONS = {
    "r": 0,  # roll
    "d": 0,  # double
    "t": 0,  # take
    "p": 0,  # drop ("passo")
    "s": 3,  # step src dst die
    "u": 0,  # undo last step
    "c": 0,  # confirm
    "a": 0,  # ask to resign
    "y": 0,  # resign: yes
    "n": 0,  # resign: no
    "x": 0,  # next game
    "m": 0,  # rematch
}


def _checked(data: str) -> str:
    if not 1 <= len(data.encode()) <= MAX_BYTES:
        raise BadCallbackData("callback data too long")
    return data


def _int(text: str) -> int:
    # Exactly what str(int) writes: "--5", "²" or "٣" pass isdigit() but not int() or us.
    if not re.fullmatch(r"-?[0-9]{1,18}", text):
        raise BadCallbackData(f"not a number: {text!r}")
    return int(text)


def decode_game(parts: list[str]) -> GameButton:
    if len(parts) < 4:
        raise BadCallbackData("short game data")
    action = parts[3]
    if action not in GAME_ACTIONS or len(parts) != 4 + GAME_ACTIONS[action]:
        raise BadCallbackData(f"unknown game action {action!r}")
    return GameButton(_int(parts[1]), _int(parts[2]), action, tuple(_int(p) for p in parts[4:]))


def split(data: str | None) -> list[str]:
    if not data or len(data.encode()) > MAX_BYTES:
        raise BadCallbackData("empty or oversized data")
    return data.split(":")


def challenge(challenge_id: int, action: str) -> str:
    return _checked(f"c:{challenge_id}:{action}")


def rules(variant: str, section: str) -> str:
    return _checked(f"r:{variant}:{section}")


def setup(*choices: str) -> str:
    return _checked(":".join(["p", *choices]))


def menu(item: str) -> str:
    return _checked(f"m:{item}")
