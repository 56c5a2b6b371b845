"""What the browser tests' pages need in the live site's database (tests/browser): players in a
language, finished and active matches to show, challenges in the lobby
(tests/sitecalls/__init__.py)."""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.utils import timezone

from accounts.models import User
from games import play as services
from games.catalogue import variant as get_variant
from games.following.services import follow
from games.models import Match
from games.notifications.services import deliver_pending
from games.puzzles import builder
from games.puzzles.models import Puzzle
from games.tournaments.swiss.models import SwissTournament
from games.tournaments.swiss.services import swiss_join, swiss_tick
from ratings.models import Rating
from tests.factories import bulk_finished_matches

from . import PASSWORD
from .players import play_random, session_cookie, user_made

__all__ = [
    "a11y_pages",
    "analysed_match",
    "clock_words_players",
    "english_players",
    "layout_pages",
    "polish_pages_seed",
    "provisional_player",
    "two_players",
    "ux2_profiles",
]


def _a_puzzle() -> int:
    """The shipped puzzles loaded (once), and the first Kropki one's id (the page walks)."""
    builder.load()
    return Puzzle.objects.filter(variant="kropki-10").order_by("pk").values_list("pk", flat=True)[0]


def _numbered(prefix: str, name: str, language: str) -> User:
    """The user ``name``, else a new one whose e-mail is ``<prefix><users so far>@example.com``."""
    found = User.objects.filter(username=name).first()
    return found or User.objects.create_user(
        username=name, email=f"{prefix}{User.objects.count()}@example.com", password=PASSWORD, language=language
    )


def clock_words_players(*, lang: str) -> dict[str, Any]:
    """clk_<lang>_pink and clk_<lang>_blue (language ``lang``), sessions, a Kropki 10x10 match
    between them (tests/browser/test_clock_words.py)."""
    out: dict[str, Any] = {"cookie_name": settings.SESSION_COOKIE_NAME}
    for colour in ("pink", "blue"):
        name = f"clk_{lang}_{colour}"
        user = user_made(name, language=lang)
        out[colour] = {"id": user.pk, "name": name, "cookie": session_cookie(user)}
    out["match"] = services.match_create(variant="kropki-10", pink_id=out["pink"]["id"], blue_id=out["blue"]["id"]).pk
    return out


def ux2_profiles() -> dict[str, Any]:
    """Per language a player with a long name and three finished matches against a rival with a
    longer one; a player about to delete their account (tests/browser/test_site_ux2_browser.py)."""

    def user(name: str, language: str) -> User:
        return user_made(name, email=name.lower() + "@example.com", language=language)

    out: dict[str, Any] = {"cookie_name": settings.SESSION_COOKIE_NAME, "lang": {}}
    for lang in ("pl", "en"):
        me = user(f"Grzegorz_Brzęczyszczykiewicz_ux2_{lang}", lang)
        # a long opponent's name and long game names: the table is wider than the page, its
        # columns shrink, and "Zapis" must not be the one that breaks ("Zapi/s")
        rival = user(f"Konstantynopolitańczykowianeczka_z_Brzęczyszczykiewiczów_{lang}", lang)
        for variant in ("kropki-20", "kropki-i-kwadraty", "cztery-w-rzedzie"):
            done = services.match_create(variant=variant, pink_id=me.pk, blue_id=rival.pk)
            services.match_resign(match_id=done.pk, user_id=rival.pk)
        out["lang"][lang] = {"username": me.username, "cookie": session_cookie(me)}
    leaving = user("odchodzi_ux2", "pl")
    out["leaving"] = {"username": leaving.username, "cookie": session_cookie(leaving)}
    return out


