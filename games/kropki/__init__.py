"""Kropki (Dots): the rules (engine.py), the board drawing (board.py), the computer
player (bot.py, its compiled search fast.c built by fast_build.py, and frozen.py, the
old Python search it falls back to), the rules page's diagrams (rules.py) and the
site's entry for the game (spec.py). Only spec.py knows Django."""
