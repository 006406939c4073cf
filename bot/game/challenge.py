"""A challenge as one typed value, and the card's life as a small state machine.

A challenge offers ``Terms`` (the match and the table's settings); /sfida's words, the
challenge card's buttons and the inline cards all end in the same value. Each setting has a
short code, the one the card's buttons carry (``v`` variant, ``n`` length, ``t`` seconds per
turn...), and `parse_setting` is the one reader of a setting's value: the card's buttons and
the inline cards' fields go through it, and `Terms.with_setting` applies what it read.

The card that /sfida opens is a ``Stage.DRAFT`` that only its challenger adjusts and
launches; a launched challenge is ``Stage.OPEN`` until it is accepted, declined or withdrawn
(then it is gone from storage). `on_card` and `on_answer` decide a press without Telegram
or storage: the handler carries out what they return.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import Enum, StrEnum
from typing import Any

from bot.game.options import MAX_LENGTH, MAX_TURN_SECONDS, ChallengeOptions, turn_seconds_ok
from bot.texts import messages as T
from engine import MatchConfig, SeriesStart, Variant


class BadSettingError(ValueError):
    """A setting's value that no button or card of ours carries."""


class Setting(StrEnum):
    """A challenge's settings, by the code the card's buttons carry."""

    VARIANT = "v"  # c classic, l long
    LENGTH = "n"  # 1..MAX_LENGTH, 0 the money game (classic)
    CUBE = "k"  # 0 / 1
    SCORING = "s"  # o Oin, m Mars
    LAST_ROLL = "l"  # 0 / 1
    SERIES = "f"  # who starts the later games: l the loser, a in turn
    HINTS = "h"  # 0 / 1: hints for both players
    ANALYSIS = "y"  # 0 / 1: the post-game analysis posted in the group
    TIME = "t"  # seconds per turn, 0 for no limit
    JACOBY = "j"  # 0 / 1: the money game's Jacoby rule


_VARIANTS = {"c": Variant.CLASSIC, "l": Variant.LONG}
_SERIES = {"l": SeriesStart.LOSER, "a": SeriesStart.ALTERNATE}
_SCORING = {"o": False, "m": True}  # Mars counts
_FLAGS = {"0": False, "1": True}
_NUMBER = re.compile(r"0|[1-9][0-9]{0,5}")  # exactly what str(int) writes, no sign


def _number(text: str) -> int:
    if not _NUMBER.fullmatch(text):
        raise BadSettingError(f"not a number: {text!r}")
    return int(text)


def _choice(table: Mapping[str, Any], text: str) -> Any:
    if text not in table:
        raise BadSettingError(f"not a choice: {text!r}")
    return table[text]


def parse_setting(setting: Setting, text: str, *, any_turn: bool = False) -> Any:
    """The typed value of a setting's code; BadSettingError for anything else.

    A turn limit must be one words and buttons allow, or 0 for none; ``any_turn`` also lets
    through a shorter one (the operator's default travels in inline cards).
    """
    if setting is Setting.VARIANT:
        return _choice(_VARIANTS, text)
    if setting is Setting.SERIES:
        return _choice(_SERIES, text)
    if setting is Setting.SCORING:
        return _choice(_SCORING, text)
    if setting is Setting.LENGTH:
        length = _number(text)
        if not 0 <= length <= MAX_LENGTH:
            raise BadSettingError("length out of range")
        return length
    if setting is Setting.TIME:
        seconds = _number(text)
        if seconds and not (turn_seconds_ok(seconds) or (any_turn and seconds <= MAX_TURN_SECONDS)):
            raise BadSettingError("turn limit out of range")
        return seconds or None
    return _choice(_FLAGS, text)


