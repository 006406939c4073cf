"""What a challenge looks like in a group: the card being set up, and the launched
challenge with its Accetta (Rifiuta) / Ritira buttons. Pure functions of the `Challenge`."""

from __future__ import annotations

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot.adapters import callback_data as cd
from bot.game.challenge import Answer, Challenge, Setting, Terms
from bot.texts import messages as T
from bot.texts import review as R
from engine import Variant


def settings_line(terms: Terms, *, aids: bool = True) -> str:
    """The settings in one line; the hints and the shared analysis when chosen."""
    chosen = (terms.hints, terms.shared_analysis) if aids else (False, False)
    extra = [
        word for word, on in zip((R.HINTS_ON, R.SHARED_ANALYSIS_ON), chosen, strict=True) if on
    ]
    return " · ".join([T.settings_summary(terms.config, terms.turn_seconds), *extra])


def draft_markup(challenge_id: int, terms: Terms) -> InlineKeyboardMarkup:
    """The card's buttons: every setting of the chosen game, the launch and the withdrawal.

    Each button sets a value (the one in force is ticked), so a double click is harmless.
    """
    config = terms.config

    def button(label: str, setting: Setting | None, value: str = "") -> InlineKeyboardButton:
        chosen = setting is not None and value == terms.code(setting)
        data = cd.CardButton(challenge_id, setting, value).encode()
        return InlineKeyboardButton(
            f"{T.CARD_CHOSEN}{label}" if chosen else label, callback_data=data
        )

    def toggle(label: str, setting: Setting) -> InlineKeyboardButton:
        """A two-valued setting: its button sets the other value (shown unticked)."""
        data = cd.CardButton(challenge_id, setting, terms.toggled(setting)).encode()
        return InlineKeyboardButton(label, callback_data=data)

    long = config.variant is Variant.LONG
    rows = [
        [
            button(T.VARIANT_SHORT_NAMES[Variant.CLASSIC], Setting.VARIANT, "c"),
            button(T.VARIANT_SHORT_NAMES[Variant.LONG], Setting.VARIANT, "l"),
        ],
        [
            button(T.btn_card_length(n), Setting.LENGTH, str(n))
            for n in sorted({*T.CARD_LENGTHS, config.length} - ({0} if long else set()))
        ],
    ]
    if long:
        rows.append(
            [
                toggle(T.btn_card_scoring(config.mars), Setting.SCORING),
                toggle(T.btn_card_last_roll(config.last_roll), Setting.LAST_ROLL),
            ]
        )
        if config.length > 1:
            rows.append([toggle(T.btn_card_series_start(config.series_start), Setting.SERIES)])
    elif config.money:  # the money game is played with the cube: its Jacoby rule
        rows.append([toggle(T.btn_card_jacoby(config.jacoby), Setting.JACOBY)])
    elif config.length > 1:  # no cube in a 1-point match (docs/RULES.md): nothing to choose
        rows.append([toggle(T.btn_card_cube(config.cube), Setting.CUBE)])
    rows.append(
        [
            toggle(R.btn_card_hints(terms.hints), Setting.HINTS),
            toggle(R.btn_card_shared_analysis(terms.shared_analysis), Setting.ANALYSIS),
        ]
    )
    seconds = terms.turn_seconds or 0
    times = [
        button(T.btn_card_time(t), Setting.TIME, str(t))
        for t in sorted({*T.CARD_TIMES, seconds}, key=lambda t: t or 10**9)
    ]
    rows.extend([times[:4], times[4:]])
    rows.append([button(T.BTN_START_CHALLENGE, None)])
    withdraw = cd.ChallengeButton(challenge_id, Answer.WITHDRAW).encode()
    rows.append([InlineKeyboardButton(T.BTN_CANCEL_CHALLENGE, callback_data=withdraw)])
    return InlineKeyboardMarkup(rows)


def draft_text(challenge: Challenge) -> str:
    return T.challenge_card(challenge.by_name, challenge.opponent, settings_line(challenge.terms))


def launched(
    challenge_id: int, challenge: Challenge, commitment: str | None
) -> tuple[str, InlineKeyboardMarkup]:
    """The launched challenge: its text and Accetta (Rifiuta) / Ritira buttons, with the
    commitment of the dice of the game that Accetta starts."""

    def button(label: str, answer: Answer) -> InlineKeyboardButton:
        return InlineKeyboardButton(
            label, callback_data=cd.ChallengeButton(challenge_id, answer).encode()
        )

    settings = settings_line(challenge.terms)
    accept = button(T.BTN_ACCEPT_CHALLENGE, Answer.ACCEPT)
    opponent = challenge.opponent
    if opponent is not None:
        text = T.personal_challenge(challenge.by_name, opponent, settings)
        buttons = [accept, button(T.BTN_DECLINE_CHALLENGE, Answer.DECLINE)]
    else:
        text = T.open_challenge(challenge.by_name, settings)
        buttons = [accept]
    if commitment is not None:
        text += "\n" + T.dice_commitment(commitment)
    return text, InlineKeyboardMarkup([buttons, [button(T.BTN_CANCEL_CHALLENGE, Answer.WITHDRAW)]])
