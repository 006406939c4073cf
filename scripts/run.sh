#!/usr/bin/env bash
# Runs the bot: creates .venv, installs the pinned dependencies (requirements.lock) and the
# project only when pyproject.toml or the lock changed (see scripts/venv.sh: a restart never
# contacts the package index), then starts `python -m bot`.
# Needs TELEGRAM_TOKEN; without REDIS_URL it starts an embedded Valkey server whose data
# lives in $TAVOLA_DATA_DIR/valkey (default ./data/valkey), so games survive a restart.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/venv.sh
ensure_venv requirements.lock .
exec .venv/bin/python -m bot
