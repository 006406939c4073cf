"""/verifica: how the dice can be checked, and the values of the chat's last finished game.

The record kept for each finished game (``storage`` keeps it ``TAVOLA_RECORD_DAYS``) holds
its events and its dice proof: the seed (secret until the game ended), the salt, and from
them the commitment that was shown before the game. The rolls listed are the record's own,
so the command printed recomputes exactly what was played.
"""

from __future__ import annotations

from telegram import Update
from telegram.ext import ContextTypes

from bot import pipeline, places
from bot.dice import DiceProof
from bot.handlers.common import reply
from bot.services import services
from bot.texts import messages as T
from engine import EngineError, GameRecord


async def on_verify(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    place = places.of_update(update)  # a forum topic keeps its own records
    assert place is not None
    svc = services(context)
    records = await svc.repo.last_records(place.key, limit=1)
    parts = [T.VERIFY_EXPLAINED]
    if not records:
        parts.append(T.VERIFY_NOTHING)
        await reply(update, "\n\n".join(parts))
        return
    doc = records[0].doc
    try:
        record = GameRecord.from_doc(doc.get("rec"))
        proof = None if doc.get("dp") is None else DiceProof.from_doc(doc["dp"])
        names = tuple(str(p[1]) for p in doc["pl"])
    except (EngineError, ValueError, KeyError, TypeError, IndexError):
        parts.append(T.VERIFY_NOTHING)
        await reply(update, "\n\n".join(parts))
        return
    if proof is None or len(names) != 2:
        parts.append(T.VERIFY_SCRIPTED)
    else:
        dice = record.dice
        rolls = [(dice[i], dice[i + 1]) for i in range(0, len(dice), 2)]
        parts.append(
            T.verify_last_game(
                (names[0], names[1]),
                record.game_number,
                (proof.seed, proof.salt, proof.commitment),
                rolls,
            )
        )
    upcoming = await pipeline.next_commitment(svc, place.key)
    if upcoming is not None:  # captions show its start only: the whole value is here
        parts.append(T.next_dice_commitment_in_full(upcoming))
    await reply(update, "\n\n".join(parts))
