"""Dice anyone can verify: committed before the game, derived from a secret seed.

Before a game the server draws a fresh 32-byte secret *seed* and shows its *commitment*,
the SHA-256 of the seed's bytes. Once the commitment is public, a *salt* the server cannot
choose is fixed (the bot uses the id Telegram gave the message or button press that
started the game). Die number ``i`` of the game (counting from 0, opening rolls included,
player 0's die first in an opening roll) is then

    HMAC-SHA256(key=seed, message=f"{salt}:{i}:{block}")

read byte by byte from ``block`` 0 on: the first byte below 252 gives ``byte % 6 + 1``.
Bytes of 252 and above are skipped (rejection sampling) because 256 is not a multiple of
6, and taking every byte modulo 6 would favour 1 to 4. After the game the seed is revealed:
anyone can check it against the commitment and recompute every die.

This module uses the standard library only, so it runs on its own:

    python -m engine.dice verify --seed <hex> --salt <text> --commitment <hex> --rolls N

prints the N rolls (two dice each) and exits with status 1 if the seed does not match the
commitment. During the game the seed stays secret, so the dice cannot be foreseen.
"""

from __future__ import annotations

import argparse
import hashlib
import hmac
import secrets
import sys
from collections.abc import Sequence

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


# --------------------------------------------------------------------------- command line
def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m engine.dice",
        description="Check a revealed dice seed against its commitment and recompute the rolls.",
    )
    sub = parser.add_subparsers(dest="command", required=True)
    verify = sub.add_parser("verify", help="check the seed and print the game's rolls")
    verify.add_argument("--seed", required=True, help="the revealed seed (64 hex digits)")
    verify.add_argument("--salt", required=True, help="the public value fixed after committing")
    verify.add_argument("--commitment", required=True, help="the SHA-256 shown before the game")
    verify.add_argument("--rolls", required=True, type=int, help="how many rolls (two dice each)")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        expected = commitment(args.seed)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.rolls < 0:
        print("error: --rolls must be 0 or more", file=sys.stderr)
        return 2
    if not hmac.compare_digest(expected, args.commitment.strip().lower()):
        print(
            f"FAILED: SHA-256 of the seed is {expected}, not the commitment {args.commitment}",
            file=sys.stderr,
        )
        return 1
    print(f"commitment OK: SHA-256(seed) = {expected}")
    dice = derive_dice(args.seed, args.salt, 2 * args.rolls)
    for n in range(args.rolls):
        print(f"roll {n + 1}: {dice[2 * n]}-{dice[2 * n + 1]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
