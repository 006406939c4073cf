"""The players' share of the dice: each player's word, and the notice that opens a game.

A game's salt is made of its two players' words (``engine.dice.salt_of_words``), read when
the game starts, after its commitment was shown: a player who changes the word with
``/seme`` after seeing the commitment knows the server could not have picked the seed for
it. A player who never set one has their Telegram id as word (the computer: 0).

When a verifiable game starts in a chat, one short message states its commitment and salt;
it is never edited, so the values stay in the chat for the check after the game.
"""

from __future__ import annotations

import logging

from telegram import Bot
from telegram.constants import ParseMode
from telegram.error import TelegramError

from bot.adapters import places
from bot.game.table import Table
from bot.services import Services
from bot.texts import messages as T
from engine import dice_salt_of_words, valid_dice_word

log = logging.getLogger(__name__)

#: The player's preference (``GameRepository.set_preference``) that holds their word.
WORD_PREFERENCE = "dice_word"


def default_word(user_id: int) -> str:
    """The word of a player who never chose one: their Telegram id."""
    return str(abs(user_id))


async def word_of(svc: Services, user_id: int) -> str:
    """The player's word as it is now (a stored word that no longer reads is ignored)."""
    stored = (await svc.repo.get_preferences(user_id)).get(WORD_PREFERENCE)
    if stored is not None and valid_dice_word(stored):
        return stored
    return default_word(user_id)


async def set_word(svc: Services, user_id: int, word: str) -> None:
    """Keep the player's word for the games they start from now on."""
    if not valid_dice_word(word):
        raise ValueError("not a dice word")
    await svc.repo.set_preference(user_id, WORD_PREFERENCE, word)


async def salt_for(svc: Services, table: Table) -> str:
    """The salt of the game about to start at ``table``: its players' words, now."""
    first, second = table.players
    return dice_salt_of_words(await word_of(svc, first.user_id), await word_of(svc, second.user_id))


async def post_commitment(bot: Bot, place: places.Place, table: Table) -> None:
    """Post the message that keeps the started game's commitment and salt in the chat.

    Nothing is posted for a game without verifiable dice, or in an inline message (no chat
    to post to: its caption shows the whole values). A failure to post is logged and the
    game goes on: the values are also in /verifica."""
    proof = table.dice
    if proof is None or proof.words is None or place.is_inline:
        return
    names = (table.players[0].name, table.players[1].name)
    text = T.dice_game_opened(names, table.state.game_number, proof.commitment, proof.salt)
    try:
        await bot.send_message(
            **place.send(), text=text, parse_mode=ParseMode.HTML, disable_notification=True
        )
    except TelegramError as exc:
        log.warning("the dice commitment of chat %s was not posted: %s", place.key, exc)
