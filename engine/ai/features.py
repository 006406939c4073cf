"""Input encoding of positions for the evaluation network, vectorised over many positions.

A position is seen by the side *on roll*: ``on`` and ``off`` are (n, 26) arrays of checker
counts, each side in its own numbering (0 off, 1..24 points, 25 bar). Both variants use a
Tesauro-style unary encoding of every point (TD-Gammon's four units per point and side) plus
a few hand-chosen features that a small network learns slowly by itself: pip counts, the
longest prime, blots and how exposed they are, checkers left behind, contact.

Everything is numpy over the whole batch so that all candidate plays of a roll (or all
replies of a one-ply look-ahead) are encoded in one call.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from engine.ai.arrays import Counts, Flags, Floats
from engine.board import LONG_OPPOSITE
from engine.types import Variant

_IDX25 = np.arange(1, 26, dtype=np.float32)
#: Long: the mover's points in the order the *opponent* travels through them (12..1, 24..13).
_LONG_PATH = np.array([((12 - k - 1) % 24) + 1 for k in range(24)])
#: Long: column j of the opponent's array holds the opponent checkers on my point j + 1.
_LONG_THEIRS_ON_MINE = np.array([LONG_OPPOSITE[p] for p in range(1, 25)])


def _unary(points: Counts, big_scale: float) -> list[Floats]:
    return [
        (points >= 1).astype(np.float32),
        (points >= 2).astype(np.float32),
        (points >= 3).astype(np.float32),
        np.maximum(points - 3, 0).astype(np.float32) / big_scale,
    ]


def _longest_run(flags: Flags) -> Floats:
    """Length of the longest run of True along axis 1, per row."""
    run = np.zeros(flags.shape[0], dtype=np.int32)
    best = np.zeros_like(run)
    for j in range(flags.shape[1]):
        run = (run + 1) * flags[:, j]
        np.maximum(best, run, out=best)
    return best.astype(np.float32)


def _classic_side(me: Counts, them: Counts) -> list[Floats]:
    """Features of side ``me`` against ``them`` (both (n, 26), own numbering)."""
    pts = me[:, 1:25]
    made = pts >= 2
    blots = pts == 1
    # The opponent's checkers in my numbering: column r is my point r (0 = their bar),
    # and they travel towards my higher numbers.
    opp = np.concatenate([them[:, 25:26], them[:, 24:0:-1]], axis=1) > 0  # (n, 25)
    cs = np.concatenate([np.zeros((opp.shape[0], 1)), np.cumsum(opp, axis=1)], axis=1)
    p = np.arange(1, 25)
    direct = cs[:, p] - cs[:, np.maximum(p - 6, 0)]  # opposing checkers 1..6 behind
    indirect = cs[:, np.maximum(p - 6, 0)] - cs[:, np.maximum(p - 12, 0)]
    feats = _unary(pts, 2.0)
    feats = [f for f in feats]
    pips = (me[:, 1:26] * _IDX25).sum(axis=1)
    extra = np.stack(
        [
            me[:, 25] / 2.0,
            me[:, 0] / 15.0,
            pips / 100.0,
            _longest_run(made) / 6.0,
            made[:, :6].sum(axis=1) / 6.0,
            blots.sum(axis=1) / 5.0,
            (blots & (direct > 0)).sum(axis=1) / 3.0,
            (blots & (indirect > 0) & (direct == 0)).sum(axis=1) / 3.0,
            me[:, 19:26].sum(axis=1) / 15.0,
            me[:, 7:26].sum(axis=1) / 15.0,
        ],
        axis=1,
    ).astype(np.float32)
    return [*feats, extra]


def _highest(c: Counts) -> Counts:
    """Highest occupied index 1..25 per row (0 if everything is off)."""
    occ = c[:, 1:26] > 0
    rev = occ[:, ::-1]
    has = occ.any(axis=1)
    return np.where(has, 25 - rev.argmax(axis=1), 0)


def _classic(on: Counts, off: Counts) -> Floats:
    contact = (_highest(on) + _highest(off) > 25).astype(np.float32)
    pip_on = (on[:, 1:26] * _IDX25).sum(axis=1)
    pip_off = (off[:, 1:26] * _IDX25).sum(axis=1)
    glob = np.stack([contact, (pip_off - pip_on) / 50.0, np.ones_like(contact)], axis=1)
    parts = _classic_side(on, off) + _classic_side(off, on) + [glob.astype(np.float32)]
    return np.concatenate(parts, axis=1)


def _long_side(me: Counts, them: Counts) -> list[Floats]:
    pts = me[:, 1:25]
    occ = pts > 0
    path_occ = occ[:, _LONG_PATH - 1]
    theirs_here = them[:, _LONG_THEIRS_ON_MINE]  # opponent checkers per my point 1..24
    # Opponent checkers that still have to pass my points 13..24 region (their 1..12
    # half is my 13..24): a rough measure of how much my blocks still matter.
    pips = (me[:, 1:25] * _IDX25[:24]).sum(axis=1)
    extra = np.stack(
        [
            me[:, 0] / 15.0,
            pips / 200.0,
            me[:, 24] / 15.0,
            me[:, 1:7].sum(axis=1) / 15.0,
            me[:, 7:13].sum(axis=1) / 15.0,
            me[:, 13:19].sum(axis=1) / 15.0,
            occ.sum(axis=1) / 12.0,
            _longest_run(path_occ) / 6.0,
            _longest_run(occ[:, :12]) / 6.0,
            (theirs_here[:, 12:24] > 0).sum(axis=1) / 6.0,
        ],
        axis=1,
    ).astype(np.float32)
    return [*_unary(pts, 4.0), extra]


def _long(on: Counts, off: Counts) -> Floats:
    pip_on = (on[:, 1:25] * _IDX25[:24]).sum(axis=1)
    pip_off = (off[:, 1:25] * _IDX25[:24]).sum(axis=1)
    glob = np.stack([(pip_off - pip_on) / 60.0, np.ones_like(pip_on)], axis=1)
    parts = _long_side(on, off) + _long_side(off, on) + [glob.astype(np.float32)]
    return np.concatenate(parts, axis=1)


def encode(variant: Variant, on: ArrayLike, off: ArrayLike) -> Floats:
    """(n, D) float32 inputs for positions with ``on`` to roll against ``off``."""
    on_counts = np.asarray(on, dtype=np.int32)
    off_counts = np.asarray(off, dtype=np.int32)
    if variant.rules.hits:  # blots, their exposure and the bar
        return _classic(on_counts, off_counts)
    return _long(on_counts, off_counts)


def input_size(variant: Variant) -> int:
    z = np.zeros((1, 26), dtype=np.int32)
    z[0, 24] = 15
    return int(encode(variant, z, z).shape[1])
