"""The leaderboard page's read: one page of a variant's ratings (ratings.selectors.leaderboard
orders them). Two queries: a count and the page with its users."""

from __future__ import annotations

from django.core.paginator import Page, Paginator

from ratings.models import Rating
from ratings.selectors import leaderboard

PER_PAGE = 50


def leaderboard_page(variant: str, *, bots: bool, number: str | int | None) -> Page[Rating]:
    """Page ``number`` of ``variant``'s leaderboard (Django's get_page: a bad number is page 1,
    one past the end the last page), its ratings read."""
    page = Paginator(leaderboard(variant, bots=bots), PER_PAGE).get_page(number)
    page.object_list = list(page.object_list)
    return page
