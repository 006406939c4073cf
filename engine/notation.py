"""Backgammon notation, always from the mover's side: ``13/7 8/5*``, ``bar/22``, ``6/off``,
``24/18(2)``, ``13/7/2`` or ``13/2`` for one checker using both dice.

Printing groups the steps of one checker into a single move (showing an intermediate point
only when a blot was hit there), sorts moves from the highest point, and writes repeats
as ``(n)``. Parsing reads the usual forms in any order and walks them with the engine's
own legal steps (``read_play``), so a typed move can never be illegal, and a refused one
comes with the reason (:class:`MoveProblem`).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from itertools import combinations, pairwise

from engine.board import BAR, OFF, SIZE, Checkers
from engine.errors import AmbiguousMoveError, IllegalMoveError, MoveProblem, NotationError, shown
from engine.game import GameState
from engine.movegen import makes_block
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


# --------------------------------------------------------------------------- typed plays
Segment = tuple[int, int, bool]  # (from, to, marked with *): one stretch of a typed path


def _segments(paths: list[tuple[list[int], set[int]]]) -> list[Segment]:
    """Each typed path cut at every point written in it: those must all be landings."""
    return [(a, b, b in hits) for points, hits in paths for a, b in pairwise(points)]


def read_play(state: GameState, text: str) -> Play:
    """The legal play of this turn that ``text`` describes, read strictly.

    Every point written is a landing point of the checker (``13/7/2`` with 6-5 goes
    through 7, ``13/10/2`` is refused); an unwritten one may be any open landing
    (``13/2``). ``*`` must fall on a hit, and long nardy, with no hitting, has none; ``-``
    reads as ``/``. A hit that is not written is accepted, unless the move could then be
    played two ways. Raises NotationError, IllegalMoveError with the ``problem`` that
    explains the refusal, or AmbiguousMoveError listing the plays it could mean.
    """
    paths = parse_moves(text)
    plays = state.legal_plays()
    if not plays:
        raise IllegalMoveError("no move is possible with this roll", MoveProblem.NO_MOVE)
    marked = {p for _, hits in paths for p in hits}
    if marked and not state.rules.hits:
        raise IllegalMoveError("nothing is hit in long nardy", MoveProblem.NO_HITTING)
    segments = _segments(paths)
    found = _realise(state.reset_turn(), segments)
    if not found:
        raise _why_not(state, paths, segments)
    by_key = {p.key: p for p in plays}
    keys = list(dict.fromkeys(key for key, _ in found))
    if len(keys) == 1:
        return by_key[keys[0]]
    explicit = list(dict.fromkeys(key for key, hits in found if hits == marked))
    if len(explicit) == 1:
        return by_key[explicit[0]]
    options = [format_play(by_key[k]) for k in keys]
    raise AmbiguousMoveError("this move can be played in more ways: " + ", ".join(options), options)


def _realise(
    start: GameState, segments: list[Segment]
) -> list[tuple[tuple[Checkers, Checkers], frozenset[int]]]:
    """Every complete legal play that walks the typed segments, with the points it hits.

    The walk goes one die at a time, advancing any unfinished segment towards its written
    end (never past it), so the steps of different checkers interleave as the rules may
    require (``bar/23(2)`` with 1-1 enters both checkers before either moves on). Steps
    come from the engine's own legal steps, so whatever this finds is a legal play.
    """
    marked = {b for _, b, star in segments if star}
    found: dict[tuple[tuple[Checkers, Checkers], frozenset[int]], None] = {}

    seen: set[object] = set()

    def walk(state: GameState, items: tuple[tuple[int, int], ...], hits: frozenset[int]) -> None:
        node = (state.checkers, tuple(sorted(items)), hits, tuple(sorted(state.dice_left)))
        if node in seen:
            return  # the same stretches reached in another order
        seen.add(node)
        if all(pos == end for pos, end in items):
            # Every point written with * was hit (once is enough: "8/4*(2)" hits one blot).
            if state.play_complete and state.steps and marked <= hits:
                key = (state.checkers[state.turn], state.checkers[state.turn.other])
                found[(key, hits)] = None
            return
        legal = state.legal_steps()
        for i, (pos, end) in enumerate(items):
            if pos == end or (pos, end) in items[:i]:
                continue  # finished, or the same stretch twice (24/18(2)): one is enough
            for step in legal:
                if step.src != pos or not (step.dst == end or (step.dst != OFF and step.dst > end)):
                    continue
                moved = (*items[:i], (step.dst, end), *items[i + 1 :])
                walk(state.step(step), moved, hits | ({step.dst} if step.hit else set()))

    walk(start, tuple((a, b) for a, b, _ in segments), frozenset())
    return list(found)


def _dice_fit(distances: list[tuple[int, bool]], dice: list[int]) -> int | None:
    """The fewest dice that make every distance (``True``: bearing off, where a die may be
    larger than the distance), or None when the dice cannot make them."""
    if not distances:
        return 0
    (distance, off), rest = distances[0], distances[1:]
    best: int | None = None
    for r in range(1, len(dice) + 1):
        for chosen in set(combinations(sorted(dice), r)):
            total = sum(chosen)
            if total == distance or (off and total > distance and total - max(chosen) < distance):
                left = list(dice)
                for d in chosen:
                    left.remove(d)
                more = _dice_fit(rest, left)
                if more is not None and (best is None or r + more < best):
                    best = r + more
    return best


def _why_not(
    state: GameState, paths: list[tuple[list[int], set[int]]], segments: list[Segment]
) -> IllegalMoveError:
    """The most useful reason why the typed move is no legal play, checked in the order a
    player would want to hear it: the checkers, the bar, the dice, each landing point,
    the rules of bearing off, the head and the block, and last how many dice it uses."""
    assert state.turn_start is not None
    mine = state.turn_start[state.turn]
    theirs = state.turn_start[state.turn.other]
    dice = list(state.turn_dice)
    distances = [((a - b) if b != OFF else a, b == OFF) for a, b, _ in segments]
    used = _dice_fit(distances, dice)
    problem = (
        _checkers_problem(mine, paths)
        or (
            IllegalMoveError("the move does not match the dice", MoveProblem.WRONG_DICE)
            if used is None
            else None
        )
        or _landing_problem(state, theirs, segments, dice)
        or _rules_problem(state, mine, theirs, paths, segments)
        or _count_problem(state, used or 0, dice, distances)
    )
    return problem or IllegalMoveError("this move is not legal with this roll")


def _after(mine: Checkers, paths: list[tuple[list[int], set[int]]]) -> list[int]:
    """My checkers once every path is moved (a negative count: a checker I don't have)."""
    final = list(mine)
    for points, _ in paths:
        final[points[0]] -= 1
        final[points[-1]] += 1
    return final


def _checkers_problem(
    mine: Checkers, paths: list[tuple[list[int], set[int]]]
) -> IllegalMoveError | None:
    final = _after(mine, paths)
    short = next((p for p in range(SIZE) if final[p] < 0), None)
    if short is not None:
        return IllegalMoveError(
            "you are moving checkers you don't have there", MoveProblem.NO_CHECKER, point=short
        )
    from_bar = sum(1 for points, _ in paths if points[0] == BAR)
    if mine[BAR] and from_bar < len(paths) and from_bar < mine[BAR]:
        return IllegalMoveError("checkers on the bar enter first", MoveProblem.BAR_FIRST)
    return None


def _landing_problem(
    state: GameState, theirs: Checkers, segments: list[Segment], dice: list[int]
) -> IllegalMoveError | None:
    """A closed landing point (or every first landing of a move over several dice closed),
    or a hit marked where there is no blot."""
    opposite = state.rules.opposite
    holds = state.rules.closes_at  # opposing checkers that close a point
    for a, b, star in segments:
        if b == OFF:
            continue
        if theirs[opposite[b]] >= holds:
            return IllegalMoveError(f"point {b} is closed", MoveProblem.CLOSED_POINT, point=b)
        if star and theirs[opposite[b]] != 1:
            return IllegalMoveError(f"nothing to hit on {b}", MoveProblem.NO_BLOT, point=b)
        on_way = [a - d for d in set(dice) if b < a - d] if (a - b) not in dice else []
        if on_way and all(theirs[opposite[p]] >= holds for p in on_way):
            point = max(on_way)
            return IllegalMoveError(
                f"point {point} is closed", MoveProblem.CLOSED_POINT, point=point
            )
    return None


def _rules_problem(
    state: GameState,
    mine: Checkers,
    theirs: Checkers,
    paths: list[tuple[list[int], set[int]]],
    segments: list[Segment],
) -> IllegalMoveError | None:
    """Bearing off before every checker is home, too many checkers off the head, or an
    illegal six-point block."""
    if any(points[-1] == OFF for points, _ in paths):
        staying = _after(mine, [path for path in paths if path[0][-1] != OFF])
        if any(staying[7:]):
            return IllegalMoveError("bear off only with all checkers home", MoveProblem.NOT_HOME)
    if sum(1 for points, _ in paths if points[0] == 24) > state.head_limit:
        return IllegalMoveError("too many checkers leave the head", MoveProblem.HEAD_RULE)
    final = _after(mine, paths)
    if state.rules.block_rule and any(
        b != OFF and makes_block(final, theirs, b) for _, b, _ in segments
    ):
        return IllegalMoveError("a six-point block is not allowed", MoveProblem.BLOCK_RULE)
    return None


def _count_problem(
    state: GameState, used: int, dice: list[int], distances: list[tuple[int, bool]]
) -> IllegalMoveError | None:
    """Fewer dice than a legal play uses, or the smaller die where only the larger may be
    played."""
    need = state.legal_plays()[0].dice_used
    if used < need:
        return IllegalMoveError(
            f"incomplete move: you must use {need} dice", MoveProblem.INCOMPLETE, need=need
        )
    if need == 1 and len(set(dice)) == 2 and distances and distances[0][0] == min(dice):
        return IllegalMoveError("only one die can be played: the larger", MoveProblem.LARGER_DIE)
    return None
