"""Accounts and their session cookies, matches between them, and what the database holds of a
match afterwards: the live-play, fault and cluster tests' calls (tests/sitecalls/__init__.py)."""

from __future__ import annotations

import random
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.sessions.models import Session
from django.test import Client

from accounts.guests import guest_create
from accounts.models import User
from accounts.tokens import token_create, token_revoke
from games import play as services
from games.catalogue import variant as get_variant
from games.live.transport import close_user_sockets
from games.models import ChatMessage, Match, Move, Report
from games.play.botaccounts import user_become_bot
from games.play.privacy import account_delete
from ratings.models import Rating, RatingChange

from . import PASSWORD

__all__ = [
    "analyses_count",
    "api_account_delete",
    "api_people",
    "api_stream_people",
    "api_token_revoke",
    "c4_won_by_alice",
    "chat_abuse_setup",
    "chat_lines_count",
    "correspondence_advance",
    "correspondence_pair",
    "correspondence_state",
    "deleted_player_games",
    "followed_player_playing",
    "guard_copy_setup",
    "guard_rated_resign",
    "match_db_state",
    "match_rows",
    "players_signed_in",
    "players_with_match",
    "rating_deltas",
    "reports_count",
    "review_flood_setup",
    "review_timing",
    "user_create",
    "user_log_out",
    "user_update",
]


# -- shared by the families ----------------------------------------------------------


def session_cookie(user: User) -> str:
    """A new logged-in session of ``user``: its cookie's value (named settings.SESSION_COOKIE_NAME)."""
    client = Client()
    client.force_login(user)
    return client.cookies[settings.SESSION_COOKIE_NAME].value


def user_made(name: str, *, password: str = PASSWORD, email: str = "", **extra: Any) -> User:
    """The user ``name`` if there is one (a module's calls may run again on the same site), else a new one."""
    found = User.objects.filter(username=name).first()
    return found or User.objects.create_user(
        username=name, email=email or name + "@example.com", password=password, **extra
    )


def play_random(match: Match, players: dict[int, User], plies: int, rng: random.Random, now: datetime | None = None):
    """Up to ``plies`` random legal moves of the match's game (never Kropki's "end"), through the
    services; stops at the game's end."""
    state = get_variant(match.variant).game().new_initial_state()
    for ply in range(plies):
        side = state.current_player()
        if side is None:
            break
        end = getattr(state.game, "end_action", None)
        action = rng.choice([a for a in state.legal_actions() if a != end])
        services.match_play(match_id=match.pk, user_id=players[side].pk, ply=ply, action=action, now=now)
        state.apply_action(action)


# -- set-ups ---------------------------------------------------------------------------


def players_with_match(
    *, variant: str, names: list[str] | None = None, rated: bool = False, password: str = PASSWORD
) -> dict[str, Any]:
    """Users ``names`` (alice, bob, charlie unless told), each with a session, and a new match of
    ``variant``: alice (pink) against bob. ``{name: {id, cookie, cookie_name}, "match": id}``."""
    out: dict[str, Any] = {}
    for name in names or ["alice", "bob", "charlie"]:
        user = user_made(name, password=password)
        out[name] = {"id": user.pk, "cookie": session_cookie(user), "cookie_name": settings.SESSION_COOKIE_NAME}
    match = services.match_create(variant=variant, pink_id=out["alice"]["id"], blue_id=out["bob"]["id"], rated=rated)
    out["match"] = match.pk
    return out


def players_signed_in(*, names: list[str]) -> dict[str, Any]:
    """Users ``names``, each with a session: ``{name: {cookie, cookie_name}}``."""
    return {
        name: {"cookie": session_cookie(user_made(name)), "cookie_name": settings.SESSION_COOKIE_NAME} for name in names
    }


def user_create(*, username: str, email: str, password: str = PASSWORD) -> dict[str, Any]:
    User.objects.create_user(username=username, email=email, password=password)
    return {}