def a11y_pages() -> dict[str, Any]:
    """Per language a player with a finished rated match and an active one against a player named
    ``<img src=x onerror=alert(1)>``; ratings established (tests/browser/test_a11y.py)."""
    out: dict[str, Any] = {"cookie_name": settings.SESSION_COOKIE_NAME, "lang": {}}
    xss = _numbered("u", "<img src=x onerror=alert(1)>", "pl")
    for lang in ("pl", "en"):
        pink, blue = _numbered("u", f"a11y_{lang}_pink", lang), _numbered("u", f"a11y_{lang}_blue", lang)
        done = services.match_create(variant="cztery-w-rzedzie", pink_id=pink.pk, blue_id=blue.pk, rated=True)
        for ply, (who, col) in enumerate([(pink, 3), (blue, 4), (pink, 3), (blue, 4), (pink, 3), (blue, 4), (pink, 3)]):
            services.match_play(match_id=done.pk, user_id=who.pk, ply=ply, action=col)
        active = services.match_create(variant="kropki-10", pink_id=pink.pk, blue_id=xss.pk)
        services.match_play(match_id=active.pk, user_id=pink.pk, ply=0, action=44)
        services.match_play(match_id=active.pk, user_id=xss.pk, ply=1, action=45)
        follow(follower=xss, username=pink.username)  # a line in the notifications, with the odd name
        deliver_pending()  # beat's delivery
        out["lang"][lang] = {
            "username": pink.username,
            "cookie": session_cookie(pink),
            "finished": done.pk,
            "active": active.pk,
        }
    Rating.objects.update(deviation=80)  # established: listed in the ranking
    out["xss"] = {"username": xss.username, "cookie": session_cookie(xss)}
    # A running Swiss with those players (boards, a bye, standings with the odd name).
    swiss = SwissTournament.objects.create(
        name="Szwajcar a11y", variant="cztery-w-rzedzie", rounds=3, rated=False, starts_at=timezone.now()
    )
    for user in User.objects.filter(username__startswith="a11y_").order_by("pk")[:4]:
        swiss_join(tournament_id=swiss.pk, user=user)
    swiss_join(tournament_id=swiss.pk, user=xss)
    swiss_tick()
    out["swiss"] = swiss.pk
    out["puzzle"] = _a_puzzle()
    return out


def layout_pages() -> dict[str, Any]:
    """Per language a player with a long name: finished matches, a long Kropki 20x20 record, a
    Kropki i kwadraty and a Kropki 20x20 match going on, an open challenge of theirs and one of
    their rival's; ratings established (tests/browser/test_layout.py)."""

    def play(match: Match, players: dict[int, User], plies: int, seed: int) -> None:
        # ``plies`` legal moves of the match's game (no "end"), chosen at random.
        play_random(match, players, plies, random.Random(seed))

    out: dict[str, Any] = {"cookie_name": settings.SESSION_COOKIE_NAME, "lang": {}}
    for lang in ("pl", "en"):
        # a long (but allowed) name: it must wrap or be cut, never widen a page
        me = _numbered("l", f"Grzegorz_Brzęczyszczykiewicz_{lang}", lang)
        rival = _numbered("l", f"layout_rywal_{lang}", lang)
        players = {1: me, 2: rival}
        follow(follower=rival, username=me.username)  # a line in the notifications
        follow(follower=me, username=rival.username)
        deliver_pending()  # beat's delivery
        for n in range(3):
            done = services.match_create(variant="cztery-w-rzedzie", pink_id=me.pk, blue_id=rival.pk, rated=True)
            play(done, players, 6, n)
            services.match_resign(match_id=done.pk, user_id=rival.pk)
        record = services.match_create(variant="kropki-20", pink_id=me.pk, blue_id=rival.pk, rated=True)
        play(record, players, 120, 7)
        services.match_resign(match_id=record.pk, user_id=rival.pk)
        boxes = services.match_create(variant="kropki-i-kwadraty", pink_id=rival.pk, blue_id=me.pk)
        play(boxes, {1: rival, 2: me}, 20, 8)
        active = services.match_create(variant="kropki-20", pink_id=me.pk, blue_id=rival.pk, rated=True)
        play(active, players, 80, 9)
        mine = services.challenge_create(user_id=me.pk, variant="kropki-i-kwadraty", rated=False, listed=True)
        theirs = services.challenge_create(user_id=rival.pk, variant="kropki-20", rated=True, listed=True)
        record.refresh_from_db()
        game = get_variant(record.variant).game()
        out["lang"][lang] = {
            "username": me.username,
            "cookie": session_cookie(me),
            "record": record.pk,
            "record_moves": [game.action_to_string(a) for a in record.history],
            "active": active.pk,
            "boxes": boxes.pk,
            "challenges": [str(mine.token), str(theirs.token)],
        }
    Rating.objects.update(deviation=80)  # established: listed in the ranking
    # A running Swiss of three players with long names (its boards, the bye, the standings).
    swiss = SwissTournament.objects.create(
        name="Szwajcarski turniej o bardzo długiej nazwie dla telefonów",
        variant="cztery-w-rzedzie",
        rounds=5,
        rated=False,
        starts_at=timezone.now() + timedelta(hours=1),  # the site's beat does not start it before the joins
    )
    for n in range(3):
        swiss_join(tournament_id=swiss.pk, user=_numbered("l", f"Konstantynopolitańczykowianeczka_{n}", "pl"))
    SwissTournament.objects.filter(pk=swiss.pk).update(starts_at=timezone.now())
    swiss_tick()
    out["swiss"] = swiss.pk
    out["puzzle"] = _a_puzzle()
    return out


