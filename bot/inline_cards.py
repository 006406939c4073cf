"""The buttons of an inline challenge card: everything the challenge is, signed, in 64 bytes.

A card posted through inline mode is answered by presses on a message the bot never sent
in a chat it may not be in; nothing is stored when the card is offered (Telegram asks for
the results at every pause in typing, and most are never chosen). So each button carries
the challenge itself (who challenges, when, the game's settings, whom it is for) and an
HMAC keyed from the bot's token: a press with hand-written data cannot make someone the
challenger of a game they never offered, nor change its settings.

``j:<action>:<challenger>:<issued>:<game>:<flags>:<turn>:<for>:<mac>`` where ``game`` is the
variant's letter and the length (``c5``, ``l3``), ``flags`` one hex digit (cube, Mars, last
roll, alternate starts), ``turn`` the turn limit in seconds in base 36 (``0``: none), and
``for`` a short hash of the only username allowed to accept (``-``: anyone).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
from dataclasses import dataclass
from enum import StrEnum

from bot.callback_data import MAX_BYTES, BadCallbackDataError
from bot.options import MAX_LENGTH, MAX_TURN_SECONDS, ChallengeOptions
from engine import MatchConfig, SeriesStart, Variant

PREFIX = "j"
_MAC_CHARS = 10  # 60 bits
_FOR_CHARS = 6
_ANYONE = "-"
_VARIANTS = {"c": Variant.CLASSIC, "l": Variant.LONG}
_LETTERS = {v: k for k, v in _VARIANTS.items()}


class CardAction(StrEnum):
    ACCEPT = "a"
    DECLINE = "r"  # only on a card for one user
    WITHDRAW = "x"  # only the challenger


@dataclass(frozen=True, slots=True)
class InlineChallenge:
    """A challenge as its card's buttons carry it."""

    challenger: int
    issued: int  # epoch seconds when the card was offered
    options: ChallengeOptions


def _b36(n: int) -> str:
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    out = ""
    while True:
        n, r = divmod(n, 36)
        out = digits[r] + out
        if n == 0:
            return out


def _user_hash(username: str) -> str:
    digest = hashlib.sha256(username.lower().encode()).digest()
    return base64.urlsafe_b64encode(digest).decode()[:_FOR_CHARS]


def _mac(secret: bytes, body: str) -> str:
    digest = hmac.new(secret, body.encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).decode()[:_MAC_CHARS]


def signing_key(token: str) -> bytes:
    """The key the cards are signed with: derived from the bot's token, never the token."""
    return hashlib.sha256(b"tavola inline challenge\0" + token.encode()).digest()


def _body(challenge: InlineChallenge) -> str:
    opts = challenge.options
    c = opts.config
    flags = (
        int(c.cube)
        | int(c.mars) << 1
        | int(c.last_roll) << 2
        | int(c.series_start is SeriesStart.ALTERNATE) << 3
    )
    target = _ANYONE if opts.username is None else _user_hash(opts.username)
    return ":".join(
        [
            str(challenge.challenger),
            _b36(challenge.issued),
            f"{_LETTERS[c.variant]}{c.length}",
            f"{flags:x}",
            _b36(opts.turn_seconds or 0),
            target,
        ]
    )


def encode(secret: bytes, challenge: InlineChallenge, action: CardAction) -> str:
    body = _body(challenge)
    data = f"{PREFIX}:{action.value}:{body}:{_mac(secret, body)}"
    if len(data.encode()) > MAX_BYTES:
        raise BadCallbackDataError("inline challenge data too long")
    return data


@dataclass(frozen=True, slots=True)
class Press:
    action: CardAction
    challenger: int
    issued: int
    config: MatchConfig
    turn_seconds: int | None
    for_hash: str | None  # the hash of the only username allowed, None: anyone

    def is_for(self, username: str | None) -> bool:
        return self.for_hash is None or (
            username is not None and hmac.compare_digest(_user_hash(username), self.for_hash)
        )


def decode(secret: bytes, data: str | None) -> Press:
    """A press's data, checked; BadCallbackDataError for anything we did not sign."""
    if not data or len(data.encode()) > MAX_BYTES:
        raise BadCallbackDataError("empty or oversized data")
    parts = data.split(":")
    if len(parts) != 9 or parts[0] != PREFIX:
        raise BadCallbackDataError("not inline challenge data")
    body = ":".join(parts[2:8])
    if not hmac.compare_digest(_mac(secret, body), parts[8]):
        raise BadCallbackDataError("bad signature")
    # Signed by us: the fields are as encode() wrote them, checked again all the same.
    try:
        action = CardAction(parts[1])
        challenger, issued = int(parts[2]), int(parts[3], 36)
        variant = _VARIANTS[parts[4][:1]]
        length, flags = int(parts[4][1:]), int(parts[5], 16)
        turn = int(parts[6], 36) or None
    except (KeyError, ValueError):
        raise BadCallbackDataError("malformed inline challenge data") from None
    # The turn limit may be the operator's default (TAVOLA_TURN_SECONDS), which may be
    # shorter than what words and buttons allow.
    if not 1 <= length <= MAX_LENGTH or (turn is not None and turn > MAX_TURN_SECONDS):
        raise BadCallbackDataError("inline challenge settings out of range")
    config = MatchConfig(
        variant,
        length,
        bool(flags & 1),
        bool(flags & 2),
        bool(flags & 4),
        SeriesStart.ALTERNATE if flags & 8 else SeriesStart.LOSER,
    )
    target = None if parts[7] == _ANYONE else parts[7]
    return Press(action, challenger, issued, config, turn, target)
