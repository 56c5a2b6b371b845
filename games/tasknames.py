"""The Celery tasks' names, in one place.

Everything that reaches a task by its name uses these: the tasks' own
decorators (games/tasks.py; a feature's own tasks.py, as games/tournaments/tasks.py), the routes and beat's schedule (kropki_site/settings.py),
and the services that send a task without importing it (games/play/botqueue.py,
through games/play/publisher.py: the tasks import the services, so the services
cannot import the tasks). Plain strings with no imports, so settings.py can read
them before Django starts. tests/test_task_names.py checks that each is a
registered task of the Celery app, that every routed, scheduled and sent name is
one of them, and that no other module spells a task's name out.
"""

from __future__ import annotations

SWEEP_EXPIRED_TURNS = "games.tasks.sweep_expired_turns"
BOT_MOVE = "games.tasks.bot_move"
PAIR_SEEKS = "games.tasks.pair_seeks"
DELETE_STALE_GUESTS = "games.tasks.delete_stale_guests"
DELETE_UNPLAYED_COMPUTER_MATCHES = "games.tasks.delete_unplayed_computer_matches"
ANALYSE_MATCH = "games.tasks.analyse_match"
BOARD_EVALUATE = "games.tasks.board_evaluate"
PAIR_TOURNAMENTS = "games.tasks.pair_tournaments"
SCHEDULE_TOURNAMENTS = "games.tasks.schedule_tournaments"
FAIRPLAY_CHECK = "games.tasks.fairplay_check"
SWISS_TICK = "games.tasks.swiss_tick"
NOTIFY_MAIL = "games.tasks.notifications_mail"
NOTIFY_DELIVER = "games.tasks.notifications_deliver"
CORRESPONDENCE_REMIND = "games.tasks.correspondence_remind"
CORRESPONDENCE_TURN = "games.tasks.correspondence_turn"

ALL = (
    SWEEP_EXPIRED_TURNS,
    BOT_MOVE,
    PAIR_SEEKS,
    DELETE_STALE_GUESTS,
    DELETE_UNPLAYED_COMPUTER_MATCHES,
    ANALYSE_MATCH,
    BOARD_EVALUATE,
    PAIR_TOURNAMENTS,
    SCHEDULE_TOURNAMENTS,
    FAIRPLAY_CHECK,
    SWISS_TICK,
    NOTIFY_MAIL,
    NOTIFY_DELIVER,
    CORRESPONDENCE_REMIND,
    CORRESPONDENCE_TURN,
)