@dataclass(frozen=True, slots=True)
class Terms:
    """What game a challenge offers: the match, the turn limit and the players' aids."""

    config: MatchConfig
    turn_seconds: int | None
    hints: bool = False  # both players may ask for hints during the game
    shared_analysis: bool = False  # the post-game analysis is posted in the group

    @classmethod
    def of_options(cls, opts: ChallengeOptions) -> Terms:
        """The terms /sfida's words set."""
        return cls(opts.config, opts.turn_seconds, opts.hints, opts.shared_analysis)

    @classmethod
    def of_codes(cls, codes: Mapping[Setting, str], *, any_turn: bool = False) -> Terms:
        """The terms written as setting codes (absent ones at their defaults)."""
        terms = cls(MatchConfig(), None)
        for setting, text in codes.items():
            terms = terms.with_setting(setting, text, any_turn=any_turn)
        return terms

    def with_setting(self, setting: Setting, text: str, *, any_turn: bool = False) -> Terms:
        """These terms with one setting set from its code (checked by `parse_setting`)."""
        value = parse_setting(setting, text, any_turn=any_turn)
        c = self.config
        if setting is Setting.TIME:
            return replace(self, turn_seconds=value)
        if setting is Setting.HINTS:
            return replace(self, hints=value)
        if setting is Setting.ANALYSIS:
            return replace(self, shared_analysis=value)
        if setting is Setting.VARIANT and value is not Variant.CLASSIC and c.money:
            c = replace(c, length=1)  # the money game is classic only: a single game
        if setting is Setting.CUBE and not value and c.money:
            raise BadSettingError("the money game is played with the cube")
        if setting is Setting.LENGTH and value == 0:
            if not c.rules.has_cube:
                raise BadSettingError("the money game is classic only")
            c = replace(c, cube=True)  # the money game is played with the cube
        field = {
            Setting.VARIANT: "variant",
            Setting.LENGTH: "length",
            Setting.CUBE: "cube",
            Setting.SCORING: "mars",
            Setting.LAST_ROLL: "last_roll",
            Setting.SERIES: "series_start",
            Setting.JACOBY: "jacoby",
        }[setting]
        return replace(self, config=replace(c, **{field: value}))

    def code(self, setting: Setting) -> str:
        """The code of a setting's current value (as its card button carries it)."""
        c = self.config
        values: dict[Setting, str] = {
            Setting.VARIANT: "c" if c.variant is Variant.CLASSIC else "l",
            Setting.LENGTH: str(c.length),
            Setting.CUBE: str(int(c.cube)),
            Setting.SCORING: "m" if c.mars else "o",
            Setting.LAST_ROLL: str(int(c.last_roll)),
            Setting.SERIES: "a" if c.series_start is SeriesStart.ALTERNATE else "l",
            Setting.HINTS: str(int(self.hints)),
            Setting.ANALYSIS: str(int(self.shared_analysis)),
            Setting.TIME: str(self.turn_seconds or 0),
            Setting.JACOBY: str(int(c.jacoby)),
        }
        return values[setting]

    def toggled(self, setting: Setting) -> str:
        """The code of the other value of a two-valued setting (what its button sets)."""
        other = {"0": "1", "1": "0", "m": "o", "o": "m", "a": "l", "l": "a"}
        current = self.code(setting)
        if setting is Setting.VARIANT:
            return "c" if current == "l" else "l"
        return other[current]

    # The stored challenge's keys, as every release wrote them.
    def to_payload(self) -> dict[str, Any]:
        c = self.config
        return {
            "v": c.variant.value,
            "n": c.length,
            "cube": c.cube,
            "mars": c.mars,
            "lr": c.last_roll,
            "ss": c.series_start.value,
            "ts": self.turn_seconds,
            "hi": self.hints,
            "an": self.shared_analysis,
            "jc": c.jacoby,
        }

    @classmethod
    def from_payload(cls, p: Mapping[str, Any]) -> Terms:
        config = MatchConfig(
            Variant(p["v"]),
            int(p["n"]),
            bool(p["cube"]),
            bool(p["mars"]),
            bool(p["lr"]),
            SeriesStart(p["ss"]),
            bool(p.get("jc", True)),  # challenges stored before the setting: its default
        )
        ts = p.get("ts")
        hints, shared = bool(p.get("hi", False)), bool(p.get("an", False))
        return cls(config, None if ts is None else int(ts), hints, shared)


class Stage(Enum):
    DRAFT = "draft"  # the card: only the challenger adjusts it, then launches it
    OPEN = "open"  # launched: waiting to be accepted, declined or withdrawn


