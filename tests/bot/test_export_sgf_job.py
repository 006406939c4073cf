"""The export job of a classic match played without the cube: gnubg's SGF, not ``.mat``."""

from __future__ import annotations

import datetime

from test_replay import NAMES, _record, random_states

from bot.texts import replay_export as RX
from bot.views.replay import export_job
from engine import GameRecord, MatchConfig, Variant


def _exported(config: MatchConfig) -> tuple[str, str]:
    record: GameRecord = _record(random_states(config, 3))
    return export_job([record.to_doc()], NAMES, datetime.date(2026, 5, 4))


def test_a_match_without_the_cube_is_exported_as_sgf_saying_no_cube() -> None:
    name, text = _exported(MatchConfig(Variant.CLASSIC, 3, cube=False))
    assert name == "tavola-20260504.sgf"
    assert text.startswith("(;FF[4]GM[6]") and "RU[NoCube:Crawford]" in text
    assert "PW[Anna]PB[Bruno]DT[2026-05-04]" in text


def test_a_match_with_the_cube_is_still_a_mat_file() -> None:
    name, text = _exported(MatchConfig(Variant.CLASSIC, 3))
    assert name == "tavola-20260504.mat" and " 3 point match" in text


def test_the_caption_says_which_file_it_is() -> None:
    assert ".sgf" in RX.export_caption(True, 2, cubeless=True)
    assert ".mat" in RX.export_caption(True, 2)
