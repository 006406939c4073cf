"""Check Tavola's dice on your own: one file, Python's standard library only.

This file imports nothing from Tavola on purpose: a player can read all of it, copy it
anywhere and run it with any Python 3.8 or later. It recomputes a game's dice from the
values the bot shows (the commitment before the game, the players' words, the seed after
the game) and compares them with the rolls the bot claims.

The encoding, byte by byte:

* The *seed* is 64 hex digits; its bytes are those digits hex-decoded (32 bytes).
* The *commitment* is SHA-256 of those 32 bytes, written as 64 lowercase hex digits.
* The *salt* is a text. Games since players' words exist use ``v2.<word1>.<word2>``: the
  words of the two players as they were when the game started, in the order the players
  are listed (a word is 1 to 32 letters A-Z, a-z or digits; by default the player's
  Telegram id). Older games used the id of the button press that started them.
* Die number ``n`` (from 0, opening rolls included, the first player's die first in an
  opening roll) is found block by block, from block 0: the digest is
  HMAC-SHA256(key = the seed's 32 bytes, message = the UTF-8 bytes of the text
  ``<salt>:<n>:<block>``, numbers written in decimal). Its 32 bytes are read in order: the
  first byte below 252 gives the die ``byte % 6 + 1``; bytes 252-255 are skipped. If all 32
  are skipped, the next block is tried.
* Roll ``k`` (from 1) is dice ``2k-2`` and ``2k-1``.

Usage::

    python verify_dice.py --seed HEX --salt TEXT --commitment HEX --rolls N --dice 3-1,6-6,...

It prints every roll and exits with status 0 only if the seed matches the commitment, the
list has N rolls and every listed roll is the computed one; 1 on any mismatch, 2 on
malformed values. Without ``--dice`` it checks the commitment and prints N rolls.
"""

from __future__ import annotations

import argparse
import hashlib
import hmac
import sys
from collections.abc import Sequence

ACCEPT_BELOW = 252  # the largest multiple of 6 not above 256
FACES = frozenset("123456")


def die(seed: bytes, salt: str, n: int) -> int:
    """Die number ``n`` of the game whose seed's bytes are ``seed``."""
    block = 0
    while True:
        message = f"{salt}:{n}:{block}".encode("utf-8")  # noqa: UP012 (said, not implied)
        for byte in hmac.new(seed, message, hashlib.sha256).digest():
            if byte < ACCEPT_BELOW:
                return byte % 6 + 1
        block += 1


def rolls(seed: bytes, salt: str, count: int) -> list[tuple[int, int]]:
    """The first ``count`` rolls (two dice each)."""
    return [(die(seed, salt, 2 * k), die(seed, salt, 2 * k + 1)) for k in range(count)]


def parse_rolls(text: str) -> list[tuple[int, int]]:
    """``3-1,6-6`` as [(3, 1), (6, 6)]; ValueError on anything else."""
    out: list[tuple[int, int]] = []
    for part in text.replace(" ", "").split(","):
        if not part:
            continue
        a, sep, b = part.partition("-")
        if not sep or a not in FACES or b not in FACES:
            raise ValueError(f"not a roll: {part!r} (write rolls as 3-1,6-6)")
        out.append((int(a), int(b)))
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Check Tavola's dice: seed against commitment, then every roll."
    )
    parser.add_argument("--seed", required=True, help="the seed revealed after the game")
    parser.add_argument("--salt", required=True, help="the salt, e.g. v2.word1.word2")
    parser.add_argument("--commitment", required=True, help="the SHA-256 shown before")
    parser.add_argument("--rolls", required=True, type=int, help="how many rolls the game had")
    parser.add_argument("--dice", help="the claimed rolls, e.g. 3-1,6-6,5-2")
    args = parser.parse_args(argv)
    try:
        if len(args.seed) != 64:
            raise ValueError("a seed is 64 hex digits")
        seed = bytes.fromhex(args.seed)
        claimed = None if args.dice is None else parse_rolls(args.dice)
        if args.rolls < 0:
            raise ValueError("--rolls must be 0 or more")
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    expected = hashlib.sha256(seed).hexdigest()
    if not hmac.compare_digest(expected, args.commitment.strip().lower()):
        print(f"FAILED: SHA-256 of the seed is {expected}, not {args.commitment}", file=sys.stderr)
        return 1
    print(f"commitment OK: SHA-256(seed) = {expected}")
    computed = rolls(seed, args.salt, args.rolls)
    failed = False
    for k, (a, b) in enumerate(computed, start=1):
        line = f"roll {k}: {a}-{b}"
        if claimed is not None and k <= len(claimed) and claimed[k - 1] != (a, b):
            line += f"  MISMATCH: claimed {claimed[k - 1][0]}-{claimed[k - 1][1]}"
            failed = True
        print(line)
    if claimed is not None and len(claimed) != args.rolls:
        print(f"FAILED: {len(claimed)} rolls listed, {args.rolls} announced", file=sys.stderr)
        return 1
    if failed:
        print("FAILED: some claimed rolls are not the computed ones", file=sys.stderr)
        return 1
    if claimed is not None:
        print(f"all {len(claimed)} rolls OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
