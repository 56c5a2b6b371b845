from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import HASH_SESSION_KEY, login
from django.contrib.auth import forms as auth_forms
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.http.response import HttpResponseBase
from django.shortcuts import redirect, render
from django.urls import reverse_lazy
from django.utils import translation
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST
from django.views.i18n import set_language as django_set_language

from kropki_site.lib import limits
from kropki_site.lib.refusals import Refusal

from . import services, throttle, tokens, verification
from .decorators import AuthenticatedHttpRequest, account_required
from .forms import (
    LoginForm,
    PasswordChangeForm,
    PasswordResetForm,
    SetPasswordForm,
    SettingsForm,
    SignUpForm,
)
from .guests import guest_convert
from .ip import client_ip
from .models import User
from .signals import credentials_changed


def signup(request: HttpRequest) -> HttpResponse:
    guest = request.user if request.user.is_authenticated and request.user.is_guest else None
    next_url = _safe_next(request)  # e.g. back to the challenge that sent the visitor here
    if request.user.is_authenticated and guest is None:
        return redirect(next_url or "home")
    if request.method == "POST":
        form = SignUpForm(request.POST)
        form.guest_pk = guest.pk if guest is not None else None
        form.language = translation.get_language() if translation.get_language() in ("pl", "en") else "pl"
        if form.is_valid() and not signup_allowed(request):
            # SIGNUPS_PER_IP new accounts per client IP per SIGNUP_WINDOW_SECONDS (issue 24 item 3).
            form.add_error(None, _("Many accounts were made from your network in the last hour. Try again later."))
            return render(request, "accounts/signup.html", {"form": form, "next": next_url}, status=429)
        if form.is_valid():
            if guest is not None:  # keep the matches played as a guest
                user = guest_convert(
                    guest=guest,
                    username=form.cleaned_data["username"],
                    email=form.cleaned_data["email"],
                    password=form.cleaned_data["password1"],
                    language=form.language,
                )
            else:
                user = form.save()
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            messages.success(request, _("Welcome, %(name)s! Your account is ready.") % {"name": user.username})
            return redirect(next_url or "home")
    else:
        form = SignUpForm()
    return render(request, "accounts/signup.html", {"form": form, "next": next_url})


def signup_allowed(request: HttpRequest) -> bool:
    """Count one new account from the request's client IP; False over SIGNUPS_PER_IP."""
    return limits.hit(
        "signup-ip", client_ip(request), limit=settings.SIGNUPS_PER_IP, window=settings.SIGNUP_WINDOW_SECONDS
    )


def _safe_next(request: HttpRequest) -> str:
    """The ``next`` of the request if it leads back into this site, else ""."""
    url = request.POST.get("next") or request.GET.get("next") or ""
    safe = url_has_allowed_host_and_scheme(url, allowed_hosts={request.get_host()}, require_https=request.is_secure())
    # A path only: redirect() would take "0" or "home" for a view's name (NoReverseMatch: a 500).
    return url if safe and url.startswith("/") else ""


class LoginView(auth_views.LoginView):
    form_class = LoginForm
    template_name = "accounts/login.html"
    redirect_authenticated_user = True

    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        # A guest may still log in to an account of theirs.
        self.redirect_authenticated_user = not getattr(request.user, "is_guest", False)
        return super().dispatch(request, *args, **kwargs)

    def form_valid(self, form: auth_forms.AuthenticationForm) -> HttpResponse:
        response = super().form_valid(form)
        # This browser passes its address's slow lane for this name from now on (accounts/throttle.py).
        throttle.device_remember(self.request, response, form.get_user().get_username())
        return response


class LogoutView(auth_views.LogoutView):
    # Django's LogoutView accepts POST only.
    pass


