from django.contrib import admin
from django.contrib.auth.admin import UserAdmin
from django.contrib.auth.forms import UserChangeForm

from .models import User
from .services import username_clean


class KropkiUserChangeForm(UserChangeForm):
    class Meta(UserChangeForm.Meta):
        model = User

    def clean_username(self):
        # A rename by staff follows the sign-up's rules (look-alikes, reserved names);
        # an unchanged name is left alone (it may predate them).
        username = self.cleaned_data["username"]
        if "username" in self.changed_data:
            username = username_clean(username, exclude_pk=self.instance.pk)
        return username


@admin.register(User)
class KropkiUserAdmin(UserAdmin):
    form = KropkiUserChangeForm
    fieldsets = UserAdmin.fieldsets + (("Kropki", {"fields": ("language",)}),)
    list_display = ("username", "email", "language", "is_staff", "date_joined")
