from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse_lazy
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST
from django.views.i18n import set_language as django_set_language

from . import services
from .forms import LoginForm, SettingsForm, SignUpForm
from .guests import guest_convert
from .signals import user_close_sockets_on_commit


def signup(request: HttpRequest) -> HttpResponse:
    guest = request.user if getattr(request.user, "is_guest", False) else None
    if request.user.is_authenticated and guest is None:
        return redirect("home")
    if request.method == "POST":
        form = SignUpForm(request.POST)
        form.language = translation.get_language() if translation.get_language() in ("pl", "en") else "pl"
        if form.is_valid():
            if guest is not None:  # keep the matches played as a guest
                user = guest_convert(
                    guest=guest, username=form.cleaned_data["username"], email=form.cleaned_data["email"],
                    password=form.cleaned_data["password1"], language=form.language,
                )
            else:
                user = form.save()
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            messages.success(request, _("Welcome, %(name)s! Your account is ready.") % {"name": user.username})
            return redirect("home")
    else:
        form = SignUpForm()
    return render(request, "accounts/signup.html", {"form": form})


class LoginView(auth_views.LoginView):
    form_class = LoginForm
    template_name = "accounts/login.html"
    redirect_authenticated_user = True


class LogoutView(auth_views.LogoutView):
    # Django's LogoutView accepts POST only.
    pass


class PasswordChangeView(auth_views.PasswordChangeView):
    template_name = "accounts/password_change.html"
    success_url = reverse_lazy("password_change_done")

    def form_valid(self, form):
        response = super().form_valid(form)
        user_close_sockets_on_commit(user_id=form.user.pk)  # other tabs and devices
        return response


class PasswordChangeDoneView(auth_views.PasswordChangeDoneView):
    template_name = "accounts/password_change_done.html"


class PasswordResetView(auth_views.PasswordResetView):
    # Django sends mail only to known, active addresses and shows the same
    # "done" page either way: no enumeration.
    template_name = "accounts/password_reset.html"
    email_template_name = "accounts/password_reset_email.txt"
    subject_template_name = "accounts/password_reset_subject.txt"
    success_url = reverse_lazy("password_reset_done")


class PasswordResetDoneView(auth_views.PasswordResetDoneView):
    template_name = "accounts/password_reset_done.html"


class PasswordResetConfirmView(auth_views.PasswordResetConfirmView):
    template_name = "accounts/password_reset_confirm.html"
    success_url = reverse_lazy("password_reset_complete")

    def form_valid(self, form):
        response = super().form_valid(form)
        user_close_sockets_on_commit(user_id=form.user.pk)
        return response


class PasswordResetCompleteView(auth_views.PasswordResetCompleteView):
    template_name = "accounts/password_reset_complete.html"


@login_required
def account_settings(request: HttpRequest) -> HttpResponse:
    if request.method == "POST":
        form = SettingsForm(request.POST)
        if form.is_valid():
            services.user_set_language(user=request.user, language=form.cleaned_data["language"])
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
        form = SettingsForm(initial={"language": request.user.language})
    return render(request, "accounts/settings.html", {"form": form})


@require_POST
def set_language(request: HttpRequest) -> HttpResponse:
    """Django's set_language (cookie + redirect), also stored on a logged-in user."""
    response = django_set_language(request)
    language = request.POST.get("language")
    if request.user.is_authenticated and language in {code for code, _name in settings.LANGUAGES}:
        services.user_set_language(user=request.user, language=language)
    return response


def locked_out(request: HttpRequest, original_response=None, credentials=None) -> HttpResponse:
    """django-axes lockout page: a clear message, status 429."""
    minutes = int(settings.AXES_COOLOFF_TIME.total_seconds() // 60)
    return render(request, "accounts/locked_out.html", {"cooloff_minutes": minutes}, status=429)
