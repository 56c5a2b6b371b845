from importlib import import_module

from django.apps import AppConfig
from django.conf import settings
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = _("Games")

    def ready(self) -> None:
        from . import receivers  # noqa: F401  (connects: logout and new passwords close sockets)
        from .review import hooks  # noqa: F401  (the review's part of the account's export)

        for module in settings.EXTRA_GAMES:  # each registers its game in games.catalogue (docs/games.md)
            import_module(module)
