"""Staff pages of fair play: a flag with its figures and its evidence, the games linked
(docs/fairplay.md). Loaded by the feature's ``register`` (games/fairplay/feature.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.contrib import admin
from django.utils.safestring import SafeString
from django.utils.translation import gettext_lazy as _

from .display import evidence_html
from .models import FairPlayFlag

# django-stubs makes ModelAdmin generic; the running Django class is not subscriptable.
if TYPE_CHECKING:
    _FlagAdmin = admin.ModelAdmin[FairPlayFlag]
else:
    _FlagAdmin = admin.ModelAdmin


@admin.register(FairPlayFlag)
class FairPlayFlagAdmin(_FlagAdmin):
    list_display = ("updated_at", "user", "kind", "variant", "status")
    list_filter = ("kind", "status", "variant")
    search_fields = ("user__username",)
    raw_id_fields = ("user",)
    readonly_fields = ("created_at", "updated_at", "figures", "evidence_games")

    @admin.display(description=_("evidence: the games"))
    def evidence_games(self, flag: FairPlayFlag) -> SafeString:
        return evidence_html(flag.evidence)
