"""Which accounts are established enough for what abuse feeds on (issue 24 items 3
and 9; docs/social.md "New accounts").

Free accounts multiply every per-account limit, so rated play (challenges, the
ranked queue), reports, and direct challenges to a player one has never played
need an *established* account: one at least NEW_ACCOUNT_MINUTES old, or with
NEW_ACCOUNT_GAMES real games (finished games that count, ``Match.counts``: two moves
each, against people or the computer at średni or above), or staff.
A new account plays unrated games, the computer, link challenges and players
it has played; its refusal is ``account_too_new``, worded with the minutes left.

Rating farming: a pair's rated games count for the rating at most
RATED_GAMES_PER_PAIR_PER_DAY times a variant in 24 hours (the rest finish unrated), and
a pair whose accounts logged in from one address or one browser (``accounts.addresses``)
is flagged for staff when a rated game between them finishes. Many alts: the rating gained
from new opponents is capped a day (``ratings.services``, NEW_OPPONENT_GAIN_PER_DAY).

Fair play (docs/fairplay.md): an account staff marked engine or booster
(``User.fair_play_mark``) plays casual games only. ``require_unmarked`` is the one check,
called by every path that starts rated play (the ranked queue, rated challenges of every kind,
a rated rematch, joining an arena), for every player of the game to be.
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.addresses import shared_address, shared_browser
from accounts.models import PairFlag, User
from games.models import Match
from kropki_site.lib.refusals import Refusal
from ratings.selectors import rated_games_between_since

# The computer's levels whose games are real play for the gate (not its easiest one).
GATE_BOT_LEVELS = ("sredni", "trudny")


def real_games(user_id: int) -> int:
    """The player's finished games that count, against a person (not a bot account) or the
    computer at GATE_BOT_LEVELS: what the new-account gate counts."""
    counted = Match.objects.filter(status=Match.Status.FINISHED, counts=True)
    return counted.filter(
        Q(pink_id=user_id, blue__is_bot=False)
        | Q(blue_id=user_id, pink__is_bot=False)
        | (Q(pink_id=user_id) | Q(blue_id=user_id)) & Q(bot_level__in=GATE_BOT_LEVELS)
    ).count()


def minutes_left(user: User) -> int:
    """Minutes until ``user`` is established by age (0: it is established)."""
    if user.is_staff:
        return 0
    age = timezone.now() - user.date_joined
    left = timedelta(minutes=settings.NEW_ACCOUNT_MINUTES) - age
    if left <= timedelta(0):
        return 0
    if settings.NEW_ACCOUNT_GAMES > 0 and real_games(user.pk) >= settings.NEW_ACCOUNT_GAMES:
        return 0
    return max(1, int(left.total_seconds() // 60) + (1 if left.total_seconds() % 60 else 0))


def require_established(user_id: int) -> None:
    """Refusal ``account_too_new`` unless ``user_id`` is established (see the module)."""
    user = User.objects.filter(pk=user_id).only("pk", "is_staff", "date_joined").first()
    if user is None:
        raise Refusal("login_required")
    left = minutes_left(user)
    if left:
        raise Refusal(
            "account_too_new",
            _(
                "Your account is new: rated games, reports and challenges to players you have not played "
                "open in %(minutes)d min or after %(games)d finished games with two moves each."
            )
            % {"minutes": left, "games": settings.NEW_ACCOUNT_GAMES},
        )


def require_unmarked(user_id: int, *others: int, lock: bool = False) -> None:
    """Refusal ``fair_play_marked`` if ``user_id`` (the player asking: "your account ...") or one of
    ``others`` (their opponent to be: "this player's account ...") carries a fair-play mark. One query.

    ``lock``: read the rows under a row lock (inside the caller's transaction), the lock a mark
    takes (games/fairplay/services.py): for a write that outlives the request (a seek waiting in
    the queue), so a mark committing meanwhile is seen rather than missed."""
    ids = [user_id, *others]
    rows = User.objects.select_for_update() if lock else User.objects.all()
    marked = {pk for pk, mark in rows.filter(pk__in=ids).order_by("pk").values_list("pk", "fair_play_mark") if mark}
    if user_id in marked:
        raise Refusal("fair_play_marked")
    if marked:
        raise Refusal(
            "fair_play_marked",
            _("This player's account is marked for a fair-play violation: they cannot play rated games."),
        )


def have_played(a_id: int, b_id: int) -> bool:
    """Whether the two met in a finished match that counts (two moves each: a game resigned at
    once is no acquaintance, docs/fairplay.md)."""
    return Match.objects.filter(
        Q(pink_id=a_id, blue_id=b_id) | Q(pink_id=b_id, blue_id=a_id), status=Match.Status.FINISHED, counts=True
    ).exists()


def rating_allowed(match: Match) -> bool:
    """Whether this finishing rated match may change ratings: fewer than
    RATED_GAMES_PER_PAIR_PER_DAY rated games of the pair in this variant in the last 24 hours.
    Flags the pair for staff when they share an address or a browser."""
    assert match.pink_id is not None and match.blue_id is not None
    now = match.finished_at or timezone.now()
    flag_shared_origin(match)
    earlier = rated_games_between_since(match.pink_id, match.blue_id, match.variant, now - timedelta(hours=24))
    return earlier < settings.RATED_GAMES_PER_PAIR_PER_DAY


def flag_shared_origin(match: Match) -> None:
    """Flag the pair for staff (possible boosting) when they logged in from one address or browser."""
    if match.pink_id is None or match.blue_id is None:
        return
    if shared_address(match.pink_id, match.blue_id):
        PairFlag.note(match.pink_id, match.blue_id, reason=PairFlag.Reason.SHARED_ADDRESS, match_id=match.pk)
    if shared_browser(match.pink_id, match.blue_id):
        PairFlag.note(match.pink_id, match.blue_id, reason=PairFlag.Reason.SHARED_BROWSER, match_id=match.pk)
