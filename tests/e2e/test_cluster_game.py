"""The bot on a real Valkey Cluster (three masters, see tests/valkey_cluster.py): a whole
game through the buttons, its result in the statistics and leaderboards, and a turn's
reminder and deadline fired once with two workers racing for them. The same tests run on one
server in their own modules; here every key and script must keep to one hash slot, or the
cluster refuses it (CROSSSLOT) and the game fails."""

from __future__ import annotations

import pytest

from tests.valkey_cluster import LocalCluster

from .test_timers import test_two_workers_on_one_redis_remind_and_end_a_turn_once
from .test_whole_games import test_whole_classic_game_through_buttons_records_result

__all__ = [
    "test_two_workers_on_one_redis_remind_and_end_a_turn_once",
    "test_whole_classic_game_through_buttons_records_result",
]


@pytest.fixture
def redis_url(valkey_cluster: LocalCluster) -> str:
    """The cluster instead of the single server, for the bot and its second worker."""
    return valkey_cluster.url
