"""What a table looks like in the chat: the board picture, the caption and the keyboard.

Pure functions of a table and its stored version, so the same state always produces the
same message, and an edit that changes nothing is recognisable as such.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Sequence

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot.adapters import callback_data as cd
from bot.game import shortcuts
from bot.game.actions import Action
from bot.game.local_time import local
from bot.game.table import OfferStage, ResignOffer, Table
from bot.texts import messages as T
from bot.texts import move_list as ML
from bot.texts import replay_export as RX
from bot.texts import review as R
from engine import (
    BAR,
    CLASSIC_POINTS,
    OFF,
    EndReason,
    GameState,
    Phase,
    Side,
    Step,
    Variant,
    format_steps,
    roll_dice,
)
from engine.ai import cube_available_to_hint
from render import BoardView, Die, LastStep
from render import Side as RenderSide
from render import Variant as RenderVariant

STEP_BUTTONS_PER_ROW = 4
SHORTCUTS_PER_ROW = 3
COMPLETE_PLAYS_PER_ROW = 2
MAX_SHORTCUTS = 12


# --------------------------------------------------------------------------- picture
def board_view(table: Table) -> BoardView:
    s = table.state
    white, black = table.player_at(Side.WHITE), table.player_at(Side.BLACK)
    dice: tuple[Die, ...] = ()
    if s.phase is Phase.MOVE and s.dice:
        used = Counter(step.die for step in s.steps)
        dice_list = []
        for d in roll_dice(*s.dice) if s.dice[0] == s.dice[1] else sorted(s.dice, reverse=True):
            dice_list.append(Die(d, used[d] > 0))
            if used[d]:
                used[d] -= 1
        dice = tuple(dice_list)
    if s.phase is Phase.MOVE and s.steps:
        last = tuple(LastStep(render_side(s.turn), st.src, st.dst, st.hit) for st in s.steps)
    elif s.last_play is not None:
        last = tuple(
            LastStep(render_side(s.last_play.side), st.src, st.dst, st.hit)
            for st in s.last_play.steps
        )
    else:
        last = ()
    over = s.is_over
    classic = s.rules.has_cube  # a variant with a cube always shows it
    offered = s.phase is Phase.DOUBLED
    return BoardView(
        variant=render_variant(s.variant),
        white=s.checkers[Side.WHITE],
        black=s.checkers[Side.BLACK],
        turn=None if over else render_side(s.turn),
        perspective=render_side(s.turn) if not over else "white",
        dice=dice,
        # Classic always shows its cube: greyed when it cannot be turned in this game.
        cube_value=(s.cube_value * 2 if offered else s.cube_value) if classic else None,
        cube_owner=render_side(s.cube_owner) if classic and s.cube_owner is not None else None,
        cube_offered_by=render_side(s.turn.other) if classic and offered else None,
        cube_active=s.config.cube_in_play and not s.crawford,
        names=(white.name, black.name),
        pips=(s.pips(Side.WHITE), s.pips(Side.BLACK)),
        score=(s.score[s.player_of(Side.WHITE)], s.score[s.player_of(Side.BLACK)]),
        match_length=s.config.length,
        crawford=s.crawford,
        last_play=last,
        status="" if over else T.turn_status(table.actor.name),
        banner=result_banner(table),
    )


def result_banner(table: Table) -> tuple[str, ...]:
    """What the final picture says: who won what, and the match or series score."""
    s = table.state
    r = s.result
    if r is None or not s.is_over:
        return ()
    if r.winner is None:
        lines = [T.banner_draw()]
    elif r.reason is EndReason.TIMEOUT:  # the time first, then what it cost
        loser = table.player_at(r.winner.other).name
        lines = [
            T.banner_timeout(loser),
            T.banner_result(
                table.player_at(r.winner).name, r.points, T.kind_shown(r.kind, s.config)
            ),
        ]
    else:
        lines = [
            T.banner_result(
                table.player_at(r.winner).name, r.points, T.kind_shown(r.kind, s.config)
            )
        ]
    if s.config.length > 1:
        p0, p1 = table.players
        lines.append(T.banner_score(p0.name, s.score[0], p1.name, s.score[1]))
        winner = s.match_winner
        if winner is not None:
            lines.append(T.banner_match_won(table.players[winner].name, s.variant))
    return tuple(lines)


def orientation(table: Table) -> RenderSide:
    """Who sits at the bottom: the person in a game against the computer, else White."""
    if table.vs_computer:
        return render_side(table.state.side_of(0))
    return "white"


def render_side(side: Side) -> RenderSide:
    """The renderer's name of an engine side."""
    return "white" if side is Side.WHITE else "black"


