"""Fixtures of the AI tests."""

from __future__ import annotations

import pytest

from engine import Variant


@pytest.fixture(params=[Variant.CLASSIC, Variant.LONG], ids=["classic", "long"])
def variant(request: pytest.FixtureRequest) -> Variant:
    return request.param
