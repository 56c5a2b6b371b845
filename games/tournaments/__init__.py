"""Arenas (docs/tournaments.md), a feature in one folder (docs/features.md): its rows
(models.py, app label ``games``), the services that make, join and pair them (services.py),
a game's points (scoring.py, which hears the end of every match through the core's
``after_finish`` hook), the standings as data (display.py), the pages (views.py, urls.py),
the beat's tasks (tasks.py) and the staff pages (admin.py); ``feature.register`` wires them
in at start-up. The core (games/play) imports none of it."""
