"""Short, versioned callback data for inline buttons (Telegram allows 1..64 bytes).

Game buttons carry the game id and the stored version they were drawn for, so a stale
button, a double click or forged data can be refused before anything changes:
``g:<game>:<version>:<action>[:args]``. Other families: challenges ``c:<id>:<action>``,
rules navigation ``r:<variant>:<section>``, the computer-game set-up ``p:...``, the
main menu ``m:<item>``, a player's settings ``o:<name>:<value>:<owner>``, the challenge
card ``k:<id>:<setting>[:<value>]``, a finished game's replay and export ``v:...``, the
inline challenge cards ``j:...`` (signed: ``bot.adapters.inline_cards``), and the full
review under an analysis ``a:<place>:<game>:<number>`` (acted on only on a message whose
keyboard carries exactly that data).

Anyone can send any data from any button (a modified client), so each family acts only
where its buttons really are. Telegram sends the pressed message with its current keyboard,
which the presser cannot change, and the handlers check it: game buttons only on the
recorded board or resign prompt of that game and version, ``c:`` and ``k:`` only on their
challenge's own card, ``o:`` only on a settings message of the presser, ``r:`` and ``p:``
only on a message carrying buttons of their family, ``j:`` only in the inline message
Telegram reported that card in; on an inline message only ``g:``, ``j:`` and ``v:`` act
(``bot.handlers.guards``). ``m:`` and ``v:`` only send new messages. Anything else gets a
plain refusal (an alert such as "Questo pulsante non è più valido.") and changes nothing.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterable
from dataclasses import dataclass

from bot.game import setup_wizard
from bot.game.actions import Action, arity_ok
from bot.game.challenge import Answer, Setting, parse_setting
from bot.game.setup_wizard import Setup

MAX_BYTES = 64


class BadCallbackDataError(ValueError):
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
        raise BadCallbackDataError("callback data too long")
    return data


def _int(text: str) -> int:
    # Exactly what str(int) writes: "--5", "²" or "٣" pass isdigit() but not int() or us.
    if not re.fullmatch(r"-?[0-9]{1,18}", text):
        raise BadCallbackDataError(f"not a number: {text!r}")
    return int(text)


def decode_game(parts: list[str]) -> GameButton:
    if len(parts) < 4:
        raise BadCallbackDataError("short game data")
    try:
        action = Action(parts[3])
    except ValueError:
        raise BadCallbackDataError(f"unknown game action {parts[3]!r}") from None
    if not arity_ok(action, len(parts) - 4):
        raise BadCallbackDataError(f"wrong arguments for {action.name}")
    return GameButton(_int(parts[1]), _int(parts[2]), action, tuple(_int(p) for p in parts[4:]))


def first_game_button(datas: Iterable[object]) -> GameButton | None:
    """The first game button among a keyboard's callback data (None: there is none)."""
    for data in datas:
        if isinstance(data, str) and data.startswith("g:"):
            with contextlib.suppress(BadCallbackDataError):
                return decode_game(split(data))
    return None


def split(data: str | None) -> list[str]:
    if not data or len(data.encode()) > MAX_BYTES:
        raise BadCallbackDataError("empty or oversized data")
    return data.split(":")


def challenge(challenge_id: int, action: str) -> str:
    return _checked(f"c:{challenge_id}:{action}")


def rules(variant: str, section: str) -> str:
    return _checked(f"r:{variant}:{section}")


def setup(*choices: str) -> str:
    return _checked(":".join(["p", *choices]))


def decode_setup(parts: list[str]) -> Setup:
    """The computer set-up a page's button carries (see bot.game.setup_wizard)."""
    if not parts or parts[0] != "p":
        raise BadCallbackDataError("not set-up data")
    try:
        return setup_wizard.parse(parts[1:])
    except setup_wizard.BadSetupError:
        raise BadCallbackDataError(f"not a set-up: {parts!r}") from None


def menu(item: str) -> str:
    return _checked(f"m:{item}")


def preference(name: str, value: str, owner: int) -> str:
    """A settings toggle: ``o:<name>:<value>:<owner>``, only for the player it shows."""
    return _checked(f"o:{name}:{value}:{owner}")


def decode_preference(parts: list[str]) -> tuple[str, str, int]:
    """(setting, value, owner) of a settings toggle; the value is ``0`` or ``1``."""
    if len(parts) != 4 or parts[0] != "o" or parts[2] not in ("0", "1"):
        raise BadCallbackDataError("not settings data")
    owner = _int(parts[3])
    if owner <= 0:
        raise BadCallbackDataError("not a user")
    return parts[1], parts[2], owner


CARD_LAUNCH = "go"  # post the challenge as set