def render_variant(variant: Variant) -> RenderVariant:
    """The renderer's name of an engine variant (the renderer does not import the engine)."""
    return "classic" if variant is Variant.CLASSIC else "long"


# --------------------------------------------------------------------------- caption
def caption(table: Table, now: float | None = None) -> str:
    """The board's caption; ``now`` (epoch seconds, the present by default) is the time
    the turn's clock line counts from."""
    return _fit_caption(_caption_head(table), table.notes, _caption_tail(table, now))


def _caption_head(table: Table) -> list[str]:
    """What is played: the variant, the format and settings, the score, Crawford."""
    s = table.state
    head = [f"<b>{T.VARIANT_NAMES[s.variant]}</b>", T.match_length(s.variant, s.config.length)]
    if s.config.cube_in_play:
        head.append(T.cube_value(s.cube_value))
    head.extend(T.caption_settings(s.config, table.turn_seconds))
    lines = [" · ".join(head)]
    if s.config.length > 1:
        p0, p1 = table.players
        lines.append(
            T.score_line(
                T.Score(p0.name, s.score[0]),
                T.Score(p1.name, s.score[1]),
                s.variant,
                s.config.length,
            )
        )
    if s.crawford:
        lines.append(T.CRAWFORD_GAME)
    return [line for line in lines if line]


def _caption_tail(table: Table, now: float | None) -> list[str]:
    """Where the game stands: the last plays, whose turn and what to do, the clock, an
    open resignation (inline boards only), the dice proof once the game is over."""
    s = table.state
    lines = []
    played = [
        (p.name, text) for p, text in zip(table.players, table.last_plays, strict=True) if text
    ]
    if played:
        lines.append(ML.last_plays(played))
    if not s.is_over:
        lines.append(T.turn_of(table.actor.name, s.turn is Side.WHITE))
        lines.append(_prompt(table))
    lines.append(_clock_line(table, now))
    offer = table.open_offer
    if (
        offer is not None
        and offer.stage is OfferStage.OFFERED
        and offer.kind is not None
        and not s.is_over
        and table.inline_message is not None  # elsewhere the prompt says it: board untouched
    ):
        resigner, opponent = table.players[offer.player], table.players[1 - offer.player]
        lines.append(
            T.resign_waiting(
                resigner.name, opponent.name, offer.points, T.kind_shown(offer.kind, s.config)
            )
        )
    # An inline message's players cannot ask /verifica there: they get the whole values.
    whole = table.inline_message is not None
    if s.is_over and table.dice is not None:
        lines.append(T.dice_seed_revealed(table.dice.seed, whole, table.dice.salt))
    if s.is_over and table.next_commitment is not None:
        lines.append(T.next_dice_commitment(table.next_commitment, whole))
    return [line for line in lines if line]


