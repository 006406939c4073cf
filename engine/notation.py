"""Backgammon notation, always from the mover's side: ``13/7 8/5*``, ``bar/22``, ``6/off``,
``24/18(2)``, ``13/7/2`` or ``13/2`` for one checker using both dice.

Printing groups the steps of one checker into a single move (showing an intermediate point
only when a blot was hit there), sorts moves from the highest point, and writes repeats
as ``(n)``. Parsing reads the usual forms in any order and matches them against the legal
plays of the roll by their resulting position, so a typed move can never be illegal.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from itertools import pairwise

from engine.board import BAR, OFF
from engine.errors import AmbiguousMoveError, IllegalMoveError, NotationError, shown
from engine.moves import Play, Step


def _pt(p: int) -> str:
    return "bar" if p == BAR else "off" if p == OFF else str(p)


def _chains(steps: Sequence[Step]) -> list[list[tuple[int, bool]]]:
    """Group steps into checker paths: [(src, False), (p1, hit1), (p2, hit2), ...]."""
    chains: list[list[tuple[int, bool]]] = []
    for s in steps:
        for chain in chains:
            end = chain[-1][0]
            if end == s.src and end != OFF:
                chain.append((s.dst, s.hit))
                break
        else:
            chains.append([(s.src, False), (s.dst, s.hit)])
    return chains


def _chain_text(chain: list[tuple[int, bool]]) -> str:
    parts = [_pt(chain[0][0])]
    for i, (p, hit) in enumerate(chain[1:], start=1):
        last = i == len(chain) - 1
        if last or hit:
            parts.append(_pt(p) + ("*" if hit else ""))
    return "/".join(parts)


def format_steps(steps: Sequence[Step]) -> str:
    """Canonical notation of a play (empty string when nothing moved).

    Steps are taken from the highest source down, so the text does not depend on the
    order in which the steps were made (``5/4 8/5`` and ``8/5 5/4`` both print ``8/4``).
    """
    chains = _chains(sorted(steps, key=lambda s: (-s.src, -s.dst)))
    chains.sort(key=lambda c: (-c[0][0], -c[-1][0]))
    counts = Counter(_chain_text(c) for c in chains)
    out: list[str] = []
    for c in chains:
        text = _chain_text(c)
        n = counts.pop(text, 0)
        if n:
            out.append(text if n == 1 else f"{text}({n})")
    return " ".join(out)


def format_play(play: Play) -> str:
    return format_steps(play.steps)


_TOKEN = re.compile(r"^(bar|b|\d{1,2})((?:[/-](?:off|o|\d{1,2})\*?)+)(?:\((\d)\))?$")
_SEG = re.compile(r"[/-](off|o|\d{1,2})(\*?)")


def _point(text: str) -> int:
    if text in ("bar", "b"):
        return BAR
    if text in ("off", "o"):
        return OFF
    value = int(text)
    if not 1 <= value <= 24:
        raise NotationError(f"point {value} does not exist (1..24)")
    return value


def parse_moves(text: str) -> list[tuple[list[int], set[int]]]:
    """Read a move string into checker paths ([src, ..., dst], points marked with ``*``)."""
    if not isinstance(text, str) or not text.strip():
        raise NotationError("empty move")
    tokens = [t for t in re.split(r"[\s,;]+", text.strip().lower()) if t]
    paths: list[tuple[list[int], set[int]]] = []
    for token in tokens:
        m = _TOKEN.match(token)
        if not m:
            raise NotationError(f"cannot read {shown(token)}: write moves like 13/7 or bar/22")
        points = [_point(m.group(1))]
        hits: set[int] = set()
        for seg, star in _SEG.findall(m.group(2)):
            p = _point(seg)
            points.append(p)
            if star:
                hits.add(p)
        for a, b in pairwise(points):
            if a == OFF or b >= a:
                raise NotationError(f"{shown(token)}: checkers move from higher to lower points")
        repeat = int(m.group(3) or 1)
        if not 1 <= repeat <= 4:
            raise NotationError(f"{shown(token)}: a move repeats at most 4 times")
        paths.extend((points, hits) for _ in range(repeat))
    return paths


def match_play(text: str, mine: Sequence[int], plays: Sequence[Play]) -> Play:
    """The unique legal play that ``text`` describes, from the turn-start checkers ``mine``.

    Raises NotationError (unreadable), IllegalMoveError (no such legal play) or
    AmbiguousMoveError (several plays fit, e.g. a hit or not on the way).
    """
    paths = parse_moves(text)
    if not plays:
        raise IllegalMoveError("no move is possible with this roll")
    final = list(mine)
    marked: set[int] = set()
    for points, hits in paths:
        final[points[0]] -= 1
        final[points[-1]] += 1
        marked |= hits
    if any(n < 0 for n in final):
        raise IllegalMoveError("you are moving checkers you don't have there")
    candidates = [p for p in plays if list(p.mine) == final]
    if not candidates:
        need = plays[0].dice_used
        moved = sum(len(points) - 1 for points, _ in paths)
        if moved < need and all(len(p) == 2 for p, _ in paths) and len(paths) < need:
            raise IllegalMoveError(f"incomplete move: you must use {need} dice")
        raise IllegalMoveError("this move is not legal with this roll")
    if len(candidates) == 1:
        return candidates[0]
    typed = " ".join(sorted(text.lower().split()))
    for c in candidates:
        if " ".join(sorted(format_play(c).split())) == typed:
            return c
    explicit = [c for c in candidates if {s.dst for s in c.steps if s.hit} == marked]
    if len(explicit) == 1:
        return explicit[0]
    options = [format_play(c) for c in candidates]
    raise AmbiguousMoveError("this move can be played in more ways: " + ", ".join(options), options)
