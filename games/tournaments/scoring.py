"""An arena's scoring: what a finished tournament game gives each player
(docs/tournaments.md). It hears the one door out (``games.play.finishing.finish``, through
the ``after_finish`` hook) inside the finishing transaction, so a game is scored exactly once, with its result.

Points: win 2, draw 1, loss 0. After two wins in a row a player is on a streak (the
flame): the next games count double until one is not won. A draw within the first
10 moves earns nothing (and ends the streak). A player who went berserk gets one more
point for a win made with at least 7 moves of their own. A game that does not count
(``Match.counts``: it ended, by a resignation say, before each player made two moves)
scores nothing and leaves the streak as it was, as an aborted one does. A game that ends
after the tournament's end scores nothing (its rating counts as usual). Two timeouts in a
row pause the player.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.urls import reverse

from games.live import transport
from games.models import BLUE, PINK, Match, Move

from .display import board_changed
from .models import Tournament, TournamentPlayer
from .selectors import paired_frame, standings_frame

WIN, DRAW, LOSS = 2, 1, 0
STREAK_AFTER = 2  # wins in a row that start a streak
EARLY_DRAW_PLIES = 10  # a draw within this many moves earns nothing
BERSERK_MIN_MOVES = 7  # own moves a berserk win needs for its extra point
TIMEOUTS_TO_PAUSE = 2
PERFORMANCE_SPREAD = 400.0  # a win counts as the opponent's rating + 400, a loss - 400


def game_points(*, result: str, wins_in_row: int, early: bool, berserk: bool, own_moves: int) -> tuple[int, bool]:
    """(points, counted double) for one game of a player who had ``wins_in_row`` wins before it."""
    if result == "d" and early:
        return 0, False
    fire = wins_in_row >= STREAK_AFTER
    base = {"w": WIN, "d": DRAW, "l": LOSS}[result]
    points = base * 2 if fire else base
    if result == "w" and berserk and own_moves >= BERSERK_MIN_MOVES:
        points += 1
    return points, fire


def _timed_out(match: Match, side: int, moved: set[int], timeout_moves: set[int]) -> bool:
    """Whether ``side`` ran out of time in ``match``: no first move (the match aborted),
    Kropki's end by timeout, or a loss on time."""
    if match.status == Match.Status.ABORTED:
        failed = PINK if PINK not in moved else BLUE if BLUE not in moved else None
        return failed == side
    if side in timeout_moves:
        return True
    return match.end_reason == Match.EndReason.TIMEOUT and match.winner is not None and match.winner != side


def score_match(match: Match) -> None:
    """Score a finished or aborted tournament game (the caller, ``finishing.finish``,
    holds the match's lock; the match has just been saved as over)."""
    if match.tournament_id is None:
        return
    tournament = Tournament.objects.get(pk=match.tournament_id)
    entries = {
        e.user_id: e
        for e in TournamentPlayer.objects.select_for_update()
        .filter(tournament_id=match.tournament_id, user_id__in=[match.pink_id, match.blue_id])
        .order_by("pk")
    }
    moves = list(Move.objects.filter(match=match).values_list("player", "by_timeout"))
    moved = {player for player, by_timeout in moves if not by_timeout}
    timeout_moves = {player for player, by_timeout in moves if by_timeout}
    own_moves = {side: sum(1 for p, t in moves if p == side and not t) for side in (PINK, BLUE)}
    counts = (
        match.status == Match.Status.FINISHED
        and match.counts
        and tournament.status != Tournament.Status.FINISHED
        and match.finished_at is not None
        and match.finished_at < tournament.ends_at
    )
    ratings = {uid: e.rating for uid, e in entries.items()}
    for side, user_id, opponent_id in ((PINK, match.pink_id, match.blue_id), (BLUE, match.blue_id, match.pink_id)):
        entry = entries.get(user_id) if user_id is not None else None
        if entry is None:
            continue
        fields = ["match", "last_opponent", "timeouts_in_row", "paused"]
        entry.last_opponent_id = opponent_id
        unseen = match.status == Match.Status.ABORTED and entry.match_id == match.pk and not entry.match_seen
        if entry.match_id == match.pk:
            entry.match = None
        timed_out = _timed_out(match, side, moved, timeout_moves)
        if timed_out and unseen:
            pass  # never opened: the wave's word may not have reached them (issue 38); not their timeout
        elif timed_out:
            entry.timeouts_in_row += 1
            if entry.timeouts_in_row >= TIMEOUTS_TO_PAUSE:
                entry.paused = True  # so their opponents do not wait for them
        else:
            entry.timeouts_in_row = 0
        if counts:
            result = "d" if match.winner is None else "w" if match.winner == side else "l"
            berserk = match.berserk_of(side)
            points, fire = game_points(
                result=result,
                wins_in_row=entry.wins_in_row,
                early=match.ply <= EARLY_DRAW_PLIES,
                berserk=berserk,
                own_moves=own_moves[side],
            )
            entry.points += points
            entry.wins_in_row = entry.wins_in_row + 1 if result == "w" else 0
            entry.games += 1
            opponent_rating = ratings.get(opponent_id, entry.rating) if opponent_id is not None else entry.rating
            entry.performance_sum += opponent_rating + {"w": 1, "d": 0, "l": -1}[result] * PERFORMANCE_SPREAD
            entry.performance = entry.performance_sum / entry.games
            entry.results = [*entry.results, {"m": match.pk, "r": result, "p": points, "f": fire, "b": berserk}]
            fields += ["points", "wins_in_row", "games", "performance_sum", "performance", "results"]
        entry.save(update_fields=fields)
    users = [uid for uid in (match.pink_id, match.blue_id) if uid is not None and uid in entries]
    publish_on_commit(tournament, back_to=users, ended=match.pk)


def publish_on_commit(
    tournament: Tournament, *, back_to: list[int] | None = None, paired: Any = None, ended: int | None = None
) -> None:
    """After commit: the standings to the arena's pages; to ``back_to`` (players whose game
    just ended, ``ended``) the way back to the arena; ``paired``: (user id, match id, opponent's name) of players told
    where their new game is."""
    tournament_id = tournament.pk
    url = reverse("tournament", args=[tournament_id])
    board_changed(tournament_id)

    def send() -> None:
        board_changed(tournament_id)
        fresh = Tournament.objects.filter(pk=tournament_id).first()
        if fresh is None:
            return
        transport.send_to_tournament(tournament_id, standings_frame(fresh))
        match_prefix = reverse("match", args=[0])[:-2]  # one reverse, not one per game
        frames = [
            (uid, {"type": "tournament_game_over", "id": tournament_id, "match": ended, "url": url})
            for uid in back_to or ()
        ]
        frames += [
            (
                user_id,
                paired_frame(match_id, tournament_id, fresh.name, opponent, match_prefix=match_prefix),
            )
            for user_id, match_id, opponent in paired or ()
        ]
        transport.send_to_site_users(frames)

    transaction.on_commit(send)


def redraw_for_mark(user_id: int) -> None:
    """A fair-play mark was set or lifted on ``user_id`` (the ``mark_changed`` hook): the arenas it
    has a line in draw their standings again (the cached pages at once; the running and upcoming
    ones' frames after commit), without or with it (docs/fairplay.md)."""
    arenas = Tournament.objects.filter(players__user_id=user_id).distinct()
    for tournament in arenas:
        if tournament.status == Tournament.Status.FINISHED:
            board_changed(tournament.pk)
        else:
            publish_on_commit(tournament)
