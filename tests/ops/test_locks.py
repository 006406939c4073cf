"""The lock files and the dependency floors agree with pyproject.toml.

``requirements.lock`` (run.sh, the image, buildpacks) and ``requirements-test.lock``
(test.sh) pin the exact versions the suite passed with; both come from scripts/lock.sh.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[2]


def _pins(name: str) -> dict[str, Version]:
    pins: dict[str, Version] = {}
    for line in (ROOT / name).read_text(encoding="utf-8").splitlines():
        if not line or line.startswith("#"):
            continue
        package, _, version = line.partition("==")
        assert version, f"{name}: {line!r} is not pinned exactly"
        pins[canonicalize_name(package)] = Version(version)
    return pins


def _requirements(extra: str | None = None) -> list[Requirement]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    listed = project["optional-dependencies"][extra] if extra else project["dependencies"]
    return [Requirement(item) for item in listed]


@pytest.mark.parametrize(
    ("lock", "extra"),
    [
        ("requirements.lock", None),
        ("requirements-test.lock", None),
        ("requirements-test.lock", "test"),
    ],
)
def test_lock_satisfies_pyproject(lock: str, extra: str | None) -> None:
    pins = _pins(lock)
    assert "tavola" not in pins, "the project itself is installed from the checkout"
    for requirement in _requirements(extra):
        version = pins.get(canonicalize_name(requirement.name))
        assert version is not None, f"{lock} lacks {requirement.name}"
        assert requirement.specifier.contains(version, prereleases=True), (lock, requirement)


def test_run_lock_is_the_test_lock_without_the_test_tools() -> None:
    run, test = _pins("requirements.lock"), _pins("requirements-test.lock")
    assert {name: test.get(name) for name in run} == run
    assert "pytest" not in run and "mypy" not in run


# A library API the code relies on -> the lowest version that has it.
API_FLOORS = {
    r"\bnp\.bitwise_count\(": ("numpy", Version("2.0")),
    r"\bUpdate\.GUEST_MESSAGE\b": ("python-telegram-bot", Version("22.8")),
}


def test_floors_cover_the_apis_the_code_uses() -> None:
    code = "\n".join(
        path.read_text(encoding="utf-8")
        for package in ("bot", "engine", "render", "storage")
        for path in (ROOT / package).rglob("*.py")
    )
    floors = {canonicalize_name(r.name): r.specifier for r in _requirements()}
    for pattern, (package, needed) in API_FLOORS.items():
        if not re.search(pattern, code):
            continue
        below = Version(f"{needed.major}.{needed.minor - 1}") if needed.minor else None
        below = below or Version(f"{needed.major - 1}.999")
        assert not floors[package].contains(below), f"{package} {floors[package]} allows {below}"
