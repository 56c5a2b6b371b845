"""Carrying frames to sockets: the topics, and one publish per frame.

The services hand it frames already built (``games/display/frames.py``) from
``transaction.on_commit``; this module knows nothing of matches beyond their id.
Each frame is encoded once here and published once to Redis (``hub.publish``);
every process with a socket of that topic hears it once and hands it to its
sockets (``games/live/hub.py``). Topic names live here and nowhere else.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from .hub import publish, publish_many


def match_topic(match_id: int) -> str:
    """Every socket of one match (players and spectators): its moves, offers, clock and end."""
    return f"match:{match_id}"


def chat_topic(match_id: int, room: str) -> str:
    """The sockets reading one chat room of a match ("players" or "spectators"): apart from
    the match's topic, so a chat line is never handled by a socket that does not show it."""
    return f"chat:{match_id}:{room}"


def user_topic(user_id: int) -> str:
    """Every socket of one user, match and site sockets alike: control messages (the 4401 close)."""
    return f"user:{user_id}"


def site_topic(user_id: int) -> str:
    """The site sockets (``ws/site/``) of one user: their notifications."""
    return f"site:{user_id}"


def tournament_topic(tournament_id: int) -> str:
    """The site sockets of pages showing one arena (they asked with ``watch_tournament``)."""
    return f"tournament:{tournament_id}"


def swiss_topic(tournament_id: int) -> str:
    """The site sockets of pages showing one Swiss tournament (they asked with ``watch_swiss``)."""
    return f"swiss:{tournament_id}"


def analysis_topic(match_id: int) -> str:
    """The site sockets of record pages following the computer's review of one match (they asked
    with ``watch_analysis``): its progress."""
    return f"analysis:{match_id}"


def api_topic(user_id: int) -> str:
    """The API event streams of one user (docs/api.md): what the site sockets do not hear
    (a match of theirs finished)."""
    return f"api:{user_id}"


def send_to_api_user(user_id: int, frame: dict[str, Any]) -> None:
    publish(api_topic(user_id), _encode(frame))


def end_api_streams(user_id: int, token_id: int | None) -> None:
    """End the open API streams of ``user_id`` on token ``token_id`` (None: all of them: the
    account was deleted). Every stream of an account hears its ``api:`` topic
    (games/api/streams.py); should this be lost, a stream still checks its token every
    API_TOKEN_CHECK_SECONDS."""
    publish(api_topic(user_id), _encode({"end_stream": True, "token": token_id}))


# The site sockets of lobby pages (they asked with ``watch_online``): the online list.
ONLINE_TOPIC = "online"
# The site sockets of home pages (``watch_home``, issue 38): the "Right now" counts and games.
HOME_TOPIC = "home"


def _encode(frame: dict[str, Any]) -> str:
    return json.dumps(frame, ensure_ascii=False, default=str)


def send_to_match(match_id: int, frame: dict[str, Any]) -> None:
    """Tell the match's sockets what was just committed (call after commit only)."""
    publish(match_topic(match_id), _encode(frame))


def send_to_matches(frames: list[tuple[int, dict[str, Any]]]) -> None:
    """A frame to each of many matches' sockets, in one round trip to Redis (an arena's wave
    starting its games; after commit only)."""
    publish_many([(match_topic(match_id), _encode(frame)) for match_id, frame in frames])


def send_to_chat(match_id: int, room: str, frame: dict[str, Any]) -> None:
    """A committed chat line to the sockets of its room only (call after commit only)."""
    publish(chat_topic(match_id, room), _encode(frame))


def session_tag(session_key: str | None) -> str | None:
    """A session's name on the wire: a hash, never the key."""
    return hashlib.sha256(session_key.encode()).hexdigest()[:24] if session_key else None


def close_user_sockets(user_id: int, session: tuple[str, str, str] | None = None) -> None:
    """Close every socket of ``user_id`` with 4401 (a logout, a password change). Should this
    message be lost, the sockets still cannot act: each command checks its session
    (``LiveSocket``, docs/protocol.md). ``session``: (old key, new key, new auth hash) of the
    session that changed the password, whose sockets stay open under its new key."""
    message: dict[str, Any] = {"close": 4401}
    if session is not None:
        old_key, new_key, new_hash = session
        message["keep"] = {"tag": session_tag(old_key), "key": new_key, "hash": new_hash}
    publish(user_topic(user_id), _encode(message))


def send_to_site_user(user_id: int, frame: dict[str, Any]) -> None:
    """A frame to every site socket of one user (a direct challenge, its answer)."""
    publish(site_topic(user_id), _encode(frame))


def send_to_tournament(tournament_id: int, frame: dict[str, Any]) -> None:
    """An arena's standings to every page watching it (encoded once; after commit only)."""
    publish(tournament_topic(tournament_id), _encode(frame))


def send_to_swiss(tournament_id: int, frame: dict[str, Any]) -> None:
    """A Swiss tournament's ``swiss`` frame to every page watching it (encoded once; after commit only)."""
    publish(swiss_topic(tournament_id), _encode(frame))


def send_to_analysis(match_id: int, frame: dict[str, Any]) -> None:
    """A review's progress to every record page of the match following it (after commit only)."""
    publish(analysis_topic(match_id), _encode(frame))


def send_to_site_users(frames: list[tuple[int, dict[str, Any]]]) -> None:
    """A frame to each of many users' site sockets, in one round trip to Redis (an arena's
    wave: every paired player hears where their game is)."""
    publish_many([(site_topic(user_id), _encode(frame)) for user_id, frame in frames])


def send_home(frame: dict[str, Any]) -> None:
    """The home page's "Right now" to every home page's site socket (encoded once)."""
    publish(HOME_TOPIC, _encode(frame))


def send_online(frame: dict[str, Any]) -> None:
    """The online list to every lobby page's site socket (encoded once)."""
    publish(ONLINE_TOPIC, _encode(frame))
