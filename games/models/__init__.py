"""The core's rows, one module per purpose: ``match`` (Match, Move), ``lobby`` (Challenge, Seek),
``social`` (ChatMessage, Report), ``analysis`` (Analysis). ``from games.models import X`` reaches
each of them.

A feature folder keeps its own rows (``games/tournaments/models.py``, app label ``games``);
``games.apps.GamesConfig`` loads them, so the core imports no feature.
"""

from .analysis import Analysis
from .lobby import Challenge, Seek
from .match import BLUE, BOT_LEVEL_CHOICES, COLOUR_NAMES, PINK, Match, Move
from .social import ChatMessage, Report

__all__ = [
    "BLUE",
    "BOT_LEVEL_CHOICES",
    "COLOUR_NAMES",
    "PINK",
    "Analysis",
    "Challenge",
    "ChatMessage",
    "Match",
    "Move",
    "Report",
    "Seek",
]
