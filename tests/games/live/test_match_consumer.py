"""ws/match/<id>/ through the real ASGI application (routing, origin check, session
auth) and the settings' Redis channel layer: every client frame, good and bad."""

from __future__ import annotations

import json
import time

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from games import play as services
from games.desk import MatchDesk
from games.kropki.engine import KropkiState
from games.live.match_consumer import RATE_BURST, RATE_PER_SECOND
from games.models import Match, Move
from games.play import core
from kropki_site.asgi import application
from tests.helpers import VECTORS
from tests.sockets import ORIGIN, logged_in_client, open_socket, session_cookie

pytestmark = pytest.mark.django_db(transaction=True)


@database_sync_to_async
def db_picture(match_id: int) -> tuple:
    match = Match.objects.get(pk=match_id)
    moves = list(Move.objects.filter(match_id=match_id).order_by("ply").values_list("ply", "player", "action"))
    return (
        match.status,
        match.ply,
        match.to_move,
        match.history,
        match.draw_offer,
        match.rematch_offer,
        match.winner,
        match.end_reason,
        match.turn_deadline,
        moves,
    )


HEADER_FIELDS = {
    "version",
    "status",
    "to_move",
    "deadline",
    "server_now",
    "scores",
    "winner",
    "end_reason",
    "draw_offer",
    "rematch_offer",
    "rematch_id",
    "takeback_offer",
    "takebacks",
    "takebacks_done",
    "counts",
}
QUIET = ("rate_limited", "login_required", "not_a_player")  # no state frame after these


async def expect_error(ws, code: str, ply: int) -> dict:
    error = await ws.receive_json_from(timeout=5)
    assert error["type"] == "error" and error["code"] == code, error
    assert error["message"]
    if code not in QUIET:
        state = await ws.receive_json_from(timeout=5)  # always followed by a fresh state
        assert state["type"] == "state" and state["ply"] == ply == state["snapshot"]["ply"]
    return error


async def test_connect_gives_the_state_with_your_colour(make_match, alice, bob, charlie):
    match = await database_sync_to_async(make_match)("cztery-w-rzedzie")
    ws_a = await open_socket(match.pk, alice)
    ws_b = await open_socket(match.pk, bob)
    ws_c = await open_socket(match.pk, charlie)
    ws_anon = await open_socket(match.pk)
    assert ws_a.first_state["you"] == 1 and ws_b.first_state["you"] == 2
    assert ws_c.first_state["you"] is None and ws_anon.first_state["you"] is None
    snap = ws_a.first_state["snapshot"]
    assert snap["ply"] == 0 and snap["to_move"] == 1 and snap["legal"] == list(range(7))
    assert set(snap) >= HEADER_FIELDS and snap["view"]["cells"] == [[0] * 7] * 6
    assert "board_svg" not in snap and "<svg" not in json.dumps(ws_a.first_state)  # data, not pictures
    for ws in (ws_a, ws_b, ws_c, ws_anon):
        await ws.disconnect()


async def test_a_good_move_reaches_the_opponent_and_spectators_as_moved(make_match, alice, bob, charlie):
    match = await database_sync_to_async(make_match)("cztery-w-rzedzie")
    ws_a = await open_socket(match.pk, alice)
    ws_b = await open_socket(match.pk, bob)
    ws_c = await open_socket(match.pk)
    await ws_a.send_json_to({"type": "move", "ply": 0, "action": 3})
    for ws in (ws_b, ws_c, ws_a):
        frame = await ws.receive_json_from(timeout=5)
        assert frame["type"] == "moved" and frame["ply"] == 1 and frame["action"] == 3 and frame["by"] == 1
        assert set(frame) == {"type", "ply", "match", "action", "by", "notation", "details", "by_timeout"}
        assert set(frame["match"]) == HEADER_FIELDS and frame["match"]["to_move"] == 2
        assert (
            frame["match"]["status"] == "active" and frame["match"]["scores"] == [0, 0] and frame["match"]["deadline"]
        )
        assert frame["details"] == {"column": 4, "row": 1, "winning_lines": [], "dead_lines": 0}
        assert frame["notation"] == "4" and frame["by_timeout"] is False
    # the resend of the same move (a duplicate) is harmless: a state frame, no second row
    await ws_a.send_json_to({"type": "move", "ply": 0, "action": 3})
    state = await ws_a.receive_json_from(timeout=5)
    assert state["type"] == "state" and state["ply"] == 1
    assert (await db_picture(match.pk))[-1] == [(1, 1, 3)]
    # sync answers with the state
    await ws_c.send_json_to({"type": "sync"})
    state = await ws_c.receive_json_from(timeout=5)
    assert state["type"] == "state" and state["ply"] == 1
    for ws in (ws_a, ws_b, ws_c):
        await ws.disconnect()


