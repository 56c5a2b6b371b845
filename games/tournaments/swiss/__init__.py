"""Swiss tournaments (docs/tournaments.md "Swiss"): the pairing (pairing.py, no Django), the
standings' tie-breaks (standings.py, no Django), the rows (models.py), the services (services.py),
beat's tick (tasks.py), refusals (codes.py), the staff pages (admin.py), the JSON state (views.py).
Wired in by the arenas' feature.register (games/tournaments/feature.py)."""