def user_update(*, username: str, **fields: Any) -> dict[str, Any]:
    """Set fields of a user's row (their settings: the browser reads them on the next page)."""
    user = User.objects.get(username=username)
    for key, value in fields.items():
        setattr(user, key, value)
    user.save()
    return {}


def user_log_out(*, user_id: int) -> dict[str, Any]:
    """Delete the user's sessions and close their sockets, as a logout does."""
    found = False
    for session in Session.objects.all():
        if str(session.get_decoded().get("_auth_user_id")) == str(user_id):
            session.delete()
            found = True
    if not found:
        raise LookupError(f"user {user_id} has no session")
    close_user_sockets(user_id)
    return {}


def chat_abuse_setup() -> dict[str, Any]:
    """alice and bob with a match, and one she won by bob's resignation; a guest with a computer
    match. Session cookies of the three (tests/live_play/test_chat_abuse_live.py)."""
    alice = User.objects.create_user(username="alice", email="alice@example.com", password=PASSWORD)
    bob = User.objects.create_user(username="bob", email="bob@example.com", password=PASSWORD)
    guest = guest_create()
    out: dict[str, Any] = {"cookie_name": settings.SESSION_COOKIE_NAME}
    out["alice"], out["bob"], out["guest"] = session_cookie(alice), session_cookie(bob), session_cookie(guest)
    out["match"] = services.match_create(variant="cztery-w-rzedzie", pink_id=alice.pk, blue_id=bob.pk).pk
    ended = services.match_create(variant="cztery-w-rzedzie", pink_id=alice.pk, blue_id=bob.pk)
    services.match_resign(match_id=ended.pk, user_id=bob.pk)
    out["ended"] = ended.pk
    out["computer"] = services.computer_match_start(
        variant="cztery-w-rzedzie", user_id=guest.pk, level="latwy", colour="pink"
    ).pk
    return out


def c4_won_by_alice() -> dict[str, Any]:
    """A Cztery w rzędzie match alice won in 7 plies against bob (tests/live_play/test_expensive_pages_live.py)."""
    alice = User.objects.create_user(username="alice", email="a@example.com", password=PASSWORD)
    bob = User.objects.create_user(username="bob", email="b@example.com", password=PASSWORD)
    match = services.match_create(variant="cztery-w-rzedzie", pink_id=alice.pk, blue_id=bob.pk)
    for ply, column in enumerate([0, 1, 0, 1, 0, 1, 0]):
        services.match_play(match_id=match.pk, user_id=(alice if ply % 2 == 0 else bob).pk, ply=ply, action=column)
    return {"match": match.pk}


def guard_copy_setup(*, plies: int) -> dict[str, Any]:
    """Issue 36's attack (b): rated players rafal (pink) and rita play a Cztery w rzędzie match of
    ``plies`` moves that stands, active; alts xena and yuri (English) replayed it in a casual
    match xena resigned. ``{"rated": id, "copy": id, "xena": {cookie, cookie_name}, "rafal": id}``
    (tests/live_play/test_fairplay_guard_live.py)."""
    people = {name: user_made(name, language="en") for name in ("rafal", "rita", "xena", "yuri")}
    rated = services.match_create(
        variant="cztery-w-rzedzie", pink_id=people["rafal"].pk, blue_id=people["rita"].pk, rated=True
    )
    copy = services.match_create(variant="cztery-w-rzedzie", pink_id=people["xena"].pk, blue_id=people["yuri"].pk)
    play_random(rated, {1: people["rafal"], 2: people["rita"]}, plies, random.Random(36))
    rated.refresh_from_db()
    assert rated.is_active and rated.ply == plies, "the rated game must stand"
    for ply, action in enumerate(rated.history):
        side = people["xena"] if ply % 2 == 0 else people["yuri"]
        services.match_play(match_id=copy.pk, user_id=side.pk, ply=ply, action=action)
    services.match_resign(match_id=copy.pk, user_id=people["xena"].pk)
    return {
        "rated": rated.pk,
        "copy": copy.pk,
        "rafal": people["rafal"].pk,
        "xena": {"cookie": session_cookie(people["xena"]), "cookie_name": settings.SESSION_COOKIE_NAME},
    }