async def test_a_move_made_while_the_first_state_is_read_follows_that_state(make_match, alice, bob, monkeypatch):
    """The socket's first frame is its state; a move heard while that state was read comes after
    it, never before (CI: bob's socket got alice's opening move, then the state read before it,
    and a client that waits for the state first never saw the move). Alice moves in the middle of
    bob's read; the move's broadcast reaches bob's socket before his state is sent."""
    match = await database_sync_to_async(make_match)("cztery-w-rzedzie")
    real_state = MatchDesk.state
    bob_reads: list[int] = []

    def state(desk, match_id, user_id, language):
        frame = real_state(desk, match_id, user_id, language)
        assert frame is not None
        if user_id == bob.pk and not bob_reads:
            bob_reads.append(frame["ply"])
            services.match_play(match_id=match_id, user_id=alice.pk, ply=0, action=3)
            time.sleep(0.5)  # the broadcast comes back through Redis to bob's listener meanwhile
        return frame

    monkeypatch.setattr(MatchDesk, "state", state)
    ws_b = await open_socket(match.pk, bob)
    assert bob_reads == [0] and ws_b.first_state["ply"] == 0
    moved = await ws_b.receive_json_from(timeout=5)
    assert moved["type"] == "moved" and moved["ply"] == 1 and moved["action"] == 3
    assert await ws_b.receive_nothing(timeout=0.2)
    await ws_b.disconnect()


BAD_FRAMES = [
    ("not json {", "bad_json"),
    ("[1, 2]", "bad_frame"),
    ('"move"', "bad_frame"),
    ("{}", "unknown_type"),
    ('{"type": "dance"}', "unknown_type"),
    ('{"type": 5}', "unknown_type"),
    ('{"type": "move", "ply": "0", "action": 3}', "bad_frame"),
    ('{"type": "move", "ply": 0, "action": "3"}', "bad_frame"),
    ('{"type": "move", "ply": 0, "action": true}', "bad_frame"),
    ('{"type": "move", "ply": 0, "action": 3.0}', "bad_frame"),
    ('{"type": "move", "ply": 0}', "bad_frame"),
    ('{"type": "move", "action": 3}', "bad_frame"),
    ('{"type": "move", "ply": 0, "action": 7}', "unknown_action"),
    ('{"type": "move", "ply": 0, "action": -1}', "unknown_action"),
    ('{"type": "move", "ply": 0, "action": 99999999999999999999}', "unknown_action"),
    ('{"type": "move", "ply": 5, "action": 3}', "stale_ply"),
    ('{"type": "move", "ply": -1, "action": 3}', "stale_ply"),
    ('{"type": "end", "ply": 0}', "unknown_action"),
    ('{"type": "draw_answer", "accept": "yes"}', "bad_frame"),
    ('{"type": "draw_answer", "accept": true}', "no_draw_offer"),
    ('{"type": "claim_timeout"}', "turn_not_expired"),
    ('{"type": "rematch_offer"}', "rematch_unavailable"),
    ('{"type": "rematch_decline"}', "no_rematch_offer"),
    (json.dumps({"type": "move", "ply": 0, "action": 3, "pad": "x" * 2100}), "frame_too_large"),
]


