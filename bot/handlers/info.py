"""Information: /start and its menu, /aiuto, /regole with its pages, /classifica,
/statistiche. None of these touches a game."""

from __future__ import annotations

import asyncio

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, Update
from telegram.constants import ChatMemberStatus, ChatType
from telegram.ext import ContextTypes

from bot import reach
from bot.adapters import callback_data as cd
from bot.handlers import challenge, play
from bot.handlers.common import (
    acknowledge,
    alert,
    carries_family,
    display_name,
    edit_text,
    reply,
    text_message,
)
from bot.services import services
from bot.texts import messages as T
from bot.texts import rules as RU
from engine import Variant
from storage import VARIANTS

RULE_BUTTONS_PER_ROW = 3


# ------------------------------------------------------------------ /start, menu, /aiuto
def _menu_markup(private: bool) -> InlineKeyboardMarkup:
    first = (
        [InlineKeyboardButton(T.BTN_PLAY_COMPUTER, callback_data=cd.menu("gioca"))]
        if private
        else []
    )
    return InlineKeyboardMarkup(
        [
            *([first] if first else []),
            [
                InlineKeyboardButton(T.BTN_RULES, callback_data=cd.menu("regole")),
                InlineKeyboardButton(T.BTN_HELP, callback_data=cd.menu("aiuto")),
            ],
            [
                InlineKeyboardButton(T.BTN_LEADERBOARD, callback_data=cd.menu("classifica")),
                InlineKeyboardButton(T.BTN_STATS, callback_data=cd.menu("stat")),
            ],
        ]
    )


