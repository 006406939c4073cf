"""Wiring: the PTB Application with every handler, the error handler and start-up tasks."""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Callable, Coroutine
from typing import Any

from telegram import Update
from telegram.constants import ChatType
from telegram.error import ChatMigrated, Forbidden, TelegramError
from telegram.ext import (
    ApplicationBuilder,
    BaseRateLimiter,
    CallbackQueryHandler,
    ChatMemberHandler,
    ChosenInlineResultHandler,
    CommandHandler,
    ContextTypes,
    InlineQueryHandler,
    MessageHandler,
    TypeHandler,
    filters,
)

from bot import reach, timeouts, updates
from bot.adapters import identities, menus, metrics, ratelimit
from bot.adapters.card_edits import CardEdits
from bot.adapters.ptb_types import BotApp
from bot.adapters.ratelimit import ChatRateLimiter, ReplyDroppedError
from bot.computer import ComputerPool
from bot.config import Settings
from bot.drawing import DrawingPool
from bot.game.dice import DiceSource, VerifiableDice
from bot.handlers import (
    analysis,
    board_buttons,
    challenge,
    game,
    hints,
    info,
    inline,
    miniapp_api,
    play,
    replay_export,
    settings,
    verify,
)
from bot.handlers.full_review import on_full_review_button
from bot.handlers.guards import ChatOnlyOnInline
from bot.handlers.move_list import on_moves_button, on_moves_command
from bot.handlers.topics import on_topic_closed
from bot.miniapp import links
from bot.miniapp.live import LiveHub
from bot.services import BotData, Services, bot_data, of_app, services
from bot.texts import messages as T
from bot.updates import ChatOrderedProcessor
from bot.views.painter import BoardPainter
from storage import GameRepository, NewerGameError, StorageUnavailableError
from storage.edit_windows import EditWindows

log = logging.getLogger(__name__)

SHUTDOWN_DRAW_SECONDS = 3.0  # boards still waiting for a chat's budget are redrawn later
#: New messages only: an edited message is not a new command, move or service event.
NEW = filters.UpdateType.MESSAGE
ANALYSIS_WORKERS = 1  # post-game analyses are rare and may queue; moves may not
REQUEST_POOL_SIZE = 256  # PTB's default for the bot's requests (getUpdates has its own)
#: Idle connections kept open for the next requests (aiohttp, like PTB, leaves it unbounded
#: until each one's keep-alive runs out). 8 is the bot's usual concurrency with room to spare
#: (30 requests a second at most, tens of ms each: a few in flight); a burst beyond it still
#: gets new connections at once (up to ``REQUEST_POOL_SIZE``), and all but 8 close after it
#: rather than holding sockets open at both ends.
KEEPALIVE_CONNECTIONS = 8


