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
  version-2 one without forgetting (``training.train --grow-from``).
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

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from engine.ai.arrays import Counts, Flags, Floats
from engine.ai.escapes import back_escapes, containment_of, held_bits, window_ahead
from engine.ai.race import rear
from engine.ai.shots import Shots, shots
from engine.board import LONG_OPPOSITE
from engine.types import Variant

_IDX25 = np.arange(1, 26, dtype=np.float32)
#: My points 1..25 (the bar last), as integers.
_POINTS_TO_BAR = np.arange(1, 26)[None, :]
#: Classic's shot counting: per point p of mine, the columns of the opponent's cumulative
#: presence at p, 6 and 12 behind it.
_P = np.arange(1, 25)
_P6 = np.maximum(_P - 6, 0)
_P12 = np.maximum(_P - 12, 0)
#: Long: the mover's points in the order the *opponent* travels through them (12..1, 24..13).
_LONG_PATH = np.array([((12 - k - 1) % 24) + 1 for k in range(24)])
#: Long: column j of the opponent's array holds the opponent checkers on my point j + 1.
_LONG_THEIRS_ON_MINE = np.array([LONG_OPPOSITE[p] for p in range(1, 25)])


def _unary(points: Counts, big_scale: float) -> list[Flags | Floats]:
    """TD-Gammon's four units per point, as (n, 24) blocks: the flags are cast to float32
    where the blocks are put together."""
    return [
        points >= 1,
        points >= 2,
        points >= 3,
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


@dataclass(frozen=True, slots=True)
class _Side:
    """What several of one side's classic features read, computed once per batch."""

    counts: Counts  # (n, 26), own numbering
    made: Flags  # (n, 24): points 1..24 held (two or more checkers)
    rear: Counts  # ``race.rear``
    held: Counts  # ``escapes.held_points``
    pips: Floats

    @classmethod
    def of(cls, counts: Counts) -> _Side:
        made = counts[:, 1:25] >= 2
        pips = (counts[:, 1:26] * _IDX25).sum(axis=1)
        return cls(counts, made, rear(counts), held_bits(made), pips)


class _Columns:
    """The (n, D) input array, filled left to right: one allocation and no concatenation,
    which matters when a search layer encodes thousands of rows."""

    def __init__(self, n: int, width: int) -> None:
        self.array: Floats = np.empty((n, width), dtype=np.float32)
        self.at = 0

    def block(self, *blocks: ArrayLike) -> None:
        """Blocks of columns ((n, k) arrays, any dtype: cast to float32 on the way in)."""
        for b in blocks:
            k = np.shape(b)[1]
            self.array[:, self.at : self.at + k] = b
            self.at += k

    def column(self, *columns: ArrayLike) -> None:
        """Single columns ((n,) arrays)."""
        for c in columns:
            self.array[:, self.at] = c
            self.at += 1


def _classic_side(out: _Columns, me: _Side, them: _Side) -> None:
    """Version 1 features of side ``me`` against ``them``."""
    counts = me.counts
    pts = counts[:, 1:25]
    blots = pts == 1
    # The opponent's checkers in my numbering: column r is my point r (0 = their bar),
    # and they travel towards my higher numbers; cs[:, r]: how many of my points 0..r-1
    # have some.
    opp = np.concatenate([them.counts[:, 25:26], them.counts[:, 24:0:-1]], axis=1) > 0
    cs = np.zeros((opp.shape[0], 26), dtype=np.int32)
    np.cumsum(opp, axis=1, out=cs[:, 1:])
    direct = cs[:, _P] > cs[:, _P6]  # some opposing checker 1..6 behind
    indirect = cs[:, _P6] > cs[:, _P12]  # ... or 7..12 behind
    out.block(*_unary(pts, 2.0))
    out.column(
        counts[:, 25] / 2.0,
        counts[:, 0] / 15.0,
        me.pips / 100.0,
        _longest_run(me.made) / 6.0,
        me.made[:, :6].sum(axis=1) / 6.0,
        blots.sum(axis=1) / 5.0,
        (blots & direct).sum(axis=1) / 3.0,
        (blots & indirect & ~direct).sum(axis=1) / 3.0,
        counts[:, 19:26].sum(axis=1) / 15.0,
        counts[:, 7:26].sum(axis=1) / 15.0,
    )


def _classic(out: _Columns, on: _Side, off: _Side) -> None:
    """Version 1 of classic: each side's features, then the contact, the race and a bias."""
    _classic_side(out, on, off)
    _classic_side(out, off, on)
    out.column(on.rear + off.rear > 25, (off.pips - on.pips) / 50.0, 1.0)


def _long_side(me: Counts, them: Counts) -> list[Flags | Floats]:
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
#: Columns of classic's inputs by version (each version extends the one before).
_CLASSIC_WIDTH = {1: 215, 2: 223, 3: 239}


def _classic_extra(out: _Columns, me: _Side, exposed: Shots, ahead: Counts) -> None:
    """Version 2 features of side ``me``, given its shots and the opponent's points held
    in front of its rearmost checker (``escapes.held_ahead``)."""
    back = me.made[:, 18:24]  # my points 19..24: anchors in the opponent's home
    has_back = back.any(axis=1)
    back_anchor = np.where(has_back, 6 - back[:, ::-1].argmax(axis=1), 0)
    behind = me.rear >= 13  # only a checker in the opponent's half needs a way out
    near = np.where(behind, 1.0 - np.bitwise_count(ahead & 0o77) / 6.0, 0.0)
    far = np.where(behind, 1.0 - np.bitwise_count(ahead >> 6) / 6.0, 0.0)
    out.column(exposed.hit, back_anchor / 6.0, near, far)


def _classic_v3(out: _Columns, me: _Side, them: _Side, exposed: Shots, ahead: Counts) -> None:
    """Version 3 features of side ``me`` against ``them``."""
    contain, contain_actual = containment_of(me.held, them.counts)
    # Contact ends when my checkers are past the opponent's rearmost one (my point x).
    x = (25 - them.rear)[:, None]
    past = np.maximum(_POINTS_TO_BAR - x, 0)
    to_break = (me.counts[:, 1:26] * past).sum(axis=1)
    their_home = them.made[:, :6]  # the points where my hit checkers enter
    anchors = me.made[:, 18:24].sum(axis=1)
    out.column(
        exposed.double_hit,
        exposed.pip_loss / 12.0,
        back_escapes(ahead),
        contain,
        contain_actual,
        to_break / 100.0,
        anchors / 3.0,
        (their_home.sum(axis=1) / 6.0) ** 2,
    )


def _classic_encoded(on_counts: Counts, off_counts: Counts, version: int) -> Floats:
    on, off = _Side.of(on_counts), _Side.of(off_counts)
    out = _Columns(len(on_counts), _CLASSIC_WIDTH[version])
    _classic(out, on, off)
    if version >= 2:
        pairs = ((on, off), (off, on))
        # Each side's shots and the held points ahead of its rearmost checker: read by
        # both versions' features.
        seen = [(shots(m.counts, t.counts), window_ahead(t.held, m.rear)) for m, t in pairs]
        for (me, _), (exposed, ahead) in zip(pairs, seen, strict=True):
            _classic_extra(out, me, exposed, ahead)
        if version >= 3:
            for (me, them), (exposed, ahead) in zip(pairs, seen, strict=True):
                _classic_v3(out, me, them, exposed, ahead)
    assert out.at == out.array.shape[1]
    return out.array


def encode(variant: Variant, on: ArrayLike, off: ArrayLike, version: int = LATEST) -> Floats:
    """(n, D) float32 inputs (of the given input version) for ``on`` to roll against ``off``."""
    on_counts = np.asarray(on, dtype=np.int32)
    off_counts = np.asarray(off, dtype=np.int32)
    if not variant.rules.hits:  # long: no blots, no bar
        return _long(on_counts, off_counts)
    return _classic_encoded(on_counts, off_counts, version)


def input_size(variant: Variant, version: int = LATEST) -> int:
    z = np.zeros((1, 26), dtype=np.int32)
    z[0, 24] = 15
    return int(encode(variant, z, z, version).shape[1])
