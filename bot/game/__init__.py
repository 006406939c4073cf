"""The pure core of the bot: the table, its rules of play and the values they speak of.

A table (``table``), what each button does to it (``flow``, ``actions``, ``shortcuts``),
whether a pressed board must be redrawn (``redraw``), the challenge's options and terms
(``options``, ``challenge``), the computer set-up (``setup_wizard``), the dice (``dice``),
what the computer is asked and answers (``decisions``) and what a save does to the turn
clock (``clock``). Nothing here talks to Telegram, Redis, the renderer or the process pool:
it imports only the engine, the standard library and the Italian texts (``bot.texts``), so
it is tested without any of them. ``tests/test_imports.py`` holds it to that.
"""
