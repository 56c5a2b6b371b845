"""The arenas' reads (docs/features.md "Reads"): what their pages, the profile and the home
page show of them. An account with a fair-play mark (``User.fair_play_mark``, docs/fairplay.md)
is in no standings, count or list of waiting players; its own lines stay (its profile, its data)."""

from __future__ import annotations

from typing import Any

from django.db.models import Case, Q, QuerySet, Sum, When, Window
from django.urls import reverse

from accounts.models import User
from games.models import Match
from kropki_site.lib.pathids import MAX_ROW_ID

from . import display
from .display import FREE_SHOWN, PLAYING_SHOWN, STANDINGS_SHOWN, FrameRows, StandingsLine
from .models import Tournament, TournamentPlayer


def player_arenas(user_id: int) -> dict[str, Any]:
    """The player's tournaments (the newest ten, with their points and final places) and podiums:
    one query (the podiums over all their tournaments are window sums on each line)."""
    lines = list(
        TournamentPlayer.objects.filter(user_id=user_id)
        .select_related("tournament")
        .annotate(
            podiums=Window(Sum(Case(When(rank__lte=3, then=1), default=0))),
            firsts=Window(Sum(Case(When(rank=1, then=1), default=0))),
        )
        .order_by("-tournament__starts_at", "-pk")[:10]
    )
    return {
        "lines": lines,
        "podiums": lines[0].podiums if lines else 0,
        "wins": lines[0].firsts if lines else 0,
    }


def upcoming_public(limit: int = 5) -> list[Tournament]:
    """The next public arenas (the home page's list): the schedule's, and one per player who made
    some (the next of theirs), so a few accounts cannot fill the list. One query."""
    shown: list[Tournament] = []
    makers: set[int] = set()
    rows = Tournament.objects.filter(public=True).exclude(status=Tournament.Status.FINISHED).order_by("starts_at", "pk")
    for t in rows[: limit * 2]:  # each maker has at most two not finished (services.OPEN_PER_CREATOR)
        if t.creator_id is not None:
            if t.creator_id in makers:
                continue
            makers.add(t.creator_id)
        shown.append(t)
        if len(shown) == limit:
            break
    return shown


def visible_lists(user_id: int | None, limit: int) -> dict[str, list[Tournament]]:
    """The list page's arenas a visitor may see (the public ones; for an account also the private
    ones it made or plays in): ``running``, ``upcoming`` and ``finished``, ``limit`` of each."""
    mine = Q(creator_id=user_id) | Q(players__user_id=user_id) if user_id is not None else Q(pk__in=[])
    visible = Tournament.objects.filter(Q(public=True) | mine).distinct()
    return {
        "running": list(visible.filter(status=Tournament.Status.RUNNING).order_by("ends_at", "pk")[:limit]),
        "upcoming": list(visible.filter(status=Tournament.Status.UPCOMING).order_by("starts_at", "pk")[:limit]),
        "finished": list(visible.filter(status=Tournament.Status.FINISHED).order_by("-ends_at", "-pk")[:limit]),
    }


def tournament_row(tournament_id: int) -> Tournament | None:
    return Tournament.objects.filter(pk=tournament_id).first()


def plays_in(tournament: Tournament, user_id: int) -> bool:
    """Whether ``user_id`` has a line in the arena: one query."""
    return TournamentPlayer.objects.filter(tournament=tournament, user_id=user_id).exists()


def my_line(tournament: Tournament, user_id: int) -> TournamentPlayer | None:
    """The visitor's line in the arena with its game's ply and status (one query)."""
    return (
        TournamentPlayer.objects.filter(tournament=tournament, user_id=user_id)
        .select_related("match")
        .only("pk", "paused", "match__id", "match__ply", "match__status")
        .first()
    )


def _standing(tournament: Tournament) -> QuerySet[TournamentPlayer]:
    """The arena's lines that stand: every player's but a fair-play-marked account's."""
    return TournamentPlayer.objects.filter(tournament=tournament, user__fair_play_mark="")


def player_count(tournament: Tournament) -> int:
    return _standing(tournament).count()


def standings_lines(tournament: Tournament, *, offset: int = 0, limit: int = STANDINGS_SHOWN) -> list[StandingsLine]:
    """Lines ``offset`` … ``offset + limit`` of the standings, best first (points, then
    performance, then who joined first): one query."""
    return list(
        _standing(tournament)
        .order_by("-points", "-performance", "joined_at", "pk")
        .values_list(
            "rank",
            "user__username",
            "points",
            "wins_in_row",
            "paused",
            "match_id",
            "games",
            "results",
            "user__is_deleted",
        )[offset : offset + limit]
    )


