"""Puzzles (issue 39; docs/puzzles.md): positions cut from the site's games where one line is
clearly best, checked by each game's finder (``games/<slug>/puzzles.py``, no Django); a page to
solve them, for guests too; a daily puzzle; a puzzle rating per game (Glicko-2, its own).

models.py (Puzzle, PuzzleRating, PuzzleAttempt), builder.py (cutting them from matches and
self-play, the ``puzzles`` management command's work), services.py (a try judged and rated),
selectors.py (the next puzzle, the daily one, the index), views.py and urls.py (/zadania/).
Nothing is imported here: ``games.apps`` loads the rows through feature.py.
"""