async def on_start(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    user, chat, msg = update.effective_user, update.effective_chat, update.effective_message
    assert user is not None and chat is not None and msg is not None
    words = challenge.invitation_words(context.args[0]) if context.args else None
    private = chat.type == ChatType.PRIVATE
    if words is not None and not private:
        await challenge.open_challenge(update, context, words)  # a group chosen by a link
        return
    await services(context).repo.set_player_name(user.id, display_name(user))
    if private and context.args == [play.PLAY_START]:  # the button of /gioca in a group
        await play.on_play_command(update, context)
        return
    await msg.reply_html(T.welcome(user.first_name, private), reply_markup=_menu_markup(private))


async def on_my_chat_member(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """The bot was added to a group: greet it once with how to start (and say so when a game
    adjourned there waits). Removed or blocked: the chat's games wait (see ``bot.reach``)."""
    waiting = await reach.on_member_change(update, context)
    change, chat = update.my_chat_member, update.effective_chat
    if change is None or chat is None or chat.type == ChatType.PRIVATE:
        return
    outside = (ChatMemberStatus.LEFT, ChatMemberStatus.BANNED)
    joined = change.old_chat_member.status in outside
    if joined and change.new_chat_member.status not in outside:
        text = f"{T.GROUP_GREETING}\n\n{T.GAME_WAITING_HERE}" if waiting else T.GROUP_GREETING
        await context.bot.send_message(chat.id, text, parse_mode="HTML")


async def on_help(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    await reply(update, T.help_text())


async def on_menu_button(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    query = update.callback_query
    assert query is not None
    item = cd.split(query.data)[1:]
    chat = update.effective_chat
    message = text_message(query)  # the menu; forged data may come from elsewhere
    assert chat is not None
    if message is None:
        await alert(query, T.ALERT_STALE_BUTTON)
    elif item == ["gioca"] and chat.type == ChatType.PRIVATE:
        await acknowledge(query)
        await play.send_play_menu(message)
    elif item == ["regole"]:
        await acknowledge(query)
        await message.reply_html(RU.OVERVIEW, reply_markup=_overview_markup())
    elif item == ["aiuto"]:
        await acknowledge(query)
        await message.reply_html(T.help_text())
    elif item == ["classifica"]:
        await acknowledge(query)
        await message.reply_html(await _leaderboard_text(context, chat.id))
    elif item == ["stat"]:
        await acknowledge(query)
        await message.reply_html(
            await _stats_text(context, query.from_user.id, display_name(query.from_user))
        )
    else:
        await alert(query, T.ALERT_STALE_BUTTON)


# ------------------------------------------------------------------ /regole
def _overview_markup() -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup(
        [
            [
                InlineKeyboardButton(v.name, callback_data=cd.rules(key, "_"))
                for key, v in RU.VARIANTS.items()
            ]
        ]
    )


def _variant_markup(variant_key: str) -> InlineKeyboardMarkup:
    variant = RU.VARIANTS[variant_key]
    buttons = [
        InlineKeyboardButton(s.title, callback_data=cd.rules(variant_key, s.key))
        for s in variant.sections
    ]
    rows = [
        buttons[i : i + RULE_BUTTONS_PER_ROW] for i in range(0, len(buttons), RULE_BUTTONS_PER_ROW)
    ]
    rows.append([InlineKeyboardButton(T.BTN_BACK, callback_data=cd.rules("_", "_"))])
    return InlineKeyboardMarkup(rows)


def _page(variant_key: str, section_key: str) -> tuple[str, InlineKeyboardMarkup] | None:
    if variant_key == "_":
        return RU.OVERVIEW, _overview_markup()
    variant = RU.VARIANTS.get(variant_key)
    if variant is None:
        return None
    if section_key == "_":
        return variant.intro, _variant_markup(variant_key)
    section = variant.section(section_key)
    if section is None:
        return None
    return section.body, _variant_markup(variant_key)


async def on_rules(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/regole, /regole classico, /regole lungo"""
    msg = update.effective_message
    assert msg is not None
    arg = (context.args or [""])[0].lower()
    key = {"classico": "classico", "classic": "classico", "lungo": "lungo", "long": "lungo"}.get(
        arg, "_"
    )
    page = _page(key, "_")
    assert page is not None
    await msg.reply_html(page[0], reply_markup=page[1])


async def on_rules_button(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    query = update.callback_query
    assert query is not None
    parts = cd.split(query.data)
    page = _page(parts[1], parts[2]) if len(parts) == 3 else None
    # A rules page is a text message with rules buttons; elsewhere the data is forged.
    if page is None or not carries_family(query, "r:"):
        await alert(query, T.ALERT_STALE_BUTTON)
        return
    await acknowledge(query)
    await edit_text(query, *page)


# ------------------------------------------------------------------ /classifica, /statistiche
async def _leaderboard_text(context: ContextTypes.DEFAULT_TYPE, chat_id: int) -> str:
    repo = services(context).repo
    parts = []
    for variant in VARIANTS:
        entries = await repo.leaderboard(variant, chat_id, limit=10)
        if not entries:
            continue
        lines = [T.rating_title(Variant(variant))]  # storage names variants as the engine
        # One round trip for all the rows' records, not one after another.
        records = await asyncio.gather(*(repo.player_stats(e.user_id, chat_id) for e in entries))
        for e, stats in zip(entries, records, strict=True):
            v = stats.by_variant.get(variant)
            wins, games = (v.wins, v.games) if v else (None, None)
            lines.append(T.rating_row(e.rank, e.name or str(e.user_id), e.rating, wins, games))
        parts.append("\n".join(lines))
    return "\n\n".join([*parts, T.LEADERBOARD_NOTE]) if parts else T.LEADERBOARD_EMPTY


async def on_leaderboard(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    assert update.effective_chat is not None
    await reply(update, await _leaderboard_text(context, update.effective_chat.id))


async def _stats_text(context: ContextTypes.DEFAULT_TYPE, user_id: int, name: str) -> str:
    stats = await services(context).repo.player_stats(user_id)
    text = T.stats_text(
        T.PlayerStats(
            name=stats.name or name,
            games=stats.total("games"),
            wins=stats.total("wins"),
            losses=stats.total("losses"),
            draws=stats.total("draws"),
            points_won=stats.total("points"),
            points_lost=stats.total("points_against"),
            money_games=stats.total("money_games"),
            money_points_won=stats.total("money_points"),
            money_points_lost=stats.total("money_points_against"),
        )
    )
    ratings = [(Variant(v), s.rating) for v, s in stats.by_variant.items() if s.matches]
    if ratings:
        text += "\n" + T.elo_line(ratings)
    return text


async def on_stats(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    user = update.effective_user
    assert user is not None
    await reply(update, await _stats_text(context, user.id, display_name(user)))
