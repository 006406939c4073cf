"""The cube model against Janowski's cubeful equity from first principles.

Janowski's value of a position is ``x * live + (1 - x) * dead``: ``dead`` is the cubeless
game played out at the current cube, ``live`` the perfectly efficient cube, a
piecewise-linear function of the winning chance through the cash points. A long match at
an even score plays like money, where Janowski's take point is ``(L - 1/2) / (W + L + x/2)``
(``W`` and ``L`` the average value of a win and of a loss) and, for gammonless chances,
the dead cube's doubling point is 50 % and the live cube's the cash point, 80 %.
"""

from __future__ import annotations

import numpy as np
import pytest

from engine.ai.cube import (
    CONTACT_EFFICIENCY,
    CubeAction,
    Owner,
    View,
    analyse,
    cubeful,
    met,
    take_point,
)
from engine.types import Variant

C = Variant.CLASSIC
MONEY = 25  # 25-away each: close to money play


def chances(win: float, win_gammon: float = 0.0, lose_gammon: float = 0.0) -> np.ndarray:
    """Outcome probabilities with the given shares of gammons among wins and losses."""
    return np.array([win, win * win_gammon, 0.0, (1 - win) * lose_gammon, 0.0])


def points(view: View, mwc: float) -> float:
    """A money MWC as points of a game at cube 1 (a single win +1, a single loss -1)."""
    won, lost = met(view.away - 1, view.opp_away, False), met(view.away, view.opp_away - 1, False)
    return 2.0 * (mwc - lost) / (won - lost) - 1.0


@pytest.mark.parametrize("owner", list(Owner))
@pytest.mark.parametrize(("away", "opp_away"), [(MONEY, MONEY), (5, 3), (3, 7)])
@pytest.mark.parametrize("win", [0.1, 0.4, 0.65, 0.9])
def test_at_no_efficiency_the_cube_is_dead(
    owner: Owner, away: int, opp_away: int, win: float
) -> None:
    view = View.of(C, chances(win, 0.3, 0.2), away, opp_away, False, 0.0)
    assert cubeful(view, 1, owner) == pytest.approx(view.dead(1), abs=1e-12)


def _janowski_live(win: float, owner: Owner) -> float:
    """Janowski's live-cube equity of gammonless money chances (take 20 %, cash 80 %)."""
    take, cash = 0.2, 0.8
    if owner is Owner.ME:
        return min(1.0, -1.0 + 2.0 * win / cash)
    if owner is Owner.OPPONENT:
        return max(-1.0, -1.0 + 2.0 * (win - take) / (1.0 - take))
    return min(1.0, max(-1.0, -1.0 + 2.0 * (win - take) / (cash - take)))


@pytest.mark.parametrize("owner", list(Owner))
@pytest.mark.parametrize("win", [0.1, 0.3, 0.5, 0.65, 0.9])
def test_at_full_efficiency_the_cube_is_janowskis_live_cube(owner: Owner, win: float) -> None:
    view = View.of(C, chances(win), MONEY, MONEY, False, 1.0)
    assert points(view, cubeful(view, 1, owner)) == pytest.approx(
        _janowski_live(win, owner), abs=0.02
    )


@pytest.mark.parametrize(("win_gammon", "lose_gammon"), [(0.0, 0.0), (0.0, 0.25), (0.3, 0.2)])
@pytest.mark.parametrize("x", [0.0, 0.68, 1.0])
def test_take_point_is_janowskis(win_gammon: float, lose_gammon: float, x: float) -> None:
    # The taker's view: its own wins and losses; 25 % for a dead gammonless cube, 20 % for
    # a perfectly live one.
    taker = View.of(C, chances(0.3, win_gammon, lose_gammon), MONEY, MONEY, False, x)
    big_w, big_l = 1 + win_gammon, 1 + lose_gammon
    assert take_point(taker, 2) == pytest.approx(
        (big_l - 0.5) / (big_w + big_l + 0.5 * x), abs=0.005
    )


@pytest.mark.parametrize(
    ("x", "win", "action"),
    [
        (0.0, 0.47, CubeAction.NO_DOUBLE),
        (0.0, 0.53, CubeAction.DOUBLE_TAKE),  # a dead cube: double as soon as ahead
        (1.0, 0.75, CubeAction.NO_DOUBLE),  # a live cube: wait for the market's edge
        (1.0, 0.85, CubeAction.DOUBLE_PASS),
        (CONTACT_EFFICIENCY, 0.73, CubeAction.DOUBLE_TAKE),
    ],
)
def test_doubling_point_moves_from_even_to_the_cash_point(
    x: float, win: float, action: CubeAction
) -> None:
    view = View.of(C, chances(win), MONEY, MONEY, False, x)
    assert analyse(view, 1, centred=True).action is action
