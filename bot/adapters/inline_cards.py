"""The buttons of an inline challenge card: everything the challenge is, signed, in 64 bytes.

A card posted through inline mode is answered by presses on a message the bot never sent
in a chat it may not be in; nothing is stored when the card is offered (Telegram asks for
the results at every pause in typing, and most are never chosen). So each button carries
the challenge itself (who challenges, when, the game's settings, whom it is for), the card's
random nonce and an HMAC keyed from the bot's token over all of it, the button's action
included: a press with hand-written data cannot make someone the challenger of a game they
never offered, change its settings, or turn one button into another.

``j:<action>:<challenger>:<issued>:<game>:<flags>:<turn>:<for>:<nonce>:<mac>`` where
``challenger`` and ``issued`` are in base 36, ``game`` is the variant's letter and the length
(``c5``, ``l3``), ``flags`` one hex digit (cube, Mars, last roll, alternate starts), ``turn``
the turn limit in seconds in base 36 (``0``: none), ``for`` a short hash of the only username
allowed to accept (``-``: anyone) and ``nonce`` the card's own random name.

The nonce is also the card's inline result id: when Telegram reports which result was sent
in which inline message (``chosen_inline_result``), the bot records that message's card, and
a press whose (validly signed) data belongs to another card is refused. It also names the
card's dice: their seed is an HMAC of the nonce under a key derived from the token, so the
card can show the seed's commitment before anything is stored, and the game started by its
Accetta uses that seed.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
import secrets
from dataclasses import dataclass
from enum import StrEnum

from bot.adapters.callback_data import MAX_BYTES, BadCallbackDataError
from bot.game.challenge import Setting, Terms
from bot.game.options import ChallengeOptions
from engine import MatchConfig, SeriesStart

PREFIX = "j"
_MAC_CHARS = 10  # 60 bits
_NONCE_BYTES = 6  # 48 bits: 8 characters
_NONCE = re.compile(r"[A-Za-z0-9_-]{8}")
_FOR_CHARS = 6
_ANYONE = "-"


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
    nonce: str  # the card's random name (see new_nonce): its result id and its dice


def is_nonce(text: str) -> bool:
    """Is ``text`` a card's name as `new_nonce` writes it?"""
    return _NONCE.fullmatch(text) is not None


def new_nonce() -> str:
    """A fresh card's name: 8 characters of ``A-Z a-z 0-9 _ -`` (also a valid result id)."""
    return base64.urlsafe_b64encode(secrets.token_bytes(_NONCE_BYTES)).decode()


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


def dice_seed(secret: bytes, nonce: str) -> str:
    """The secret dice seed of the card named ``nonce`` (64 hex digits, as engine.dice takes).

    Unknown to anyone without the key, fixed before the card is shown (so its commitment can
    be), revealed after its game: one card's seed tells nothing about another's.
    """
    return hmac.new(secret, b"tavola inline dice\0" + nonce.encode(), hashlib.sha256).hexdigest()


def _body(challenge: InlineChallenge) -> str:
    opts = challenge.options
    c = opts.config
    flags = (
        int(c.cube)
        | int(c.mars) << 1
        | int(c.last_roll) << 2
        | int(c.series_start is SeriesStart.ALTERNATE) << 3
        | int(not c.jacoby) << 4  # set only when off: cards made before it read Jacoby on
    )
    target = _ANYONE if opts.username is None else _user_hash(opts.username)
    return ":".join(
        [
            _b36(challenge.challenger),
            _b36(challenge.issued),
            f"{Terms.of_options(opts).code(Setting.VARIANT)}{c.length}",
            f"{flags:x}",
            _b36(opts.turn_seconds or 0),
            target,
            challenge.nonce,
        ]
    )


def encode(secret: bytes, challenge: InlineChallenge, action: CardAction) -> str:
    if not _NONCE.fullmatch(challenge.nonce):
        raise BadCallbackDataError("not a card nonce")
    signed = f"{PREFIX}:{action.value}:{_body(challenge)}"
    data = f"{signed}:{_mac(secret, signed)}"
    if len(data.encode()) > MAX_BYTES:
        raise BadCallbackDataError("inline challenge data too long")
    return data


@dataclass(frozen=True, slots=True)
class Press:
    action: CardAction
    challenger: int
    issued: int
    terms: Terms  # the game the card offers (an inline card carries no aids)
    for_hash: str | None  # the hash of the only username allowed, None: anyone
    nonce: str  # the card the data belongs to

    @property
    def config(self) -> MatchConfig:
        return self.terms.config

    @property
    def turn_seconds(self) -> int | None:
        return self.terms.turn_seconds

    def is_for(self, username: str | None) -> bool:
        return self.for_hash is None or (
            username is not None and hmac.compare_digest(_user_hash(username), self.for_hash)
        )


def _terms(game: str, flags_hex: str, turn_b36: str) -> Terms:
    """The settings fields of a card's data, read by the challenges' one settings parser."""
    flags, turn = int(flags_hex, 16), int(turn_b36, 36)
    codes = {
        Setting.VARIANT: game[:1],
        Setting.LENGTH: game[1:],
        Setting.CUBE: str(flags & 1),
        Setting.SCORING: "m" if flags & 2 else "o",
        Setting.LAST_ROLL: str(flags >> 2 & 1),
        Setting.SERIES: "a" if flags & 8 else "l",
        Setting.JACOBY: "0" if flags & 16 else "1",
        # The turn limit may be the operator's default (TAVOLA_TURN_SECONDS), which may be
        # shorter than what words and buttons allow.
        Setting.TIME: str(turn),
    }
    return Terms.of_codes(codes, any_turn=True)


def decode(secret: bytes, data: str | None) -> Press:
    """A press's data, checked; BadCallbackDataError for anything we did not sign."""
    if not data or len(data.encode()) > MAX_BYTES:
        raise BadCallbackDataError("empty or oversized data")
    parts = data.split(":")
    if len(parts) != 10 or parts[0] != PREFIX:
        raise BadCallbackDataError("not inline challenge data")
    signed = ":".join(parts[:9])
    if not hmac.compare_digest(_mac(secret, signed), parts[9]):
        raise BadCallbackDataError("bad signature")
    # Signed by us: the fields are as encode() wrote them, checked again all the same.
    try:
        action = CardAction(parts[1])
        challenger, issued = int(parts[2], 36), int(parts[3], 36)
        terms = _terms(parts[4], parts[5], parts[6])
    except ValueError:  # BadSettingError included
        raise BadCallbackDataError("malformed inline challenge data") from None
    target = None if parts[7] == _ANYONE else parts[7]
    if not _NONCE.fullmatch(parts[8]):
        raise BadCallbackDataError("malformed card nonce")
    return Press(action, challenger, issued, terms, target, parts[8])
