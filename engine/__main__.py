"""Command line of the engine: ``python -m engine conformance`` (JSON lines on stdin)."""

from __future__ import annotations

import sys

USAGE = "usage: python -m engine conformance   (JSON lines on stdin, one answer per line)"


def main(argv: list[str]) -> int:
    if argv[:1] == ["conformance"]:
        from engine.conformance import run

        run()
        return 0
    print(USAGE, file=sys.stderr)
    return 2


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
