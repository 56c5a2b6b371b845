"""The review's refusal codes (kropki_site/lib/refusals.py): words and HTTP status. Registered
when imported, by feature.register()."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from kropki_site.lib.refusals import register

# the computer's review of a finished match (services.py)
register(
    "review",
    {
        # the analysis board (analysis_board.py)
        "board_bad_moves": (_("These moves do not make a position of this game."), 400),
        "board_too_often": (_("You asked the computer many times this minute. Wait a moment."), 429),
        # the position editor (editor.py); a game's own reasons are in its spec's error_words
        "board_no_editor": (_("This game has no position editor."), 404),
        "setup_bad": (_("This is not a position of this game."), 400),
        "setup_over": (_("The game is already over in this position: there is no move to analyse."), 400),
        "analysis_guest": (_("The computer's analysis needs an account. Sign up: your games so far stay yours."), 400),
        "analysis_not_finished": (_("Only a finished match can be analysed."), 400),
        "analysis_unavailable": (_("The computer cannot analyse this game yet."), 400),
        "analysis_busy": (_("Your analysis of another match is still running. Wait until it is done."), 400),
        "analysis_daily_cap": (_("You have asked for many analyses today. Try again tomorrow."), 400),
        "analysis_visitor_cap": (
            _(
                "Many analyses of imported games were asked from your network today without an account. "
                "Try again tomorrow, or sign up."
            ),
            429,
        ),
    },
)