def free_lines(tournament: Tournament, limit: int = FREE_SHOWN) -> list[tuple[Any, ...]]:
    """The players waiting for a game (neither paused nor playing), best first, each with their
    last opponent's name, at most ``limit``: one query."""
    return list(
        _standing(tournament)
        .filter(paused=False, match__isnull=True)
        .order_by("-points", "-rating", "pk")
        .values_list("user__username", "last_opponent__username")[:limit]
    )


def playing_lines(tournament: Tournament, limit: int = PLAYING_SHOWN) -> list[tuple[Any, ...]]:
    """The arena's games being played, newest first, with the players' names: one query. A game
    with an invisible player is left out, as on the home page and the lobby
    (games.selectors.lobby.live_matches): it would say they are online (issue 37); their line in
    the standings stays, as the standings are public."""
    return list(
        Match.objects.filter(tournament=tournament, status=Match.Status.ACTIVE)
        .exclude(pink__invisible=True)
        .exclude(blue__invisible=True)
        .order_by("-created_at")
        .values_list("pk", "pink__username", "blue__username")[:limit]
    )


def frame_rows(tournament: Tournament) -> FrameRows:
    """What the ``tournament`` frame is drawn from: four queries (in the order the frame read them)."""
    standings = standings_lines(tournament)
    count = player_count(tournament)
    free = free_lines(tournament)
    return FrameRows(standings=standings, count=count, free=free, playing=playing_lines(tournament))


def standings_frame(tournament: Tournament) -> dict[str, Any]:
    """The ``tournament`` frame of the arena as committed (display.standings_frame)."""
    return display.standings_frame(tournament, frame_rows(tournament))


def paired_frame(match_id: int, tournament_id: int, name: str, opponent: str | None, **more: Any) -> dict[str, Any]:
    """``tournament_paired``: where a player's arena game is (the wave's, and on connect with ``current``)."""
    prefix = more.pop("match_prefix", None) or reverse("match", args=[0])[:-2]
    return {
        "type": "tournament_paired",
        "id": tournament_id,
        "name": name,
        "opponent": opponent or "",
        "match": match_id,
        "url": f"{prefix}{match_id}/",
        **more,
    }


def current_games_frames(user_id: int) -> list[dict[str, Any]]:
    """A ``tournament_paired`` frame (``current``: true, with the game's ``ply``) for each arena game
    the player is playing now: one query. A site socket sends them on connect (issue 38), so a page
    that missed the wave's frame (opened later, or reconnecting then) still learns where the game is."""
    rows = (
        Match.objects.filter(
            Q(pink_id=user_id) | Q(blue_id=user_id), status=Match.Status.ACTIVE, tournament__isnull=False
        )
        .order_by("pk")
        .values_list("pk", "tournament_id", "tournament__name", "pink_id", "pink__username", "blue__username", "ply")
    )
    return [
        paired_frame(pk, t_id, name, blue if pink_id == user_id else pink, current=True, ply=ply)
        for pk, t_id, name, pink_id, pink, blue, ply in rows
    ]


def my_game_frame(user_id: int, tournament_id: int) -> dict[str, Any] | None:
    """``tournament_me``: the player's line in the arena (their game being played now, or null; paused),
    sent to their own socket after the ``tournament`` frame of ``watch_tournament``; None if they have none."""
    line = (
        TournamentPlayer.objects.filter(tournament_id=tournament_id, user_id=user_id)
        .values_list("paused", "match_id", "match__status", "match__ply")
        .first()
    )
    if line is None:
        return None
    paused, match_id, status, ply = line
    playing = match_id is not None and status == Match.Status.ACTIVE
    return {
        "type": "tournament_me",
        "id": tournament_id,
        "paused": paused,
        "match": match_id if playing else None,
        "url": reverse("match", args=[match_id]) if playing else "",
        "ply": ply if playing else None,
    }


def tournament_frame_for(user_id: int | None, tournament_id: Any, key: Any) -> dict[str, Any] | None:
    """The frame for a site socket asking to watch an arena, or None (not found, or private
    and neither the key nor a part in it)."""
    if isinstance(tournament_id, bool) or not isinstance(tournament_id, int):
        return None
    if not 0 < tournament_id <= MAX_ROW_ID:  # beyond 64 bits the database refuses the number
        return None
    tournament = tournament_row(tournament_id)
    if tournament is None:
        return None
    allowed = (
        tournament.public
        or key == str(tournament.token)
        or (user_id is not None and (tournament.creator_id == user_id or plays_in(tournament, user_id)))
    )
    return standings_frame(tournament) if allowed else None


def account_lines(user: User) -> list[dict[str, Any]]:
    """The player's lines in arenas, for "Download my data" (registered as its "tournaments" part)."""
    lines = TournamentPlayer.objects.filter(user=user).select_related("tournament").order_by("joined_at")
    return [display.account_line(e) for e in lines]