@pytest.mark.parametrize("text,code", BAD_FRAMES, ids=[c + "-" + str(i) for i, (_, c) in enumerate(BAD_FRAMES)])
async def test_bad_frames_get_their_code_and_change_nothing(make_match, alice, text, code):
    match = await database_sync_to_async(make_match)("cztery-w-rzedzie")
    ws = await open_socket(match.pk, alice)
    before = await db_picture(match.pk)
    await ws.send_to(text_data=text)
    await expect_error(ws, code, ply=0)
    assert await db_picture(match.pk) == before
    await ws.disconnect()


async def test_a_binary_frame_is_refused(make_match, alice):
    match = await database_sync_to_async(make_match)("cztery-w-rzedzie")
    ws = await open_socket(match.pk, alice)
    before = await db_picture(match.pk)
    await ws.send_to(bytes_data=b'{"type": "move", "ply": 0, "action": 3}')
    await expect_error(ws, "bad_frame", ply=0)
    assert await db_picture(match.pk) == before
    await ws.disconnect()


MOVE = {"type": "move", "ply": 0, "action": 3}
OUTSIDERS = [("bob", "not_your_turn", MOVE)] + [
    (who, code, frame)
    for who, code in [("charlie", "not_a_player"), (None, "login_required")]
    for frame in (MOVE, {"type": "resign"}, {"type": "draw_offer"}, {"type": "end", "ply": 0})
]


@pytest.mark.parametrize("who,code,frame", OUTSIDERS)
async def test_only_the_player_to_move_moves(make_match, alice, bob, charlie, who, code, frame):
    """Bob moving out of turn, a spectator or an anonymous visitor acting: refused, nothing changes."""
    match = await database_sync_to_async(make_match)("kropki-10" if frame["type"] == "end" else "cztery-w-rzedzie")
    user = {"bob": bob, "charlie": charlie, None: None}[who]
    ws = await open_socket(match.pk, user)
    before = await db_picture(match.pk)
    await ws.send_json_to(frame)
    await expect_error(ws, code, ply=0)
    assert await db_picture(match.pk) == before
    await ws.disconnect()


async def test_a_move_in_a_finished_match_is_refused(make_match, alice, bob):
    match = await database_sync_to_async(make_match)("cztery-w-rzedzie")
    await database_sync_to_async(services.match_resign)(match_id=match.pk, user_id=bob.pk)
    ws = await open_socket(match.pk, alice)
    before = await db_picture(match.pk)
    for frame, code in [
        ({"type": "move", "ply": 0, "action": 3}, "match_not_active"),
        ({"type": "resign"}, "match_not_active"),
        ({"type": "draw_offer"}, "match_not_active"),
    ]:
        await ws.send_json_to(frame)
        await expect_error(ws, code, ply=0)
    assert await db_picture(match.pk) == before
    await ws.disconnect()


@pytest.mark.parametrize(
    "origin", [(b"origin", b"https://evil.example"), (b"origin", b"http://127.0.0.1.evil.example"), None]
)
async def test_a_foreign_or_missing_origin_is_rejected_at_the_handshake(make_match, alice, origin):
    match = await database_sync_to_async(make_match)("cztery-w-rzedzie")
    headers = [origin] if origin else []
    headers.append((b"cookie", session_cookie(await database_sync_to_async(logged_in_client)(alice))))
    ws = WebsocketCommunicator(application, f"/ws/match/{match.pk}/", headers=headers)
    connected, _ = await ws.connect(timeout=5)
    assert not connected
    await ws.disconnect()


async def test_unknown_match_is_closed(db):
    # accepted, then closed with 4404: a close before the accept would reach a browser as HTTP 403
    ws = WebsocketCommunicator(application, "/ws/match/987654/", headers=[ORIGIN])
    connected, _ = await ws.connect(timeout=5)
    assert connected
    assert await ws.receive_output(timeout=5) == {"type": "websocket.close", "code": 4404}
    await ws.disconnect()


