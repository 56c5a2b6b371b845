"""What many tests share: the variants' keys, the shared engine vectors, playing moves
through the services, and racing calls in threads.

Importing it needs no database (the catalogue is pure Python; the services are imported
when a move is played), so the engine tests read ``VECTORS`` from here too. Matches are
made by ``tests/factories.py`` (``make_match``); sockets by ``tests/sockets.py``.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from games.catalogue import game_spec

# The engine vectors shared with other engines: ../shared/vectors/ beside this checkout, or
# $SHARED_VECTORS_DIR (the ``vectors_dir`` fixture also checks that it is there).
VECTORS = Path(
    os.environ.get("SHARED_VECTORS_DIR") or Path(__file__).resolve().parents[1].parent / "shared" / "vectors"
)


def variant_key(slug: str, **params: Any) -> str:
    """The key of game ``slug``'s one variant with ``params`` (any, for a game with one variant)."""
    keys = [v.key for v in game_spec(slug).variants if params.items() <= v.params.items()]
    assert len(keys) == 1, (slug, params, keys)
    return keys[0]


# The variant most tests play (quick, no score): Cztery w rzędzie's one.
C4 = variant_key("connect4")


def play(match, user, action, *, ply=None, **kwargs):
    """Play ``action`` for ``user`` at the match's current ply (re-read from the database)."""
    match.refresh_from_db()
    return _move(match, user.pk, action, ply=ply, **kwargs)


def play_moves(match, actions: Iterable[int], **kwargs):
    """Play ``actions`` in turn, each for the player to move (``Match.to_move``: a box closed or
    a bounce moves again); returns the match as they leave it. ``kwargs`` go to every move."""
    for action in actions:
        match.refresh_from_db()
        user_id = match.user_id_of(match.to_move)
        assert user_id is not None, f"nobody to move at ply {match.ply} of match {match.pk}"
        _move(match, user_id, action, **kwargs)
    match.refresh_from_db()
    return match


def _move(match, user_id: int, action: int, *, ply=None, **kwargs):
    from games import play as services  # here: the services need Django's apps loaded

    return services.match_play(
        match_id=match.pk, user_id=user_id, ply=match.ply if ply is None else ply, action=action, **kwargs
    )


def run_together(*calls: Callable[..., Any], timeout: float = 30.0) -> list:
    """Start every call in its own thread (its own database connection) at the same instant
    (a Barrier); return each one's result or exception, in order. Fails if a thread hangs."""
    from django.db import close_old_connections, connection

    barrier = threading.Barrier(len(calls))
    results: list = [None] * len(calls)

    def worker(i, call):
        close_old_connections()
        try:
            barrier.wait(timeout=timeout)
            results[i] = call()
        except BaseException as exc:  # reported to the test
            results[i] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=worker, args=(i, call)) for i, call in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout)
        assert not thread.is_alive(), "a racing thread hung"
    return results


def cut_hub_connection() -> int:
    """Close this process's hub's pub/sub connection to Redis, as a network fault would (only
    its own: the other pytest-xdist processes share the Redis); returns how many were cut."""
    from games.live import hub

    name = hub.hub().client_name
    client = hub._client()
    ids = [c["id"] for c in client.client_list(_type="pubsub") if c.get("name") == name]
    for client_id in ids:
        client.client_kill_filter(_id=client_id)
    return len(ids)


def board_evaluated(client, url: str, data: dict[str, str] | None = None, **headers: Any):
    """The analysis board's page at ``url`` (with ``data``) asked for the computer's evaluation, as
    a visitor sees it once the analysis worker has made it: the first answer says it is being made
    (``board-thinking``); the worker's part is run here (games/review/tasks.py ``board_evaluate``)
    and the page asked for again. A refused evaluation is the first answer itself."""
    from urllib.parse import parse_qsl, urlencode, urlsplit

    from games.review import analysis_board

    parts = urlsplit(url)
    query = dict(parse_qsl(parts.query)) | (data or {}) | {"ocena": "1"}
    asked = f"{parts.path}?{urlencode(query)}"  # the test client drops a path's query when given data
    first = client.get(asked, **headers)
    if 'data-testid="board-thinking"' not in first.content.decode():
        return first
    variant = parts.path.rstrip("/").rsplit("/", 1)[-1]
    params = analysis_board.read_params(query.get("opcje", ""))
    analysis_board.evaluation_make(variant, params, analysis_board.read_actions(query.get("ruchy", "")))
    return client.get(asked, **headers)
