from importlib import import_module

from django.apps import AppConfig
from django.conf import settings
from django.utils.translation import gettext_lazy as _

# The feature folders (docs/features.md): each one's ``feature.register()`` wires it in at start-up.
FEATURES = (
    "games.tournaments",
    "games.review",
    "games.fairplay",
    "games.following",
    "games.notifications",
    "games.puzzles",
)
# The refusal codes' tables of the core and the API (kropki_site/lib/refusals.py); a feature
# registers its own in its register().
CODE_TABLES = ("games.play.codes", "games.live.codes", "games.api.codes")


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = _("Games")

    def ready(self) -> None:
        from . import receivers  # noqa: F401  (connects: logout and new passwords close sockets)

        for table in CODE_TABLES:
            import_module(table)
        for feature in FEATURES:
            import_module(f"{feature}.feature").register()
        for module in settings.EXTRA_GAMES:  # each registers its game in games.catalogue (docs/games.md)
            import_module(module)
