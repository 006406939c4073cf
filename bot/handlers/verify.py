"""/verifica: how the dice can be checked, and the values of the chat's last finished game.

The chat's last finished game is the one ``bot.finished`` finds (the record ``storage``
keeps for ``TAVOLA_RECORD_DAYS``, or the match's own). Its record holds its events and its
dice proof: the seed (secret until the game ended), the salt, and from them the commitment
that was shown before the game. The rolls listed are the record's own, so the command
printed recomputes exactly what was played and fails if any differs. The command runs
``verify_dice.py`` (``engine/verify_dice.py``: standard library only, imports nothing of
Tavola), which ``/verifica programma`` sends as a document.
"""

from __future__ import annotations

from importlib import resources

from telegram import InputFile, Update
from telegram.ext import ContextTypes

from bot import dice_words, pipeline, tables
from bot.adapters import places
from bot.finished import finished_match
from bot.handlers import history
from bot.handlers.common import reply
from bot.services import services
from bot.texts import messages as T
from engine import EngineError, valid_dice_word

#: The standalone checker's name as sent, and its text (read once: a few kilobytes).
PROGRAM_NAME = "verify_dice.py"
PROGRAM = resources.files("engine").joinpath(PROGRAM_NAME).read_bytes()


async def on_verify(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    room = places.of_update(update)  # a forum topic keeps its own records
    assert room is not None
    if [w.lower() for w in context.args or []] == [T.VERIFY_PROGRAM_WORD]:
        await _send_program(update)
        return
    try:
        number = history.requested_number("verifica", context.args)
    except history.BadNumberError as bad:
        await reply(update, str(bad))
        return
    svc = services(context)
    user = update.effective_user  # in a group: the caller's own table's records
    place = room if user is None else await tables.for_history(svc, room, user.id)
    try:
        found = await finished_match(svc, place.key)
    except EngineError:
        found = None
    try:
        last = None if found is None else history.pick("verifica", found, number)
    except history.BadNumberError as bad:
        await reply(update, str(bad))
        return
    parts = [T.VERIFY_EXPLAINED]
    if last is None:
        parts.append(T.VERIFY_NOTHING)
    elif last.proof is None:
        parts.append(T.VERIFY_SCRIPTED)
    else:
        proof = last.proof
        dice = last.record.dice
        rolls = [(dice[i], dice[i + 1]) for i in range(0, len(dice), 2)]
        parts.append(
            T.verify_last_game(
                last.names,
                last.record.game_number,
                (proof.seed, proof.salt, proof.commitment),
                rolls,
                proof.words,
                latest=number is None,
            )
        )
    # The chat's own seed is the one the result's buttons (next game, rematch) start with;
    # cards show theirs. Without a finished game there is no such button to speak of.
    upcoming = None if found is None else await pipeline.next_commitment(svc, place.key)
    if upcoming is not None:  # captions show its start only: the whole value is here
        parts.append(T.next_dice_commitment_in_full(upcoming))
    await reply(update, "\n\n".join(parts))


async def _send_program(update: Update) -> None:
    """/verifica programma: the standalone checker, as a file anyone can read and run."""
    message = update.effective_message
    if message is None:
        return
    await message.reply_document(
        InputFile(PROGRAM, filename=PROGRAM_NAME),
        caption=T.VERIFY_PROGRAM_CAPTION,
        do_quote=True,
    )


async def on_word(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/seme [parola]: the player's word for the dice salt, shown or changed."""
    user = update.effective_user
    if user is None:
        return
    svc = services(context)
    words = context.args or []
    if not words:
        word = await dice_words.word_of(svc, user.id)
        await reply(update, T.dice_word_now(word, word != dice_words.default_word(user.id)))
        return
    if len(words) != 1 or not valid_dice_word(words[0]):
        await reply(update, T.DICE_WORD_INVALID)
        return
    await dice_words.set_word(svc, user.id, words[0])
    await reply(update, T.dice_word_set(words[0]))
