"""The computer's fair queue (docs/bots.md, "Limits"): which waiting computer
move the next free ``bots`` process thinks about.

Every computer move waiting to be made is one *job* in Redis (a hash keyed by
match: at most one per match, so a second enqueue of the same position, e.g.
the sweeper's rescue, adds nothing). A ``bot_move`` Celery task is only a
*token*: whichever process runs it claims the fairest job that may run now, not
necessarily the one it was sent for. A job may run when

- no other move of the same human player (its *owner*) is being computed, and
- fewer than BOT_THINKING_PER_ADDRESS moves of players on the owner's address
  are being computed (one address never holds the whole pool);

and among those the one whose address, then whose owner, was served longest
ago goes first (then the oldest). So a player who asks rarely (a person
thinking about their move) overtakes six who answer their computer at once,
whether those six share an address or not. One job is claimed per token; a
process that finished a job sends one more token while jobs wait, and a token
that finds nothing it may run returns at once: a token never takes a pool
process to wait.

A move claimed while other moves wait, of an owner who answered the computer's
previous move within BOT_QUICK_ANSWER_SECONDS of its being made, is *hurried*: it
thinks at most BOT_HURRIED_THINK_SECONDS (issue 37, item 10 d). Players who flood
the computer by answering at once then hold a pool process for that long at a
time, so another player's move waits at most that long for a free process, and
is itself thought at its full budget (its owner had not just been answered).

The owner's address is remembered when the match starts (``remember_address``);
a player whose address is unknown counts as an address of their own.
"""

from __future__ import annotations

import logging
import time
from typing import NamedTuple, cast

import redis
from django.conf import settings

from games import tasknames
from games.live import transport
from kropki_site.lib import limits

from . import publisher

log = logging.getLogger(__name__)

JOBS = "bot-jobs"  # hash: match id -> "ply owner address enqueued"
RUNNING = "bot-running"  # hash: match id -> "owner address started ply"
SERVED = "bot-served"  # hash: "a:<address>" / "o:<owner>" -> when its last job started; "f:<owner>" -> ended
ADDRESS = "bot-address"  # string per owner: the address its matches were started from
ADDRESS_TTL = 24 * 3600
HELD = "bot-held"  # string per match and ply: the live-position guard holds that move (set once)
RETRY = "bot-retry"  # string per match: a held move's retry is on its way
STALE_SECONDS = 30  # a running job older than this lost its worker (> the longest budget, 1.8 s)

# KEYS: jobs, running, owner's address key. ARGV: match, ply, owner, now, stale.
# Returns {added (0/1), jobs waiting}.
_ADD = """
local current = redis.call('HGET', KEYS[1], ARGV[1])
if current and string.match(current, '^(%S+)') == ARGV[2] then
  return {0, redis.call('HLEN', KEYS[1])}
end
local running = redis.call('HGET', KEYS[2], ARGV[1])
if running then
  local started, ply = string.match(running, '(%S+) (%S+)$')
  if tonumber(started) < tonumber(ARGV[4]) - tonumber(ARGV[5]) then
    redis.call('HDEL', KEYS[2], ARGV[1])
  elseif ply == ARGV[2] then
    return {0, redis.call('HLEN', KEYS[1])}
  end
  -- (a later position while the last move is still being released: queued; its owner is busy until then)
end
local address = redis.call('GET', KEYS[3]) or ('u' .. ARGV[3])
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2] .. ' ' .. ARGV[3] .. ' ' .. address .. ' ' .. ARGV[4])
return {1, redis.call('HLEN', KEYS[1])}
"""

# KEYS: jobs, running, served. ARGV: now, per address, stale, quick answer seconds.
# Returns {match, ply, hurried (0/1)} or nil.
_CLAIM = """
local now = tonumber(ARGV[1])
local per_address = tonumber(ARGV[2])
local owner_busy, address_busy = {}, {}
local running = redis.call('HGETALL', KEYS[2])
for i = 1, #running, 2 do
  local owner, address, started = string.match(running[i + 1], '^(%S+) (%S+) (%S+)')
  if tonumber(started) < now - tonumber(ARGV[3]) then
    redis.call('HDEL', KEYS[2], running[i])
  else
    owner_busy[owner] = true
    address_busy[address] = (address_busy[address] or 0) + 1
  end
end
local jobs = redis.call('HGETALL', KEYS[1])
local best, best_a, best_o, best_t
for i = 1, #jobs, 2 do
  local ply, owner, address, queued = string.match(jobs[i + 1], '^(%S+) (%S+) (%S+) (%S+)$')
  if not owner_busy[owner] and (address_busy[address] or 0) < per_address then
    local a = tonumber(redis.call('HGET', KEYS[3], 'a:' .. address) or '0')
    local o = tonumber(redis.call('HGET', KEYS[3], 'o:' .. owner) or '0')
    local t = tonumber(queued)
    if best == nil or a < best_a or (a == best_a and (o < best_o or (o == best_o and t < best_t))) then
      best, best_a, best_o, best_t = i, a, o, t
    end
  end
end
if best == nil then return nil end
local match = jobs[best]
local ply, owner, address = string.match(jobs[best + 1], '^(%S+) (%S+) (%S+)')
redis.call('HDEL', KEYS[1], match)
redis.call('HSET', KEYS[2], match, owner .. ' ' .. address .. ' ' .. ARGV[1] .. ' ' .. ply)
redis.call('HSET', KEYS[3], 'a:' .. address, ARGV[1], 'o:' .. owner, ARGV[1])
redis.call('EXPIRE', KEYS[3], 86400)
local hurried = 0
local ended = redis.call('HGET', KEYS[3], 'f:' .. owner)
if ended and best_t - tonumber(ended) < tonumber(ARGV[4]) then
  for i = 1, #jobs, 2 do  -- only while another player's move waits
    if i ~= best and string.match(jobs[i + 1], '^%S+ (%S+)') ~= owner then hurried = 1 break end
  end
end
return {match, ply, hurried}
"""

