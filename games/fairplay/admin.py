"""The moderation page (docs/fairplay.md "Marks, refunds and the moderation page"): staff read an
account's flags with their evidence, its rated games, the open reports about it, its flagged pairs
and the past decisions on one page, and decide there (mark engine, mark booster, lift, dismiss),
each with a reason. Loaded by the feature's ``register`` (games/fairplay/feature.py).

- ``FairPlayFlag``: the list (open ones first to filter by), and each flag's page, which is the
  page of its account (``case.html``) with that flag first;
- ``admin:games_fairplayflag_account``: the same page for any account (from a flagged pair, a
  report, the user admin), flag or none;
- ``FairPlayDecision`` and ``RatingRefund``: the log, read-only.

A decision needs the "change fair-play flag" permission; reading needs "view".
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.db.models import QuerySet
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import URLPattern, path, reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from kropki_site.lib.refusals import Refusal

from . import selectors, services
from .models import FairPlayDecision, FairPlayFlag, RatingRefund

if TYPE_CHECKING:  # generic in django-stubs only: not subscriptable at run time
    _FlagAdmin = admin.ModelAdmin[FairPlayFlag]
    _DecisionAdmin = admin.ModelAdmin[FairPlayDecision]
    _RefundAdmin = admin.ModelAdmin[RatingRefund]
else:
    _FlagAdmin = _DecisionAdmin = _RefundAdmin = admin.ModelAdmin

DECIDE_PERMISSION = "games.change_fairplayflag"


class DecisionForm(forms.Form):
    """One decision: which (the button pressed) and why."""

    action = forms.ChoiceField(choices=FairPlayDecision.Action.choices)
    reason = forms.CharField(label=_("Reason"), max_length=2000, widget=forms.Textarea(attrs={"rows": 3}))
    flag = forms.IntegerField(required=False, widget=forms.HiddenInput)


class DismissForm(forms.Form):
    reason = forms.CharField(label=_("Reason"), max_length=2000, widget=forms.Textarea(attrs={"rows": 3}))


def account_url(user_id: int) -> str:
    return reverse("admin:games_fairplayflag_account", args=[user_id])


class _ReadOnly:
    """The log's pages: rows are written by services.py only."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(FairPlayFlag)