def _fit_caption(head: list[str], all_notes: Sequence[str], tail: list[str]) -> str:
    """The caption within Telegram's limit. Names are users' own: 64 emoji count 128
    towards it, and a caption can hold several names per line. A turn of many automatic
    plays (forced moves, the computer's, passes) is shortened by whole notes, oldest
    first, marked with "…"; then the oldest lines go."""
    notes = [note for note in all_notes if note]
    lines = [*head, *notes, *tail]
    text = "\n".join(lines)
    dropped = 0
    while T.telegram_length(text) > T.MAX_CAPTION_CHARS and dropped < len(notes):
        dropped += 1
        lines = [*head, T.EARLIER_NOTES_OMITTED, *notes[dropped:], *tail]
        text = "\n".join(lines)
    while T.telegram_length(text) > T.MAX_CAPTION_CHARS and len(lines) > 2:
        lines.pop(1 if len(lines) > 3 else 0)  # drop the oldest lines first
        text = "\n".join(lines)
    return text


def _clock_line(table: Table, now: float | None) -> str:
    """The caption's clock: when the turn must be played by, or between two games when the
    next one starts by itself; empty without a deadline (or a past one: adjourned)."""
    at = time.time() if now is None else now
    due = table.deadline
    if due is None or due <= at:
        return ""
    if not table.state.is_over:
        return _deadline(due, at)
    if table.state.phase is Phase.GAME_OVER:
        return T.next_game_deadline(local(due), local(at))
    return ""


def _deadline(due: float, now: float) -> str:
    """The clock line of the turn ending at ``due``, in the players' local time."""
    return T.turn_deadline(local(due), local(now))


def _prompt(table: Table) -> str:
    s = table.state
    if s.phase is Phase.ROLL:
        return T.ROLL_OR_DOUBLE_PROMPT if s.cube_available else T.ROLL_PROMPT
    if s.phase is Phase.DOUBLED:
        # The offer's note already asks the question; say it here only if it was trimmed.
        offer = T.double_offered(table.player_at(s.turn.other).name, s.cube_value * 2)
        return "" if offer in table.notes else offer
    if s.phase is Phase.MOVE and s.dice:
        parts = [T.dice(*s.dice)]
        if s.steps:
            parts.append(T.steps_so_far(format_steps(s.steps)))
        parts.append(T.CONFIRM_PROMPT if s.play_complete else T.CHOOSE_CHECKER)
        return " · ".join(parts)
    return ""


# --------------------------------------------------------------------------- keyboard
def step_label(step: Step, ambiguous: bool) -> str:
    src = "bar" if step.src == BAR else str(step.src)
    dst = "off" if step.dst == OFF else str(step.dst)
    label = f"{src}/{dst}{'*' if step.hit else ''}"
    return f"{label} ({step.die})" if ambiguous else label


def _shortcut_rows(
    state: GameState, button: Callable[..., InlineKeyboardButton]
) -> list[list[InlineKeyboardButton]]:
    """Rows of multi-step buttons: the complete plays when few, else whole checkers and
    pairs. Each button's label starts with ▶ so it reads apart from the single steps."""
    complete = shortcuts.complete_plays(state)
    chosen = complete or [*shortcuts.whole_checker(state), *shortcuts.pairs(state)]
    seen: set[str] = set()
    buttons: list[InlineKeyboardButton] = []
    for cut in chosen[:MAX_SHORTCUTS]:
        if cut.label in seen:
            continue
        seen.add(cut.label)
        args = [n for st in cut.steps for n in (st.src, st.dst, st.die)]
        buttons.append(button(f"▶ {cut.label}", Action.STEPS, *args))
    per_row = COMPLETE_PLAYS_PER_ROW if complete else SHORTCUTS_PER_ROW
    return [buttons[i : i + per_row] for i in range(0, len(buttons), per_row)]


