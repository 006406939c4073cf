"""The live table: a Telegram Mini App served by the bot's own web server.

The page (``static/``) draws the board and sends the player's actions; the server
(``routes``) checks who sends them (``init_data``), plays them through the same pipeline as a
button press (``actions``), describes the table to the page (``view``) and tells every open
page of a table when its game was saved (``live``).
"""