def guard_rated_resign(*, match_id: int, user_id: int) -> dict[str, Any]:
    """``user_id`` resigns match ``match_id``."""
    services.match_resign(match_id=match_id, user_id=user_id)
    return {}


def review_flood_setup(*, plies: int, suffix: str = "") -> dict[str, Any]:
    """Issue 37, item 2: honest "uczciwa" (joined two days ago) and three fresh accounts
    nowy1-3, each with a finished Kropki match of ``plies`` random moves (resigned) to ask the
    review of. ``{name: {"match": id, "cookie": ..., "cookie_name": ...}}`` (the accounts'
    usernames end in ``suffix``, the keys do not)."""
    from datetime import timedelta

    from django.utils import timezone

    names = ("uczciwa", "nowy1", "nowy2", "nowy3", "rywal")
    people = {name: user_made(name + suffix, language="en") for name in names}
    User.objects.filter(pk=people["uczciwa"].pk).update(date_joined=timezone.now() - timedelta(days=2))
    out: dict[str, Any] = {}
    for seed, name in enumerate(("uczciwa", "nowy1", "nowy2", "nowy3")):
        match = services.match_create(variant="kropki-10", pink_id=people[name].pk, blue_id=people["rywal"].pk)
        play_random(match, {1: people[name], 2: people["rywal"]}, plies, random.Random(37 + seed))
        services.match_resign(match_id=match.pk, user_id=people["rywal"].pk)
        out[name] = {
            "match": match.pk,
            "cookie": session_cookie(people[name]),
            "cookie_name": settings.SESSION_COOKIE_NAME,
        }
    return out


def review_timing(*, match_id: int) -> dict[str, Any]:
    """The match's review: status and when it was asked, started and finished (epoch seconds)."""
    from games.review.models import Analysis

    row = Analysis.objects.filter(match_id=match_id).first()
    if row is None:
        return {"status": None}
    stamp = lambda at: at.timestamp() if at else None  # noqa: E731
    return {
        "status": row.status,
        "requested": stamp(row.requested_at),
        "started": stamp(row.started_at),
        "finished": stamp(row.finished_at),
    }


def analyses_count(*, match_id: int) -> dict[str, Any]:
    """The reviews asked of match ``match_id`` (queued, running or done)."""
    from games.review.models import Analysis

    return {"analyses": Analysis.objects.filter(match_id=match_id).count()}


def api_people() -> dict[str, Any]:
    """ania and the bot accounts robot1-4, each with a session and an all-scopes token; ania's
    read-only and revoked tokens; a match robot3 (pink) against ania, and one ania (pink) against
    robot4 (tests/live_play/test_api_live.py)."""
    out: dict[str, Any] = {}
    for name in ("ania", "robot1", "robot2", "robot3", "robot4"):
        user = User.objects.create_user(username=name, email=name + "@example.com", password=PASSWORD)
        out[name] = {"id": user.pk, "cookie": session_cookie(user), "cookie_name": settings.SESSION_COOKIE_NAME}
        if name.startswith("robot"):
            user_become_bot(user_id=user.pk)
        out[name]["token"] = token_create(user=user, name="all", scopes=["bot:play", "challenge:write", "board:read"])[
            1
        ]
    ania = User.objects.get(username="ania")
    out["ania"]["read_token"] = token_create(user=ania, name="read", scopes=["board:read"])[1]
    revoked, secret = token_create(user=ania, name="gone", scopes=["challenge:write"])
    token_revoke(user=ania, token_id=revoked.pk)
    out["ania"]["revoked_token"] = secret
    match = services.match_create(variant="cztery-w-rzedzie", pink_id=out["robot3"]["id"], blue_id=out["ania"]["id"])
    out["restart_match"] = match.pk
    match = services.match_create(variant="cztery-w-rzedzie", pink_id=out["ania"]["id"], blue_id=out["robot4"]["id"])
    out["bridge_restart_match"] = match.pk
    return out


