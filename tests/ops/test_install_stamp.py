"""scripts/venv.sh installs only when pyproject.toml or the lock changed.

The scripts run in a scratch directory whose ``.venv/bin/python`` records every
``python -m pip`` call instead of running pip (and runs anything else with this Python), so
the test sees exactly when the package index would be contacted.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

FAKE_PYTHON = """#!/bin/sh
if [ "$1" = "-m" ] && [ "$2" = "pip" ]; then
    echo "$*" >> "$PIP_CALLS"
    exit "${PIP_EXIT:-0}"
fi
exec PYTHON "$@"
"""


@pytest.fixture
def project(tmp_path: Path) -> Path:
    shutil.copytree(ROOT / "scripts", tmp_path / "scripts")
    for name in ("pyproject.toml", "requirements.lock", "requirements-test.lock"):
        shutil.copy(ROOT / name, tmp_path / name)
    python = tmp_path / ".venv" / "bin" / "python"
    python.parent.mkdir(parents=True)
    python.write_text(FAKE_PYTHON.replace("PYTHON", sys.executable), encoding="utf-8")
    python.chmod(0o755)
    return tmp_path


def _ensure(project: Path, lock: str, spec: str, pip_exit: int = 0) -> tuple[int, list[str]]:
    calls = project / "pip-calls.txt"
    calls.unlink(missing_ok=True)
    env = {**os.environ, "PIP_CALLS": str(calls), "PIP_EXIT": str(pip_exit)}
    done = subprocess.run(
        ["bash", "-c", f". scripts/venv.sh && ensure_venv {lock} '{spec}'"],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    lines = calls.read_text(encoding="utf-8").splitlines() if calls.exists() else []
    return done.returncode, lines


def test_installs_once_then_starts_without_pip(project: Path) -> None:
    code, calls = _ensure(project, "requirements.lock", ".")
    assert code == 0
    assert calls == ["-m pip install --quiet --disable-pip-version-check -r requirements.lock -e ."]
    assert _ensure(project, "requirements.lock", ".") == (0, [])


@pytest.mark.parametrize("changed", ["pyproject.toml", "requirements.lock"])
def test_a_changed_pyproject_or_lock_installs_again(project: Path, changed: str) -> None:
    _ensure(project, "requirements.lock", ".")
    with (project / changed).open("a", encoding="utf-8") as file:
        file.write("\n# changed\n")
    assert len(_ensure(project, "requirements.lock", ".")[1]) == 1
    assert _ensure(project, "requirements.lock", ".") == (0, [])


def test_a_failed_install_is_retried_next_time(project: Path) -> None:
    code, calls = _ensure(project, "requirements.lock", ".", pip_exit=1)
    assert code != 0 and len(calls) == 1
    assert len(_ensure(project, "requirements.lock", ".")[1]) == 1


def test_run_and_test_installs_are_stamped_apart(project: Path) -> None:
    _ensure(project, "requirements.lock", ".")
    code, calls = _ensure(project, "requirements-test.lock", ".[test]")
    assert code == 0 and calls[0].endswith("-r requirements-test.lock -e .[test]")
    assert _ensure(project, "requirements.lock", ".") == (0, [])
    assert _ensure(project, "requirements-test.lock", ".[test]") == (0, [])


@pytest.mark.parametrize(
    ("script", "lock"), [("run.sh", "requirements.lock"), ("test.sh", "requirements-test.lock")]
)
def test_scripts_install_through_the_stamp(script: str, lock: str) -> None:
    text = (ROOT / "scripts" / script).read_text(encoding="utf-8")
    assert ". scripts/venv.sh" in text
    assert f"ensure_venv {lock} " in text
    assert "pip install" not in text
