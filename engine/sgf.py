"""GNU Backgammon's SGF match files: the export of classic games played without the cube.

A ``.mat`` file has no way to say that the cube was off: GNU Backgammon 1.07 ignores the
``; [Cube "off"]`` tag and analyses every turn as a cube decision, reporting cube errors
in games where nobody could double. Its own SGF format (``GM[6]``) carries the rules of
each game in the ``RU`` property, and ``RU[NoCube]`` is honoured on import (``load
match``): the analysis then counts no cube decision at all. So a classic match or money
game with the cube off is exported as SGF; everything else stays ``.mat`` (a 1-point match
needs no flag: gnubg itself never doubles at 1-away).

The layout is the one gnubg writes: one game tree per game, its root with the match
(``MI[length:N][game:I][ws:W][bs:B]``, scores of the first and second player before the
game), names, date, rules and result (``RE[W+2]``; an ``R`` after the points when the game
ended by resignation or time, as gnubg marks it); then one node per action. The first
player of the match is ``W``. A move is ``;W[<dice><from><to>...]`` with each point as a
letter, ``a``..``x`` for the 24 points, ``y`` the bar, ``z`` off: White's point ``p`` is
letter ``p - 1``, Black's is letter ``24 - p`` (gnubg's board coordinates, seen from
White). A roll without a legal play is the dice alone; the cube is ``double``, ``take``
and ``drop``.
"""

from __future__ import annotations

import datetime
import string
from collections.abc import Iterator

from engine.state_parts import MatchConfig
from engine.transcript import (
    ActionKind,
    GameTranscript,
    MatchTranscript,
    TranscriptAction,
    replay_match,
)

#: gnubg's board coordinates: 24 points, then the bar, then off.
_LETTERS = string.ascii_lowercase[:24]
_BAR, _OFF = "y", "z"
_COLOURS = ("W", "B")


def wants_sgf(config: MatchConfig) -> bool:
    """Should a match with these settings be exported as SGF? Classic games with the cube
    turned off by choice (a longer match or a money game): a ``.mat`` file cannot say so."""
    return config.rules.gnubg_ids and not config.cube and config.length != 1


def _text(value: str) -> str:
    """A property value: ``]`` and ``\\`` escaped, as SGF requires."""
    return value.replace("\\", "\\\\").replace("]", "\\]")


def _point(player: int, point: int) -> str:
    """One point of ``player``'s own numbering (25 the bar, 0 off) as gnubg's letter."""
    if point == 25:
        return _BAR
    if point == 0:
        return _OFF
    return _LETTERS[point - 1] if player == 0 else _LETTERS[24 - point]


def _node(action: TranscriptAction) -> str:
    colour = _COLOURS[action.player]
    if action.kind is ActionKind.MOVE:
        assert action.dice is not None
        high, low = max(action.dice), min(action.dice)
        steps = "".join(
            _point(action.player, s.src) + _point(action.player, s.dst) for s in action.steps
        )
        return f";{colour}[{high}{low}{steps}]"
    word = {ActionKind.DOUBLE: "double", ActionKind.TAKE: "take"}.get(action.kind, "drop")
    return f";{colour}[{word}]"


def _rules(match: MatchTranscript, game: GameTranscript, crawford_game: bool) -> str:
    config = match.config
    rules: list[str] = []
    if not config.cube_in_play:
        rules.append("NoCube")
    if config.money:
        if config.jacoby_in_force:
            rules.append("Jacoby")
    else:
        rules.append("Crawford")
        if crawford_game:
            rules.append("CrawfordGame")
    return f"RU[{':'.join(rules)}]" if rules else ""


def _crawford_games(match: MatchTranscript) -> set[int]:
    """The index of the Crawford game, when the match had one: the first game at which a
    player stood one point from the match (matches longer than one point)."""
    length = match.config.length
    if length <= 1:
        return set()
    for index, game in enumerate(match.games):
        if max(game.score) == length - 1:
            return {index}
    return set()


def _game_tree(
    match: MatchTranscript, index: int, game: GameTranscript, resigned: bool, crawford: bool
) -> Iterator[str]:
    config = match.config
    root = [
        "(;FF[4]GM[6]CA[UTF-8]AP[Tavola]",
        f"MI[length:{config.length}][game:{index}][ws:{game.score[0]}][bs:{game.score[1]}]",
        f"PW[{_text(match.names[0])}]PB[{_text(match.names[1])}]",
    ]
    if match.date is not None:
        root.append(f"DT[{match.date:%Y-%m-%d}]")
    root.append("PC[Tavola]")
    root.append(_rules(match, game, crawford))
    if game.winner is not None:
        root.append(f"RE[{_COLOURS[game.winner]}+{game.points}{'R' if resigned else ''}]")
    yield "".join(root)
    for action in game.actions:
        yield _node(action)
    yield ")"


def write_sgf(match: MatchTranscript) -> str:
    """The match as GNU Backgammon's SGF text (classic only: gnubg knows no long nardy).

    Every game is replayed through the rules first, to tell a game resigned (or lost on
    time) from one played to its end; raises ``InvalidInputError`` on an illegal one.
    """
    if not match.config.rules.gnubg_ids:
        raise ValueError("SGF is written for classic backgammon only")
    resigned = {index for index, _, action in replay_match(match) if action is None}
    crawford = _crawford_games(match)
    lines: list[str] = []
    for index, game in enumerate(match.games):
        lines.extend(_game_tree(match, index, game, index in resigned, index in crawford))
    return "\n".join(lines) + "\n"


def file_name(date: datetime.date) -> str:
    """The name of an exported SGF match file."""
    return f"tavola-{date:%Y%m%d}.sgf"
