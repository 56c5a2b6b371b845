"""Pages of live play: the match page and challenges by link.

Views stay thin: they read, or call one service and redirect. Every change of
a match itself goes through the WebSocket (games/match_consumer.py) and
games/services.py.
"""

from __future__ import annotations

import uuid
from urllib.parse import urlencode

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required

from accounts.decorators import account_required
from games.rule_links import RULE_ANCHORS
from games.rules_views import rule_url
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.cache import patch_cache_control
from django.utils.translation import get_language, gettext as _, pgettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from games import services
from games.errors import MatchError
from games.models import PINK, VARIANT_CHOICES, Challenge, Match
from games.render import board_words
from games.snapshot import board_svg, match_snapshot, result_table
from games.variants import get_variant


def _rule_links(slug: str) -> dict[str, str]:
    """Error code -> the rules section behind it, for every code a move can get."""
    links = {}
    for code in RULE_ANCHORS.get(slug, {}):
        url = rule_url(slug, code)
        if url is not None:
            links[code] = url
    return links


@require_GET
def match_page(request: HttpRequest, match_id: int) -> HttpResponse:
    match = get_object_or_404(Match.objects.select_related("pink", "blue"), pk=match_id)
    state = services.match_state(match)
    snapshot = match_snapshot(match, state)
    user_id = request.user.pk if request.user.is_authenticated else None
    you = match.side_of(user_id)
    lang = get_language()
    page = {
        "you": you,
        "lang": lang,
        "ws_path": f"/ws/match/{match.pk}/",
        "board_url": reverse("match_board", args=[match.pk, 0]),
        "rule_links": _rule_links(snapshot["game"]),
        "words": board_words(lang),
    }
    strings = _strings()
    return render(request, "games/match.html", {
        "match": match,
        "snapshot": snapshot,
        "page": page,
        "you": you,
        "is_player": you is not None,
        "board_svg": board_svg(match, state, match.is_active, lang),
        "strings": strings,
        "winner_line": _winner_line(snapshot, strings),
        "rating_lines": _rating_lines(snapshot, strings),
        "next_game": _next_game(match, you),
    })


def _signed(delta: int) -> str:
    """+12, −12 (a real minus sign), ±0: as match.js writes it."""
    return f"+{delta}" if delta > 0 else f"\u2212{-delta}" if delta < 0 else "\u00b10"


def _winner_line(snapshot: dict, strings: dict[str, str]) -> str:
    """"Winner: Ania (pink)" once a match is won; match.js writes the same live."""
    winner = snapshot["winner"]
    if snapshot["status"] != Match.Status.FINISHED or winner is None:
        return ""
    colour = strings["pink"] if winner == 1 else strings["blue"]
    return strings["winner"] % {"name": snapshot["players"][str(winner)]["name"], "colour": colour}


def _rating_lines(snapshot: dict, strings: dict[str, str]) -> list[str]:
    """Each player's rating change in a rated match ("Ania: +12 (rating 1512)")."""
    deltas = snapshot.get("rating_deltas") or {}
    return [
        strings["rating_change"] % {
            "name": snapshot["players"][side]["name"], "delta": _signed(d["delta"]),
            "after": f"{d['after']}{'?' if d['provisional'] else ''}",
        }
        for side, d in sorted(deltas.items())
    ]


def _next_game(match: Match, you: int | None) -> dict | None:
    """Where "New game" posts for a player: the computer again at the same level
    and colour, the ranked queue after a rated match, else a new challenge."""
    if you is None:
        return None
    if match.bot_level:
        colour = "pink" if you == PINK else "blue"
        return {"url": reverse("play_computer"),
                "fields": {"variant": match.variant, "level": match.bot_level, "colour": colour}}
    if match.rated:
        return {"url": reverse("queue_join"), "fields": {"variant": match.variant}}
    return {"url": reverse("challenge_new"), "fields": {"variant": match.variant, "mode": "casual"}}


@require_GET
def match_board(request: HttpRequest, match_id: int, ply: int) -> HttpResponse:
    """The board of ``match`` after ``ply`` moves as SVG, drawn by the one
    renderer: what a live page fetches after a gap (docs/protocol.md).
    ``?live=1``: with the targets of a match in play; ``?lang=pl|en``: the
    words. A position never changes once played, so the answer is cached."""
    match = get_object_or_404(Match, pk=match_id)
    if ply > match.ply:
        raise Http404
    lang = request.GET.get("lang")
    known = {code for code, _name in settings.LANGUAGES}
    if lang not in known:
        lang = get_language()
    state = get_variant(match.variant).game().state_from_history(match.history[:ply])
    live = request.GET.get("live") == "1"
    response = HttpResponse(board_svg(match, state, live, lang), content_type="image/svg+xml; charset=utf-8")
    patch_cache_control(response, public=True, max_age=86400, immutable=True)
    return response


