"""Games against the computer (/gioca): the set-up's pages and buttons, in a private chat.

The set-up's logic is `bot.game.setup_wizard`; here it meets Telegram: each page is one
message edited in place, and its buttons carry the set-up so far.
"""

from __future__ import annotations

from telegram import CallbackQuery, InlineKeyboardButton, InlineKeyboardMarkup, Message, Update
from telegram.constants import ChatType
from telegram.ext import ContextTypes

from bot import dice_words, pipeline
from bot.adapters import callback_data as cd
from bot.adapters import places
from bot.game import setup_wizard as wizard
from bot.game.setup_wizard import LongOptions, MoneyOptions, Question, Setup
from bot.game.table import COMPUTER_ID, Player, Table
from bot.handlers.common import acknowledge, alert, carries_family, display_name, edit_text, reply
from bot.services import services
from bot.texts import messages as T
from engine import GameState, Variant
from engine.ai import Level
from storage import GameAlreadyActiveError

#: ``/start gioca``: what the private chat receives from the button of /gioca in a group.
PLAY_START = "gioca"


def _button(label: str, setup: Setup) -> InlineKeyboardButton:
    return InlineKeyboardButton(label, callback_data=cd.setup(*setup.codes()))


def _page(setup: Setup) -> tuple[str, InlineKeyboardMarkup]:
    """The page that asks the set-up's next question."""
    question, variant, level = setup.question, setup.variant, setup.level
    back = [_button(T.BTN_BACK, setup.back())]
    if question is Question.VARIANT:
        variants = [_button(T.VARIANT_NAMES[v], setup.choose(v)) for v in Variant]
        return T.PLAY_MENU, InlineKeyboardMarkup([variants])
    if question is Question.LEVEL:
        levels = [_button(T.LEVEL_NAMES[lv], setup.choose(lv)) for lv in Level]
        text = T.computer_setup(T.SETUP_CHOOSE_LEVEL, variant)
        return text, InlineKeyboardMarkup([levels, back])
    if question is Question.LENGTH:
        assert variant is not None  # asked after the variant
        lengths = [_button(T.btn_card_length(n), setup.choose(n)) for n in wizard.lengths(variant)]
        text = T.computer_setup(T.SETUP_CHOOSE_LENGTH, variant, level)
        return text, InlineKeyboardMarkup([lengths, back])
    if question is Question.MONEY_OPTIONS:
        return _money_page(setup)
    opts = setup.options
    rows = [
        [
            _button(
                T.btn_card_scoring(opts.mars),
                setup.choose(LongOptions(not opts.mars, opts.last_roll)),
            ),
            _button(
                T.btn_card_last_roll(opts.last_roll),
                setup.choose(LongOptions(opts.mars, not opts.last_roll)),
            ),
        ],
        [_button(T.BTN_START_GAME, setup.started())],
        back,
    ]
    text = T.computer_setup(T.SETUP_CHOOSE_LONG_OPTIONS, variant, level, setup.length)
    return text, InlineKeyboardMarkup(rows)


def _money_page(setup: Setup) -> tuple[str, InlineKeyboardMarkup]:
    """The money game's page: its Jacoby rule (a switch), then the start."""
    jacoby = setup.money.jacoby
    rows = [
        [_button(T.btn_card_jacoby(jacoby), setup.choose(MoneyOptions(not jacoby)))],
        [_button(T.BTN_START_GAME, setup.started())],
        [_button(T.BTN_BACK, setup.back())],
    ]
    text = T.computer_setup(T.SETUP_CHOOSE_MONEY_OPTIONS, setup.variant, setup.level, 0)
    return text, InlineKeyboardMarkup(rows)


async def on_play_command(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/gioca: a game against the computer (variant, level, length chosen by buttons)."""
    chat = update.effective_chat
    assert chat is not None and update.effective_message is not None
    if chat.type != ChatType.PRIVATE:
        link = f"https://t.me/{context.bot.username}?start={PLAY_START}"
        button = InlineKeyboardButton(T.BTN_PLAY_IN_PRIVATE, url=link)
        await update.effective_message.reply_html(
            T.PLAY_IN_PRIVATE, reply_markup=InlineKeyboardMarkup([[button]]), do_quote=True
        )
        return
    if await pipeline.busy(services(context), chat.id):
        await reply(update, T.GAME_ALREADY_RUNNING)
        return
    await send_play_menu(update.effective_message)


async def send_play_menu(message: Message) -> None:
    """The first question of a game against the computer: which variant."""
    text, markup = _page(Setup())
    await message.reply_html(text, reply_markup=markup)


def _dice_card(query: CallbackQuery) -> str:
    """The name of a set-up message's own dice seed: each /gioca menu shows its own
    commitment, and the game it starts takes that seed."""
    message = query.message
    return f"m{message.message_id}" if message is not None else ""


async def on_setup_button(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """A step of the set-up: the next question, the previous one (« Indietro), or the game.

    Classic starts once the length is chosen; long first offers its scoring and last roll.
    """
    query, chat = update.callback_query, update.effective_chat
    assert query is not None and chat is not None
    try:
        setup = cd.decode_setup(cd.split(query.data))
    except cd.BadCallbackDataError:
        setup = None
    if setup is None or chat.type != ChatType.PRIVATE or not carries_family(query, "p:"):
        await alert(query, T.ALERT_STALE_BUTTON)
        return
    if setup.question is not None:
        await acknowledge(query)
        text, markup = _page(setup)
        commitment = await pipeline.next_commitment(services(context), chat.id, _dice_card(query))
        if commitment is not None:
            word = await dice_words.word_of(services(context), query.from_user.id)
            text += "\n\n" + T.dice_commitment(commitment) + "\n" + T.dice_words_on_setup(word)
        await edit_text(query, text, markup)
        return
    assert setup.level is not None
    me = display_name(query.from_user)
    table = Table(
        GameState.new_match(setup.config()),
        (Player(query.from_user.id, me), Player(COMPUTER_ID, T.COMPUTER_NAME)),
        ai_level=setup.level.value,
        turn_seconds=None,
    )
    place = places.of_update(update)
    assert place is not None
    press = pipeline.Press(query.id, lambda: acknowledge(query), _dice_card(query))
    try:
        await pipeline.start_game(context, place, table, press=press)
    except GameAlreadyActiveError:
        await alert(query, T.GAME_ALREADY_RUNNING)
        return
    await edit_text(query, T.computer_game_started(me, setup.level))
