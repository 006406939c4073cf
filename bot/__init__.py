"""Tavola's Telegram bot (python-telegram-bot 22): commands, buttons, Italian texts, wiring.

Owns everything Telegram: decoding updates and callback data, checking who pressed,
asking the engine to act, saving through storage, drawing through render and editing the
board message. Imports ``engine``, ``render`` and ``storage``; nothing imports ``bot``.
"""
