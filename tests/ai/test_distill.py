"""Search bootstrapping: the values collected are the search's own one-ply values, the
positions are the contact positions of self-play, and fitting moves the network towards
the values it is shown."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from engine import Variant
from engine.ai import bearoff
from engine.ai.features import encode
from engine.ai.model import load, network, reference
from engine.ai.outcomes import equity, flip
from engine.ai.race import no_contact
from engine.ai.search import ROLLS, ReplyRules, one_ply_pre_roll, zero_ply
from training import distill
from training.rollouts import roll_out, rollout_values
from training.train import grow


def test_collected_values_are_the_searchs_one_ply_values(variant: Variant) -> None:
    positions = distill.self_play_positions(variant, network(variant), games=2, seed=4)[:6]
    values = distill.one_ply_values(variant, positions)
    for (roller, waiting), value in zip(positions, values, strict=True):
        expected = one_ply_pre_roll(variant, tuple(roller), tuple(waiting), ReplyRules(variant))
        np.testing.assert_allclose(value, expected, atol=1e-6)  # float32 network


def test_self_play_positions_are_distinct_contact_positions(variant: Variant) -> None:
    positions = distill.self_play_positions(variant, network(variant), games=3, seed=9)
    assert len(positions) > 30
    assert len(set(positions)) == len(positions)
    on = np.array([list(p[0]) for p in positions])
    off = np.array([list(p[1]) for p in positions])
    assert not no_contact(variant, on, off).any()
    assert (on.sum(axis=1) == 15).all() and (off.sum(axis=1) == 15).all()
    again = distill.self_play_positions(variant, network(variant), games=3, seed=9)
    assert again == positions


def test_fitting_moves_the_network_towards_the_values_shown() -> None:
    # Teach the shipped network what the older reference network says: the held-out
    # disagreement must shrink (the fit keeps its best held-out epoch).
    variant = Variant.CLASSIC
    start = network(variant)
    positions = distill.self_play_positions(variant, start, games=40, seed=2)
    on = np.array([list(p[0]) for p in positions])
    off = np.array([list(p[1]) for p in positions])
    target = reference(variant).raw(variant, on, off).astype(np.float64)
    x = encode(variant, on, off, start.inputs)
    cut = len(x) - len(x) // 20
    before = distill.held_out_error(variant, start.contact, x[cut:], target[cut:])
    how = distill.FitSettings(epochs=4, lr=0.001, batch=64, seed=3)
    fitted = distill.fit(variant, start, x, target, how)
    after = distill.held_out_error(variant, fitted, x[cut:], target[cut:])
    assert after[0] < before[0]
    assert after[1] < 0.8 * before[1]
    gap = np.abs(equity(variant, fitted.forward(x[:cut])) - equity(variant, target[:cut]))
    assert gap.mean() < after[1] * 1.5  # no wild overfit on the rows it saw


def test_the_commands_collect_then_fit(tmp_path: Path) -> None:
    data, out = tmp_path / "d.npz", tmp_path / "w.npz"
    assert distill.main(["collect", "--variant", "long", "--games", "2", "--out", str(data)]) == 0
    with np.load(data) as saved:
        on, off, target = saved["on"], saved["off"], saved["target"]
    assert on.shape == off.shape and on.shape[1] == 26 and len(on) > 20
    assert target.shape == (len(on), 3)
    assert ((target >= 0) & (target <= 1)).all()
    args = ["fit", "--variant", "long", "--data", str(data), "--epochs", "1"]
    assert distill.main([*args, "--hidden", "170", "--out", str(out)]) == 0
    made, shipped = load(out), network(Variant.LONG)
    assert made.contact.w1.shape[1] == 170
    grown = grow(shipped, Variant.LONG, 170, seed=1)
    assert grown.race is not None and made.race is not None
    np.testing.assert_array_equal(made.race.w1, grown.race.w1)  # the race network is kept


def _side(points: dict[int, int]) -> list[int]:
    """A side's 26 counts from {point: checkers}; the rest borne off."""
    counts = [0] * 26
    for point, n in points.items():
        counts[point] = n
    counts[0] = 15 - sum(points.values())
    return counts


