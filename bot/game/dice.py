"""Where dice come from.

In production every game has verifiable dice (``engine.dice``): a secret seed whose
commitment is shown before the game, a public salt fixed by the press that starts it, and
the die's index counted from the game's record. Tables without a seed (games saved before
seeds existed) draw with ``secrets``. The tests hand the application a scripted source
instead (``build_application(dice=...)``, kept in ``Services.dice``) to replay games;
scripted games get no seed and have nothing to verify.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any, Protocol

from engine import SeededDice, dice_words_of_salt, seed_bytes
from engine import dice_commitment as commitment

#: Salts made of the players' words (``engine.dice.salt_of_words``); version 1 salts were
#: the id of the press that started the game, which no player could see.
WORDS_VERSION = 2


class DiceSource(Protocol):
    def roll(self) -> tuple[int, int]:
        """Two dice for a turn."""
        ...

    def die(self) -> int:
        """One die (the opening roll is one die per player)."""
        ...


class SecureDice:
    """Fair dice from the operating system's CSPRNG: never from the client."""

    def roll(self) -> tuple[int, int]:
        return self.die(), self.die()

    def die(self) -> int:
        return secrets.randbelow(6) + 1


class VerifiableDice(SecureDice):
    """The production default: games that start get a committed seed (see ``DiceProof``);
    as a source of its own it serves only tables that have none."""


@dataclass(frozen=True, slots=True)
class DiceProof:
    """A game's verifiable dice: the secret seed (kept in Redis, shown only after the game)
    and the public salt fixed when the game started: the players' words (version 2), or
    in games stored before words existed the id of the press that started it (version 1).
    Both versions derive the dice the same way from the salt's text."""

    seed: str
    salt: str
    version: int = 1

    def __post_init__(self) -> None:
        seed_bytes(self.seed)  # ValueError on anything but 64 hex digits
        if not isinstance(self.salt, str) or not 0 < len(self.salt) <= 128:
            raise ValueError("a dice salt has 1 to 128 characters")
        if self.version not in (1, WORDS_VERSION):
            raise ValueError(f"unknown dice salt version {self.version}")
        if self.version == WORDS_VERSION and self.words is None:
            raise ValueError("a version 2 dice salt is v2.<word>.<word>")

    @property
    def words(self) -> tuple[str, str] | None:
        """The players' words of a version 2 salt, in the order of the players."""
        return dice_words_of_salt(self.salt) if self.version == WORDS_VERSION else None

    @property
    def commitment(self) -> str:
        return commitment(self.seed)

    def source(self, dice_used: int) -> SeededDice:
        """The dice from number ``dice_used`` on (the game has used that many so far)."""
        return SeededDice(self.seed, self.salt, dice_used)

    def to_doc(self) -> list[str | int]:
        if self.version == 1:
            return [self.seed, self.salt]  # as games before version 2 were stored
        return [self.seed, self.salt, self.version]

    @classmethod
    def from_doc(cls, doc: Any) -> DiceProof:
        if not isinstance(doc, list) or len(doc) not in (2, 3):
            raise ValueError("a dice proof is [seed, salt] or [seed, salt, version]")
        version = doc[2] if len(doc) == 3 else 1
        if not isinstance(version, int):
            raise ValueError("a dice proof's version is a number")
        return cls(str(doc[0]), str(doc[1]), version)
