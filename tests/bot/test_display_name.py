"""The name a player is shown by is cut to 64 code points on a grapheme cluster boundary."""

from __future__ import annotations

from telegram import User

from bot.handlers.common import display_name

FAMILY = "👨\u200d👩\u200d👧\u200d👦"


def test_a_long_name_loses_a_whole_emoji_never_half() -> None:
    user = User(1, "a" * 60, False, last_name=FAMILY)  # full name: 60 + space + 7 > 64
    assert display_name(user) == "a" * 60
    user = User(1, "a" * 56, False, last_name=FAMILY + "🇮🇹")
    assert display_name(user) == "a" * 56 + " " + FAMILY
