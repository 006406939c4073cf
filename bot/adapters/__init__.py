"""The bot's adapters to Telegram: what the Bot API imposes, kept away from the game.

Places (chats, forum topics, inline messages), the callback data of the buttons and the
signed inline challenge cards, the reused file ids of pictures, the per-chat rate limit,
the update kinds asked for, the command menus, the players' names and the metrics. They
may use the pure core (``bot.game``) and the texts; they never import the views, the
services, the pipeline or the handlers (``tests/test_imports.py``).
"""
