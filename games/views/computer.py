"""'Graj z komputerem': start a match against the computer, with or without an account."""

from __future__ import annotations

from typing import Any

from django import forms
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext_lazy as _

from accounts.guests import GuestLimitReached, guest_for_request, guest_ids_of_ip
from accounts.ip import client_ip
from games import catalogue, play
from games.catalogue import variant_choices
from games.models import BOT_LEVEL_CHOICES
from kropki_site.lib.refusals import Refusal


class VariantRadioSelect(forms.RadioSelect):
    """Each variant's radio says its game (``data-game``): static/js/app.js shows that game's settings."""

    def create_option(self, name: str, value: Any, *args: Any, **kwargs: Any) -> dict[str, Any]:
        option = super().create_option(name, value, *args, **kwargs)
        if value in catalogue.variant_keys():
            option["attrs"]["data-game"] = catalogue.variant(value).game_slug
        return option


class ComputerMatchForm(forms.Form):
    variant = forms.ChoiceField(
        label=_("Game"), choices=variant_choices, widget=VariantRadioSelect, initial="kropki-10"
    )
    level = forms.ChoiceField(label=_("Level"), choices=BOT_LEVEL_CHOICES, widget=forms.RadioSelect, initial="sredni")
    colour = forms.ChoiceField(
        label=_("Your colour"),
        choices=[("pink", _("pink (moves first)")), ("blue", _("blue")), ("random", _("random"))],
        widget=forms.RadioSelect,
        initial="pink",
    )


def play_computer(request: HttpRequest) -> HttpResponse:
    form = ComputerMatchForm(request.POST or None, initial=request.GET or None)
    if request.method == "POST" and form.is_valid():
        try:
            user = guest_for_request(request)
        except GuestLimitReached:
            return render(request, "games/guest_limit.html", status=429)
        # The limits refuse the new match (docs/bots.md "Limits"): never anyone else's game.
        address = client_ip(request)
        try:
            match = play.computer_match_start(
                user_id=user.pk,
                variant=form.cleaned_data["variant"],
                level=form.cleaned_data["level"],
                colour=form.cleaned_data["colour"],
                address=address,
                address_guest_ids=guest_ids_of_ip(address) if user.is_guest else set(),
                options=request.POST.dict(),
            )
        except Refusal as exc:
            return render(
                request,
                "games/computer_refused.html",
                {"code": exc.code, "message": exc.message, "status": exc.status},
                status=exc.status,
            )
        return redirect("match", match.pk)
    chosen = request.POST.dict() if request.method == "POST" else request.GET.dict()
    return render(
        request,
        "games/play_computer.html",
        {"form": form, "game_options": catalogue.option_fields(chosen)},
        status=400 if form.errors else 200,
    )
