from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = _("Accounts")

    def ready(self) -> None:
        from django.contrib.auth.signals import user_logged_in

        from . import codes  # noqa: F401  (registers the tokens' refusal codes)
        from .addresses import on_logged_in

        user_logged_in.connect(on_logged_in, dispatch_uid="accounts.addresses.on_logged_in")
