"""The full review's HTML document and its button's data, without Telegram."""

from __future__ import annotations

import pytest
from test_replay import _record, random_states

from bot.adapters import callback_data as cd
from bot.adapters.places import INLINE_KEY_BASE
from bot.game.table import Player, Table
from bot.views.review_document import review_document_job
from engine import MatchConfig, Variant


@pytest.mark.parametrize("variant", [Variant.CLASSIC, Variant.LONG])
def test_the_document_is_self_contained_and_escapes_names(variant: Variant) -> None:
    states = random_states(MatchConfig(variant, 3), 2, resign_at=14)
    table = Table(states[-1], (Player(1, 'Anna <script>alert("x")</script>'), Player(2, "Bruno")))
    doc = review_document_job(_record(states).to_doc(), table)
    text = doc.data.decode("utf-8")
    assert doc.file_name == "tavola-analisi-partita-1.html"
    assert text.startswith("<!DOCTYPE html>") and '<html lang="it">' in text
    assert 'name="viewport"' in text  # readable on a phone
    assert "<script" not in text and "&lt;script&gt;" in text
    # Nothing is fetched from elsewhere: every picture is inside the file.
    assert "http://" not in text and "https://" not in text
    assert text.count('src="data:image/png;base64,') == doc.pictures
    assert text.count('<li class="decision') == doc.decisions > 0


def test_the_button_data_names_any_place_within_64_bytes() -> None:
    for key in (-1001234567890, 42, INLINE_KEY_BASE + (1 << 56) - 1):
        data = cd.full_review_button(key, 123456789012, 17)
        assert len(data.encode()) <= cd.MAX_BYTES
        assert cd.decode_full_review(cd.split(data)) == (key, 123456789012, 17)
    for forged in ("a:x:1:1", "a:1:1", "a:1:1:1:1", "v:1:1:1", "a:" + "9" * 20 + ":1:1"):
        with pytest.raises(cd.BadCallbackDataError):
            cd.decode_full_review(cd.split(forged))
