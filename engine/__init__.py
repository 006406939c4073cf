"""Tavola's rules engine: classic backgammon and backgammon lungo (long nardy).

Owns the rules and nothing else: positions, legal steps and plays, turn flow, results,
notation, GNU Backgammon ids, a compact id for long, and JSON serialisation. It is pure
Python with no I/O and no randomness of its own (dice are inputs), so the bot, the
renderer, the storage and the computer opponent can all trust one implementation.

The package namespace is the engine's API for the bot, the renderer and the storage: they
import from ``engine`` (and ``engine.ai``) only, never from its submodules, so the
internals can change behind these names (``tests/test_imports.py`` checks it):

    BAR, OFF                        the bar and borne-off slots of a side's 26 checker counts
    roll_dice(d1, d2)               the dice a roll gives to play (four of a double)
    format_steps / format_play      notation of steps and plays ("24/18 13/11")
    read_play(state, text)          a typed play read against the state's legal plays
    position_id_for / match_id_for  GNU Backgammon Position ID and Match ID of a state
    long_position_id(nor, on_roll)  the compact ``L-`` position id for backgammon lungo
    to_dict / from_dict             the JSON document of a state (``SCHEMA_VERSION``)
    GameRecord                      one game's record: events, replay, decisions, documents
    MatchTranscript, GameTranscript what a match file says: per game, who did what
    game_transcript(states)         a finished game's transcript from its states
    record_transcript(record)       a finished game's record as start state and transcript
    replay_game / replay_match      a transcript walked through the rules, state by state
    write_match / parse_match       the ``.mat`` text of a match (long: the same layout)
    write_sgf, wants_sgf            gnubg's SGF text, for classic matches with the cube off
    SeededDice, derive_dice         verifiable dice from a committed seed (``engine.dice``)

Must not import: ``bot``, ``render``, ``storage`` (nor Telegram or Redis).
"""

from engine.board import BAR, OFF
from engine.dice import SeededDice, derive_dice, seed_bytes
from engine.dice import commitment as dice_commitment
from engine.dice import new_seed as new_dice_seed
from engine.dice import salt_of_words as dice_salt_of_words
from engine.dice import valid_word as valid_dice_word
from engine.dice import words_of_salt as dice_words_of_salt
from engine.errors import (
    AmbiguousMoveError,
    EngineError,
    IllegalActionError,
    IllegalMoveError,
    InvalidInputError,
    MoveProblem,
    NotationError,
)
from engine.export import file_name_suffix as match_file_suffix
from engine.export import parse as parse_match
from engine.export import write as write_match
from engine.game import (
    CLASSIC_POINTS,
    EndReason,
    GameResult,
    GameState,
    MatchConfig,
    Phase,
)
from engine.gnubg import match_id_for, position_id_for
from engine.longid import encode as long_position_id
from engine.movegen import roll_dice
from engine.moves import Play, Step
from engine.notation import format_play, format_steps, read_play
from engine.record import (
    RECORD_VERSION,
    DecisionKind,
    Double,
    Drop,
    End,
    Event,
    GameRecord,
    Move,
    OpeningRoll,
    RecordedDecision,
    Resign,
    Roll,
    Take,
    Timeout,
)
from engine.rules import Rules, rules_for
from engine.serialize import SCHEMA_VERSION, from_dict, to_dict
from engine.sgf import file_name as sgf_file_name
from engine.sgf import wants_sgf, write_sgf
from engine.transcript import (
    ActionKind,
    GameTranscript,
    MatchTranscript,
    TranscriptAction,
    game_transcript,
    record_transcript,
    replay_game,
    replay_match,
)
from engine.types import ResultKind, SeriesStart, Side, Variant

__all__ = [
    "BAR",
    "CLASSIC_POINTS",
    "OFF",
    "RECORD_VERSION",
    "SCHEMA_VERSION",
    "ActionKind",
    "AmbiguousMoveError",
    "DecisionKind",
    "Double",
    "Drop",
    "End",
    "EndReason",
    "EngineError",
    "Event",
    "GameRecord",
    "GameResult",
    "GameState",
    "GameTranscript",
    "IllegalActionError",
    "IllegalMoveError",
    "InvalidInputError",
    "MatchConfig",
    "MatchTranscript",
    "Move",
    "MoveProblem",
    "NotationError",
    "OpeningRoll",
    "Phase",
    "Play",
    "RecordedDecision",
    "Resign",
    "ResultKind",
    "Roll",
    "Rules",
    "SeededDice",
    "SeriesStart",
    "Side",
    "Step",
    "Take",
    "Timeout",
    "TranscriptAction",
    "Variant",
    "derive_dice",
    "dice_commitment",
    "dice_salt_of_words",
    "dice_words_of_salt",
    "format_play",
    "format_steps",
    "from_dict",
    "game_transcript",
    "long_position_id",
    "match_file_suffix",
    "match_id_for",
    "new_dice_seed",
    "parse_match",
    "position_id_for",
    "read_play",
    "record_transcript",
    "replay_game",
    "replay_match",
    "roll_dice",
    "rules_for",
    "seed_bytes",
    "sgf_file_name",
    "to_dict",
    "valid_dice_word",
    "wants_sgf",
    "write_match",
    "write_sgf",
]