def _strings() -> dict[str, str]:
    """Words the page's JS shows (translated here so that JS holds no language)."""
    return {
        "your_turn": _("Your move"),
        "their_turn": _("Your opponent's move"),
        "turn_of": _("Move: %(name)s"),
        "pink": _("pink"),
        "blue": _("blue"),
        "finished": _("The match is over."),
        "extra_move": _("Extra move! %(name)s closed a box and moves again."),
        "your_extra_move": _("Extra move! You closed a box: move again."),
        "no_line": _("No line of four is possible any more: the match is a draw."),
        "ended": _("%(name)s has ended the game; the other player may play on."),
        "you_ended": _("You have ended the game; your opponent may play on."),
        # Kropki: the clock ends the game of a player whose time ran out
        "clock_ended": _("%(name)s ran out of time, which ends their game; the other player may play on."),
        "you_clock_ended": _("Your time ran out, which ends your game; your opponent may play on."),
        "ran_out": _("%(name)s ran out of time."),
        "move_end": pgettext("move list", "end"),
        "move_timeout": _("time ran out"),
        "draw_offered": _("%(name)s offers a draw."),
        "draw_declined": _("The draw offer was declined."),
        "rematch_offered": _("%(name)s offers a rematch."),
        "rematch_declined": _("The rematch offer was declined."),
        "moved": _("%(name)s: %(move)s."),
        "confirm_resign": _("Resign this match? It counts as a loss."),
        "confirm_end": _("End the game? You will make no more moves; your opponent may play on alone."),
        "sure": _("Sure?"),
        "connected": _("live"),
        "connecting": _("connecting…"),
        "offline": _("connection lost, reconnecting…"),
        "rule": _("See the rule"),
        "seconds": _("%(s)s s"),
        "timeout_claimed": _("Time is up."),
        "confirm_draw": _("Offer a draw? Your opponent may accept or decline it."),
        "winner": _("Winner: %(name)s (%(colour)s)"),
        "rating_change": _("%(name)s: %(delta)s (rating %(after)s)"),
        "results": result_table(),
    }


def _parse_token(token: str) -> uuid.UUID:
    try:
        return uuid.UUID(str(token))
    except ValueError:
        raise Http404 from None


@account_required
@require_http_methods(["GET", "POST"])
def challenge_new(request: HttpRequest) -> HttpResponse:
    error = None
    if request.method == "POST":
        variant = request.POST.get("variant", "")
        rated = request.POST.get("mode") == "rated"
        listed = request.POST.get("kind") == "lobby"  # the default: a private link
        try:
            challenge = services.challenge_create(user_id=request.user.pk, variant=variant, rated=rated, listed=listed)
        except MatchError as exc:
            error = exc.message
        else:
            return redirect("challenge", token=challenge.token)
    return render(request, "games/challenge_new.html", {
        "variants": VARIANT_CHOICES, "error": error, "ttl_minutes": settings.CHALLENGE_TTL_MINUTES,
    }, status=400 if error else 200)


@require_GET
def challenge_page(request: HttpRequest, token: str) -> HttpResponse:
    """Open to everyone: a visitor without an account sees who challenges them
    and to what, and signs up (or logs in) straight back to this page."""
    challenge = get_object_or_404(Challenge.objects.select_related("creator"), token=_parse_token(token))
    is_creator = request.user.is_authenticated and challenge.creator_id == request.user.pk
    if challenge.status == Challenge.Status.ACCEPTED and challenge.match_id:
        match = challenge.match
        if match is not None and match.side_of(request.user.pk) is not None:
            return redirect("match", match_id=challenge.match_id)
    link = request.build_absolute_uri(reverse("challenge", args=[challenge.token]))
    back = urlencode({"next": request.get_full_path()})
    return render(request, "games/challenge.html", {
        "challenge": challenge,
        "is_creator": is_creator,
        "link": link,
        "needs_account": not request.user.is_authenticated or getattr(request.user, "is_guest", False),
        "signup_url": f"{reverse('signup')}?{back}",
        "login_url": f"{reverse('login')}?{back}",
        "rules_url": reverse("rules", args=[get_variant(challenge.variant).rules_slug]),
    })


@account_required
@require_POST
def challenge_accept_view(request: HttpRequest, token: str) -> HttpResponse:
    try:
        match = services.challenge_accept(token=_parse_token(token), user_id=request.user.pk)
    except MatchError as exc:
        messages.error(request, exc.message)
        return redirect("challenge", token=token)
    return redirect("match", match_id=match.pk)


@login_required
@require_POST
def challenge_cancel_view(request: HttpRequest, token: str) -> HttpResponse:
    try:
        services.challenge_cancel(token=_parse_token(token), user_id=request.user.pk)
    except MatchError as exc:
        messages.error(request, exc.message)
    return redirect("challenge", token=token)


@login_required
@require_GET
def challenge_status(request: HttpRequest, token: str) -> HttpResponse:
    """Polled by the creator's page (htmx, every 2 s): 204 while open; a redirect once accepted."""
    challenge = get_object_or_404(Challenge, token=_parse_token(token))
    if challenge.status == Challenge.Status.ACCEPTED and challenge.match_id:
        url = reverse("match", args=[challenge.match_id])
        response = HttpResponse(status=200)
        response["HX-Redirect"] = url
        return response
    if challenge.status == Challenge.Status.CANCELLED or challenge.is_expired:
        response = HttpResponse(status=200)
        response["HX-Refresh"] = "true"
        return response
    return HttpResponse(status=204)
