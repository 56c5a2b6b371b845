"""The computer's review of finished matches ("Analiza komputerowa"), the site's half (docs/analysis.md).

The pure analysis stays with the computer: ``games.bots.review`` walks a game, each
game's ``review.py`` values one position. Here: the stored review (models.py, a model of
the games app), asking and running it (services.py), its task on the ``analysis`` queue
(tasks.py), the record page's section and curve (display.py), the ask (views.py, urls.py),
the page's script (games/review/static/analysis.js), and what the account's pages ask of it (hooks.py).
The core (games.play) imports nothing from here (an import contract): it calls what this
folder registers.

Nothing is imported here: ``games.models`` imports ``games.review.models`` as the app loads.
"""
