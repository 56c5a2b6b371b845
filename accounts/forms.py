from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING, Any, ClassVar

from django import forms
from django.conf import settings
from django.contrib.auth import forms as auth_forms
from django.contrib.auth.tokens import PasswordResetTokenGenerator, default_token_generator
from django.contrib.sites.shortcuts import get_current_site
from django.core.validators import MaxLengthValidator
from django.http import HttpRequest
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from django.utils.translation import gettext_lazy as _

from kropki_site.lib import limits

from .models import User
from .services import username_clean

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

# One message for an unknown user and a wrong password: no account enumeration.
LOGIN_FAILED = _("Incorrect username or password. Note that both fields may be case-sensitive.")

if TYPE_CHECKING:  # the mixin's super(): Django's password forms (a plain object at run time)
    _PasswordForm = auth_forms.SetPasswordMixin[User]
else:
    _PasswordForm = object


USERNAME_HELP = _(
    "Up to 150 characters: letters (Polish ones too), digits and @ . + - _. Everyone sees it on your profile and in your games."
)
PASSWORD_HELP = _(
    "At least 8 characters, not only digits, not a common password and not like your username or e-mail address."
)
PASSWORD_AGAIN_HELP = _("Type the same password again, to be sure.")


class PasswordErrorsUnderPassword(_PasswordForm):
    """Put the password validators' errors (too short, too common...) under the
    password itself; Django adds them to the confirmation field. A mismatch
    stays under the confirmation. Our own help texts replace Django's stock ones
    (its Polish "Wymagana. 150 lub mniej znaków…", "do twoich innych danych")."""

    _FIRST: ClassVar[dict[str, str]] = {"password2": "password1", "new_password2": "new_password1"}
    fields: dict[str, forms.Field]  # the form's (declared for the type checker only)
    _HELP: ClassVar[dict[str, StrOrPromise]] = {
        "username": USERNAME_HELP,
        "password1": PASSWORD_HELP,
        "new_password1": PASSWORD_HELP,
        "password2": PASSWORD_AGAIN_HELP,
        "new_password2": PASSWORD_AGAIN_HELP,
    }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name, text in self._HELP.items():
            if name in self.fields:
                self.fields[name].help_text = text

    def validate_password_for_user(self, user: User, password_field_name: str = "password2", **kwargs: Any) -> None:
        field = self._FIRST.get(password_field_name, password_field_name)
        super().validate_password_for_user(user, field, **kwargs)


class SignUpForm(PasswordErrorsUnderPassword, auth_forms.UserCreationForm[User]):
    # Required, and the form says so and why before any error does (issue 41).
    email = forms.EmailField(
        label=_("E-mail (required)"),
        max_length=254,
        help_text=_(
            "Required: it is the only way to reset a forgotten password. Other players never see it,"
            " and the site sends nothing else to it."
        ),
    )
    # Set by the sign-up view before validation (declared here for the type checker only).
    guest_pk: int | None
    language: str

    class Meta:
        model = User
        fields = ("username", "email")

    def clean_username(self) -> str:
        # NFKC; not reserved (guest prefix, admin, dots...); not taken in any
        # letter case nor as a look-alike (confusable skeleton, accounts/usernames.py).
        # A guest signing up is renamed from its own "gosc-..." name: exclude it.
        return username_clean(self.cleaned_data["username"], exclude_pk=getattr(self, "guest_pk", None))

    def save(self, commit: bool = True) -> User:
        user = super().save(commit=False)
        user.email = self.cleaned_data["email"]
        user.language = getattr(self, "language", User.Language.POLISH)
        if commit:
            user.save()
        return user


class PasswordChangeForm(PasswordErrorsUnderPassword, auth_forms.PasswordChangeForm):
    pass


class SetPasswordForm(PasswordErrorsUnderPassword, auth_forms.SetPasswordForm[User]):
    pass


class LoginForm(auth_forms.AuthenticationForm):
    error_messages = {  # noqa: RUF012 - Django's own attribute, an instance one to its stubs (a ClassVar is refused)
        "invalid_login": LOGIN_FAILED,
        "inactive": LOGIN_FAILED,
    }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # AuthenticationForm sets max_length after the field is built, so no
        # validator enforces it: an over-long name would reach authenticate()
        # and django-axes' varchar(255) column (a 500 on PostgreSQL).
        field = self.fields["username"]
        assert isinstance(field, forms.CharField)  # auth's UsernameField
        field.validators.append(MaxLengthValidator(field.max_length))

    def clean(self) -> dict[str, Any]:
        if self.errors:  # e.g. an over-long username: same message as any failed login
            raise self.get_invalid_login_error()
        return super().clean()


