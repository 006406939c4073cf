"""The load benchmark's report of refused presses: alert texts grouped by kind, counted."""

from __future__ import annotations

from collections import Counter

from benchmarks.load import alert_kind, alert_report


def test_alerts_differing_by_their_figures_are_one_kind() -> None:
    first = alert_kind("Il tabellone si aggiorna tra 3 s.\nAspetta.")
    second = alert_kind("Il tabellone si aggiorna tra 12 s.\nAspetta.")
    assert first == second == "Il tabellone si aggiorna tra # s. Aspetta."


def test_an_alert_without_text_is_named_so() -> None:
    assert alert_kind(None) == alert_kind("") == "(no text)"


def test_the_report_lists_the_most_frequent_kinds_first_with_their_counts() -> None:
    texts = Counter({"Non è il tuo turno.": 2, "Partita finita.": 5})
    lines = alert_report(texts).splitlines()
    assert lines[0] == ""  # it continues the setting's report on new lines
    assert "5x  Partita finita." in lines[1]
    assert "2x  Non è il tuo turno." in lines[2]
    assert alert_report(Counter()) == ""
