"""Forum topics closing: a table in a topic that an admin closes is adjourned at once.

Telegram refuses every new message in a closed topic ("TOPIC_CLOSED"), so a turn clock left
running there would end the game on time while nobody can see the board, and a reminder
would only be refused. The painter and the reminder adjourn a game when Telegram refuses
them; this handler does it as soon as the topic's closing is announced. The game stays
stored: ``/partita`` in the reopened topic posts its board again and restarts the clock.
"""

from __future__ import annotations

import logging

from telegram import Update
from telegram.ext import ContextTypes

from bot import tables
from bot.adapters import places
from bot.services import services
from storage import CorruptGameError

log = logging.getLogger(__name__)


async def on_topic_closed(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """A ``forum_topic_closed`` service message: adjourn the topic's games (one per table)."""
    room = places.of_update(update)
    if room is None or not room.is_topic:
        return
    svc = services(context)
    for place in await tables.all_places(svc, [room]):
        try:
            stored = await svc.repo.load_game(place.key)
        except CorruptGameError:
            continue
        if stored is not None:
            await svc.painter.adjourn(place.key, "topic closed")