@dataclass(frozen=True, slots=True)
class CardButton:
    """A press on the card that /sfida opens: set one setting, or launch the challenge.

    A button sets a value rather than toggling one, so a double click changes nothing twice.
    ``setting`` None launches; ``value`` is the setting's code (see bot.game.challenge).
    """

    challenge_id: int
    setting: Setting | None
    value: str = ""

    def encode(self) -> str:
        if self.setting is None:
            return _checked(f"k:{self.challenge_id}:{CARD_LAUNCH}")
        return _checked(f"k:{self.challenge_id}:{self.setting.value}:{self.value}")


def decode_card(parts: list[str]) -> CardButton:
    """Only what `CardButton.encode` writes for a value the card may have."""
    if len(parts) not in (3, 4) or parts[0] != "k":
        raise BadCallbackDataError("not card data")
    challenge_id = _int(parts[1])
    if challenge_id < 0:
        raise BadCallbackDataError("negative challenge id")
    if parts[2] == CARD_LAUNCH and len(parts) == 3:
        return CardButton(challenge_id, None)
    if len(parts) != 4:
        raise BadCallbackDataError("card setting without a value")
    try:
        setting = Setting(parts[2])
        parse_setting(setting, parts[3])
    except ValueError:  # BadSettingError included
        raise BadCallbackDataError(f"bad card setting {parts[2:]!r}") from None
    return CardButton(challenge_id, setting, parts[3])


@dataclass(frozen=True, slots=True)
class ChallengeButton:
    """Accetta, Rifiuta or Ritira on a challenge: ``c:<id>:<answer>``."""

    challenge_id: int
    answer: Answer

    def encode(self) -> str:
        return challenge(self.challenge_id, self.answer.value)


def decode_challenge(parts: list[str]) -> ChallengeButton:
    if len(parts) != 3 or parts[0] != "c":
        raise BadCallbackDataError("not challenge data")
    challenge_id = _int(parts[1])
    if challenge_id < 0:
        raise BadCallbackDataError("negative challenge id")
    try:
        return ChallengeButton(challenge_id, Answer(parts[2]))
    except ValueError:
        raise BadCallbackDataError(f"unknown answer {parts[2]!r}") from None


# --------------------------------------------------------------------------- finished games
#: The buttons of a finished game's board: ``v:r:<game>:<game number>`` replays one game,
#: ``v:e:<game>`` exports the match. Harmless for anyone to press: they only send files.
REPLAY = "r"
EXPORT = "e"


def records_button(kind: str, game_id: int, number: int = 0) -> str:
    if kind == REPLAY:
        return _checked(f"v:{REPLAY}:{game_id}:{number}")
    return _checked(f"v:{EXPORT}:{game_id}")


def decode_records(parts: list[str]) -> tuple[str, int, int]:
    """(kind, game id, game number: 0 for an export) of a finished game's button."""
    if len(parts) == 4 and parts[:2] == ["v", REPLAY]:
        return REPLAY, _int(parts[2]), _int(parts[3])
    if len(parts) == 3 and parts[:2] == ["v", EXPORT]:
        return EXPORT, _int(parts[2]), 0
    raise BadCallbackDataError("not a finished game's button")


# --------------------------------------------------------------------------- full review
#: The full review's button under an analysis: ``a:<place key>:<game id>:<game number>``.
#: It acts only on a message whose own keyboard carries exactly that data (the analysis
#: the bot sent), since the game it names may be another chat's (a group game analysed in
#: private).
FULL_REVIEW = "a"


def full_review_button(key: int, game_id: int, number: int) -> str:
    return _checked(f"{FULL_REVIEW}:{key}:{game_id}:{number}")


def decode_full_review(parts: list[str]) -> tuple[int, int, int]:
    """(place key, game id, game number) of a full review's button."""
    if len(parts) == 4 and parts[0] == FULL_REVIEW:
        # A place key may have 19 digits (topics and inline messages count from 2**59).
        if not re.fullmatch(r"-?[0-9]{1,19}", parts[1]):
            raise BadCallbackDataError(f"not a place key: {parts[1]!r}")
        return int(parts[1]), _int(parts[2]), _int(parts[3])
    raise BadCallbackDataError("not a full review button")


MOVES_PREFIX = "l:"


def moves_button(game_id: int) -> str:
    """The move list's button on a board: ``l:<game id>`` (it only sends a list)."""
    return _checked(f"{MOVES_PREFIX}{game_id}")


def decode_moves(data: str | None) -> int:
    """The game id of a move list button."""
    parts = split(data)
    if len(parts) != 2 or parts[0] != MOVES_PREFIX[:-1]:
        raise BadCallbackDataError("not a move list button")
    return _int(parts[1])