# -- read-backs ------------------------------------------------------------------------


def _iso(moment: datetime | None) -> str | None:
    return moment.isoformat() if moment else None


def match_db_state(*, match_id: int) -> dict[str, Any]:
    """A match's row, its moves, its rating changes, both players' games, and every active match's
    deadline (tests/faults/)."""
    m = Match.objects.get(pk=match_id)
    moves = Move.objects.filter(match=m).order_by("ply").values_list("ply", "player", "action", "by_timeout")
    return {
        "ply": m.ply,
        "history": m.history,
        "status": m.status,
        "end_reason": m.end_reason,
        "winner": m.winner,
        "to_move": m.to_move,
        "deadline": _iso(m.turn_deadline),
        "finished_at": _iso(m.finished_at),
        "moves": [list(move) for move in moves],
        "rating_changes": [
            list(row) for row in RatingChange.objects.filter(match_id=m.pk).values_list("user_id", "side")
        ],
        "games": {str(r.user_id): r.games for r in Rating.objects.filter(user_id__in=[m.pink_id, m.blue_id])},
        "active_deadlines": [
            [pk, deadline.isoformat()]
            for pk, deadline in Match.objects.filter(status="active", turn_deadline__isnull=False).values_list(
                "pk", "turn_deadline"
            )
            if deadline is not None
        ],
    }


def match_rows(*, match_ids: list[int]) -> dict[str, Any]:
    """Each match's move plies, end reason and end time (epoch seconds), by id (tests/faults/test_cluster.py)."""
    return {
        str(m.pk): {
            "plies": list(Move.objects.filter(match=m).order_by("ply").values_list("ply", flat=True)),
            "end_reason": m.end_reason,
            "finished_at": m.finished_at.timestamp() if m.finished_at else None,
        }
        for m in Match.objects.filter(pk__in=match_ids)
    }


def rating_deltas(*, match_id: int) -> dict[str, Any]:
    """The match's rating changes: side ("1", "2") -> delta."""
    return {str(c.side): c.delta for c in RatingChange.objects.filter(match_id=match_id)}


def chat_lines_count() -> dict[str, Any]:
    return {"count": ChatMessage.objects.count()}


def reports_count() -> dict[str, Any]:
    return {"count": Report.objects.count()}


def api_stream_people() -> dict[str, Any]:
    """tomek (two all-scopes tokens) and wanda (one), and a match between two others that
    their game streams watch (tests/live_play/test_api_streams_live.py)."""
    out: dict[str, Any] = {}
    for name in ("tomek", "wanda", "gracz1", "gracz2"):
        user = User.objects.create_user(username=name, email=name + "@example.com", password=PASSWORD)
        out[name] = {"id": user.pk}
    for name, count in (("tomek", 2), ("wanda", 1)):
        user = User.objects.get(pk=out[name]["id"])
        made = [token_create(user=user, name=f"t{n}", scopes=["bot:play", "challenge:write"]) for n in range(count)]
        out[name]["tokens"] = [{"id": token.pk, "secret": secret} for token, secret in made]
    match = services.match_create(variant="cztery-w-rzedzie", pink_id=out["gracz1"]["id"], blue_id=out["gracz2"]["id"])
    out["match"] = match.pk
    return out


def api_token_revoke(*, user_id: int, token_id: int) -> dict[str, Any]:
    return {"revoked": token_revoke(user=User.objects.get(pk=user_id), token_id=token_id)}


