"""PTB's generic ``Application`` and ``JobQueue``, as the bot's signatures name them.

PTB parametrises both by the bot, context and data types. The bot builds one shape
(``ContextTypes.DEFAULT_TYPE``), but what PTB hands back (``context.application``,
``context.job_queue``) is typed with unbound type variables, so the aliases take any
parameters: they satisfy ``mypy --strict`` (no bare generics) without promising more
than PTB's own annotations do.
"""

from __future__ import annotations

from typing import Any, TypeAlias

from telegram.ext import Application, JobQueue

BotJobQueue: TypeAlias = JobQueue[Any]
BotApp: TypeAlias = Application[Any, Any, Any, Any, Any, Any]