class PasswordChangeView(auth_views.PasswordChangeView):
    form_class = PasswordChangeForm
    template_name = "accounts/password_change.html"
    success_url = reverse_lazy("password_change_done")

    def form_valid(self, form: auth_forms.PasswordChangeForm) -> HttpResponse:
        old_key = self.request.session.session_key
        response = super().form_valid(form)  # cycles this session's key and keeps it logged in
        session = self.request.session
        # Other tabs and devices are closed; this session's own tabs play on (issue 24, item 15).
        credentials_changed.send(
            sender=User, user_id=form.user.pk, session=(old_key, session.session_key, session.get(HASH_SESSION_KEY))
        )
        return response


class PasswordChangeDoneView(auth_views.PasswordChangeDoneView):
    template_name = "accounts/password_change_done.html"


class PasswordResetView(auth_views.PasswordResetView):
    # Django sends mail only to known, active addresses and shows the same
    # "done" page either way: no enumeration. One e-mail lists every account of the address.
    form_class = PasswordResetForm
    template_name = "accounts/password_reset.html"
    email_template_name = "accounts/password_reset_email.txt"
    subject_template_name = "accounts/password_reset_subject.txt"
    success_url = reverse_lazy("password_reset_done")

    def form_valid(self, form: auth_forms.PasswordResetForm) -> HttpResponse:
        # At most PASSWORD_RESETS_PER_IP requests from one client IP and (the form)
        # PASSWORD_RESETS_PER_ADDRESS e-mails sent to one address a window. Over a
        # limit nothing is sent and the page is the same "done" page: it tells
        # nobody whether the address has an account, or that a limit was hit.
        if not password_reset_allowed(request=self.request):
            return HttpResponseRedirect(self.get_success_url())
        return super().form_valid(form)


def password_reset_allowed(*, request: HttpRequest) -> bool:
    """Count one reset request from the request's client IP; False over PASSWORD_RESETS_PER_IP."""
    return limits.hit(
        "password-reset-ip",
        client_ip(request),
        limit=settings.PASSWORD_RESETS_PER_IP,
        window=settings.PASSWORD_RESET_WINDOW_SECONDS,
    )


class PasswordResetDoneView(auth_views.PasswordResetDoneView):
    template_name = "accounts/password_reset_done.html"


class PasswordResetConfirmView(auth_views.PasswordResetConfirmView):
    form_class = SetPasswordForm
    template_name = "accounts/password_reset_confirm.html"
    success_url = reverse_lazy("password_reset_complete")
    # The address the e-mailed link redirects to (the token moves to the session):
    # a Polish slug; Django's own "set-password" (links opened before) redirects here.
    reset_url_token = "nowe-haslo"
    OLD_RESET_URL_TOKEN = "set-password"

    def dispatch(self, *args: Any, **kwargs: Any) -> HttpResponseBase:
        if kwargs.get("token") == self.OLD_RESET_URL_TOKEN:
            return redirect("password_reset_confirm", uidb64=kwargs["uidb64"], token=self.reset_url_token)
        return super().dispatch(*args, **kwargs)

    def form_valid(self, form: auth_forms.SetPasswordForm[User]) -> HttpResponse:
        response = super().form_valid(form)
        credentials_changed.send(sender=User, user_id=form.user.pk)
        return response


class PasswordResetCompleteView(auth_views.PasswordResetCompleteView):
    template_name = "accounts/password_reset_complete.html"


@login_required
def account_settings(request: AuthenticatedHttpRequest) -> HttpResponse:
    if request.method == "POST":
        form = SettingsForm(request.POST)
        if form.is_valid():
            services.user_set_language(user=request.user, language=form.cleaned_data["language"])
            services.user_set_social(
                user=request.user,
                invisible=form.cleaned_data["invisible"],
                notify_sound=form.cleaned_data["notify_sound"],
                notify_title=form.cleaned_data["notify_title"],
                challenges_from_played_only=form.cleaned_data["challenges_from_played_only"],
            )
            low_time = form.cleaned_data["low_time_seconds"]
            services.user_set_play(  # a field left out keeps its value
                user=request.user,
                low_time_seconds=request.user.low_time_seconds if low_time is None else low_time,
                tap_confirm=form.cleaned_data["tap_confirm"] or request.user.tap_confirm,
            )
            translation.activate(request.user.language)
            messages.success(request, _("Settings saved."))
            response = redirect("account_settings")
            response.set_cookie(
                settings.LANGUAGE_COOKIE_NAME,
                request.user.language,
                samesite=settings.LANGUAGE_COOKIE_SAMESITE,
                secure=settings.LANGUAGE_COOKIE_SECURE,
            )
            return response
    else:
        form = _settings_form(request.user)
    return _settings_page(request, form)