class FairPlayFlagAdmin(_ReadOnly, _FlagAdmin):
    list_display = ("user", "kind", "status", "variant", "figures_line", "updated_at", "case_link")
    list_filter = ("status", "kind", "variant")
    search_fields = ("user__username",)
    list_select_related = ("user",)
    date_hierarchy = "updated_at"
    actions = ("dismiss_selected",)

    @admin.display(description=_("figures"))
    def figures_line(self, flag: FairPlayFlag) -> str:
        return selectors.figures_summary(flag.figures)

    @admin.display(description=_("moderation page"))
    def case_link(self, flag: FairPlayFlag) -> str:
        return format_html('<a href="{}">{}</a>', account_url(flag.user_id), _("open the page"))

    @admin.action(description=_("Dismiss the selected flags (with a reason)"), permissions=["change"])
    def dismiss_selected(self, request: HttpRequest, queryset: QuerySet[FairPlayFlag]) -> HttpResponse | None:
        """Many flags at once (noise from one detector): a page asks the reason, then each open flag
        is dismissed by the service, one decision each."""
        flags = list(queryset.filter(status=FairPlayFlag.Status.OPEN).select_related("user"))
        form = DismissForm(request.POST if "reason" in request.POST else None)
        if form.is_bound and form.is_valid():
            staff = request.user
            assert isinstance(staff, User)  # admin_view lets staff in only
            done = 0
            for flag in flags:
                try:
                    services.dismiss(flag, staff, form.cleaned_data["reason"])
                except Refusal:  # decided meanwhile by someone else
                    continue
                done += 1
            messages.success(request, _("Flags dismissed: %(count)d.") % {"count": done})
            return None
        context = {
            **self.admin_site.each_context(request),
            "opts": self.opts,
            "title": _("Dismiss fair-play flags"),
            "flags": flags,
            "form": form,
            "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
        }
        return render(request, "admin/games/fairplay/dismiss.html", context)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        """The flag itself is never edited (its page is the moderation page): "change" is the right
        to decide, which the list's action checks."""
        return obj is None and request.user.has_perm(DECIDE_PERMISSION)

    def get_urls(self) -> list[URLPattern]:
        own = [
            path(
                "account/<int:user_id>/",
                self.admin_site.admin_view(self.account_view),
                name="games_fairplayflag_account",
            )
        ]
        return own + super().get_urls()

    def change_view(
        self, request: HttpRequest, object_id: str, form_url: str = "", extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        """A flag's page is its account's moderation page, this flag first."""
        flag = FairPlayFlag.objects.filter(pk=object_id).first() if object_id.isdigit() else None
        if flag is None:
            raise Http404
        return self._case(request, flag.user_id, flag)

    def account_view(self, request: HttpRequest, user_id: int) -> HttpResponse:
        return self._case(request, user_id, None)

    def _case(self, request: HttpRequest, user_id: int, flag: FairPlayFlag | None) -> HttpResponse:
        if not self.has_view_permission(request):
            raise Http404
        may_decide = request.user.has_perm(DECIDE_PERMISSION)
        form = DecisionForm(initial={"flag": flag.pk if flag else None})
        if request.method == "POST":
            if not may_decide:
                raise Http404
            form = DecisionForm(request.POST)
            if form.is_valid() and self._decide(request, user_id, form):
                return HttpResponseRedirect(request.get_full_path())
        case = selectors.case_for(user_id)
        if case is None:
            raise Http404
        if flag is not None:  # this flag first
            case.flags.sort(key=lambda f: f.pk != flag.pk)
        context = {
            **self.admin_site.each_context(request),
            "opts": self.opts,
            "title": _("Fair play: %(name)s") % {"name": case.user.username},
            "case": case,
            "flags": [(f, case.evidence.get(f.pk, []), selectors.figures_summary(f.figures, 99)) for f in case.flags],
            "current_flag": flag,
            "form": form,
            "may_decide": may_decide,
        }
        return render(request, "admin/games/fairplay/case.html", context)

    def _decide(self, request: HttpRequest, user_id: int, form: DecisionForm) -> bool:
        """Call the service the button names; its refusal is shown as an error. True when done."""
        action = form.cleaned_data["action"]
        reason = form.cleaned_data["reason"]
        flag_id = form.cleaned_data.get("flag")
        flag = FairPlayFlag.objects.filter(pk=flag_id, user_id=user_id).first() if flag_id else None
        staff = request.user
        assert isinstance(staff, User)  # admin_view lets staff in only
        Action = FairPlayDecision.Action
        try:
            if action == Action.MARK_ENGINE:
                decision = services.mark(user_id, "engine", staff, reason, flag)
            elif action == Action.MARK_BOOSTER:
                decision = services.mark(user_id, "booster", staff, reason, flag)
            elif action == Action.LIFT:
                decision = services.lift(user_id, staff, reason, flag)
            elif flag is not None:
                decision = services.dismiss(flag, staff, reason)
            else:
                raise Refusal("fair_play_flag_closed")
        except Refusal as refusal:
            form.add_error(None, refusal.message)
            return False
        refunds = list(decision.refunds.all())
        messages.success(
            request,
            _("%(decision)s: logged. Rating refunds: %(count)d.")
            % {"decision": decision.get_action_display(), "count": len(refunds)},
        )
        return True


@admin.register(FairPlayDecision)
class FairPlayDecisionAdmin(_ReadOnly, _DecisionAdmin):
    list_display = ("created_at", "user", "action", "staff", "reason", "flag", "case_link")
    list_filter = ("action",)
    search_fields = ("user__username", "staff__username", "reason")
    list_select_related = ("user", "staff", "flag")
    date_hierarchy = "created_at"

    @admin.display(description=_("moderation page"))
    def case_link(self, decision: FairPlayDecision) -> str:
        return format_html('<a href="{}">{}</a>', account_url(decision.user_id), _("open the page"))


@admin.register(RatingRefund)
class RatingRefundAdmin(_ReadOnly, _RefundAdmin):
    list_display = ("created_at", "user", "points", "variant", "match_link", "decision")
    list_filter = ("variant",)
    search_fields = ("user__username",)
    list_select_related = ("user", "decision")
    date_hierarchy = "created_at"

    @admin.display(description=_("match"))
    def match_link(self, refund: RatingRefund) -> str:
        return format_html('<a href="{}">#{}</a>', reverse("record", args=[refund.match_id]), refund.match_id)
