"""/verifica: how the dice can be checked, and the values of the chat's last finished game.

The chat's last finished game is the one ``bot.finished`` finds (the record ``storage``
keeps for ``TAVOLA_RECORD_DAYS``, or the match's own). Its record holds its events and its
dice proof: the seed (secret until the game ended), the salt, and from them the commitment
that was shown before the game. The rolls listed are the record's own,
so the command printed recomputes exactly what was played.
"""

from __future__ import annotations

from telegram import Update
from telegram.ext import ContextTypes

from bot import pipeline
from bot.adapters import places
from bot.finished import finished_match
from bot.handlers.common import reply
from bot.services import services
from bot.texts import messages as T
from engine import EngineError


async def on_verify(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    place = places.of_update(update)  # a forum topic keeps its own records
    assert place is not None
    svc = services(context)
    try:
        found = await finished_match(svc, place.key)
    except EngineError:
        found = None
    parts = [T.VERIFY_EXPLAINED]
    if found is None:
        parts.append(T.VERIFY_NOTHING)
    elif found.last.proof is None:
        parts.append(T.VERIFY_SCRIPTED)
    else:
        last, proof = found.last, found.last.proof
        dice = last.record.dice
        rolls = [(dice[i], dice[i + 1]) for i in range(0, len(dice), 2)]
        parts.append(
            T.verify_last_game(
                last.names,
                last.record.game_number,
                (proof.seed, proof.salt, proof.commitment),
                rolls,
            )
        )
    upcoming = await pipeline.next_commitment(svc, place.key)
    if upcoming is not None:  # captions show its start only: the whole value is here
        parts.append(T.next_dice_commitment_in_full(upcoming))
    await reply(update, "\n\n".join(parts))
