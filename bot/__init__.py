"""Tavola's Telegram bot (python-telegram-bot 22): commands, buttons, Italian texts, wiring.

Owns everything Telegram: decoding updates and callback data, checking who pressed,
asking the engine to act, saving through storage, drawing through render and editing the
board message. Imports ``engine``, ``render`` and ``storage``; nothing imports ``bot``.

Its floors, from the bottom up (a module imports only its own floor and those below,
``tests/test_imports.py``): ``texts`` (the Italian words), ``game`` (the pure core),
``adapters`` (what Telegram imposes), ``views`` (what the players see), the runtime at the
top of the package (services, the computer's pool, the pipeline of a game's life, timers,
reach, updates, the web server), ``handlers``, and ``app`` / ``__main__`` (the wiring).
"""
