#!/usr/bin/env bash
# Runs the bot: creates/updates .venv, installs the project, starts `python -m bot`.
# Needs TELEGRAM_TOKEN; without REDIS_URL it starts an embedded Valkey server whose data
# lives in $TAVOLA_DATA_DIR/valkey (default ./data/valkey), so games survive a restart.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON="${PYTHON:-python3}"
if [ ! -x .venv/bin/python ]; then
    "$PYTHON" -m venv .venv
fi
.venv/bin/python -m pip install --quiet --disable-pip-version-check -e .
exec .venv/bin/python -m bot
