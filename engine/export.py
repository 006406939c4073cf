"""Match files: the Jellyfish ``.mat`` text format for classic, the same layout for long.

The ``.mat`` format is what GNU Backgammon, eXtremeGammon, BGBlitz and the other programs
exchange: a few ``; [Tag "value"]`` header lines, `` N point match``, then per game a
`` Game N`` line, the players' names with their scores, and numbered lines with one
action of each player (``52: 13/8 13/11``, `` Doubles => 2``, `` Takes``, `` Drops``),
ending with `` Wins N points``. Steps are written one by one in the mover's numbering,
25 for the bar and 0 for off, ``*`` after a hit, as GNU Backgammon writes them.

Long nardy has no standard file; its games are written in the same layout (its own point
numbering, no cube, no hits) under a header that says the file is long nardy, and its
length line reads `` N point long nardy series`` instead of `` N point match``, so that
GNU Backgammon and the other ``.mat`` readers refuse it ("not a valid .mat file") instead
of reading nonsense moves (docs/LONG_RECORD.md describes the format). ``parse`` reads
both back and replays every move through the engine, so what it returns is a legal match
or an :class:`InvalidInputError`.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Iterator

from engine.errors import InvalidInputError, shown
from engine.game import MAX_CUBE, GameState, MatchConfig, Phase
from engine.moves import Step
from engine.transcript import (
    ActionKind,
    GameTranscript,
    MatchTranscript,
    Move,
    TranscriptAction,
    replay_game,
)
from engine.types import SeriesStart, Variant

#: Columns of a move line: ``"%3d) "`` then the first player's half, 28 wide.
_NUMBER_WIDTH = 5
_HALF_WIDTH = 28
_NAME_WIDTH = 31
_LONG_NOTE = (
    "; Long nardy (backgammon lungo) recorded by Tavola: each player's own point numbers,"
    " 24 is the head, 0 is off"
)
#: The length line of a long nardy record, in place of ``point match`` (see docs/LONG_RECORD.md).
LONG_SERIES_WORDS = "point long nardy series"
MAX_TEXT = 2_000_000  # characters: far beyond any real match, refused before any work


def _points(n: int) -> str:
    return f"{n} point" if n == 1 else f"{n} points"


def file_name_suffix(config: MatchConfig) -> str:
    """``.mat`` for classic (the programs open it), ``.txt`` for long's own record."""
    return ".mat" if config.rules.gnubg_ids else ".txt"


def safe_name(name: str) -> str:
    """A name the score lines can carry: one word, no colon, printable, at most 24."""
    cleaned = "".join(c if c.isprintable() and c not in ':"' else "" for c in name)
    word = "_".join(cleaned.split())[:24]
    return word or "Player"


# --------------------------------------------------------------------------- writing
def _action_text(action: TranscriptAction) -> str:
    if action.kind is ActionKind.MOVE:
        assert action.dice is not None
        d1, d2 = action.dice
        steps = " ".join(f"{s.src}/{s.dst}{'*' if s.hit else ''}" for s in action.steps)
        return f"{max(d1, d2)}{min(d1, d2)}: {steps}".rstrip()
    if action.kind is ActionKind.DOUBLE:
        return f" Doubles => {action.cube}"
    return " Takes" if action.kind is ActionKind.TAKE else " Drops"


def _slots(game: GameTranscript) -> list[str]:
    """The actions as alternating halves of lines, the first player's half first."""
    halves: list[str] = []
    for action in game.actions:
        if len(halves) % 2 != action.player:
            halves.append("")  # the other player did nothing here: only at the start
        halves.append(_action_text(action))
    return halves


def _result_text(game: GameTranscript) -> str:
    return " Draw" if game.winner is None else f" Wins {_points(game.points)}"


def _line(number: int | None, left: str, right: str) -> str:
    lead = f"{number:>3}) " if number is not None else " " * _NUMBER_WIDTH
    if not right:
        return (lead + left).rstrip()
    padded = f"{left:<{_HALF_WIDTH}}"
    if len(left) >= _HALF_WIDTH:
        padded += " "  # a long half pushes the other one right, never into it
    return lead + padded + right


