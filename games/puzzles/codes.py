"""Puzzles' refusal codes (kropki_site/lib/refusals.py): words and HTTP status. Registered when
imported, by feature.register()."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from kropki_site.lib.refusals import register

register(
    "puzzles",
    {
        "puzzle_unknown": (_("There is no such puzzle."), 404),
        "puzzle_bad_moves": (_("These moves are not a try at this puzzle."), 400),
        "puzzle_none_left": (_("You have solved every puzzle of this kind. New ones come from new games."), 404),
    },
)
