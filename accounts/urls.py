from django.urls import path

from . import views

urlpatterns = [
    path("rejestracja/", views.signup, name="signup"),
    path("logowanie/", views.LoginView.as_view(), name="login"),
    path("wyloguj/", views.LogoutView.as_view(), name="logout"),
    path("haslo/", views.PasswordChangeView.as_view(), name="password_change"),
    path("haslo/zmienione/", views.PasswordChangeDoneView.as_view(), name="password_change_done"),
    path("haslo/reset/", views.PasswordResetView.as_view(), name="password_reset"),
    path("haslo/reset/wyslane/", views.PasswordResetDoneView.as_view(), name="password_reset_done"),
    path(
        "haslo/reset/<uidb64>/<token>/",
        views.PasswordResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),
    path("haslo/reset/gotowe/", views.PasswordResetCompleteView.as_view(), name="password_reset_complete"),
    path("ustawienia/", views.account_settings, name="account_settings"),
    path("ustawienia/email/", views.email_verify_request, name="email_verify_request"),
    path("email/potwierdz/<str:token>/", views.email_verify, name="email_verify"),
    path("ustawienia/tokeny/", views.token_new, name="token_new"),
    path("ustawienia/tokeny/<int:token_id>/uniewaznij/", views.token_revoke, name="token_revoke"),
]
