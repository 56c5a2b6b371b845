"""The foundation: helpers every app may import (as healthchecks keeps ``hc/lib``).

limits.py (shared Redis counters and locks), heartbeat.py (workers, beat and the
sweeper report in), devredis.py (the embedded Redis of development and tests),
refusals.py (Refusal, the one refused request, and the register of the parts' code tables).
They import nothing of games, accounts or ratings, nor of the rest of kropki_site
(the roof: settings, asgi, urls, celery, health), which imports the apps: the
``layers`` contract in pyproject.toml keeps it so.
"""