async def on_error(update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Log every unexpected error once and tell the user something useful."""
    if isinstance(context.error, ReplyDroppedError):
        return  # a reply shed by a flooded chat: a further reply would be shed too
    if isinstance(context.error, Forbidden | ChatMigrated):
        # A place the bot lost or that moved: bot.reach acted when the answer came in, and
        # there is nobody to tell.
        log.info("request refused for good: %s", context.error)
        return
    if isinstance(context.error, NewerGameError):
        # A rolling upgrade: a newer worker wrote this game; it is left as it is.
        log.info("%s", context.error)
        text = T.GAME_TOO_NEW
    elif isinstance(context.error, StorageUnavailableError):
        log.warning("storage unavailable while handling an update: %s", context.error)
        text = T.STORAGE_DOWN
    else:
        log.error("error while handling an update", exc_info=context.error)
        text = T.GENERIC_ERROR
    if not isinstance(update, Update):
        return
    try:
        if update.callback_query is not None:
            await update.callback_query.answer(text[: T.MAX_ALERT_CHARS], show_alert=True)
        elif update.effective_message is not None:
            await update.effective_message.reply_text(text)
    except TelegramError:
        pass  # already answered, or we may not write there: the log has it


async def _post_init(app: BotApp) -> None:
    # The renderer warms up in the background during the start-up (bot.__main__): a board
    # drawn before its caches are ready simply builds what it needs itself.
    svc = of_app(app)
    # Starting the worker processes (a fork server, then the workers loading the networks)
    # takes a second or two: it happens in a thread while the bot already serves.
    bot_data(app).computer_start = asyncio.create_task(
        asyncio.to_thread(svc.computer.start), name="computer workers"
    )
    _start_drawer(app)
    await menus.publish(app.bot)  # the command menus per scope, the descriptions
    await inline.announce(app.bot, svc.settings.media_chat)
    if svc.settings.miniapp_url:
        await links.publish_menu_button(app.bot, svc.settings)
    # Timers live in Redis: nothing to reschedule, the poller fires whatever is due.
    poller = timeouts.TimerPoller(app)
    bot_data(app).timer_poller = poller
    poller.start()


def _start_drawer(app: BotApp) -> None:
    """Fork the board drawers (``bot.drawing``) in a thread, as the computer's workers are:
    boards are drawn in a thread of the bot until they are ready."""
    drawer = of_app(app).drawer
    if drawer is not None:
        bot_data(app).drawer_start = asyncio.create_task(
            asyncio.to_thread(drawer.start), name="board drawers"
        )


async def _post_stop(app: BotApp) -> None:
    """Finish drawing the boards already saved, then stop the computer's workers."""
    svc = of_app(app)
    data = bot_data(app)
    poller, data.timer_poller = data.timer_poller, None
    if poller is not None:
        await poller.stop()
    await svc.painter.drain(timeout=SHUTDOWN_DRAW_SECONDS)
    if svc.drawer is not None:
        svc.drawer.close()
    stop_live = getattr(svc.live, "stop", None)
    if stop_live is not None:
        await stop_live()
    if data.owns_computer:
        svc.computer.close()
    if svc.analyst is not None:
        svc.analyst.close()


def build_application(
    settings: Settings,
    repo: GameRepository,
    *,
    dice: DiceSource | None = None,
    rng: random.Random | None = None,
    rate_limiter: BaseRateLimiter[Any] | None = None,
    computer: ComputerPool | None = None,
) -> BotApp:
    """The bot, ready to start. Tests pass scripted dice, a permissive rate limiter and a
    shared pool of computer workers."""
    processor = ChatOrderedProcessor()
    builder = (
        ApplicationBuilder()
        .token(settings.token)
        .concurrent_updates(processor)
        .update_queue(metrics.ReceivingQueue())  # counts updates, times button presses
        .post_init(_post_init)
        .post_stop(_post_stop)
        .context_types(ContextTypes(bot_data=BotData))
    )
    if settings.base_url and (file_url := settings.base_file_url):
        builder = builder.base_url(settings.base_url).base_file_url(file_url)
    if rate_limiter is None and settings.rate_limit:
        rate_limiter = ratelimit.for_token(repo.client, repo.config.prefix, settings.token)
    if isinstance(rate_limiter, ChatRateLimiter) and settings.media_chat is not None:
        rate_limiter.unbudget(settings.media_chat)
    if rate_limiter is not None:
        builder = builder.rate_limiter(rate_limiter)
    # The bot's client on aiohttp (bot.adapters.aiohttp_request) with PTB's pool size,
    # watched for places that move or shut (bot.reach); getUpdates too, with one connection
    # as PTB builds it: its answers count in the metrics and show that Telegram answers
    # (/readyz).
    request, updates_request = bot_request(), reach.WatchingRequest(connection_pool_size=1)
    builder = builder.request(request).get_updates_request(updates_request)
    builder = builder.post_shutdown(_closing_requests(request, updates_request))
    app = builder.build()
    processor.watch(lambda: app.running)
    repo.on_error = metrics.redis_error
    data = bot_data(app)
    data.services = _services(app, settings, repo, rate_limiter, dice, rng, computer)
    data.card_edits = CardEdits(windows=EditWindows(repo.client, repo.keys))
    if settings.miniapp_url:
        data.services.live = LiveHub(repo.client, repo.config.prefix)
        data.services.painter.open_button = links.open_button(settings, app.bot)
    data.owns_computer = computer is None
    reach.install(app)
    register(app)
    return app


def bot_request() -> reach.WatchingRequest:
    """The client of the bot's requests (all but getUpdates): PTB's pool size, with at most
    ``KEEPALIVE_CONNECTIONS`` of its connections left open while idle."""
    return reach.WatchingRequest(
        connection_pool_size=REQUEST_POOL_SIZE, keepalive_connections=KEEPALIVE_CONNECTIONS
    )


def _closing_requests(
    *requests: reach.WatchingRequest,
) -> Callable[[BotApp], Coroutine[Any, Any, None]]:
    """The post-shutdown hook that closes the bot's HTTP clients. PTB closes them only for a
    bot whose start succeeded: when the first ``getMe`` fails, their sessions would stay
    open, and aiohttp reports each one left open on stderr at exit. Closing again is
    harmless."""

    async def close(_: BotApp) -> None:
        for request in requests:
            await request.shutdown()

    return close


def web_routes(app: BotApp) -> list[Any]:
    """The routes the bot's web server adds to its own: the Mini App's, when it is on."""
    live = of_app(app).live
    if not isinstance(live, LiveHub):
        return []
    return miniapp_api.routes(app, live)


def cmd(command: str | list[str], callback: Any) -> CommandHandler[ContextTypes.DEFAULT_TYPE, None]:
    """A command, as sent (an edited message is not a new command)."""
    return CommandHandler(command, callback, filters=NEW)


def _services(
    app: BotApp,
    settings: Settings,
    repo: GameRepository,
    rate_limiter: BaseRateLimiter[Any] | None,
    dice: DiceSource | None,
    rng: random.Random | None,
    computer: ComputerPool | None,
) -> Services:
    """What the handlers share: the painter paced by the rate limiter, the computer's
    workers, the dice and the clock's follower."""
    drawer = DrawingPool(settings.draw_workers) if settings.draw_workers else None
    painter = BoardPainter(
        app.bot,
        repo,
        getattr(rate_limiter, "wait_ready", None),
        settings.media_chat,
        ready_in=getattr(rate_limiter, "ready_in", None),
        draw=None if drawer is None else drawer.draw,
    )
    return Services(
        settings,
        repo,
        painter,
        computer or ComputerPool(settings.ai_workers),
        dice or VerifiableDice(),
        rng or random.SystemRandom(),
        # A shared pool (the tests') serves the analyses too; a bot of its own gets one
        # worker for them, started on the first analysis.
        None if computer is not None else ComputerPool(ANALYSIS_WORKERS),
        follow_clock=timeouts.follow,
        drawer=drawer,
    )


def register(app: BotApp) -> None:
    """Every handler; the updates asked of Telegram follow from them (bot.adapters.update_types)."""
    app.add_handler(TypeHandler(Update, updates.claim_once), group=-1)
    app.add_handler(ChatMemberHandler(info.on_my_chat_member, ChatMemberHandler.MY_CHAT_MEMBER))
    app.add_handler(MessageHandler(NEW & filters.StatusUpdate.MIGRATE, reach.on_migration_message))
    app.add_handler(identities.guard())  # before any command or reply: chats do not play
    for names, callback in _commands():
        app.add_handler(cmd(names, callback))
    app.add_handler(ChatOnlyOnInline())  # before every family's own handler
    for family, callback in _buttons():
        app.add_handler(CallbackQueryHandler(callback, pattern=rf"^{family}:"))
    app.add_handler(CallbackQueryHandler(_unknown_button))
    if inline.inline_enabled(of_app(app)):
        app.add_handler(InlineQueryHandler(inline.on_inline_query))
        app.add_handler(ChosenInlineResultHandler(inline.on_chosen_result))
    app.add_handler(MessageHandler(NEW & filters.StatusUpdate.FORUM_TOPIC_CLOSED, on_topic_closed))
    typed = NEW & filters.TEXT & ~filters.COMMAND & ~filters.VIA_BOT  # a card is no typed move
    app.add_handler(MessageHandler(typed & filters.REPLY, game.on_board_reply))
    app.add_handler(
        MessageHandler(typed & filters.ChatType.PRIVATE & ~filters.REPLY, _private_text)
    )
    app.add_error_handler(on_error)


Callback = Callable[[Update, ContextTypes.DEFAULT_TYPE], Coroutine[Any, Any, None]]


def _commands() -> list[tuple[str | list[str], Callback]]:
    """The commands and what answers each (the menus in bot.adapters.menus list them)."""
    return [
        ("start", info.on_start),
        (["aiuto", "help"], info.on_help),
        ("regole", info.on_rules),
        ("classifica", info.on_leaderboard),
        ("statistiche", info.on_stats),
        ("impostazioni", settings.on_settings_command),
        ("sfida", challenge.on_challenge_command),
        ("gioca", play.on_play_command),
        ("mossa", game.on_move_command),
        ("abbandona", game.on_resign_command),
        ("partita", game.on_board_command),
        ("posizione", game.on_position_command),
        ("suggerimento", hints.on_hint_command),
        ("analisi", analysis.on_analysis_command),
        ("rivedi", replay_export.on_replay_command),
        ("esporta", replay_export.on_export_command),
        ("verifica", verify.on_verify),
        ("seme", verify.on_word),
        ("mosse", on_moves_command),
    ]


def _buttons() -> list[tuple[str, Callback]]:
    """Each callback family (its data's prefix) and its handler."""
    return [
        ("g", board_buttons.on_game_button),
        ("c", challenge.on_challenge_button),
        ("k", challenge.on_card_button),
        ("p", play.on_setup_button),
        ("j", inline.on_card_press),
        ("r", info.on_rules_button),
        ("m", info.on_menu_button),
        ("o", settings.on_settings_button),
        ("v", replay_export.on_records_button),
        ("l", on_moves_button),
        ("a", on_full_review_button),
    ]


async def _unknown_button(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Forged or outdated callback data of an unknown family."""
    assert update.callback_query is not None
    await update.callback_query.answer(T.ALERT_BUTTON_UNKNOWN, show_alert=True)


async def _private_text(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """In a private chat, plain text during a game is a move; otherwise a hint."""
    chat = update.effective_chat
    msg = update.effective_message
    assert chat is not None and msg is not None and chat.type == ChatType.PRIVATE
    if await services(context).repo.load_game(chat.id) is None:
        await msg.reply_html(T.help_text())
        return
    await game.play_typed(update, context, msg.text or "")