async def test_rate_limit(make_match, alice):
    match = await database_sync_to_async(make_match)("cztery-w-rzedzie")
    ws = await open_socket(match.pk, alice)
    started = time.monotonic()
    for _ in range(40):
        await ws.send_json_to({"type": "unknown"})
    # every frame is answered: unknown_type (then a state, if the state bucket allows), or a
    # rate_limited error (no state after it)
    seen = []
    while not await ws.receive_nothing(timeout=3, interval=0.01):
        frame = await ws.receive_json_from(timeout=5)
        seen.append(frame["type"] if frame["type"] != "error" else frame["code"])
    elapsed = time.monotonic() - started
    assert "rate_limited" in seen
    assert seen.count("rate_limited") + seen.count("unknown_type") == 40, seen
    # the burst, plus what refilled meanwhile (a loaded machine answers slowly)
    assert seen.count("unknown_type") <= RATE_BURST + 1 + RATE_PER_SECOND * elapsed, (seen, elapsed)
    await ws.disconnect()


async def test_resign_draw_and_rematch_frames(make_match, alice, bob):
    match = await database_sync_to_async(make_match)("cztery-w-rzedzie")
    ws_a = await open_socket(match.pk, alice)
    ws_b = await open_socket(match.pk, bob)

    await ws_a.send_json_to({"type": "draw_offer"})
    for ws in (ws_a, ws_b):
        frame = await ws.receive_json_from(timeout=5)
        assert frame["type"] == "draw_offered" and frame["by"] == 1 and frame["match"]["draw_offer"] == 1
    await ws_b.send_json_to({"type": "draw_answer", "accept": False})
    for ws in (ws_a, ws_b):
        frame = await ws.receive_json_from(timeout=5)
        assert frame["type"] == "draw_declined" and frame["match"]["draw_offer"] is None

    await ws_b.send_json_to({"type": "resign"})
    for ws in (ws_a, ws_b):
        frame = await ws.receive_json_from(timeout=5)
        assert frame["type"] == "finished" and frame["match"]["winner"] == 1 and frame["match"]["status"] == "finished"
        assert frame["match"]["end_reason"] == "resign" and frame["rating_deltas"] is None and "action" not in frame

    await ws_a.send_json_to({"type": "rematch_offer"})
    for ws in (ws_a, ws_b):
        assert (await ws.receive_json_from(timeout=5))["type"] == "rematch_offered"
    await ws_b.send_json_to({"type": "rematch_offer"})  # the other offering too = accepting
    for ws in (ws_a, ws_b):
        frame = await ws.receive_json_from(timeout=5)
        assert frame["type"] == "rematch"
        new_id = frame["new_match_id"]
        assert frame["match_url"] == f"/partia/{new_id}/"
    new = await database_sync_to_async(Match.objects.get)(pk=new_id)
    assert (new.pink_id, new.blue_id) == (bob.pk, alice.pk)  # colours swapped
    for ws in (ws_a, ws_b):
        await ws.disconnect()


async def test_kropki_end_frame(make_match, alice, bob):
    match = await database_sync_to_async(make_match)("kropki-10")
    ws_a = await open_socket(match.pk, alice)
    ws_b = await open_socket(match.pk, bob)
    await ws_a.send_json_to({"type": "move", "ply": 0, "action": 44})
    await ws_a.receive_json_from(timeout=5)
    await ws_b.receive_json_from(timeout=5)
    await ws_b.send_json_to({"type": "end", "ply": 1})
    for ws in (ws_a, ws_b):
        frame = await ws.receive_json_from(timeout=5)
        assert frame["type"] == "moved" and frame["ply"] == 2 and frame["by"] == 2
        assert frame["details"]["ended"] is True and frame["details"]["cells"] == [] and frame["notation"] == "zakończ"
    await ws_b.send_json_to({"type": "move", "ply": 2, "action": 45})
    await expect_error(ws_b, "player_has_ended", ply=2)
    for ws in (ws_a, ws_b):
        await ws.disconnect()


