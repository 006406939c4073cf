"""Telegram handlers, one module per area: games, challenges, the computer, information."""
