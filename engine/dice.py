"""Dice anyone can verify: committed before the game, derived from a secret seed.

Before a game the server draws a fresh 32-byte secret *seed* and shows its *commitment*,
the SHA-256 of the seed's bytes. Once the commitment is public, a *salt* the server cannot
choose is fixed: the players' own words (``salt_of_words``; older games used the id
Telegram gave the press that started them). Die number ``i`` of the game (counting from 0,
opening rolls included, player 0's die first in an opening roll) is then

    HMAC-SHA256(key=seed, message=f"{salt}:{i}:{block}")

read byte by byte from ``block`` 0 on: the first byte below 252 gives ``byte % 6 + 1``.
Bytes of 252 and above are skipped (rejection sampling) because 256 is not a multiple of
6, and taking every byte modulo 6 would favour 1 to 4. After the game the seed is revealed:
anyone can check it against the commitment and recompute every die.

The derivation never changed, so every game ever stored verifies with it. The checker a
player runs is ``engine/verify_dice.py``: the same rules in one file of standard library
code, imported by nothing (``docs/DICE.md`` describes the bytes).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

SEED_BYTES = 32
#: The largest multiple of 6 not above 256: bytes from here up are skipped.
ACCEPT_BELOW = 252


def new_seed() -> str:
    """A fresh secret seed, as 64 hex digits."""
    return secrets.token_hex(SEED_BYTES)


def seed_bytes(seed: str) -> bytes:
    """The seed's bytes; ValueError unless it is exactly 64 hex digits."""
    if not isinstance(seed, str) or len(seed) != 2 * SEED_BYTES:
        raise ValueError(f"a seed is {2 * SEED_BYTES} hex digits")
    return bytes.fromhex(seed)


def commitment(seed: str) -> str:
    """The public commitment to ``seed``: the SHA-256 of its bytes, as hex."""
    return hashlib.sha256(seed_bytes(seed)).hexdigest()


def die_from_bytes(data: bytes) -> int | None:
    """The die given by the first acceptable byte of ``data``, or None if there is none."""
    for byte in data:
        if byte < ACCEPT_BELOW:
            return byte % 6 + 1
    return None


def derive_die(seed: str, salt: str, index: int) -> int:
    """Die number ``index`` (from 0) of the game committed to by ``seed`` and ``salt``."""
    if index < 0:
        raise ValueError("a die index is 0 or more")
    key = seed_bytes(seed)
    block = 0
    while True:
        message = f"{salt}:{index}:{block}".encode()
        die = die_from_bytes(hmac.new(key, message, hashlib.sha256).digest())
        if die is not None:
            return die
        block += 1  # all 32 bytes rejected: about once in 10**57 dice


def derive_dice(seed: str, salt: str, count: int, start: int = 0) -> list[int]:
    """Dice number ``start`` to ``start + count - 1``."""
    return [derive_die(seed, salt, i) for i in range(start, start + count)]


class SeededDice:
    """A game's dice source: each die is the next index of the committed sequence.

    ``start`` is how many dice the game has used already (the bot counts them from the
    game's record), so a game resumed after a restart continues the same sequence.
    """

    def __init__(self, seed: str, salt: str, start: int = 0) -> None:
        seed_bytes(seed)  # refuse a malformed seed now, not at the first roll
        self._seed = seed
        self._salt = salt
        self.next_index = start

    def die(self) -> int:
        value = derive_die(self._seed, self._salt, self.next_index)
        self.next_index += 1
        return value

    def roll(self) -> tuple[int, int]:
        return self.die(), self.die()


#: The version of a salt made of the players' words (``v2.<word>.<word>``).
WORDS_SALT_PREFIX = "v2"
#: A player's word: 1 to 32 ASCII letters or digits (no separator, one meaning as bytes).
WORD_MAX = 32


def valid_word(word: str) -> bool:
    """Can ``word`` be a player's contribution to the salt?"""
    return 0 < len(word) <= WORD_MAX and word.isascii() and word.isalnum()


def salt_of_words(first: str, second: str) -> str:
    """The salt of a game from its two players' words, in the order of the players."""
    if not (valid_word(first) and valid_word(second)):
        raise ValueError(f"a dice word is 1 to {WORD_MAX} letters or digits")
    return f"{WORDS_SALT_PREFIX}.{first}.{second}"


def words_of_salt(salt: str) -> tuple[str, str] | None:
    """The two words of a ``v2`` salt, or None for an older salt (a press's id)."""
    version, _, rest = salt.partition(".")
    first, _, second = rest.partition(".")
    if version != WORDS_SALT_PREFIX or not (valid_word(first) and valid_word(second)):
        return None
    return first, second


if __name__ == "__main__":  # the old command: never a silent success
    raise SystemExit(
        "the dice checker is engine/verify_dice.py: python -m engine.verify_dice --help"
    )
