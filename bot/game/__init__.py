"""The pure core of a game at a table, free of Telegram."""
