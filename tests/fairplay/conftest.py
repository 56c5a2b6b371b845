"""Fair play's test helpers: staff, and rated games played through the real services."""

from __future__ import annotations

import pytest

from games.play import match_answer_draw, match_offer_draw
from tests.factories import BLUE_WINS, PINK_WINS, make_match
from tests.helpers import C4, play_moves

# Four moves that win nothing, then a draw by agreement: each player made two moves, so it is rated.
DRAW_MOVES = [3, 3, 4, 4]


@pytest.fixture
def staff(django_user_model):
    """A moderator (superuser: every permission of the admin)."""
    return django_user_model.objects.create_superuser(username="moderator", email="mod@example.com", password="x")


def play_rated(first, second, *, draw: bool = False, pink_first: bool = True):
    """A rated Cztery w rzędzie match played to its end through the services (the ratings move as
    in any game): ``first`` beats ``second`` (playing pink unless ``pink_first`` is false), or a draw."""
    pink, blue = (first, second) if pink_first else (second, first)
    match = make_match(pink, blue, C4, rated=True)
    if draw:
        play_moves(match, DRAW_MOVES)
        match_offer_draw(match_id=match.pk, user_id=pink.pk)
        match_answer_draw(match_id=match.pk, user_id=blue.pk, accept=True)
    else:
        play_moves(match, PINK_WINS if pink_first else BLUE_WINS)
    match.refresh_from_db()
    assert match.status == "finished" and match.rated
    return match


@pytest.fixture
def rated_game(db):
    """``rated_game(winner, loser)`` or ``rated_game(a, b, draw=True)``: ``play_rated``."""
    return play_rated
