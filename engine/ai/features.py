"""Input encoding of positions for the evaluation networks, vectorised over many positions.

A position is seen by the side *on roll*: ``on`` and ``off`` are (n, 26) arrays of checker
counts, each side in its own numbering (0 off, 1..24 points, 25 bar). Both variants use a
Tesauro-style unary encoding of every point (TD-Gammon's four units per point and side) plus
a few hand-chosen features that a small network learns slowly by itself: pip counts, the
longest prime, blots and how exposed they are, checkers left behind, contact.

Input versions (a weights file records the version it was trained on):

- 1: the encoding above.
- 2: version 1 followed by, for classic and for each side, the features GNU Backgammon's
  published design found worth giving a network: the chance that the other side hits one
  of this side's blots with its next roll (counted exactly over the 36 rolls, blocking
  points included, the bar's entering obligation left out), the back anchor, and how open
  the way out is in front of the rearmost checker. Long has no hitting: its version 2 is
  version 1. Version 1 being a prefix is what lets a version-1 network grow into a
  version-2 one without forgetting (``engine.ai.train --grow-from``).
- 3: version 2 followed, in classic and for each side, by more of that design: the chance
  of two blots hit in one roll and the pips lost to a hit on average
  (``engine.ai.shots``), the escapes of the rearmost checker and the containment the side
  imposes (``engine.ai.escapes``), the pips still to move to break contact, the anchors
  held in the opponent's home board and the squared share of the opponent's home board
  held (the chance that a hit checker fails to enter, roughly). Long's version 3 is
  version 1, as its version 2.

Everything is numpy over the whole batch so that all candidate plays of a roll (or all
replies of a one-ply look-ahead) are encoded in one call.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from engine.ai.arrays import Counts, Flags, Floats
from engine.ai.escapes import back_escapes, containment, held_ahead
from engine.ai.race import rear
from engine.ai.shots import Shots, shots
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
    """Length of the longest run of True along axis 1, per row.

    Each row is packed into an integer's bits; ``x & (x >> 1)`` shortens every run by
    one, so the number of steps until nothing is left is the longest run.
    """
    x = flags @ (1 << np.arange(flags.shape[1], dtype=np.int64))
    best = np.zeros(flags.shape[0], dtype=np.float32)
    while (alive := x != 0).any():
        best += alive
        x &= x >> 1
    return best


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


def _classic(on: Counts, off: Counts) -> Floats:
    contact = (rear(on) + rear(off) > 25).astype(np.float32)
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


#: The input version new networks are trained on.
LATEST = 3


def _classic_extra(me: Counts, exposed: Shots, ahead: Counts) -> Floats:
    """Version 2 features of side ``me`` (own numbering), given its shots and the
    opponent's points held in front of its rearmost checker (``escapes.held_ahead``)."""
    made = me[:, 1:25] >= 2
    back = made[:, 18:24]  # my points 19..24: anchors in the opponent's home
    has_back = back.any(axis=1)
    back_anchor = np.where(has_back, 6 - back[:, ::-1].argmax(axis=1), 0)
    behind = rear(me) >= 13  # only a checker in the opponent's half needs a way out
    near = np.where(behind, 1.0 - np.bitwise_count(ahead & 0o77) / 6.0, 0.0)
    far = np.where(behind, 1.0 - np.bitwise_count(ahead >> 6) / 6.0, 0.0)
    return np.stack([exposed.hit, back_anchor / 6.0, near, far], axis=1).astype(np.float32)


def _classic_v3(me: Counts, them: Counts, exposed: Shots, ahead: Counts) -> Floats:
    """Version 3 features of side ``me`` against ``them`` (own numbering)."""
    contain, contain_actual = containment(me, them)
    # Contact ends when my checkers are past the opponent's rearmost one (my point x).
    x = (25 - rear(them))[:, None]
    past = np.maximum(np.arange(1, 26)[None, :] - x, 0)
    to_break = (me[:, 1:26] * past).sum(axis=1)
    their_home = them[:, 1:7] >= 2  # the points where my hit checkers enter
    anchors = (me[:, 19:25] >= 2).sum(axis=1)
    return np.stack(
        [
            exposed.double_hit,
            exposed.pip_loss / 12.0,
            back_escapes(ahead),
            contain,
            contain_actual,
            to_break / 100.0,
            anchors / 3.0,
            (their_home.sum(axis=1) / 6.0) ** 2,
        ],
        axis=1,
    ).astype(np.float32)


def encode(variant: Variant, on: ArrayLike, off: ArrayLike, version: int = LATEST) -> Floats:
    """(n, D) float32 inputs (of the given input version) for ``on`` to roll against ``off``."""
    on_counts = np.asarray(on, dtype=np.int32)
    off_counts = np.asarray(off, dtype=np.int32)
    if not variant.rules.hits:  # long: no blots, no bar
        return _long(on_counts, off_counts)
    base = _classic(on_counts, off_counts)
    if version == 1:
        return base
    extra: list[Floats] = []
    later: list[Floats] = []
    for me, them in ((on_counts, off_counts), (off_counts, on_counts)):
        exposed, ahead = shots(me, them), held_ahead(me, them)
        extra.append(_classic_extra(me, exposed, ahead))
        if version >= 3:
            later.append(_classic_v3(me, them, exposed, ahead))
    return np.concatenate([base, *extra, *later], axis=1)


def input_size(variant: Variant, version: int = LATEST) -> int:
    z = np.zeros((1, 26), dtype=np.int32)
    z[0, 24] = 15
    return int(encode(variant, z, z, version).shape[1])
