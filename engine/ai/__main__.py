"""Entry point of ``python -m engine.ai`` (see ``engine.ai.cli``)."""

import sys

from engine.ai.cli import main

raise SystemExit(main(sys.argv[1:]))
