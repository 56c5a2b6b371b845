"""The arenas' pages (/turnieje/): the list, making one, the tournament page, and the
buttons (join, withdraw, berserk). Thin: each reads the display module or calls one
service of games/tournaments/services.py; the page stays current over the site socket."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.core.cache import cache
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.http.response import HttpResponseBase
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from accounts.decorators import AuthenticatedHttpRequest, account_required
from games import catalogue
from games.models import Match
from kropki_site.lib.refusals import Refusal

from . import selectors, services
from .display import STANDINGS_SHOWN, board_version, free_players, playing_now, standings_rows
from .models import Tournament

LIST_LIMIT = 20
# Issue 38: a refused button names its code for a program. With ``Accept: application/json`` the
# answer is JSON ``{"code", "message"}`` with the code's HTTP status; a page's redirect carries
# the code in this header (and the words as the page's message). docs/tournaments.md "Addresses".
REFUSAL_HEADER = "Kropki-Refusal"
BOARD_SECONDS = 600  # a cached standings page (its key changes with the arena)


@require_GET
def tournament_list(request: HttpRequest) -> HttpResponse:
    user_id = request.user.pk if request.user.is_authenticated else None
    context: dict[str, Any] = {
        **selectors.visible_lists(user_id, LIST_LIMIT),
        "variants": catalogue.variant_games(),
        "game_options": catalogue.option_fields(),
        "delays": services.START_DELAYS,
        "clocks": services.MOVE_CLOCKS,
        "durations": services.DURATIONS,
        "can_create": request.user.is_authenticated and not getattr(request.user, "is_guest", False),
    }
    return render(request, "games/tournaments.html", context)


def _int(value: str, default: int) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return default


def wants_json(request: HttpRequest) -> bool:
    return "application/json" in request.headers.get("Accept", "")


def _refused(request: HttpRequest, exc: Refusal, back: HttpResponse) -> HttpResponse:
    """A refusal: JSON for a program that asked for it, else the page's message and ``back`` with the code's header."""
    if wants_json(request):
        return JsonResponse({"code": exc.code, "message": exc.message}, status=exc.status)
    messages.error(request, exc.message)
    back[REFUSAL_HEADER] = exc.code
    return back


def _done(request: HttpRequest, back: HttpResponse, **data: Any) -> HttpResponse:
    """Done: ``{"ok": true, …}`` for a program that asked for JSON, else ``back`` (a redirect)."""
    return JsonResponse({"ok": True, **data}) if wants_json(request) else back


def json_account(view: Any) -> Any:
    """``account_required`` for a page; for a program asking for JSON, a visitor not logged in gets
    ``login_required`` (401) and a guest ``tournament_account`` (400), as JSON, not a redirect."""
    guarded = account_required(view)

    def wrapper(request: HttpRequest, /, *args: Any, **kwargs: Any) -> HttpResponseBase:
        if wants_json(request):
            if not request.user.is_authenticated:
                return JsonResponse(
                    {"code": "login_required", "message": Refusal("login_required").message}, status=401
                )
            if getattr(request.user, "is_guest", False):
                exc = Refusal("tournament_account")
                return JsonResponse({"code": exc.code, "message": exc.message}, status=exc.status)
        return guarded(request, *args, **kwargs)

    wrapper.__name__ = view.__name__
    wrapper.__doc__ = view.__doc__
    return wrapper


@json_account
@require_POST
def tournament_new(request: AuthenticatedHttpRequest) -> HttpResponse:
    post = request.POST
    try:
        t = services.tournament_create(
            user=request.user,
            variant=post.get("variant", ""),
            start_in_minutes=_int(post.get("start", ""), -1),
            minutes=_int(post.get("minutes", ""), -1),
            move_seconds=_int(post.get("move_seconds", ""), -1),
            rated=post.get("rated") == "1",
            public=post.get("public") == "1",
            name=post.get("name", ""),
            options=post.dict(),
        )
    except Refusal as exc:
        return _refused(request, exc, redirect("tournaments"))
    return _done(request, redirect(tournament_url(t)), id=t.pk, url=tournament_url(t))


def tournament_url(t: Tournament) -> str:
    url = reverse("tournament", args=[t.pk])
    return url if t.public else f"{url}?klucz={t.token}"


def _visible(request: HttpRequest, t: Tournament) -> bool:
    """A private arena is seen (and joined) with its link's key, by its maker and its players."""
    if t.public or (request.GET.get("klucz") or request.POST.get("klucz")) == str(t.token):
        return True
    if not request.user.is_authenticated:
        return False
    return t.creator_id == request.user.pk or selectors.plays_in(t, request.user.pk)


