"""The live table: a Telegram Mini App served by the bot's own web server.

The page (``static/``) draws the board and sends the player's actions. Here: who sends them
(``init_data``), the table as the page shows it (``view``) and the notice of each commit to
every open page (``live``). The routes and the actions are handlers of their own
(``bot.handlers.miniapp_api``, ``bot.handlers.miniapp_actions``): an action from the page
takes the same pipeline as a button press.
"""