# KEYS: running, served. ARGV: match, now. The job is released; its owner's last move ended now.
_DONE = """
local running = redis.call('HGET', KEYS[1], ARGV[1])
redis.call('HDEL', KEYS[1], ARGV[1])
if running then
  redis.call('HSET', KEYS[2], 'f:' .. string.match(running, '^(%S+)'), ARGV[2])
  redis.call('EXPIRE', KEYS[2], 86400)
end
return 0
"""


class Claim(NamedTuple):
    """A job claimed by ``job_claim``: the computer's move at ``ply`` of ``match_id``;
    ``hurried``: it thinks at most BOT_HURRIED_THINK_SECONDS (see the module's words)."""

    match_id: int
    ply: int
    hurried: bool


def submit(match_id: int, ply: int, owner: int) -> None:
    """Queue a job and send its token, unless that position already waits (runs on the
    publisher's thread: games/play/publisher.py). When BOT_QUEUE_LIMIT jobs wait, the
    match's sockets hear ``computer_busy``: its move is made when its turn comes."""
    added, queued = job_add(match_id=match_id, ply=ply, owner=owner)
    if added:
        publisher.send_now(tasknames.BOT_MOVE, (match_id, ply))
    if added and queued >= settings.BOT_QUEUE_LIMIT:
        transport.send_to_match(match_id, {"type": "computer_busy", "ply": ply, "waiting": queued})


def kick() -> None:
    """One more token: a job that could not run when its own token came may run now."""
    publisher.send_now(tasknames.BOT_MOVE, (0, 0))


def _address_key(owner: int) -> str:
    return limits.key(ADDRESS, owner)


def remember_address(owner: int, address: str) -> None:
    """The address ``owner``'s computer matches are started from (a day)."""
    if not address:
        return
    try:
        limits.client().set(_address_key(owner), address.replace(" ", ""), ex=ADDRESS_TTL)
    except redis.RedisError as exc:
        log.warning("computer owner's address not remembered (Redis: %s)", exc)


def job_add(*, match_id: int, ply: int, owner: int) -> tuple[bool, int]:
    """Queue the computer's move at ``ply`` of ``match_id`` for human ``owner``:
    (whether it was new, jobs waiting). Not new when the same position is
    already waiting or being computed. Without Redis: (True, 0) (the token
    then runs it directly, unfairly rather than never)."""
    try:
        added, waiting = cast(
            list[int],
            limits.client().eval(
                _ADD,
                3,
                limits.key(JOBS),
                limits.key(RUNNING),
                _address_key(owner),
                match_id,
                ply,
                owner,
                f"{time.time():.3f}",
                STALE_SECONDS,
            ),
        )
    except redis.RedisError as exc:
        log.warning("computer move not queued fairly (Redis: %s)", exc)
        return True, 0
    return bool(added), int(waiting)


def job_claim() -> Claim | None:
    """The fairest waiting job that may run now, marked running; None if none may.
    Raises redis.RedisError when Redis does not answer (the caller then plays its own job)."""
    found = limits.client().eval(
        _CLAIM,
        3,
        limits.key(JOBS),
        limits.key(RUNNING),
        limits.key(SERVED),
        f"{time.time():.3f}",
        settings.BOT_THINKING_PER_ADDRESS,
        STALE_SECONDS,
        settings.BOT_QUICK_ANSWER_SECONDS,
    )
    if not found:
        return None
    match, ply, hurried = cast(list[bytes | int], found)
    return Claim(int(match), int(ply), bool(int(hurried)))


def retry_later(match_id: int, ply: int) -> bool:
    """The computer's move at ``ply`` of ``match_id`` is held by the live-position guard
    (games/play/computer.py): send its token again in GUARD_RETRY_SECONDS, unless a retry
    is already on its way (the sweeper's rescue may claim a held job meanwhile: one chain of
    retries, not one more each time). True the first time this position is held (its match
    is told). Without Redis the retry is sent anyway and nobody is told."""
    delay = float(settings.GUARD_RETRY_SECONDS)
    first, due = False, True
    try:
        client = limits.client()
        first = bool(client.set(limits.key(HELD, match_id, ply), 1, nx=True, ex=settings.GUARD_HOLD_SECONDS + 60))
        due = bool(client.set(limits.key(RETRY, match_id), ply, nx=True, px=max(1, int(delay * 800))))
    except redis.RedisError as exc:
        log.warning("held computer move not remembered (Redis: %s)", exc)
    if due:
        publisher.send_later(tasknames.BOT_MOVE, (match_id, ply), delay)
    return first


def job_done(match_id: int) -> None:
    """Release ``match_id``'s job; its owner's last computer move ended now (``hurried``'s clock)."""
    try:
        limits.client().eval(_DONE, 2, limits.key(RUNNING), limits.key(SERVED), match_id, f"{time.time():.3f}")
    except redis.RedisError as exc:
        log.warning("computer job not released (Redis: %s); it goes stale", exc)


def waiting() -> int:
    """How many computer moves wait (not counting those being computed); 0 without Redis."""
    try:
        return int(limits.client().hlen(limits.key(JOBS)))
    except redis.RedisError as exc:
        log.warning("computer queue not read (Redis: %s)", exc)
        return 0


def has_job(match_id: int) -> bool:
    """Whether a move of ``match_id`` waits or is being computed (tests, the rescue)."""
    try:
        client = limits.client()
        return bool(
            client.hexists(limits.key(JOBS), str(match_id)) or client.hexists(limits.key(RUNNING), str(match_id))
        )
    except redis.RedisError:
        return False
