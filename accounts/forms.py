from __future__ import annotations

from django import forms
from django.core.validators import MaxLengthValidator
from django.contrib.auth import forms as auth_forms
from django.utils.translation import gettext_lazy as _

from .models import User

# One message for an unknown user and a wrong password: no account enumeration.
LOGIN_FAILED = _("Incorrect username or password. Note that both fields may be case-sensitive.")


class SignUpForm(auth_forms.UserCreationForm):
    email = forms.EmailField(label=_("E-mail"), max_length=254)

    class Meta:
        model = User
        fields = ("username", "email")

    def clean_username(self) -> str:
        username = self.cleaned_data["username"]
        if User.objects.filter(username__iexact=username).exists():
            raise forms.ValidationError(_("This username is already taken."), code="username_taken")
        return username

    def save(self, commit: bool = True) -> User:
        user = super().save(commit=False)
        user.email = self.cleaned_data["email"]
        user.language = getattr(self, "language", User.Language.POLISH)
        if commit:
            user.save()
        return user


class LoginForm(auth_forms.AuthenticationForm):
    error_messages = {
        "invalid_login": LOGIN_FAILED,
        "inactive": LOGIN_FAILED,
    }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # AuthenticationForm sets max_length after the field is built, so no
        # validator enforces it: an over-long name would reach authenticate()
        # and django-axes' varchar(255) column (a 500 on PostgreSQL).
        field = self.fields["username"]
        field.validators.append(MaxLengthValidator(field.max_length))

    def clean(self):
        if self.errors:  # e.g. an over-long username: same message as any failed login
            raise self.get_invalid_login_error()
        return super().clean()


class SettingsForm(forms.Form):
    language = forms.ChoiceField(label=_("Language"), choices=User.Language.choices, widget=forms.RadioSelect)