async def test_a_heartbeat_with_the_current_version_gets_a_pong_and_a_stale_one_the_state(make_match, alice, bob):
    match = await database_sync_to_async(make_match)()
    ws = await open_socket(match.pk, alice)
    version = ws.first_state["snapshot"]["version"]
    await ws.send_json_to({"type": "sync", "version": version})
    assert await ws.receive_json_from(timeout=5) == {"type": "pong", "version": version}
    # a move whose frame this socket "lost": the heartbeat brings the new state
    await database_sync_to_async(services.match_play)(match_id=match.pk, user_id=alice.pk, ply=0, action=3)
    moved = await ws.receive_json_from(timeout=5)  # (delivered here; a lossy layer would drop it)
    assert moved["type"] == "moved"
    await ws.send_json_to({"type": "sync", "version": version})
    state = await ws.receive_json_from(timeout=5)
    assert state["type"] == "state" and state["ply"] == 1 and state["snapshot"]["version"] != version
    assert state["snapshot"]["version"] == moved["match"]["version"]
    # a resign changes no ply but changes the version
    await database_sync_to_async(services.match_resign)(match_id=match.pk, user_id=bob.pk)
    finished = await ws.receive_json_from(timeout=5)
    assert finished["type"] == "finished" and finished["match"]["version"] != state["snapshot"]["version"]
    await ws.send_json_to({"type": "sync", "version": state["snapshot"]["version"]})
    assert (await ws.receive_json_from(timeout=5))["snapshot"]["status"] == "finished"
    await ws.disconnect()


async def test_a_kropki_capture_frame_says_what_changed(make_match, alice, bob):
    """A capture's frame: the new dot, the captured dot, the territory's chain and
    every changed point (its grid character), in well under a kilobyte."""
    match = await database_sync_to_async(make_match)("kropki-10")
    ws_a = await open_socket(match.pk, alice)
    ws_b = await open_socket(match.pk, bob)
    # pink surrounds blue's dot at e5 (4, 4): d5, f5, e4, then e6 closes the ring
    moves = [(ws_a, 43), (ws_b, 44), (ws_a, 45), (ws_b, 0), (ws_a, 34), (ws_b, 1), (ws_a, 54)]
    for ply, (ws, action) in enumerate(moves):
        await ws.send_json_to({"type": "move", "ply": ply, "action": action})
        for other in (ws_a, ws_b):
            frame = await other.receive_json_from(timeout=5)
            assert frame["type"] == "moved" and frame["ply"] == ply + 1
    raw = json.dumps(frame, ensure_ascii=False)
    assert len(raw.encode()) < 1024
    details = frame["details"]
    assert (details["x"], details["y"], details["taken"], details["ended"]) == (4, 5, False, False)
    assert details["territories"] == [
        {"owner": 1, "chain": [[3, 4], [4, 3], [5, 4], [4, 5]], "captured": [[4, 4]]}
    ] or [sorted(map(tuple, t["chain"])) for t in details["territories"]] == [[(3, 4), (4, 3), (4, 5), (5, 4)]]
    assert sorted(details["cells"]) == [[44, "b"], [54, "A"]]
    assert frame["match"]["scores"] == [1, 0]
    await ws_a.send_json_to({"type": "sync"})
    state = await ws_a.receive_json_from(timeout=5)
    grid = state["snapshot"]["view"]["grid"]
    assert grid[44] == "b" and grid[54] == "A" and state["snapshot"]["scores"] == [1, 0]
    for ws in (ws_a, ws_b):
        await ws.disconnect()


async def test_state_frames_and_errors_speak_the_sockets_language(make_match, alice, bob):
    """Broadcast frames carry codes; what one socket is told in words is in its language."""
    match = await database_sync_to_async(make_match)("cztery-w-rzedzie")
    await database_sync_to_async(services.match_resign)(match_id=match.pk, user_id=bob.pk)
    english = WebsocketCommunicator(
        application, f"/ws/match/{match.pk}/", headers=[ORIGIN, (b"accept-language", b"en-GB,en;q=0.9")]
    )
    assert (await english.connect(timeout=5))[0]
    state = await english.receive_json_from(timeout=5)
    assert state["snapshot"]["result_text"] == "Pink wins: the opponent resigned."
    await english.send_json_to({"type": "resign"})
    error = await english.receive_json_from(timeout=5)
    assert error["code"] == "login_required" and "log in" in error["message"].lower()
    polish = await open_socket(match.pk)
    assert polish.first_state["snapshot"]["result_text"].startswith("Wygrywają różowe")
    for ws in (english, polish):
        await ws.disconnect()