def _settings_page(
    request: AuthenticatedHttpRequest, form: SettingsForm, status: int = 200, **extra: Any
) -> HttpResponse:
    context = {
        "form": form,
        "tokens": [
            {"token": token, "scope_names": tokens.scope_names(token.scopes)}
            for token in tokens.tokens_of(request.user)
        ],
        "scopes": tokens.scope_choices(),
        **extra,
    }
    response = render(request, "accounts/settings.html", context, status=status)
    response["Cache-Control"] = "no-store"  # a new token's secret is on it once
    return response


def _settings_form(user: User) -> SettingsForm:
    return SettingsForm(
        initial={
            "language": user.language,
            "invisible": user.invisible,
            "notify_sound": user.notify_sound,
            "notify_title": user.notify_title,
            "low_time_seconds": user.low_time_seconds,
            "tap_confirm": user.tap_confirm,
            "challenges_from_played_only": user.challenges_from_played_only,
        }
    )


@login_required
@require_POST
def token_new(request: AuthenticatedHttpRequest) -> HttpResponse:
    """Make a personal access token (docs/api.md "Tokens"): its secret is shown on this page once."""
    try:
        token, secret = tokens.token_create(
            user=request.user, name=request.POST.get("name", ""), scopes=request.POST.getlist("scopes")
        )
    except Refusal as exc:
        return _settings_page(request, _settings_form(request.user), status=exc.status, token_error=exc.message)
    return _settings_page(request, _settings_form(request.user), new_token=token, new_secret=secret)


@login_required
@require_POST
def token_revoke(request: AuthenticatedHttpRequest, token_id: int) -> HttpResponse:
    if tokens.token_revoke(user=request.user, token_id=token_id):
        messages.success(request, _("The token was revoked: it no longer works."))
    return redirect("account_settings")


@require_POST
def set_language(request: HttpRequest) -> HttpResponse:
    """Django's set_language (cookie + redirect), also stored on a logged-in user."""
    response = django_set_language(request)
    language = request.POST.get("language")
    if request.user.is_authenticated and language in {code for code, _name in settings.LANGUAGES}:
        services.user_set_language(user=request.user, language=language)
    return response


def locked_out(
    request: HttpRequest,
    original_response: HttpResponse | None = None,
    credentials: dict[str, Any] | None = None,
) -> HttpResponse:
    """django-axes lockout page: a clear message, status 429 (the address's slow lane:
    "wait N seconds", accounts/throttle.py)."""
    minutes = int(settings.AXES_COOLOFF_TIME.total_seconds() // 60)
    slowed = getattr(request, "kropki_login_slowed", None)
    return render(
        request, "accounts/locked_out.html", {"cooloff_minutes": minutes, "slowed_seconds": slowed}, status=429
    )


@account_required
@require_POST
def email_verify_request(request: AuthenticatedHttpRequest) -> HttpResponse:
    """Send the player the link that confirms their address (accounts/verification.py)."""
    try:
        verification.email_verify_send(user=request.user, site_url=request.build_absolute_uri("/"))
    except Refusal as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("We have sent you the link: open it to confirm your address."))
    return redirect("notification_settings")


@require_GET
def email_verify(request: HttpRequest, token: str) -> HttpResponse:
    """The link of the e-mail: the address is confirmed (no log-in needed: the token proves it)."""
    try:
        verification.email_verify(token)
    except Refusal as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("Your e-mail address is verified."))
    return redirect("notification_settings" if request.user.is_authenticated else "home")