def polish_pages_seed() -> dict[str, Any]:
    """ola_strony with 25 finished matches against ewa_strony (once), every active match aborted,
    then one between the two and a game of ewa against the computer (tests/browser/test_polish_pages.py)."""
    ola, _ = User.objects.get_or_create(username="ola_strony", defaults={"email": "ola_strony@example.com"})
    ewa, _ = User.objects.get_or_create(username="ewa_strony", defaults={"email": "ewa_strony@example.com"})
    if not Match.objects.filter(pink=ola).exists():
        bulk_finished_matches(ola, [ewa], 25)
    Match.objects.filter(status="active").update(status="aborted", end_reason="aborted", turn_deadline=None)
    services.match_create(variant="cztery-w-rzedzie", pink_id=ola.pk, blue_id=ewa.pk)
    services.match_create(variant="kropki-10", pink_id=ewa.pk, blue_id=None, bot_level="latwy")
    return {}


def english_players() -> dict[str, Any]:
    """eng_pink and eng_blue (English), their session cookies by name, two Cztery w rzędzie
    matches between them (tests/browser/test_english_pages.py)."""
    out: dict[str, Any] = {"cookie_name": settings.SESSION_COOKIE_NAME}
    for name in ("eng_pink", "eng_blue"):
        out[name] = session_cookie(user_made(name, language="en"))
    pink, blue = User.objects.get(username="eng_pink"), User.objects.get(username="eng_blue")
    out["matches"] = [
        services.match_create(variant="cztery-w-rzedzie", pink_id=pink.pk, blue_id=blue.pk).pk for _ in range(2)
    ]
    return out


def provisional_player() -> dict[str, Any]:
    """nowicjusz_ux, provisional in Kropki i kwadraty (tests/browser/test_ux_pages_browser.py)."""
    u, _ = User.objects.get_or_create(username="nowicjusz_ux", defaults={"email": "nowicjusz@example.com"})
    Rating.objects.update_or_create(
        user=u, variant="kropki-i-kwadraty", defaults={"rating": 1620, "deviation": 290, "games": 2}
    )
    return {"username": u.username}


def two_players(
    *, pink: str, blue: str, password: str = PASSWORD, variant: str = "", rated: bool = False
) -> dict[str, Any]:
    """New users ``pink`` and ``blue`` with sessions and, with ``variant``, a match between them
    (tests/browser/test_after_match.py)."""
    out: dict[str, Any] = {"cookie_name": settings.SESSION_COOKIE_NAME}
    for key, name in (("pink", pink), ("blue", blue)):
        user = User.objects.create_user(username=name, email=name + "@example.com", password=password)
        out[key] = {"id": user.pk, "name": name, "cookie": session_cookie(user)}
    if variant:
        out["match"] = services.match_create(
            variant=variant, pink_id=out["pink"]["id"], blue_id=out["blue"]["id"], rated=rated
        ).pk
    return out


def analysed_match(*, pink: str, blue: str, history: list[int]) -> dict[str, Any]:
    """New users ``pink`` (Polish) and ``blue`` (English) with sessions, and a finished Kropki 10x10
    match of ``history`` between them that pink won by resignation (tests/browser/test_analysis_browser.py)."""
    out: dict[str, Any] = {"cookie_name": settings.SESSION_COOKIE_NAME}
    users = {}
    for key, name, language in (("pink", pink, "pl"), ("blue", blue, "en")):
        user = User.objects.create_user(
            username=name, email=name + "@example.com", password=PASSWORD, language=language
        )
        users[key] = user
        out[key] = {"id": user.pk, "name": name, "cookie": session_cookie(user)}
    out["match"] = Match.objects.create(
        variant="kropki-10",
        pink=users["pink"],
        blue=users["blue"],
        status=Match.Status.FINISHED,
        winner=1,
        end_reason="resignation",
        ply=len(history),
        history=history,
        finished_at=timezone.now(),
    ).pk
    return out