def _move_rows(
    table: Table, button: Callable[..., InlineKeyboardButton]
) -> list[list[InlineKeyboardButton]]:
    """The keyboard of a turn being played: shortcuts, single steps, take-back and
    confirm, then the hint (when allowed) and resigning."""
    s = table.state
    rows: list[list[InlineKeyboardButton]] = []
    rows.extend(_shortcut_rows(s, button))
    steps = s.legal_steps()
    pairs = Counter((st.src, st.dst) for st in steps)
    buttons = [
        button(step_label(st, pairs[(st.src, st.dst)] > 1), Action.STEP, st.src, st.dst, st.die)
        for st in steps
    ]
    rows.extend(
        buttons[i : i + STEP_BUTTONS_PER_ROW] for i in range(0, len(buttons), STEP_BUTTONS_PER_ROW)
    )
    last: list[InlineKeyboardButton] = []
    if s.steps:
        last.append(button("↩ " + T.BTN_UNDO, Action.UNDO))
    if s.play_complete:
        last.append(button("✅ " + T.BTN_CONFIRM, Action.CONFIRM))
    if last:
        rows.append(last)
    # Without a cube (long, 1-point classic) the dice are rolled automatically, so the
    # roll row (which carries Abbandona) never shows: offer resigning here too.
    final = [button(T.BTN_RESIGN, Action.RESIGN)]
    if table.hints_allowed:
        final.insert(0, button(R.BTN_HINT, Action.HINT))
    rows.append(final)
    return rows


def _cube_hint_button(
    table: Table, button: Callable[..., InlineKeyboardButton]
) -> list[InlineKeyboardButton]:
    """The 💡 of a cube decision (doubling before the roll, answering a double), when the
    game allows hints; none when there is no cube decision to advise on."""
    if table.hints_allowed and cube_available_to_hint(table.state):
        return [button(R.BTN_HINT, Action.HINT)]
    return []


def _records_row(table: Table, game_id: int) -> list[InlineKeyboardButton]:
    """Under a finished game: its replay, and the match so far as a file."""
    number = table.state.game_number
    return [
        InlineKeyboardButton(
            RX.BTN_REPLAY, callback_data=cd.records_button(cd.REPLAY, game_id, number)
        ),
        InlineKeyboardButton(RX.BTN_EXPORT, callback_data=cd.records_button(cd.EXPORT, game_id)),
    ]


def _moves_button(table: Table, game_id: int) -> list[InlineKeyboardButton]:
    """The move list's button (none on an inline board: nowhere to send the list)."""
    if table.inline_message is not None:
        return []
    return [InlineKeyboardButton(ML.BTN_MOVES, callback_data=cd.moves_button(game_id))]


def keyboard(table: Table, game_id: int, version: int) -> InlineKeyboardMarkup | None:
    s = table.state

    def button(text: str, action: Action, *args: int) -> InlineKeyboardButton:
        return InlineKeyboardButton(
            text, callback_data=cd.GameButton(game_id, version, action, args).encode()
        )

    if s.is_over:
        go_on = (
            button(T.BTN_REMATCH, Action.REMATCH)
            if s.phase is Phase.MATCH_OVER
            else button(T.BTN_NEXT_GAME, Action.NEXT_GAME)
        )
        review = [button(R.BTN_ANALYSIS, Action.ANALYSIS), *_records_row(table, game_id)]
        review.extend(_moves_button(table, game_id))
        return InlineKeyboardMarkup([[go_on], review])
    if table.vs_computer and table.actor.is_computer:
        return None
    rows: list[list[InlineKeyboardButton]] = []
    if s.phase is Phase.ROLL:
        row = [button("🎲 " + T.BTN_ROLL, Action.ROLL)]
        if s.cube_available:
            row.append(button(T.BTN_DOUBLE, Action.DOUBLE))
        rows.append(row)
        resign = button(T.BTN_RESIGN, Action.RESIGN)
        hint = _cube_hint_button(table, button)
        rows.append([*hint, resign, *_moves_button(table, game_id)])
    elif s.phase is Phase.DOUBLED:
        rows.append([button(T.BTN_TAKE, Action.TAKE), button(T.BTN_DROP, Action.DROP)])
        rows[-1].extend(_cube_hint_button(table, button))
    elif s.phase is Phase.MOVE:
        rows.extend(_move_rows(table, button))
        rows[-1].extend(_moves_button(table, game_id))
    return InlineKeyboardMarkup(rows) if rows else None


