from __future__ import annotations

from typing import TYPE_CHECKING

from django.contrib import admin
from django.contrib.auth.admin import UserAdmin
from django.contrib.auth.forms import UserChangeForm

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
    fieldsets = (*(UserAdmin.fieldsets or ()), ("Kropki", {"fields": ("language",)}))
    list_display = ("username", "email", "language", "is_staff", "date_joined")


@admin.register(PairFlag)
class PairFlagAdmin(_PairFlagAdmin):
    list_display = ("user_a", "user_b", "reason", "games", "last_match_id", "last_at")
    list_filter = ("reason",)
    raw_id_fields = ("user_a", "user_b")
