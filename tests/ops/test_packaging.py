"""Packaging metadata: the licences shipped, their current (PEP 639) format, no unused extras.

Building the wheel itself needs the package index (an isolated build environment), so the
tests read what the build reads: ``pyproject.toml`` and the files it names. The wheel's
contents were checked by hand with ``python -m build`` (see the README's "Licence").
"""

from __future__ import annotations

import ast
import re
import tomllib
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
CODE_PACKAGES = ("bot", "engine", "render", "storage")


def _pyproject() -> dict[str, Any]:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def _sources() -> list[str]:
    return [
        path.read_text(encoding="utf-8")
        for package in CODE_PACKAGES
        for path in sorted((ROOT / package).rglob("*.py"))
    ]


def _imported_modules() -> set[str]:
    """Modules, and ``module.name``s imported from them, anywhere in the shipped code."""
    names: set[str] = set()
    for source in _sources():
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.Import):
                names.update(alias.name.split(".")[0] for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                names.add(node.module.split(".")[0])
                names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


def test_licence_is_an_spdx_expression_with_its_files() -> None:
    project = _pyproject()["project"]
    assert project["license"] == "MIT"
    files = project["license-files"]
    assert "LICENSE" in files
    assert "render/fonts/LICENSE-DejaVu.txt" in files
    for name in files:
        assert (ROOT / name).is_file(), name
    assert "MIT License" in (ROOT / "LICENSE").read_text(encoding="utf-8")


def test_pep639_metadata_needs_setuptools_77() -> None:
    requires = _pyproject()["build-system"]["requires"]
    floors = [re.fullmatch(r"setuptools>=(\d+)(?:\..*)?", item) for item in requires]
    assert any(match and int(match.group(1)) >= 77 for match in floors), requires


def test_every_bundled_font_ships_with_its_licence() -> None:
    fonts = ROOT / "render" / "fonts"
    licence = (fonts / "LICENSE-DejaVu.txt").read_text(encoding="utf-8")
    for font in sorted(fonts.glob("*.ttf")):
        assert font.name.startswith("DejaVu"), f"{font.name} has no licence beside it"
    assert "Bitstream Vera Fonts Copyright" in licence
    assert "Arev Fonts Copyright" in licence
    package_data = _pyproject()["tool"]["setuptools"]["package-data"]
    assert "fonts/LICENSE-DejaVu.txt" in package_data["render"]


def test_no_unused_python_telegram_bot_extra() -> None:
    """Each PTB extra is there for code that uses it."""
    ptb = next(d for d in _pyproject()["project"]["dependencies"] if "python-telegram-bot" in d)
    extras = set(re.search(r"\[(.*?)\]", ptb).group(1).split(","))  # type: ignore[union-attr]
    imported = _imported_modules()
    code = "\n".join(_sources())
    uses = {
        # The application's JobQueue (challenge cards expire through it).
        "job-queue": "telegram.ext.JobQueue" in imported or ".job_queue" in code,
        # PTB's webhook server (tornado) behind Updater.start_webhook / run_webhook.
        "webhooks": "start_webhook(" in code or "run_webhook(" in code,
        "rate-limiter": "telegram.ext.AIORateLimiter" in imported or "aiolimiter" in imported,
    }
    unused = {extra for extra in extras if not uses.get(extra, False)}
    assert not unused, f"extras no code uses: {sorted(unused)}"
