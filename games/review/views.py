"""Asking for the computer's review of a finished match (the record page's "Analiza komputerowa"),
the analysis board (``analysis_board.py``) and its position editor (``editor.py``)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from accounts.guests import GuestLimitReached, guest_for_request
from accounts.ip import client_ip
from games import catalogue
from games.display.boards import render_board
from games.models import Match
from games.review import analysis_board as board
from games.review import editor
from games.review.selectors import open_to_visitors
from games.review.services import analysis_request
from kropki_site.lib.numbers import number
from kropki_site.lib.refusals import Refusal


@require_POST
def record_analysis(request: HttpRequest, match_id: int) -> HttpResponse:
    """Ask for the review (a form on the record page); back to the page's analysis section,
    which shows the queue, the progress or the refusal's words. A visitor asking for an imported
    game's review becomes a guest, as on the computer page (the visitors' allowance)."""
    user = request.user
    try:
        if not user.is_authenticated and open_to_visitors(match_id):
            user = guest_for_request(request)
        analysis_request(user, match_id, address=client_ip(request))
    except Refusal as exc:
        messages.error(request, exc.message)
    except GuestLimitReached:
        messages.error(request, _("Too many guests came from your network lately. Try again in an hour, or log in."))
    return redirect(reverse("record", args=[match_id]) + "#analiza")


@require_GET
def analysis_board(request: HttpRequest, variant: str) -> HttpResponse:
    """The analysis board (games/review/analysis_board.py): ``?ruchy=`` the moves, ``?z=<match>&ply=`` a
    record's position to start from, ``?ocena=1`` the computer's evaluation."""
    lang = get_language()
    params: dict[str, Any] = {}
    error = None
    try:
        source = number(request.GET.get("z", ""))
        if source is not None:  # a finished record's position (its own settings come along)
            match = Match.objects.filter(pk=source).exclude(status=Match.Status.ACTIVE).first()
            if match is None:
                raise Refusal("board_bad_moves")
            upto = number(request.GET.get("ply", ""))  # None: the whole game
            return redirect(board.board_url(match.variant, list(match.history)[:upto], match.params))
        params = board.read_params(request.GET.get("opcje", ""))
        actions = board.read_actions(request.GET.get("ruchy", ""))
        if (move := number(request.GET.get("ruch", ""), 5)) is not None:  # the form's "Play": the move appended
            return redirect(board.board_url(variant, [*actions, move], params))
        pos = board.position(variant, params, actions)
    except Refusal as exc:
        return render(request, "games/analysis_board.html", {"error": exc.message}, status=400)
    here = board.board_url(variant, pos.actions, params)
    evaluate_url = board.board_url(variant, pos.actions, params, evaluate=True)
    evaluation, thinking = None, False
    if request.GET.get("ocena") == "1":
        try:
            evaluation = board.evaluation(
                pos, user_id=request.user.pk if request.user.is_authenticated else None, address=client_ip(request)
            )
            thinking = evaluation is None  # the analysis worker makes it: the page asks again
        except Refusal as exc:
            error = exc.message
        if request.headers.get("HX-Request"):  # the slot's own poll: the slot alone (htmx shows no 4xx)
            slot = {"evaluation": evaluation, "thinking": thinking, "error": error, "evaluate_url": evaluate_url}
            return render(request, "games/_board_eval_slot.html", slot)
    game, state = pos.game, pos.state
    legal = [] if state.is_terminal() else state.legal_actions()
    moves = [
        {"notation": game.action_to_string(a), "url": board.board_url(variant, pos.actions[: i + 1], params)}
        for i, a in enumerate(pos.actions)
    ]
    return render(
        request,
        "games/analysis_board.html",
        {
            "variant": variant,
            "variant_name": catalogue.variant_name(variant),
            "options": catalogue.options_words(variant, params),
            "board_svg": render_board(state.view(), game.slug, interactive=bool(legal), lang=lang, legal=legal),
            "moves": moves,
            "start_url": board.board_url(variant, [], params),
            "back_url": board.board_url(variant, pos.actions[:-1], params) if pos.actions else "",
            "here": here,
            "evaluate_url": evaluate_url,
            "share": request.build_absolute_uri(here),
            "legal": [(a, game.action_to_string(a)) for a in legal],
            "ruchy": ",".join(map(str, pos.actions)),
            "opcje": request.GET.get("opcje", ""),
            "to_move": state.current_player(),
            "set_up": "setup" in game.params,
            "editor_url": editor.from_position(variant, game, state),
            "empty_editor_url": editor.editor_url(variant, game.rules_params(), None) if game.setup_tools else "",
            "evaluation": evaluation,
            "thinking": thinking,
            "error": error,
            "variants": catalogue.variant_choices(),
        },
        status=400 if error else 200,
    )


@require_GET
def position_editor(request: HttpRequest, variant: str) -> HttpResponse:
    """The position editor (games/review/editor.py): ``?uklad=`` the set-up, ``?opcje=`` the rules'
    parameters, ``?narzedzie=`` the tool. Its form (``akcja``) comes back here: "ustaw" applies
    the tool to the chosen place (``cel``), the side to move (``ruch``) and the score
    (``wynik1``, ``wynik2``), then the new address; "analizuj" goes to the analysis board at the
    set-up, or shows why it cannot."""
    error = None
    try:
        params = board.read_params(request.GET.get("opcje", ""))
        draft = editor.draft(variant, params, editor.query_setup(request.GET.get("uklad", "")))
        tool = request.GET.get("narzedzie", "")
        tool = tool if tool in draft.tools else draft.tools[0]
        action = request.GET.get("akcja", "")
        if action in ("ustaw", "analizuj"):
            setup = editor.edited(
                draft,
                tool=tool,
                target=request.GET.get("cel", "") if action == "ustaw" else "",
                to_move=request.GET.get("ruch", ""),
                score=(request.GET.get("wynik1", ""), request.GET.get("wynik2", "")),
            )
            if action == "ustaw":
                return redirect(editor.editor_url(variant, draft.params, setup, tool))
            draft = editor.draft(variant, draft.params, setup)
            try:
                return redirect(editor.analysis_url(draft))
            except Refusal as exc:
                error = exc.message
    except Refusal as exc:
        return render(request, "games/position_editor.html", {"error": exc.message}, status=400)
    lang = get_language()
    spec = catalogue.variant(variant).game_spec
    named = spec.notation_words(lang) if spec.notation_words else {}
    # every tool's places: the board and the list stay as they are when the tool changes (a
    # place where the tool does nothing changes nothing)
    targets = sorted(set().union(*(draft.targets(t) for t in draft.tools)))
    notation = [(t, draft.game.action_to_string(t)) for t in targets]
    return render(
        request,
        "games/position_editor.html",
        {
            "variant": variant,
            "variant_name": catalogue.variant_name(variant),
            "options": catalogue.options_words(variant, draft.params),
            "board_svg": render_board(
                draft.state.view(), draft.game.slug, interactive=bool(targets), lang=lang, legal=targets
            ),
            "targets": [(t, named.get(words, words)) for t, words in notation],
            "tools": draft.tools,
            "tool": tool,
            "setup": draft.setup,
            "to_move": draft.state.current_player(),
            "uklad": board.address_json(draft.setup),
            "opcje": request.GET.get("opcje", ""),
            "problem": None if draft.problem is None else Refusal(draft.problem).message,
            "error": error,
            "empty_url": editor.editor_url(variant, draft.params, None, tool),
            "board_url": board.board_url(variant, [], draft.params),
            "here": editor.editor_url(variant, draft.params, draft.setup, tool),
        },
        status=400 if error else 200,
    )
