"""What the core tells and asks the features (docs/features.md), so that it imports none of them.

A feature folder registers its hooks at start-up (its ``feature.register()``, which
``games.apps`` calls); the core calls every registered hook, in the order registered.

- ``after_finish(fn)``: ``fn(match)`` runs in ``games.play.finishing.finish``, inside the
  finishing transaction under the match's row lock, after the match is saved ended and
  rated (``match.counts``: False for a game over before two moves each, which scores nothing). What it writes commits or rolls back with the ending; what it tells the sockets it
  sends after commit (``transaction.on_commit``).
- ``account_export(key, fn)``: ``fn(user)`` is the feature's part of "Download my data"
  (``games.display.export.account_json``), under ``key``: JSON-ready data.
- ``mark_changed(fn)``: ``fn(user_id)`` runs when staff set or lift an account's fair-play mark
  (``games/fairplay/services.py``), inside that transaction under the account's row lock: what
  lists the account (an arena's standings) draws itself again, after commit for the sockets.
- ``account_deleted(fn)``: ``fn(user_id)`` runs when a player deletes their account
  (``games.play.privacy.account_delete``), inside that transaction under the account's row lock,
  after its games in progress are resigned and before the row is emptied: the feature lets go of
  the account (an arena withdraws it from those not over), its frames after commit.
- ``player_opened(fn)``: ``fn(match_id, user_id)`` runs when a player (not a spectator) opens
  their match's socket, in the socket's database thread, in no transaction: a feature notes that
  the player learned of the game (an arena does not count a game its player never saw against
  them, issue 38).
- ``matches_started(fn)``: ``fn(matches)`` runs when matches between people start (a challenge,
  the queue, a rematch, an arena's or a Swiss's round; not the computer's), after commit, in no
  transaction: following tells the players' followers (docs/social.md).
- ``on_notice(fn)``: ``fn(notices)`` hears every ``notice(...)`` (a list of one) and every
  ``notices(...)`` (a sweep's or a wave's many at once, one call): something a player may want
  to hear of outside the page (a direct challenge, a follower, a review ready, a tournament about
  to start, a correspondence turn). The core and the features tell it; the notifications feature
  (``games/notifications``) listens, and decides by each player's settings what reaches them.
  Called in the caller's transaction: what it writes commits with the event.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from accounts.models import User
from games.models import Match

AfterFinish = Callable[[Match], None]
AccountPart = Callable[[User], Any]
MarkChanged = Callable[[int], None]
AccountDeleted = Callable[[int], None]
PlayerOpened = Callable[[int, int], None]
MatchesStarted = Callable[[list[Match]], None]


class Notice(NamedTuple):
    """One thing to tell ``user_ids`` of ``kind`` (``data``: JSON-ready facts; ``key``: the same
    key is told to a player once, e.g. "arena:12")."""

    user_ids: list[int]
    kind: str
    data: dict[str, Any]
    key: str = ""


NoticeListener = Callable[[list[Notice]], object]

_after_finish: list[AfterFinish] = []
_account_parts: dict[str, AccountPart] = {}
_mark_changed: list[MarkChanged] = []
_account_deleted: list[AccountDeleted] = []
_player_opened: list[PlayerOpened] = []
_matches_started: list[MatchesStarted] = []
_notice: list[NoticeListener] = []


def after_finish(fn: AfterFinish) -> AfterFinish:
    """Register ``fn`` to hear every match's end (once: registering it again changes nothing)."""
    if fn not in _after_finish:
        _after_finish.append(fn)
    return fn


def forget(fn: Callable[..., Any]) -> None:
    """Unregister ``fn`` wherever it is registered (a test's feature, when the test is over)."""
    if fn in _after_finish:
        _after_finish.remove(fn)
    if fn in _mark_changed:
        _mark_changed.remove(fn)
    if fn in _account_deleted:
        _account_deleted.remove(fn)
    for listeners in (_player_opened, _matches_started, _notice):
        if fn in listeners:
            listeners.remove(fn)
    for key in [key for key, part in _account_parts.items() if part is fn]:
        del _account_parts[key]


def run_after_finish(match: Match) -> None:
    for fn in list(_after_finish):
        fn(match)


def account_export(key: str, fn: AccountPart) -> None:
    """Register ``fn(user)`` as the part ``key`` of an account's data download."""
    _account_parts[key] = fn


def account_parts(user: User) -> dict[str, Any]:
    return {key: fn(user) for key, fn in _account_parts.items()}


def mark_changed(fn: MarkChanged) -> MarkChanged:
    """Register ``fn(user_id)`` to hear every fair-play mark set or lifted (once)."""
    if fn not in _mark_changed:
        _mark_changed.append(fn)
    return fn


def run_mark_changed(user_id: int) -> None:
    for fn in list(_mark_changed):
        fn(user_id)


def account_deleted(fn: AccountDeleted) -> AccountDeleted:
    """Register ``fn(user_id)`` to hear every account deleted by its player (once)."""
    if fn not in _account_deleted:
        _account_deleted.append(fn)
    return fn


def run_account_deleted(user_id: int) -> None:
    for fn in list(_account_deleted):
        fn(user_id)


def player_opened(fn: PlayerOpened) -> PlayerOpened:
    """Register ``fn(match_id, user_id)`` to hear every player opening their match's socket (once)."""
    if fn not in _player_opened:
        _player_opened.append(fn)
    return fn


def run_player_opened(match_id: int, user_id: int) -> None:
    for fn in list(_player_opened):
        fn(match_id, user_id)


def matches_started(fn: MatchesStarted) -> MatchesStarted:
    """Register ``fn(matches)`` to hear every match between people that starts (once)."""
    if fn not in _matches_started:
        _matches_started.append(fn)
    return fn


def run_matches_started(matches: list[Match]) -> None:
    people = [m for m in matches if not m.bot_level and m.pink_id is not None and m.blue_id is not None]
    if people:
        for fn in list(_matches_started):
            fn(people)


def on_notice(fn: NoticeListener) -> NoticeListener:
    """Register ``fn(notices)`` to hear every notice (once)."""
    if fn not in _notice:
        _notice.append(fn)
    return fn


def notice(user_ids: list[int], kind: str, data: dict[str, Any], key: str = "") -> None:
    """Tell ``user_ids`` of ``kind`` (``data``: JSON-ready facts; ``key``: the same key is told
    to a player once, e.g. "arena:12")."""
    notices([Notice(list(user_ids), kind, data, key)])


def notices(items: list[Notice]) -> None:
    """Tell many at once (a sweep's, a wave's): the listeners hear them in one call, so what
    they write is a few statements for all, not a few for each."""
    items = [item for item in items if item.user_ids]
    if items:
        for fn in list(_notice):
            fn(items)
