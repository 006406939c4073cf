"""Engine tests: make the shared builders importable and point at the vectors kept in
tests/data."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

VECTORS = Path(__file__).resolve().parents[1] / "data" / "vectors"


@pytest.fixture(scope="session")
def vectors_dir() -> Path:
    assert VECTORS.is_dir(), f"the vectors belong in the repository at {VECTORS}"
    return VECTORS
