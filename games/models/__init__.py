"""The core's rows, one module per purpose: ``match`` (Match, Move), ``lobby`` (Challenge, Seek),
``social`` (ChatMessage, Report). ``from games.models import X`` reaches each of them.

A feature folder keeps its own rows (``games/tournaments/models.py``, ``games/review/models.py``,
app label ``games``);
``games.apps.GamesConfig`` loads them, so the core imports no feature.
"""

from .lobby import Challenge, Seek
from .match import BLUE, BOT_LEVEL_CHOICES, COLOUR_NAMES, PINK, Match, Move
from .social import ChatMessage, Report

__all__ = [
    "BLUE",
    "BOT_LEVEL_CHOICES",
    "COLOUR_NAMES",
    "PINK",
    "Challenge",
    "ChatMessage",
    "Match",
    "Move",
    "Report",
    "Seek",
]
