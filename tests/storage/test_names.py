"""Names are shortened on grapheme cluster boundaries: never half an emoji, a flag or an
accented letter, in storage or on screen."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from storage import GameRepository
from storage.names import MAX_NAME_LENGTH, shorten_name

FAMILY = "👨\u200d👩\u200d👧\u200d👦"  # 7 code points, one character on screen
FLAG = "🇮🇹"  # 2 regional indicators
ACCENTED = "e\u0301\u0323"  # e with two combining marks
SKIN = "👍🏽"  # with a skin tone modifier


@pytest.mark.parametrize("cluster", [FAMILY, FLAG, ACCENTED, SKIN])
@pytest.mark.parametrize("before", range(MAX_NAME_LENGTH - 8, MAX_NAME_LENGTH + 1))
def test_a_cluster_across_the_limit_is_dropped_whole(cluster: str, before: int) -> None:
    name = "a" * before + cluster + "b" * 10
    short = shorten_name(name)
    assert len(short) <= MAX_NAME_LENGTH
    if before + len(cluster) <= MAX_NAME_LENGTH:
        assert short.startswith("a" * before + cluster)
    else:
        assert short == "a" * before  # the cluster would not fit: none of it is kept


def test_short_names_are_kept_and_a_name_of_flags_keeps_whole_flags() -> None:
    assert shorten_name("Anna 🇮🇹") == "Anna 🇮🇹"
    flags = FLAG * 40  # 80 code points
    assert shorten_name(flags) == FLAG * 32
    assert shorten_name(FAMILY * 10) == FAMILY * 9  # 63 code points


@given(st.lists(st.sampled_from(["a", FAMILY, FLAG, ACCENTED, SKIN])).map("".join))
def test_the_short_name_is_a_prefix_made_of_whole_clusters(name: str) -> None:
    short = shorten_name(name)
    assert len(short) <= MAX_NAME_LENGTH and name.startswith(short)
    assert short == name or len(short) > MAX_NAME_LENGTH - len(FAMILY) - 1
    rest = name[len(short) :]
    # Nothing that continues a cluster starts the cut-off rest (no mark, joiner or modifier).
    if rest and short:
        assert not unicodedata.combining(rest[0]) and rest[0] not in "\u200d\U0001f3fd"


async def test_a_stored_name_is_cut_whole(repo: GameRepository) -> None:
    name = "x" * 60 + FAMILY
    await repo.set_player_name(42, name)
    assert (await repo.get_player_names([42]))[42] == "x" * 60