def _game_lines(game: GameTranscript, names: tuple[str, str]) -> Iterator[str]:
    """One game. The result goes in the winner's column, on the last move line when
    that half is free (as GNU Backgammon writes it, and reads it back)."""
    yield f" Game {game.number}"
    first = f" {names[0]} : {game.score[0]}"
    yield f"{first:<{_NAME_WIDTH}} {names[1]} : {game.score[1]}"
    halves = _slots(game)
    result = _result_text(game)
    column = 0 if game.winner is None else game.winner
    if len(halves) % 2 == 1 and column == 1:
        halves.append(result)
        result = ""
    for i in range(0, len(halves), 2):
        right = halves[i + 1] if i + 1 < len(halves) else ""
        yield _line(i // 2 + 1, halves[i], right)
    if result:
        yield _line(None, *((result, "") if column == 0 else ("", result)))
    yield ""


def _tag(name: str, value: str) -> str:
    return f'; [{name} "{value.replace(chr(34), chr(39))}"]'


def _header(match: MatchTranscript) -> Iterator[str]:
    config = match.config
    if not config.rules.gnubg_ids:  # not a game the backgammon programs know
        yield _LONG_NOTE
        yield _tag("Variant", config.variant.value)
        yield _tag("Scoring", "mars" if config.mars else "oin")
        yield _tag("Last roll", "on" if config.last_roll else "off")
        yield _tag("Series start", config.series_start.value)
    yield _tag("Site", "Tavola")
    for i, name in enumerate(match.names):
        yield _tag(f"Player {i + 1}", "".join(c for c in name if c.isprintable()))
    if match.date is not None:
        yield _tag("EventDate", match.date.strftime("%Y.%m.%d"))
    if config.rules.has_cube and not config.cube:
        yield _tag("Cube", "off")
    if config.money:  # gnubg's and XG's tags for money play (read as a 0 point match)
        yield _tag("Jacoby", "On" if config.jacoby else "Off")
        yield _tag("Beaver", "Off")
        yield _tag("CubeLimit", str(MAX_CUBE))
    yield ""
    if config.rules.gnubg_ids:
        yield f" {config.length} point match"
    else:  # not "point match": the backgammon programs refuse the file instead of misreading it
        yield f" {config.length} {LONG_SERIES_WORDS}"
    yield ""


def write(match: MatchTranscript) -> str:
    """The match as text: a ``.mat`` file for classic, the long record for long."""
    names = (safe_name(match.names[0]), safe_name(match.names[1]))
    if names[0] == names[1]:
        names = (names[0] + "_1", names[1] + "_2")
    lines = list(_header(match))
    for game in match.games:
        lines.extend(_game_lines(game, names))
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------- reading
# ASCII digits only: int() would read other scripts' digits, which no match file uses.
_A, _AI = re.ASCII, re.ASCII | re.IGNORECASE
_TAG = re.compile(r'^;\s*\[([A-Za-z][A-Za-z0-9 ]*?)\s+"(.*)"\]\s*$', _A)
_LENGTH = re.compile(r"^\s*(\d+)\s+point\s+(match|long\s+nardy\s+series)\s*$", _AI)
_GAME = re.compile(r"^\s*Game\s+(\d+)\s*$", _AI)
_SCORE = re.compile(r"^\s*(\S+)\s*:\s*(\d+)\s+(\S+)\s*:\s*(\d+)\s*$", _A)
_LINE = re.compile(r"^\s*(\d+)\)(.*)$", _A)
_WINS = re.compile(r"^(\s*)Wins\s+(\d+)\s+points?\b", _AI)
_DRAW = re.compile(r"^\s*Draw\s*$", _AI)
_ROLL = re.compile(r"^([1-6])([1-6]):$")
_STEP = re.compile(r"^(bar|\d{1,2})/(off|\d{1,2})(\*?)(?:\((\d)\))?$", _AI)
_WORD = re.compile(r"^(Doubles|Takes|Drops|Wins|Draw)$", re.IGNORECASE)
#: A half that starts this far into the line belongs to the second player.
_SECOND_COLUMN = 14


class _Game:
    """A game being read: its header and its actions so far."""

    def __init__(self, number: int) -> None:
        self.number = number
        self.score: tuple[int, int] | None = None
        self.names: tuple[str, str] | None = None
        self.actions: list[TranscriptAction] = []
        self.result: tuple[int | None, int] | None = None


def _point(text: str) -> int:
    word = text.lower()
    value = 25 if word == "bar" else 0 if word == "off" else int(text)
    if not 0 <= value <= 25:
        raise InvalidInputError(f"no point {shown(text)}")
    return value


def _read_half(tokens: list[str], player: int, where: str) -> TranscriptAction | None:
    """One player's half of a move line, or None when it is empty."""
    if not tokens:
        return None
    word = tokens[0].lower()
    if word.startswith("double"):
        cube = tokens[-1] if len(tokens) > 1 else "0"
        if not re.fullmatch(r"[0-9]{1,3}", cube):
            raise InvalidInputError(f"{where}: cannot read {shown(' '.join(tokens))}")
        return TranscriptAction(player, ActionKind.DOUBLE, cube=int(cube))
    if word.startswith("take"):
        return TranscriptAction(player, ActionKind.TAKE)
    if word.startswith("drop"):
        return TranscriptAction(player, ActionKind.DROP)
    roll = _ROLL.match(tokens[0])
    if roll is None:
        raise InvalidInputError(f"{where}: cannot read {shown(tokens[0])}")
    moves: list[Move] = []
    for token in tokens[1:]:
        step = _STEP.match(token)
        if step is None:
            raise InvalidInputError(f"{where}: cannot read the step {shown(token)}")
        move = (_point(step.group(1)), _point(step.group(2)), bool(step.group(3)))
        moves.extend([move] * int(step.group(4) or 1))
    dice = (int(roll.group(1)), int(roll.group(2)))
    # The dice of each step are found when the game is replayed; 0 marks "not known yet".
    steps = tuple(Step(src, dst, 0, hit) for src, dst, hit in moves)
    return TranscriptAction(player, ActionKind.MOVE, dice, steps)


def _split_halves(rest: str) -> tuple[list[str], list[str]]:
    """The two halves of a move line's text after ``N)``: by the start of the second
    action (a roll or a cube word after the first one), or by the column when the first
    player's half is empty."""
    tokens = rest.split()
    if not tokens:
        return [], []
    if len(rest) - len(rest.lstrip()) >= _SECOND_COLUMN:
        return [], tokens
    for i, token in enumerate(tokens[1:], start=1):
        if _ROLL.match(token) or (_WORD.match(token) and tokens[i - 1].lower() != "=>"):
            return tokens[:i], tokens[i:]
    return tokens, []


def _read_line(game: _Game, rest: str, where: str) -> None:
    left, right = _split_halves(rest)
    for player, tokens in ((0, left), (1, right)):
        if game.result is not None:
            raise InvalidInputError(f"{where}: the game is over")
        word = tokens[0].lower() if tokens else ""
        if word == "draw":
            game.result = (None, 0)
            continue
        if word == "wins" and len(tokens) > 1 and re.fullmatch(r"[0-9]{1,4}", tokens[1]):
            game.result = (player, int(tokens[1]))
            continue
        action = _read_half(tokens, player, where)
        if action is not None:
            game.actions.append(action)


def _read_result(game: _Game, line: str) -> bool:
    """An unnumbered result line (its column says whose); False when it is none."""
    wins = _WINS.match(line)
    if wins:
        winner = 0 if len(wins.group(1)) < _NUMBER_WIDTH + 1 + _SECOND_COLUMN else 1
        game.result = (winner, int(wins.group(2)))
        return True
    if _DRAW.match(line):
        game.result = (None, 0)
        return True
    return False


def _config(tags: dict[str, str], length: int) -> MatchConfig:
    """The match settings from the header (a file without tags is classic, cube on)."""
    try:
        variant = Variant(tags.get("variant", Variant.CLASSIC.value).strip().lower())
        start = SeriesStart(tags.get("series start", SeriesStart.LOSER.value))
    except ValueError:
        raise InvalidInputError("unknown variant or series start in the header") from None
    return MatchConfig(
        variant,
        length,
        cube=tags.get("cube", "on").lower() != "off",
        mars=tags.get("scoring", "mars").lower() != "oin",
        last_roll=tags.get("last roll", "off").lower() == "on",
        series_start=start,
        jacoby=tags.get("jacoby", "on").lower() != "off",
    )


def _read_games(text: str) -> tuple[dict[str, str], int, list[_Game]]:
    tags: dict[str, str] = {}
    length: int | None = None
    games: list[_Game] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        if line.lstrip().startswith(";"):
            tag = _TAG.match(line.strip())
            if tag:
                tags[tag.group(1).lower()] = tag.group(2)
            continue
        if (m := _LENGTH.match(line)) and length is None:
            length = int(m.group(1))
            if m.group(2).lower() != "match":
                tags.setdefault("variant", Variant.LONG.value)
        elif m := _GAME.match(line):
            games.append(_Game(int(m.group(1))))
        else:
            _read_game_line(games, line, f"line {number}")
    if length is None:
        raise InvalidInputError("no match length (a line such as ' 5 point match')")
    if not games:
        raise InvalidInputError("no game in the file")
    return tags, length, games


def _read_game_line(games: list[_Game], line: str, where: str) -> None:
    """A line inside a game: its score line, a numbered line of moves, or its result."""
    if not games:
        raise InvalidInputError(f"{where}: expected the match length or a game")
    game = games[-1]
    if game.result is not None:
        raise InvalidInputError(f"{where}: the game is over")
    if game.score is None and (m := _SCORE.match(line)):
        game.names = (m.group(1), m.group(3))
        game.score = (int(m.group(2)), int(m.group(4)))
    elif m := _LINE.match(line):
        _read_line(game, m.group(2), where)
    elif not _read_result(game, line):
        raise InvalidInputError(f"{where}: cannot read {shown(line.strip())}")


def parse(text: str) -> MatchTranscript:
    """Read a match written by :func:`write` (or a ``.mat`` file of another program),
    replaying every action through the engine.

    Raises InvalidInputError on text that is not a match file, on any illegal move, and on
    a result that does not follow from the moves.
    """
    if not isinstance(text, str) or len(text) > MAX_TEXT:
        raise InvalidInputError("a match file is a text of reasonable size")
    try:
        tags, length, read = _read_games(text)
    except InvalidInputError:
        raise
    except ValueError:  # a number too long for int(), a digit int() does not read
        raise InvalidInputError("a number in the file cannot be read") from None
    config = _config(tags, length)
    first = read[0].names or ("Player", "Player")
    names = (tags.get("player 1", first[0]), tags.get("player 2", first[1]))
    date = _date(tags.get("eventdate", ""))
    state = GameState.new_match(config)
    games: list[GameTranscript] = []
    for index, game in enumerate(read):
        if game.score is None or game.result is None:
            raise InvalidInputError(f"game {game.number}: no score line or no result")
        if index:
            if state.phase is not Phase.GAME_OVER:
                raise InvalidInputError(f"game {game.number}: the match was already over")
            state = state.next_game()
        loose = GameTranscript(game.number, game.score, tuple(game.actions), *game.result)
        actions: list[TranscriptAction] = []
        for after, action in replay_game(state, loose):
            state = after  # the next game starts from this one's end
            if action is not None:
                actions.append(_resolved(action, after))
        games.append(GameTranscript(game.number, game.score, tuple(actions), *game.result))
    return MatchTranscript(config, names, tuple(games), date)


def _resolved(action: TranscriptAction, after: GameState) -> TranscriptAction:
    """The action with the dice its steps really used, as the replay found them."""
    if action.kind is not ActionKind.MOVE or after.last_play is None:
        return action
    return TranscriptAction(action.player, action.kind, action.dice, after.last_play.steps)


def _date(text: str) -> datetime.date | None:
    try:
        return datetime.datetime.strptime(text.strip(), "%Y.%m.%d").date()
    except ValueError:
        return None