def test_pressed_finds_a_checker_caught_behind_a_strong_board() -> None:
    board = _side({6: 3, 5: 2, 4: 2, 3: 2, 8: 3, 13: 3})  # four home points held
    caught = _side({25: 1, 13: 5, 8: 4, 6: 5})  # one checker on the bar
    anchored = _side({24: 2, 13: 4, 8: 4, 6: 5})  # an anchor on their 24 point (my 1)
    three_points = _side({6: 5, 5: 2, 4: 2, 8: 3, 13: 3})
    on = np.array([caught, anchored, caught, board])
    off = np.array([board, board, three_points, caught])
    # either side may be the one pressing; an anchor or a three-point board is no blitz
    assert distill.pressed(on, off).tolist() == [True, False, False, True]


def test_two_ply_values_average_the_one_ply_values_after_each_best_play() -> None:
    variant = Variant.CLASSIC
    positions = distill.self_play_positions(variant, network(variant), games=1, seed=5)[8:10]
    values = distill.two_ply_values(variant, positions)
    rules = ReplyRules(variant)
    for (roller, waiting), value in zip(positions, values, strict=True):
        expected = np.zeros(5)
        for d1, d2, w in ROLLS:
            plays = rules.generator(d1, d2).plays(tuple(roller), tuple(waiting))
            if not plays:  # dancing: the other side rolls in the same position
                stay = one_ply_pre_roll(variant, tuple(waiting), tuple(roller), rules)
                expected += (w / 36.0) * flip(variant, stay)
                continue
            best = plays[int(np.argmax(equity(variant, zero_ply(variant, plays))))]
            after = one_ply_pre_roll(variant, best.theirs, best.mine, rules)
            expected += (w / 36.0) * flip(variant, after)
        np.testing.assert_allclose(value, expected, atol=1e-5)


def _calm_self_play(variant: Variant) -> list[distill.Position]:
    """The positions ``collect --select calm`` keeps from 8 games of seed 6, in game order."""
    everything = distill.self_play_positions(variant, network(variant), games=8, seed=6)
    on = np.array([list(p[0]) for p in everything])
    off = np.array([list(p[1]) for p in everything])
    return [p for p, hot in zip(everything, distill.pressed(on, off), strict=True) if not hot]


def test_collect_keeps_what_it_valued_before_its_time_limit() -> None:
    variant = Variant.CLASSIC
    calm = _calm_self_play(variant)
    assert len(calm) > distill.CHUNK
    how = distill.CollectSettings(select="calm", seconds=0.0)
    positions, values = distill.collect(variant, None, games=8, seed=6, jobs=1, how=how)
    assert positions == calm[: distill.CHUNK]  # the first chunk, then the time is up
    np.testing.assert_allclose(values, distill.one_ply_values(variant, positions), atol=1e-6)


def test_a_rollout_from_a_bear_off_position_is_the_databases_exact_value() -> None:
    variant = Variant.CLASSIC
    roller = _side({1: 2, 3: 3, 5: 1})
    waiting = _side({2: 4, 6: 2})
    start = (bytes(roller), bytes(waiting))
    values = rollout_values(variant, [start], games=8, seed=1)
    exact = bearoff.race_probs(variant, np.array([roller]), np.array([waiting]))
    np.testing.assert_allclose(values, exact, rtol=0, atol=1e-12)  # the mean of 8 copies


def test_rollout_games_end_at_the_database_near_the_bear_off() -> None:
    # One checker still to come home: the games reach the database within a turn or two
    # and take its chances (a sure win is 1 there too), not a finished game's 0 or 1.
    variant = Variant.CLASSIC
    start = (bytes(_side({9: 1, 1: 3, 2: 3})), bytes(_side({1: 3, 2: 3, 3: 3, 4: 2})))
    games = roll_out(variant, [start], games=6, seed=2, exact=True)[0]
    assert ((games > 0) & (games < 1)).any(axis=1).sum() >= 4
    played = roll_out(variant, [start], games=6, seed=2)[0]  # to the last checker off
    assert np.isin(played, (0.0, 1.0)).all()


def test_rollout_targets_are_deterministic_for_the_seed() -> None:
    variant = Variant.CLASSIC
    positions = distill.self_play_positions(variant, network(variant), games=1, seed=3)[10:13]
    first = rollout_values(variant, positions, games=4, seed=7)
    np.testing.assert_array_equal(first, rollout_values(variant, positions, games=4, seed=7))
    assert not np.array_equal(first, rollout_values(variant, positions, games=4, seed=8))


