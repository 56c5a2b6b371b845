"""The arenas' refusal codes (kropki_site/lib/refusals.py): words and HTTP status. Registered
when imported, by feature.register()."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from kropki_site.lib.refusals import register

# arenas (services.py, docs/tournaments.md)
register(
    "tournaments",
    {
        "tournament_account": (_("Tournaments need an account. Sign up: your games so far stay yours."), 400),
        "tournament_bot": (_("Computer players do not take part in tournaments."), 400),
        "tournament_not_found": (_("There is no such tournament."), 400),
        "tournament_finished": (_("This tournament is over: you can no longer join it."), 400),
        "tournament_not_joined": (_("You are not playing in this tournament."), 400),
        "tournament_in_game": (_("Finish your game first: you can withdraw from the tournament between games."), 400),
        "tournament_bad_settings": (_("Choose the tournament's settings from the form's options."), 400),
        "tournament_too_many": (
            _("You already have two tournaments that have not ended. Wait until one is over."),
            400,
        ),
        "tournament_bad_name": (
            _("The tournament's name shows nothing: write it with letters or digits, or leave it empty."),
            400,
        ),
        "tournament_too_often": (_("You have made many tournaments today. Try again tomorrow."), 400),
        "berserk_not_tournament": (_("Berserk is only for tournament games."), 400),
        "berserk_twice": (_("You have already gone berserk in this game."), 400),
        "berserk_too_late": (_("Berserk is only possible before your first move."), 400),
    },
)
