"""The engine benchmark's per-roll path, step-tree walk and reply generation, timed side by
side with the engine of another checkout (``python -m benchmarks.engine --baseline DIR``).

Why: speed targets are ratios ("3 times faster than before"), and on a shared machine two
separate runs are not comparable: the load changes between them. Here both engines live in
one process and every (position, roll) is timed with one engine right after the other,
in CPU time of this process (``time.process_time``), which other processes' load does
not inflate. The baseline is any older checkout of the repository, for instance
``git worktree add /tmp/before <commit>``: its own ``benchmarks/engine.py`` is imported
with its own ``engine`` package, and its helpers (``case_state``, ``_per_roll``,
``_walk``, ``_reply_sets``, ``state_from_request``) are the ones timed, so each engine is driven
through the API it had.
"""

from __future__ import annotations

import importlib
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

from benchmarks import engine as current

_PACKAGES = ("engine", "benchmarks")


def _ours(name: str) -> bool:
    return any(name == p or name.startswith(p + ".") for p in _PACKAGES)


def load_baseline(root: Path) -> ModuleType:
    """The ``benchmarks.engine`` module of the checkout at ``root``, with its own engine.

    The modules of this checkout are set aside while the other one is imported and put
    back afterwards; the baseline's modules stay alive through the returned module.
    """
    if not (root / "engine" / "__init__.py").is_file():
        raise SystemExit(f"{root} is not a checkout of the repository (no engine/)")
    saved = {name: mod for name, mod in sys.modules.items() if _ours(name)}
    for name in saved:
        del sys.modules[name]
    sys.path.insert(0, str(root))
    try:
        return importlib.import_module("benchmarks.engine")
    finally:
        sys.path.remove(str(root))
        for name in [n for n in sys.modules if _ours(n)]:
            del sys.modules[name]
        sys.modules.update(saved)


def _cpu_fastest(module: ModuleType, make: Callable[[], Any], run: Callable[[Any], Any]) -> float:
    """Fastest of REPEATS cold runs, in CPU seconds of this process."""
    best = float("inf")
    for _ in range(current.REPEATS):
        module._clear_caches()
        arg = make()
        t0 = time.process_time()
        run(arg)
        best = min(best, time.process_time() - t0)
    return best


#: One timed job per engine: (module, make the argument, run on it).
_Job = tuple[ModuleType, Callable[[], Any], Callable[[Any], Any]]


def _side_by_side(jobs: list[tuple[_Job, _Job]]) -> tuple[list[float], list[float]]:
    """Each pair timed baseline first, then ours, one pair after the other."""
    before: list[float] = []
    after: list[float] = []
    for old, new in jobs:
        before.append(_cpu_fastest(*old))
        after.append(_cpu_fastest(*new))
    return before, after


def _their_case(base: ModuleType, case: current.Case) -> Any:
    return base.Case(case.label, base.Variant(case.variant.value), case.mine, case.theirs)


def _case_job(
    module: ModuleType, case: Any, dice: tuple[int, int], run: Callable[[Any], Any] | None = None
) -> _Job:
    """Time ``run`` (the per-roll path unless given) on a state just rolled in ``case``."""
    return module, lambda: module.case_state(case, dice), run or module._per_roll


def _per_roll_jobs(base: ModuleType, cases: list[current.Case]) -> list[tuple[_Job, _Job]]:
    return [
        (_case_job(base, _their_case(base, c), d), _case_job(current, c, d))
        for c in cases
        for d in current.ROLLS
    ]


def _walk_jobs(base: ModuleType, cases: list[current.Case]) -> list[tuple[_Job, _Job]]:
    return [
        (
            _case_job(base, _their_case(base, c), d, base._walk),
            _case_job(current, c, d, current._walk),
        )
        for c in cases
        for d in current.ROLLS
    ]


def _vector_jobs(base: ModuleType, requests: list[dict[str, Any]]) -> list[tuple[_Job, _Job]]:
    return [
        (
            (base, lambda r=r: base.state_from_request(r), base._per_roll),
            (current, lambda r=r: current.state_from_request(r), current._per_roll),
        )
        for r in requests
    ]


def _reply_args(module: ModuleType, case: Any, dice: tuple[int, int], plays: int) -> Any:
    chosen = module.case_state(case, dice).legal_plays()[:plays]
    return module.ReplyRules(case.variant), [(p.mine, p.theirs) for p in chosen]


def _reply_jobs(base: ModuleType, cases: list[current.Case], plays: int) -> list[tuple[_Job, _Job]]:
    jobs = []
    for i, case in enumerate(cases):
        dice = current.ROLLS[i % len(current.ROLLS)]
        theirs = _their_case(base, case)
        old = _reply_args(base, theirs, dice, plays)
        new = _reply_args(current, case, dice, plays)
        if not new[1]:
            continue
        jobs.append(
            (
                (base, lambda a=old: a, base._reply_sets),
                (current, lambda a=new: a, current._reply_sets),
            )
        )
    return jobs


def _print(title: str, rows: list[tuple[str, tuple[list[float], list[float]]]]) -> None:
    head = (
        f"{title:<44} {'cases':>6} {'median before':>14} {'after ms':>9} {'x':>6}"
        f" {'total before':>13} {'after s':>8} {'x':>6}"
    )
    print()
    print(head)
    print("-" * len(head))
    for name, (before, after) in rows:
        if not after:
            continue
        mb, ma = statistics.median(before), statistics.median(after)
        tb, ta = sum(before), sum(after)
        print(
            f"{name:<44} {len(after):>6} {mb * 1e3:>14.3f} {ma * 1e3:>9.3f} {mb / ma:>6.2f}"
            f" {tb:>13.3f} {ta:>8.3f} {tb / ta:>6.2f}"
        )


def compare(
    root: Path, classic: list[current.Case], long_: list[current.Case], only: str | None
) -> None:
    """Print the per-roll and reply tables for the baseline at ``root`` and for this
    checkout, with the speed-up (before / after) of the medians and of the totals."""
    base = load_baseline(root)
    print(f"baseline: {root} (CPU time of this process, fastest of {current.REPEATS})")
    corpora = (("classic random", classic), ("long random", long_))
    if only in (None, "roll"):
        requests = current.vector_requests()
        _print(
            "per-roll path (plays + steps)",
            [
                (
                    f"shared vectors ({len(requests)} lines)",
                    _side_by_side(_vector_jobs(base, requests)),
                ),
                *(
                    (
                        f"{name} ({len(cases)} pos x 21 rolls)",
                        _side_by_side(_per_roll_jobs(base, cases)),
                    )
                    for name, cases in corpora
                ),
            ],
        )
    if only in (None, "walk") and hasattr(base, "_walk"):  # older checkouts lack it
        _print(
            f"step-tree walk (buttons, <= {current.WALK_NODES} states)",
            [
                (f"{name} (first 40 pos x 21 rolls)", _side_by_side(_walk_jobs(base, cases[:40])))
                for name, cases in corpora
            ],
        )
    if only in (None, "replies"):
        _print(
            "reply generation (1-ply, 6 plays x 21 rolls)",
            [
                (f"{name} ({len(cases)} pos)", _side_by_side(_reply_jobs(base, cases, 6)))
                for name, cases in corpora
            ],
        )
