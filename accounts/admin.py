from __future__ import annotations

from typing import TYPE_CHECKING

from django.contrib import admin
from django.contrib.auth.admin import UserAdmin
from django.contrib.auth.forms import UserChangeForm
from django.urls import NoReverseMatch, reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from .models import PairFlag, User
from .services import username_clean

if TYPE_CHECKING:  # generic in django-stubs only: not subscriptable at run time
    _UserChangeForm = UserChangeForm[User]
    _UserAdmin = UserAdmin[User]
    _PairFlagAdmin = admin.ModelAdmin[PairFlag]
else:
    _UserChangeForm, _UserAdmin, _PairFlagAdmin = UserChangeForm, UserAdmin, admin.ModelAdmin


class KropkiUserChangeForm(_UserChangeForm):
    class Meta(UserChangeForm.Meta):
        model = User

    def clean_username(self) -> str:
        # A rename by staff follows the sign-up's rules (look-alikes, reserved names);
        # an unchanged name is left alone (it may predate them).
        username: str = self.cleaned_data["username"]
        if "username" in self.changed_data:
            username = username_clean(username, exclude_pk=self.instance.pk)
        return username


@admin.register(User)
class KropkiUserAdmin(_UserAdmin):
    form = KropkiUserChangeForm
    fieldsets = (*(UserAdmin.fieldsets or ()), ("Kropki", {"fields": ("language", "fair_play_mark", "fair_play")}))
    list_display = ("username", "email", "language", "is_staff", "fair_play_mark", "date_joined")
    list_filter = (*UserAdmin.list_filter, "fair_play_mark")
    # The mark changes only through the moderation page (games/fairplay: logged, with refunds).
    readonly_fields = ("fair_play_mark", "fair_play")

    @admin.display(description=_("fair play"))
    def fair_play(self, user: User) -> str:
        return _moderation_link(user.pk) if user.pk else ""


def _moderation_link(user_id: int) -> str:
    """A link to the account's fair-play moderation page (the games app's admin, by name: accounts
    imports nothing of games)."""
    try:
        url = reverse("admin:games_fairplayflag_account", args=[user_id])
    except NoReverseMatch:  # the fair-play feature is not loaded
        return ""
    return format_html('<a href="{}">{}</a>', url, _("moderation page"))


@admin.register(PairFlag)
class PairFlagAdmin(_PairFlagAdmin):
    list_display = ("user_a", "user_b", "reason", "games", "last_match_id", "last_at", "moderation")
    list_filter = ("reason",)
    raw_id_fields = ("user_a", "user_b")
    list_select_related = ("user_a", "user_b")

    @admin.display(description=_("moderation pages"))
    def moderation(self, pair: PairFlag) -> str:
        return format_html("{} · {}", _moderation_link(pair.user_a_id), _moderation_link(pair.user_b_id))
