"""Fire-and-forget Celery publishes, off the caller's thread.

A publish is a round trip to the broker (Redis); inside a move's database call
(the consumer's thread, in a ``transaction.on_commit`` hook) it would make every
move wait for it. ``publish`` hands the task to one background thread per
process and returns at once. The thread sends in order; a failure is logged and
dropped, because every task published here has a database-driven safety net
(``games.play.clock.sweep_expired`` re-enqueues a computer move that never came).

Only the computer's moves use it, and a rated game's end (the fair-play check, sent by the
feature's ``after_finish`` hook): a human turn publishes nothing at all (the clock is
``Match.turn_deadline``, read by the sweeps: docs/protocol.md, "The clock").
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

from celery import current_app

log = logging.getLogger(__name__)

_lock = threading.Lock()
_executor: ThreadPoolExecutor | None = None
_executor_pid = 0


def _background() -> ThreadPoolExecutor:
    """This process's publisher thread, made on first use (and again in a forked child,
    which inherits the object but not the thread)."""
    global _executor, _executor_pid
    with _lock:
        if _executor is None or _executor_pid != os.getpid():
            # Not a daemon thread: at exit, Python waits for the publishes already handed over.
            _executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="kropki-publish")
            _executor_pid = os.getpid()
        return _executor


def _send(task_name: str, args: tuple[Any, ...]) -> None:
    try:
        current_app.send_task(task_name, args=args)  # routed by name (CELERY_TASK_ROUTES)
    except Exception:  # the broker is down or slow: the sweeper's rescue covers it
        log.exception("could not publish %s%r", task_name, args)


def send_now(task_name: str, args: tuple[Any, ...]) -> None:
    """Send on this thread (the publisher's own, or a Celery worker's); never raises."""
    _send(task_name, args)


def send_later(task_name: str, args: tuple[Any, ...], countdown: float) -> None:
    """Send on this thread a task to run in ``countdown`` seconds (a computer move the
    live-position guard holds: games/play/botqueue.py ``retry_later``); never raises."""
    try:
        current_app.send_task(task_name, args=args, countdown=countdown)
    except Exception:  # the broker is down or slow: the sweeper's rescue covers it
        log.exception("could not publish %s%r", task_name, args)


def call(function: Callable[..., None], *args: Any) -> None:
    """Run ``function(*args)`` on the background thread (Redis and broker round trips
    off the caller's); an exception is logged."""

    def guarded() -> None:
        try:
            function(*args)
        except Exception:
            log.exception("background call %s failed", getattr(function, "__name__", function))

    try:
        _background().submit(guarded)
    except RuntimeError:  # the interpreter is shutting down
        guarded()


def publish(task_name: str, args: tuple[Any, ...]) -> None:
    """Send the task called ``task_name`` (e.g. "games.tasks.bot_move") with
    ``args`` from the background thread; never raises. By name: the tasks call
    the services, so the services do not import the tasks."""
    try:
        _background().submit(_send, task_name, args)
    except RuntimeError:  # the interpreter is shutting down: no new threads, send it here
        _send(task_name, args)


def wait_idle(timeout: float = 10.0) -> None:
    """Until everything handed over so far has been sent (tests, and scripts that exit)."""
    done: Future[None] = _background().submit(lambda: None)
    done.result(timeout=timeout)
