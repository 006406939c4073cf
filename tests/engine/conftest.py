"""Engine tests: make the shared builders importable and point at the shared vectors."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

VECTORS = Path(__file__).resolve().parents[3] / "shared" / "vectors"


@pytest.fixture(scope="session")
def vectors_dir() -> Path:
    if not VECTORS.is_dir():
        pytest.skip(f"shared vectors not found at {VECTORS}")
    return VECTORS