async def test_spectators_are_refused_before_any_lock(make_match, charlie, monkeypatch):
    """Identity before locks: a spectator's or anonymous command never reaches a
    service, a transaction or a row lock, and gets no state frame to feed a flood."""
    match = await database_sync_to_async(make_match)("kropki-10")
    ws_c = await open_socket(match.pk, charlie)
    ws_anon = await open_socket(match.pk)
    locks = []
    real_lock = core.lock

    def lock(match_id):
        locks.append(match_id)
        return real_lock(match_id)

    monkeypatch.setattr(core, "lock", lock)
    for ws, code in ((ws_c, "not_a_player"), (ws_anon, "login_required")):
        for frame in (
            {"type": "resign"},
            {"type": "move", "ply": 0, "action": 44},
            {"type": "draw_offer"},
            {"type": "claim_timeout"},
        ):
            await ws.send_json_to(frame)
            error = await ws.receive_json_from(timeout=5)
            assert error["type"] == "error" and error["code"] == code
        assert await ws.receive_nothing(timeout=0.2)
    assert locks == []
    for ws in (ws_c, ws_anon):
        await ws.disconnect()


def _most_territories_20x20() -> list[int]:
    """The accepted moves of the 20x20 replay (oppai-rs) that ends with the most territories."""
    import gzip

    from games.catalogue import variant as get_variant

    best: tuple[int, list[int]] = (-1, [])
    path = VECTORS / "kropki" / "random_20x20.jsonl.gz"
    with gzip.open(path, "rt") as lines:
        for line in lines:
            game = json.loads(line)
            actions = [
                y * 20 + x for (x, y, _p), after in zip(game["moves"], game["after"], strict=True) if after["ok"]
            ]
            state = get_variant("kropki-20").game().state_from_history(actions)
            assert isinstance(state, KropkiState)
            best = max(best, (len(state.territory_chains), actions))
    return best[1]


@database_sync_to_async
def _set_history(match: Match, actions: list[int]) -> None:
    """Put ``actions`` into ``match`` as if played (the state frame reads the match row)."""
    from games.catalogue import variant as get_variant

    state = get_variant(match.variant).game().state_from_history(actions)
    match.history, match.ply = actions, len(actions)
    match.pink_score, match.blue_score = state.scores()
    match.to_move = state.current_player()
    match.save()


@pytest.mark.parametrize("played", ["all but one", "all"])
async def test_the_worst_kropki_20_state_frame_stays_small(make_match, alice, played):
    """A 20x20 board filled to the end with the most territories of 100 replays:
    the spectator's and the player's first frame are whole and at most 32 kB."""
    actions = _most_territories_20x20()
    match = await database_sync_to_async(make_match)("kropki-20")
    await _set_history(match, actions[:-1] if played == "all but one" else actions)
    for user in (None, alice):
        ws = await open_socket(match.pk, user)
        size = len(json.dumps(ws.first_state, ensure_ascii=False).encode())
        snap = ws.first_state["snapshot"]
        assert len(snap["moves"]) == snap["ply"] == match.ply and len(snap["view"]["chains"]) >= 10
        assert size <= 32 * 1024, size
        await ws.disconnect()


async def test_a_dots_and_boxes_frame_says_the_boxes_and_the_extra_move(make_match, alice, bob):
    match = await database_sync_to_async(make_match)("kropki-i-kwadraty")
    ws_a = await open_socket(match.pk, alice)
    ws_b = await open_socket(match.pk, bob)
    # a1-b1 (0), then the box a1's other three sides: b1-b2 (31), a2-b2 (5), a1-a2 (30) closes it
    for ply, (ws, segment) in enumerate([(ws_a, 0), (ws_b, 31), (ws_a, 5), (ws_b, 30)]):
        await ws.send_json_to({"type": "move", "ply": ply, "action": segment})
        frames = [await each.receive_json_from(timeout=5) for each in (ws_a, ws_b)]
    frame = frames[0]
    assert frame == frames[1] and frame["details"] == {"segment": 30, "boxes": [[0, 0]], "extra_move": True}
    assert frame["match"]["to_move"] == 2 and frame["match"]["scores"] == [0, 1] and frame["by"] == 2
    for ws in (ws_a, ws_b):
        await ws.disconnect()