@require_GET
def tournament_page(request: HttpRequest, tournament_id: int) -> HttpResponse:
    board = _board(tournament_id, request.GET.get("strona"))
    t = board["t"]
    if not _visible(request, t):
        raise Http404
    me = None
    my_match = None
    if request.user.is_authenticated:
        me = selectors.my_line(t, request.user.pk)
        if me is not None and me.match is not None and me.match.status == Match.Status.ACTIVE:
            my_match = me.match
    now = timezone.now()
    context = {
        "t": t,
        "variant_name": catalogue.variant_name(t.variant),
        "options": catalogue.options_words(t.variant, t.params),
        **board,
        "me": me,
        "my_match": my_match,
        "seconds_left": max(
            0, int(((t.starts_at if t.status == t.Status.UPCOMING else t.ends_at) - now).total_seconds())
        ),
        "member": request.user.is_authenticated and not getattr(request.user, "is_guest", False),
        "link": request.build_absolute_uri(tournament_url(t)) if not t.public else "",
        "live": {
            "id": t.pk,
            "status": t.status,
            # a new game of theirs that has not begun: the page takes them to it
            "my_match_url": reverse("match", args=[my_match.pk]) if my_match is not None and my_match.ply == 0 else "",
            # a waiting player's "your next game in…" (static/js/tournament.js): who is free now
            "me": request.user.get_username() if me is not None else "",
            "free": board["free"],
            "wave_seconds": round(settings.TOURNAMENT_PAIR_SECONDS),
            "words": {
                "fire": _("On a streak: games count double"),
                "fire_short": _("on a streak"),
                "paused": _("(paused)"),
                "playing": _("(playing)"),
                "nobody": _("Nobody has joined yet."),
                "no_games": _("No game right now."),
                "paired": _("Your game is starting…"),
                # %(seconds)s: how often the waves pair (2)
                "next_soon": _("Another player is free: your next game in about %(seconds)s s."),
                "next_wait": _("Your next game as soon as another player is free."),
                "next_rematch": _(
                    "Nobody new is free: a rematch in a few seconds, unless another player becomes free."
                ),
                "profile_prefix": reverse("profile", args=["_"])[:-2],
                "deleted": _("deleted account"),  # a standings line without a name
                "match_prefix": reverse("match", args=[0])[:-2],
            },
        },
    }
    return render(request, "games/tournament.html", context)


def _board(tournament_id: int, page_asked: str | None) -> dict[str, Any]:
    """The arena and its page's standings (a page of lines drawn as HTML, their number),
    podium and games being played: drawn once per change of the arena and kept in the shared
    cache under the arena's board version (``board_changed``, at every change, its start and
    end included), so an unchanged arena costs two cache reads and no query. (An edit in the
    admin shows within BOARD_SECONDS.)"""
    asked = page_asked if page_asked and page_asked.isdigit() and len(page_asked) < 6 else "1"
    key = f"arena-board:{tournament_id}:{board_version(tournament_id)}:{asked}:{get_language()}"
    board = cache.get(key)
    if board is None:
        t = selectors.tournament_row(tournament_id)
        if t is None:
            raise Http404
        count = selectors.player_count(t)
        page = Paginator(range(count), STANDINGS_SHOWN).get_page(asked)
        offset = (page.number - 1) * STANDINGS_SHOWN
        finished = t.status == Tournament.Status.FINISHED
        board = {
            "t": t,
            "lines": str(
                _standings_lines(
                    standings_rows(
                        selectors.standings_lines(t, offset=offset, limit=STANDINGS_SHOWN),
                        offset=offset,
                        finished=finished,
                    )
                )
            ),
            "podium": standings_rows(selectors.standings_lines(t, limit=3), finished=True) if finished else [],
            "playing": playing_now(selectors.playing_lines(t)),
            "free": free_players(selectors.free_lines(t)),
            "count": count,
            "page": page,
        }
        cache.set(key, board, BOARD_SECONDS)
    return {**board, "lines": mark_safe(board["lines"])}