def test_rollout_targets_follow_the_one_ply_teachers_convention() -> None:
    # The same K outputs for the side on roll: positions the one-ply look-ahead rates well
    # for the side on roll, the rollouts rate well too (a flipped side would anti-correlate).
    variant = Variant.CLASSIC
    positions = distill.self_play_positions(variant, network(variant), games=2, seed=11)[::6]
    rolled = rollout_values(variant, positions, games=24, seed=1)
    one = distill.one_ply_values(variant, positions)
    assert rolled.shape == one.shape == (len(positions), variant.rules.n_outcomes)
    assert (rolled[:, 0] >= rolled[:, 1]).all() and (rolled[:, 1] >= rolled[:, 2]).all()
    assert (1 - rolled[:, 0] >= rolled[:, 3]).all() and (rolled[:, 3] >= rolled[:, 4]).all()
    assert np.corrcoef(equity(variant, rolled), equity(variant, one))[0, 1] > 0.8


def test_every_keeps_one_selected_position_in_k_across_all_the_games() -> None:
    variant = Variant.CLASSIC
    calm = _calm_self_play(variant)
    how = distill.CollectSettings(select="calm", plies=0, every=5)
    positions, values = distill.collect(variant, None, games=8, seed=6, jobs=1, how=how)
    assert positions == calm[::5]
    assert positions[-1] in calm[-5:]  # the last game is reached, not only the first ones
    np.testing.assert_allclose(values, distill.zero_ply_values(variant, positions), atol=1e-6)


def test_behind_adds_the_holding_games_to_the_pressed_positions() -> None:
    board = _side({6: 3, 5: 2, 4: 2, 3: 2, 8: 3, 13: 3})  # four home points held
    caught = _side({25: 1, 13: 5, 8: 4, 6: 5})  # one checker on the bar
    anchored = _side({24: 2, 13: 4, 8: 4, 6: 5})  # an anchor on their 24 point (my 1)
    out = _side({13: 6, 8: 4, 6: 5})  # nothing back
    three_points = _side({6: 5, 5: 2, 4: 2, 8: 3, 13: 3})
    on = np.array([caught, anchored, out, anchored, board])
    off = np.array([board, board, board, three_points, anchored])
    assert distill.behind(on, off).tolist() == [True, True, False, False, True]
    assert distill.pressed(on, off).tolist() == [True, False, False, False, False]


def test_the_command_collects_rollout_targets(tmp_path: Path) -> None:
    data = tmp_path / "r.npz"
    args = ["collect", "--variant", "classic", "--games", "1", "--seed", "3"]
    args += ["--select", "behind", "--teacher", "rollout", "--rollout-games", "2"]
    assert distill.main([*args, "--seconds", "0", "--out", str(data)]) == 0
    with np.load(data) as saved:
        on, off, target = saved["on"], saved["off"], saved["target"]
    positions = [(bytes(a), bytes(b)) for a, b in zip(on, off, strict=True)]
    assert 0 < len(positions) <= distill.ROLLOUT_CHUNK  # the first chunk, then the time is up
    assert distill.behind(on.astype(np.int64), off.astype(np.int64)).all()
    expected = rollout_values(Variant.CLASSIC, positions, 2, distill.rollout_seed(3, 0))
    np.testing.assert_allclose(target, expected, atol=1e-6)  # stored as float32


def test_zero_ply_anchor_rows_are_the_teachers_own_values() -> None:
    variant = Variant.CLASSIC
    positions = distill.self_play_positions(variant, network(variant), games=1, seed=6)[:5]
    on = np.array([list(p[0]) for p in positions])
    off = np.array([list(p[1]) for p in positions])
    expected = network(variant).raw(variant, on, off)
    values = distill.zero_ply_values(variant, positions)
    np.testing.assert_allclose(values, expected, atol=1e-6)
    # and a fit on them leaves the network where it is
    x = encode(variant, on, off, network(variant).inputs)
    error = distill.held_out_error(variant, network(variant).contact, x, values)[1]
    assert error < 1e-5