class PasswordResetForm(auth_forms.PasswordResetForm):
    """One e-mail per request however many accounts share the address (e-mail is neither
    unique nor verified: 3 requests used to send 18 e-mails to one address with six accounts),
    listing every account with its own link; at most PASSWORD_RESETS_PER_ADDRESS e-mails *sent*
    to one address per PASSWORD_RESET_WINDOW_SECONDS (issue 24 item 10). Nothing is said
    either way on the page (no enumeration)."""

    def save(  # the same keywords as Django's
        self,
        domain_override: str | None = None,
        subject_template_name: str = "registration/password_reset_subject.txt",
        email_template_name: str = "registration/password_reset_email.html",
        use_https: bool = False,
        token_generator: PasswordResetTokenGenerator = default_token_generator,
        from_email: str | None = None,
        request: HttpRequest | None = None,
        html_email_template_name: str | None = None,
        extra_email_context: dict[str, Any] | None = None,
    ) -> None:
        email = self.cleaned_data["email"]
        users = sorted(self.get_users(email), key=lambda user: user.pk)
        if not users:
            return
        address = hashlib.sha256(email.strip().casefold().encode()).hexdigest()  # no address kept in Redis
        if not limits.hit(
            "password-reset-address",
            address,
            limit=settings.PASSWORD_RESETS_PER_ADDRESS,
            window=settings.PASSWORD_RESET_WINDOW_SECONDS,
        ):
            return
        if domain_override:
            site_name = domain = domain_override
        else:
            site = get_current_site(request)
            site_name, domain = site.name, site.domain
        accounts = [
            {
                "user": user,
                "username": user.get_username(),
                "uid": urlsafe_base64_encode(force_bytes(user.pk)),
                "token": token_generator.make_token(user),
            }
            for user in users
        ]
        context = {
            "email": users[0].email,
            "domain": domain,
            "site_name": site_name,
            "user": users[0],
            "accounts": accounts,
            "protocol": "https" if use_https else "http",
            **(extra_email_context or {}),
        }
        self.send_mail(
            subject_template_name,
            email_template_name,
            context,
            from_email,
            users[0].email,
            html_email_template_name=html_email_template_name,
        )


class SettingsForm(forms.Form):
    language = forms.ChoiceField(label=_("Language"), choices=User.Language.choices, widget=forms.RadioSelect)
    invisible = forms.BooleanField(
        label=_("Invisible"),
        required=False,
        help_text=_("Others do not see you in the list of players online, nor “online” on your profile."),
    )
    notify_sound = forms.BooleanField(label=_("Play a sound when someone challenges me"), required=False)
    notify_title = forms.BooleanField(label=_("Flash the page title when someone challenges me"), required=False)
    low_time_seconds = forms.IntegerField(
        label=_("Warn me when my move has this many seconds left"),
        min_value=0,
        max_value=59,
        required=False,
        help_text=_("A screen reader hears the time left, and a short sound plays if sounds are on. 0: no warning."),
    )
    tap_confirm = forms.ChoiceField(
        label=_("Tap a point to select it, tap it again to play (Kropki)"),
        choices=User.TapConfirm.choices,
        widget=forms.RadioSelect,
        required=False,
        help_text=_("Against misplaced dots on the large board on a phone."),
    )

    challenges_from_played_only = forms.BooleanField(
        label=_("Challenges only from players I have played"),
        required=False,
        help_text=_("Others can still see your profile; a direct challenge needs a finished match between you."),
    )


class DeleteAccountForm(forms.Form):
    """Deleting one's account asks for the password (docs/privacy.md)."""

    password = forms.CharField(
        label=_("Your password"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
    )

    def __init__(self, *args: Any, user: User, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.user = user

    def clean_password(self) -> str:
        password: str = self.cleaned_data["password"]
        if not self.user.check_password(password):
            raise forms.ValidationError(_("This is not your password."), code="password_incorrect")
        return password