def deleted_player_games() -> dict[str, Any]:
    """kasia (pink) won a Cztery w rzędzie game against olek and plays another with him; olek has a
    session and a read token (tests/live_play/test_deleted_player_live.py: kasia is then deleted)."""
    kasia, olek = user_made("kasia"), user_made("olek")
    done = services.match_create(variant="cztery-w-rzedzie", pink_id=kasia.pk, blue_id=olek.pk)
    for ply, column in enumerate([0, 1, 0, 1, 0, 1, 0]):
        services.match_play(match_id=done.pk, user_id=(kasia if ply % 2 == 0 else olek).pk, ply=ply, action=column)
    active = services.match_create(variant="kropki-10", pink_id=kasia.pk, blue_id=olek.pk)
    return {
        "kasia": kasia.pk,
        "olek": olek.pk,
        "done": done.pk,
        "active": active.pk,
        "olek_cookie": session_cookie(olek),
        "cookie_name": settings.SESSION_COOKIE_NAME,
        "olek_token": token_create(user=olek, name="read", scopes=["board:read"])[1],
    }


def api_account_delete(*, user_id: int) -> dict[str, Any]:
    return {"deleted": account_delete(user_id=user_id).is_deleted}


def followed_player_playing(*, follower: str, followed: str, opponent: str) -> dict[str, Any]:
    """Three new accounts with sessions, and a match of ``followed`` (pink) against ``opponent``
    (tests/browser/test_social_browser.py: following). ``{name: {cookie, cookie_name}, "match": id}``."""
    users = {name: user_made(name) for name in (follower, followed, opponent)}
    match = services.match_create(variant="cztery-w-rzedzie", pink_id=users[followed].pk, blue_id=users[opponent].pk)
    out: dict[str, Any] = {
        name: {"cookie": session_cookie(user), "cookie_name": settings.SESSION_COOKIE_NAME}
        for name, user in users.items()
    }
    out["match"] = match.pk
    return out


def correspondence_pair(*, days: int) -> dict[str, Any]:
    """Two accounts with verified addresses and sessions, and a rated correspondence game of Cztery w
    rzędzie between them, ``days`` a move (made by the service a challenge calls: new accounts may
    not challenge rated; tests/games/play/test_correspondence.py starts one by a challenge)
    (tests/live_play/test_correspondence_live.py). ``{pink: {...}, blue: {...}, "match": id}``."""
    a, b = user_made("kora", email="kora@example.com"), user_made("kuba", email="kuba@example.com")
    User.objects.filter(pk__in=[a.pk, b.pk]).update(email_verified=True)
    match = services.match_create(variant="cztery-w-rzedzie", pink_id=a.pk, blue_id=b.pk, rated=True, days=days)
    out: dict[str, Any] = {"match": match.pk}
    for side, found in (("pink", match.pink), ("blue", match.blue)):
        assert found is not None
        user = found
        out[side] = {
            "id": user.pk,
            "name": user.username,
            "email": user.email,
            "cookie": session_cookie(user),
            "cookie_name": settings.SESSION_COOKIE_NAME,
        }
    return out


def correspondence_advance(*, match_id: int, hours: float) -> dict[str, Any]:
    """``hours`` of the game's time pass: its deadline and its moments move that much earlier (the
    site's processes run on the real clock; the game's clock is its rows)."""
    shift = timedelta(hours=hours)
    match = Match.objects.get(pk=match_id)
    match.turn_deadline = match.turn_deadline - shift if match.turn_deadline else None
    match.last_move_at = match.last_move_at - shift if match.last_move_at else None
    match.created_at = match.created_at - shift
    match.save(update_fields=["turn_deadline", "last_move_at", "created_at"])
    return {"deadline": _iso(match.turn_deadline)}


def correspondence_state(*, match_id: int) -> dict[str, Any]:
    """A correspondence game as its rows say: status, result, its pool's rating changes, and the
    notifications of its players (kind and whether mailed)."""
    from games.notifications.models import Notification  # a feature's rows

    match = Match.objects.get(pk=match_id)
    return {
        "status": match.status,
        "winner": match.winner,
        "reason": match.end_reason,
        "ply": match.ply,
        "pool": match.pool,
        "changes": sorted(RatingChange.objects.filter(match_id=match_id).values_list("variant", flat=True)),
        "notifications": [
            [n.user_id, n.kind, n.mail]
            for n in Notification.objects.filter(user_id__in=[match.pink_id, match.blue_id]).order_by("id")
        ],
    }