@dataclass(frozen=True, slots=True)
class Challenge:
    """A challenge in a group, as stored while it waits for an answer."""

    by_id: int
    by_name: str
    terms: Terms
    stage: Stage
    to_id: int | None = None  # a replied-to member: only they may accept
    to_name: str | None = None
    to_user: str | None = None  # "/sfida @anna": only that username may accept
    message_id: int | None = None  # its card, once posted

    @property
    def personal(self) -> bool:
        """Is it for one person (so it can be declined)?"""
        return self.to_id is not None or bool(self.to_user)

    @property
    def opponent(self) -> str | None:
        """Whom it is for, as shown: a replied-to member's name, an @user, or nobody."""
        if self.to_name:
            return self.to_name
        if self.to_user:
            return f"@{self.to_user}"
        return None

    def to_payload(self) -> dict[str, Any]:
        payload: dict[str, Any] = {
            "by": [self.by_id, self.by_name],
            "to": self.to_id,
            "to_name": self.to_name,
            "to_user": self.to_user,
            "draft": self.stage is Stage.DRAFT,
            **self.terms.to_payload(),
        }
        if self.message_id is not None:
            payload["msg"] = self.message_id
        return payload

    @classmethod
    def from_payload(cls, p: Mapping[str, Any]) -> Challenge:
        """A stored challenge; KeyError/ValueError/TypeError for a record that is not one."""
        by_id, by_name = p["by"]
        msg = p.get("msg")
        return cls(
            by_id=int(by_id),
            by_name=str(by_name),
            terms=Terms.from_payload(p),
            stage=Stage.DRAFT if p.get("draft") else Stage.OPEN,
            to_id=None if p.get("to") is None else int(p["to"]),
            to_name=None if not p.get("to_name") else str(p["to_name"]),
            to_user=None if not p.get("to_user") else str(p["to_user"]),
            message_id=None if msg is None else int(msg),
        )


# --------------------------------------------------------------------------- the presses
@dataclass(frozen=True, slots=True)
class Refuse:
    """The press changes nothing; the presser is told why."""

    alert: str


@dataclass(frozen=True, slots=True)
class Adjust:
    """The draft card with one setting changed."""

    challenge: Challenge


@dataclass(frozen=True, slots=True)
class Launch:
    """The draft card becomes the challenge the group sees."""

    challenge: Challenge


class Close(Enum):
    WITHDRAWN = "withdrawn"  # by the challenger
    DECLINED = "declined"  # by the one it was for


@dataclass(frozen=True, slots=True)
class Accept:
    """The challenge is taken: its game starts."""

    challenge: Challenge


CardOutcome = Refuse | Adjust | Launch
AnswerOutcome = Refuse | Close | Accept


class Answer(StrEnum):
    """The buttons of a launched challenge (``c:<id>:<answer>``)."""

    ACCEPT = "a"
    DECLINE = "r"  # only on a challenge for one person
    WITHDRAW = "x"  # only the challenger (also on the draft card)


def on_its_card(challenge: Challenge, message_id: int) -> bool:
    """Was the press made on the challenge's own card (recorded once it was posted)?"""
    return challenge.message_id is None or challenge.message_id == message_id


def on_card(
    challenge: Challenge, presser: int, setting: Setting | None, text: str = ""
) -> CardOutcome:
    """A press on the draft card: ``setting`` set to ``text``, or launch (``None``)."""
    if challenge.stage is not Stage.DRAFT:
        return Refuse(T.ALERT_STALE_BUTTON)
    if presser != challenge.by_id:
        return Refuse(T.ALERT_NOT_YOUR_CARD)
    if setting is None:
        return Launch(replace(challenge, stage=Stage.OPEN))
    try:
        terms = challenge.terms.with_setting(setting, text)
    except BadSettingError:
        return Refuse(T.ALERT_STALE_BUTTON)
    return Adjust(replace(challenge, terms=terms))


def on_answer(
    challenge: Challenge, answer: Answer, presser: int, username: str | None
) -> AnswerOutcome:
    """Accetta, Rifiuta or Ritira on a challenge: who may press what, and what it does."""
    if challenge.stage is Stage.DRAFT and answer is not Answer.WITHDRAW:
        return Refuse(T.ALERT_STALE_BUTTON)  # a card is accepted once it is launched
    if answer is Answer.WITHDRAW:
        if presser != challenge.by_id:
            return Refuse(T.ALERT_NOT_CHALLENGER)
        return Close.WITHDRAWN
    if presser == challenge.by_id:
        return Refuse(T.ALERT_OWN_CHALLENGE)
    if challenge.to_id is not None and presser != challenge.to_id:
        return Refuse(T.ALERT_NOT_FOR_YOU)
    if challenge.to_user and (username or "").lower() != challenge.to_user:
        return Refuse(T.ALERT_NOT_FOR_YOU)
    if answer is Answer.DECLINE:
        if not challenge.personal:
            return Refuse(T.ALERT_STALE_BUTTON)  # open challenges have no Rifiuta
        return Close.DECLINED
    return Accept(challenge)
