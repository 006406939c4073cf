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

from bot.actions import Action, arity_ok

MAX_BYTES = 64


class BadCallbackData(ValueError):
    """Callback data that we did not produce (or that an old release produced)."""


@dataclass(frozen=True, slots=True)
class GameButton:
    game_id: int
    version: int
    action: Action
    args: tuple[int, ...] = ()

    def encode(self) -> str:
        parts = ["g", str(self.game_id), str(self.version), self.action, *map(str, self.args)]
        return _checked(":".join(parts))


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
    try:
        action = Action(parts[3])
    except ValueError:
        raise BadCallbackData(f"unknown game action {parts[3]!r}") from None
    if not arity_ok(action, len(parts) - 4):
        raise BadCallbackData(f"wrong arguments for {action.name}")
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


def preference(name: str, value: str) -> str:
    return _checked(f"o:{name}:{value}")
