# Sourced by run.sh and test.sh (not run by itself): makes .venv and installs into it only
# when something that decides the installation changed.
#
# `ensure_venv LOCK SPEC` installs the pinned versions of LOCK plus the project as SPEC
# (e.g. `.` or `.[test]`, editable) and writes a stamp in .venv: the SHA-256 of the Python
# version, pyproject.toml, LOCK and SPEC. While the stamp matches, nothing is installed and the
# package index is never contacted, so a restart works offline and takes well under a second.
# Remove .venv/.tavola-*.sha256 (or .venv itself) to force a reinstallation.
ensure_venv() {
    local lock="$1" spec="$2"
    local stamp_file=".venv/.tavola-${lock%.lock}.sha256"
    if [ ! -x .venv/bin/python ]; then
        "${PYTHON:-python3}" -m venv .venv || return 1
    fi
    local want have=""
    want="$(.venv/bin/python - "$lock" "$spec" <<'PY'
import hashlib
import platform
import sys

digest = hashlib.sha256(platform.python_version().encode())
for name in ("pyproject.toml", sys.argv[1]):
    with open(name, "rb") as file:
        digest.update(file.read())
digest.update(sys.argv[2].encode())
print(digest.hexdigest())
PY
)" || return 1
    if [ -f "$stamp_file" ]; then
        have="$(cat "$stamp_file")"
    fi
    if [ "$want" != "$have" ]; then
        echo "tavola: installing the dependencies ($lock) into .venv" >&2
        rm -f "$stamp_file"
        .venv/bin/python -m pip install --quiet --disable-pip-version-check \
            -r "$lock" -e "$spec" || return 1
        echo "$want" > "$stamp_file"
    fi
}
