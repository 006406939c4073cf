"""TAVOLA_DRAW_WORKERS: how many processes draw the boards (``bot.drawing``)."""

from __future__ import annotations

import pytest

from bot.config import DEFAULT_DRAW_WORKERS, ConfigError, Settings, load_settings

TOKEN = "123456:ABCdefGhIJKlmnoPQRstuVWXyz0123456789"


def test_one_drawing_process_unless_told_otherwise() -> None:
    assert DEFAULT_DRAW_WORKERS == 1
    assert load_settings({"TELEGRAM_TOKEN": TOKEN}).draw_workers == 1
    assert Settings(token=TOKEN).draw_workers == 0  # built in code (tests): a thread draws


@pytest.mark.parametrize(("value", "workers"), [("0", 0), ("2", 2), ("16", 16)])
def test_the_number_of_drawing_processes_is_read(value: str, workers: int) -> None:
    env = {"TELEGRAM_TOKEN": TOKEN, "TAVOLA_DRAW_WORKERS": value}
    assert load_settings(env).draw_workers == workers


@pytest.mark.parametrize("value", ["-1", "17", "two"])
def test_a_bad_number_is_one_line_naming_its_variable(value: str) -> None:
    with pytest.raises(ConfigError) as refused:
        load_settings({"TELEGRAM_TOKEN": TOKEN, "TAVOLA_DRAW_WORKERS": value})
    assert [p.split(":")[0] for p in refused.value.problems] == ["TAVOLA_DRAW_WORKERS"]
