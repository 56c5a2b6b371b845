"""Piłkarzyki (paper soccer): the rules (engine.py), the board drawing (board.py),
the computer player (bot.py, on its own compact board, bot_board.py), the rules
page's diagrams (rules.py) and the site's entry for the game (spec.py). Only spec.py
knows Django."""
