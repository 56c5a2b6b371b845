"""An arena as data: the standings frame its sockets hear (docs/protocol.md "Tournaments")
and the lines its page shows. No queries: the rows come from selectors.py (the board's version
is the shared cache's); the services publish the frames after commit."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any

from django.core.cache import cache
from django.urls import reverse
from django.utils.translation import gettext as _

from .models import Tournament, TournamentPlayer

# The lines a frame and a page's first screen carry: a frame for 1,000 players stays small
# (bench/tournament.py: <= 32 kB); the page pages through the rest.
STANDINGS_SHOWN = 30
PLAYING_SHOWN = 20
FREE_SHOWN = 8

# A line of the standings as read: rank, name, points, wins in a row, paused, match id, games, results,
# whether the account is deleted.
StandingsLine = tuple[Any, ...]


def _version_key(tournament_id: int) -> str:
    return f"arena-version:{tournament_id}"


def board_version(tournament_id: int) -> str:
    """The arena's board version in the shared cache ("0" when unknown): the tournament page's
    cached standings are kept under it."""
    return str(cache.get(_version_key(tournament_id)) or "0")


def board_changed(tournament_id: int) -> None:
    """A change to the arena or its lines: pages draw their standings again. Called in the
    changing transaction (so a test, whose transaction never commits, sees it too) and again
    after its commit (so a page that read the old lines meanwhile does not keep them)."""
    cache.set(_version_key(tournament_id), secrets.token_hex(6), None)


def result_marks(results: list[dict[str, Any]]) -> str:
    """A player's games as one short string: points per game, a game whose points were doubled
    (a win or draw on a streak) in brackets: "2 0 [4] 1". A loss is "0", streak or not (nothing
    was doubled: issue 38), an early draw "0"."""
    marks = []
    for r in results:
        p = str(r.get("p", 0)) if r.get("r") != "l" else "0"
        marks.append(f"[{p}]" if r.get("f") and r.get("r") != "l" else p)
    return " ".join(marks)


def standings_rows(players: list[StandingsLine], *, offset: int = 0, finished: bool = False) -> list[dict[str, Any]]:
    """Lines ``offset`` … of the standings, best first (``players``: selectors.standings_lines). In a
    finished arena nobody is shown paused or playing (issue 38): those were states of the play."""
    profile_prefix = reverse("profile", args=["_"])[:-2]  # one reverse, not one per line
    rows = []
    for i, (rank, name, points, wins_in_row, paused, match_id, games, results, deleted) in enumerate(
        players, start=offset + 1
    ):
        rows.append(
            {
                "rank": rank or i,
                # A deleted account (docs/privacy.md) has no name and no profile: the words, no link.
                "name": _("deleted account") if deleted else name,
                "url": "" if deleted else f"{profile_prefix}{name}/",
                "deleted": deleted,
                "points": points,
                "fire": wins_in_row >= 2,
                "paused": paused and not finished,
                "playing": match_id is not None and not finished,
                "games": games,
                "marks": result_marks(results),
            }
        )
    return rows


def free_players(rows: list[tuple[Any, ...]]) -> list[list[str]]:
    """The arena's players waiting for a game (neither paused nor playing), each as [name,
    their last opponent's name or ""] (``rows``: selectors.free_lines): a waiting player's page
    tells from them whether the next wave can pair them (someone free who is neither them nor
    the opponent they just played), so it says when their next game comes."""
    return [[name, last or ""] for name, last in rows]


def playing_now(matches: list[tuple[Any, ...]]) -> list[dict[str, Any]]:
    """The arena's games being played (the newest first), for watching (``matches``:
    selectors.playing_lines)."""
    match_prefix = reverse("match", args=[0])[:-2]
    return [
        {"id": pk, "url": f"{match_prefix}{pk}/", "pink": pink or "", "blue": blue or ""} for pk, pink, blue in matches
    ]


@dataclass(frozen=True)
class FrameRows:
    """What the ``tournament`` frame is drawn from besides the arena (selectors.frame_rows)."""

    standings: list[StandingsLine]  # the first STANDINGS_SHOWN lines
    count: int  # its players
    free: list[tuple[Any, ...]]
    playing: list[tuple[Any, ...]]


def standings_frame(tournament: Tournament, rows: FrameRows) -> dict[str, Any]:
    """The ``tournament`` frame: its state, the first lines of the standings (each a list:
    rank, name, points, on fire, paused, playing, games' marks; the name "" for a deleted
    account, which the page shows in its own language, without a link), how many players wait
    for a game, and the games being played."""
    lines = standings_rows(rows.standings, finished=tournament.status == Tournament.Status.FINISHED)
    return {
        "type": "tournament",
        "id": tournament.pk,
        "status": tournament.status,
        "starts_at": tournament.starts_at.isoformat(),
        "ends_at": tournament.ends_at.isoformat(),
        "count": rows.count,
        "free": free_players(rows.free),
        "standings": [
            [
                r["rank"],
                "" if r["deleted"] else r["name"],
                r["points"],
                int(r["fire"]),
                int(r["paused"]),
                int(r["playing"]),
                r["marks"],
            ]
            for r in lines
        ],
        "playing": [[g["id"], g["pink"], g["blue"]] for g in playing_now(rows.playing)],
    }


def account_line(e: TournamentPlayer) -> dict[str, Any]:
    """One of the player's lines in arenas, for "Download my data" (its "tournaments" part)."""
    return {
        "tournament": e.tournament_id,
        "name": e.tournament.name,
        "variant": e.tournament.variant,
        "joined": e.joined_at.isoformat(),
        "points": e.points,
        "games": e.games,
        "results": e.results,
        "place": e.rank,
    }
