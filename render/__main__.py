"""Command line: ``python -m render gallery OUTDIR``, ``python -m render palettes``."""

from __future__ import annotations

import argparse
from pathlib import Path

from render.gallery import write_gallery
from render.png import write_palettes


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m render", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    gallery = sub.add_parser("gallery", help="write sample boards as PNG files")
    gallery.add_argument("outdir", type=Path)
    sub.add_parser("palettes", help="compute the shipped palettes again (after a theme change)")
    args = parser.parse_args(argv)
    if args.command == "gallery":
        for path in write_gallery(args.outdir):
            print(f"{path}  {path.stat().st_size // 1024} KB")
    elif args.command == "palettes":
        for path in write_palettes():
            print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