def _standings_lines(rows: list[dict[str, Any]]) -> SafeString:
    """The standings' table rows as HTML (names escaped by ``format_html``), the same markup
    static/js/tournament.js draws from a frame."""
    if not rows:
        return format_html('<tr><td colspan="4" class="muted">{}</td></tr>', _("Nobody has joined yet."))
    fire = format_html(
        ' <span class="flame" title="{}" aria-hidden="true">🔥</span><span class="visually-hidden">{}</span>',
        _("On a streak: games count double"),
        _("on a streak"),
    )
    paused = format_html(' <span class="muted">{}</span>', _("(paused)"))
    playing = format_html(' <span class="muted">{}</span>', _("(playing)"))
    return format_html_join(
        "\n",
        '<tr{}><td class="num">{}</td><th scope="row">{}{}{}</th>'
        '<td class="num" data-testid="points">{}</td><td class="marks">{}</td></tr>',
        (
            (
                mark_safe(' class="paused"') if r["paused"] else "",
                r["rank"],
                format_html('<a href="{}">{}</a>', r["url"], r["name"]) if r["url"] else r["name"],
                fire if r["fire"] else "",
                paused if r["paused"] else playing if r["playing"] else "",
                r["points"],
                r["marks"],
            )
            for r in rows
        ),
    )


def _visible_row(request: HttpRequest, tournament_id: int) -> Tournament:
    """The arena if the visitor may see it, else a 404 (the same for a missing one: walking the
    ids tells a stranger nothing, least of all a private arena's key)."""
    t = selectors.tournament_row(tournament_id)
    if t is None or not _visible(request, t):
        raise Http404
    return t


def _back(t_id: int, request: HttpRequest) -> HttpResponse:
    """Back to the arena's page: its link with the key only for whom the page shows it."""
    return redirect(tournament_url(_visible_row(request, t_id)))


@json_account
@require_POST
def tournament_join_view(request: AuthenticatedHttpRequest, tournament_id: int) -> HttpResponse:
    _visible_row(request, tournament_id)
    try:
        services.tournament_join(tournament_id=tournament_id, user=request.user)
    except Refusal as exc:
        if exc.code == "tournament_not_found":
            raise Http404 from exc
        return _refused(request, exc, _back(tournament_id, request))
    return _done(request, _back(tournament_id, request), id=tournament_id)


@json_account
@require_POST
def tournament_withdraw_view(request: AuthenticatedHttpRequest, tournament_id: int) -> HttpResponse:
    _visible_row(request, tournament_id)  # a stranger's press: a 404, no redirect carrying the key
    try:
        services.tournament_withdraw(tournament_id=tournament_id, user=request.user)
    except Refusal as exc:
        return _refused(request, exc, _back(tournament_id, request))
    return _done(request, _back(tournament_id, request), id=tournament_id)


@json_account
@require_POST
def berserk_view(request: AuthenticatedHttpRequest, match_id: int) -> HttpResponse:
    try:
        services.tournament_berserk(match_id=match_id, user=request.user)
    except Refusal as exc:
        if exc.code == "not_found":
            raise Http404 from exc
        return _refused(request, exc, redirect("match", match_id=match_id))
    return _done(request, redirect("match", match_id=match_id), match=match_id)
