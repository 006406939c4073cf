"""All user-facing Italian text of the bot, as pure data (no Telegram imports).

`rules` holds the /regole pages of both variants; `messages` everything else.
"""

from bot.texts import messages, rules
from bot.texts.messages import escape
from bot.texts.rules import VARIANTS, Section, Variant, find_section

__all__ = ["VARIANTS", "Section", "Variant", "escape", "find_section", "messages", "rules"]