# --------------------------------------------------------------------------- resign prompt
ButtonMaker = Callable[..., InlineKeyboardButton]


def resign_prompt(
    table: Table, game_id: int, version: int
) -> tuple[str, InlineKeyboardMarkup | None] | None:
    """The text and buttons of the resign prompt, a short message of its own addressed to
    whoever must answer it now; once the offer is closed, its outcome without buttons."""
    offer = table.resign
    if offer is None:
        return None

    def button(text: str, action: Action, *args: int) -> InlineKeyboardButton:
        data = cd.GameButton(game_id, version, action, args).encode()
        return InlineKeyboardButton(text, callback_data=data)

    if offer.stage is OfferStage.ASKED:
        return _resign_asked(table, offer, button)
    resigner, opponent = table.players[offer.player], table.players[1 - offer.player]
    if offer.stage is OfferStage.OFFERED:
        assert offer.kind is not None
        text = T.resign_offered(resigner.name, opponent.name, offer.points, offer.kind)
        accept = button(T.BTN_RESIGN_ACCEPT, Action.RESIGN_ACCEPT)
        decline = button(T.BTN_RESIGN_DECLINE, Action.RESIGN_DECLINE)
        return text, InlineKeyboardMarkup([[accept, decline]])
    return _resign_outcome(table, offer), None


def _resign_asked(
    table: Table, offer: ResignOffer, button: ButtonMaker
) -> tuple[str, InlineKeyboardMarkup]:
    """The resigner's own choice: the level (classic), the price (long), or, between games
    or beside those, leaving the whole match or series."""
    s = table.state
    resigner, opponent = table.players[offer.player], table.players[1 - offer.player]
    no = [button(T.BTN_RESIGN_NO, Action.RESIGN_NO)]
    leave = (
        [[button(T.leave_match_button(s.variant), Action.LEAVE_MATCH)]]
        if s.config.length > 1
        else []
    )
    if offer.between_games:
        return T.leave_match_ask(resigner.name, s.variant), InlineKeyboardMarkup([*leave, no])
    if offer.kind is not None:  # long: confirm the price
        kind = T.kind_shown(offer.kind, s.config)
        text = T.resign_ask_long(resigner.name, opponent.name, offer.points, kind)
        yes = button(T.BTN_RESIGN_YES, Action.RESIGN_YES)
        return text, InlineKeyboardMarkup([[yes, *no], *leave])
    levels = [  # classic: choose the level to offer
        [
            button(
                T.resign_level_button(level.kind, level.points),
                Action.RESIGN_LEVEL,
                CLASSIC_POINTS[level.kind],
            )
        ]
        for level in s.resign_levels(s.side_of(offer.player))
    ]
    text = T.resign_choose(resigner.name, opponent.name)
    return text, InlineKeyboardMarkup([*levels, *leave, no])


def _resign_outcome(table: Table, offer: ResignOffer) -> str:
    """How a closed offer ended, as the prompt keeps saying without buttons."""
    resigner, opponent = table.players[offer.player].name, table.players[1 - offer.player].name
    stage, config = offer.stage, table.state.config
    if stage is OfferStage.ACCEPTED:
        assert offer.kind is not None
        return T.resigned(resigner, opponent, offer.points, T.kind_shown(offer.kind, config))
    if stage is OfferStage.LEFT:
        return T.match_left(resigner, opponent, table.state.variant)
    if stage is OfferStage.DECLINED:
        return T.resign_declined(opponent, resigner)
    if stage is OfferStage.CANCELLED:
        return T.resign_cancelled(resigner)
    if stage is OfferStage.WITHDRAWN:
        return T.resign_withdrawn(resigner)
    return T.RESIGN_MOOT
