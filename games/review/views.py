"""Asking for the computer's review of a finished match (the record page's "Analiza komputerowa")."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.views.decorators.http import require_POST

from games.review.services import analysis_request
from kropki_site.lib.refusals import Refusal


@require_POST
def record_analysis(request: HttpRequest, match_id: int) -> HttpResponse:
    """Ask for the review (a form on the record page); back to the page's analysis section,
    which shows the queue, the progress or the refusal's words."""
    try:
        analysis_request(request.user, match_id)
    except Refusal as exc:
        messages.error(request, exc.message)
    return redirect(reverse("record", args=[match_id]) + "#analiza")
