"""PTB's generic ``Application``, as the bot's signatures name it.

PTB parametrises it by the bot, context and data types. The bot builds one shape
(``ContextTypes.DEFAULT_TYPE``), but what PTB hands back (``context.application``) is typed
with unbound type variables, so the alias takes any parameters: it satisfies ``mypy
--strict`` (no bare generics) without promising more than PTB's own annotations do.
"""

from __future__ import annotations

from typing import Any, TypeAlias

from telegram.ext import Application

BotApp: TypeAlias = Application[Any, Any, Any, Any, Any, Any]
