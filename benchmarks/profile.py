"""Sum up a py-spy profile of the bot (``benchmarks.load --profile``) by area.

Run from the repository root::

    python -m benchmarks.profile /tmp/prof/profile-50-group.txt [--top 10]

The input is py-spy's raw format (collapsed stacks, ``frame;frame;... count``). Each sample
goes to the first area, in the order below, that any frame of its stack belongs to: PNG
encoding is counted before the picture composition that called it, the game record's
bookkeeping before the engine and the JSON it uses, and so on. Then the functions with the
most samples of their own (the leaf frame), and the project's functions with the most
samples in all (anywhere on the stack).
"""

from __future__ import annotations

import argparse
import re
from collections import Counter
from collections.abc import Callable
from pathlib import Path

#: ``function (path/to/file.py:line)``, as py-spy writes a frame.
FRAME = re.compile(r"^(?P<function>.*?) \((?P<file>[^:()]*)(?::(?P<line>\d+))?\)$")


def _in(*parts: str) -> Callable[[str, str], bool]:
    return lambda file, function: any(p in file for p in parts)


#: (area, does this frame belong to it?) in the order a sample is attributed.
AREAS: list[tuple[str, Callable[[str, str], bool]]] = [
    (
        "PNG encoding",
        lambda f, fn: "PngImagePlugin" in f or "ImageFile.py" in f or fn == "Image.quantize",
    ),
    ("picture composition (render, Pillow)", _in("render/", "PIL/")),
    (
        "record bookkeeping",
        lambda f, fn: "engine/record.py" in f or "bot/records.py" in f or fn == "_recorded",
    ),
    ("JSON", _in("json/", "orjson")),
    ("redis-py and Lua (client side)", _in("redis/")),
    ("engine", _in("engine/")),
    (
        "PTB / HTTP client",
        _in(
            "telegram/",
            "httpx/",
            "httpcore/",
            "h11/",
            "anyio/",
            "ssl.py",
            "aiohttp/",
            "yarl/",
            "multidict/",
            "aiohappyeyeballs/",
        ),
    ),
    ("logging", _in("logging/")),
    ("asyncio loop", _in("asyncio/", "selectors.py")),
    ("bot (own code)", _in("bot/", "storage/")),
]


def parse(path: Path) -> list[tuple[list[tuple[str, str]], int]]:
    """(frames from root to leaf as (function, file), samples) per distinct stack."""
    stacks = []
    for line in path.read_text(errors="replace").splitlines():
        body, _, count = line.rpartition(" ")
        if not body or not count.isdigit():
            continue
        frames = []
        for raw in body.split(";"):
            m = FRAME.match(raw.strip())
            frames.append((m["function"], m["file"]) if m else (raw.strip(), ""))
        stacks.append((frames, int(count)))
    return stacks


def area_of(frames: list[tuple[str, str]]) -> str:
    for area, belongs in AREAS:
        if any(belongs(file, function) for function, file in frames):
            return area
    return "other"


def _short(file: str) -> str:
    for marker in ("site-packages/", "python3.11/", "python3.12/", "python3.13/"):
        if marker in file:
            return file.split(marker, 1)[1]
    for root in ("bot/", "engine/", "render/", "storage/"):
        if root in file:
            return root + file.split(root, 1)[1]
    return file


def report(path: Path, top: int = 10) -> str:
    stacks = parse(path)
    total = sum(n for _, n in stacks) or 1
    areas: Counter[str] = Counter()
    leaves: Counter[str] = Counter()
    inclusive: Counter[str] = Counter()
    for frames, n in stacks:
        areas[area_of(frames)] += n
        if frames:
            function, file = frames[-1]
            leaves[f"{function} ({_short(file)})"] += n
        seen = set()
        for function, file in frames:
            if function == "<module>" or file.endswith("__main__.py"):
                continue  # on every stack of the process
            if any(r in file for r in ("bot/", "engine/", "render/", "storage/")):
                name = f"{function} ({_short(file)})"
                if name not in seen:
                    seen.add(name)
                    inclusive[name] += n
    lines = [f"{path.name}: {total} samples (CPU, not idle)", "by area:"]
    lines += [f"  {100 * n / total:5.1f}%  {area}" for area, n in areas.most_common()]
    lines.append(f"top {top} functions by own samples:")
    lines += [f"  {100 * n / total:5.1f}%  {name}" for name, n in leaves.most_common(top)]
    lines.append(f"top {top} project functions by samples in all:")
    lines += [f"  {100 * n / total:5.1f}%  {name}" for name, n in inclusive.most_common(top)]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.profile", description=__doc__)
    parser.add_argument("profiles", type=Path, nargs="+")
    parser.add_argument("--top", type=int, default=10)
    args = parser.parse_args(argv)
    for path in args.profiles:
        print(report(path, args.top))


if __name__ == "__main__":
    main()
