"""Issue 38 on the whole stack (real daphne, Redis, a Celery worker and beat; docs/tournaments.md
"Round two"): a two-player arena gives a second game (the rematch when nobody new is free); one
player's site socket is away while the wave pairs them (reconnecting) and learns of the game on
connect, opens and plays it; a visitor who is not logged in watches the standings change frame by
frame; wrong-typed fields are ``bad_frame`` for both.
"""

from __future__ import annotations

import asyncio
import json
import time
from urllib.parse import urlparse

import pytest
import websockets
from websockets.typing import Origin

from tests import live

pytestmark = pytest.mark.slow

# Long enough that a loaded machine never aborts a game before its first move (CI once did at 5 s:
# the second game's first move came after its 5 + 1 s, and the game did not count); nothing here
# waits on the clock, so it costs no time.
MOVE_SECONDS = 20


async def open_socket(base_url: str, path: str, player: dict | None):
    host = urlparse(base_url).netloc
    headers = [] if player is None else [("Cookie", f"{player['cookie_name']}={player['cookie']}")]
    return await websockets.connect(
        f"ws://{host}{path}", origin=Origin(f"http://{host}"), additional_headers=headers, open_timeout=10
    )


async def frame_of(ws, kind: str, timeout: float = 30, where=lambda frame: True) -> dict:
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while True:
        frame = json.loads(await asyncio.wait_for(ws.recv(), max(0.1, end - loop.time())))
        if frame.get("type") == kind and where(frame):
            return frame


async def resign_after_moves(
    base_url: str, match_id: int, player: dict, name: str, resign: bool
) -> list[tuple[str, float]]:
    """Open the game and play column 6 (or 5) when it is this player's turn; the resigner resigns
    after its second move (the game then counts: two moves each would be 4 plies; a loss anyway).
    An error frame fails the test at once. Returns when (monotonic) the socket opened, the state
    came and each move went: an assertion on the game's end prints them."""
    when = [("open", time.monotonic())]
    ws = await open_socket(base_url, f"/ws/match/{match_id}/", player)
    try:
        snap = (await frame_of(ws, "state", 10))["snapshot"]
        side = 1 if snap["players"]["1"]["name"] == name else 2
        column = 6 if side == 1 else 5
        ply, to_move, status, mine = snap["ply"], snap["to_move"], snap["status"], 0
        when.append((f"state: side {side}, ply {ply}, to move {to_move}, {status}", time.monotonic()))
        sent = None  # the ply this player last sent at: any other frame before its echo sends nothing again
        while status == "active":
            if to_move == side and sent != ply:
                sent = ply
                if resign and mine >= 2:
                    await ws.send(json.dumps({"type": "resign"}))
                else:
                    await ws.send(json.dumps({"type": "move", "ply": ply, "action": column}))
                    mine += 1
                when.append((f"sent at ply {ply}", time.monotonic()))
            frame = json.loads(await asyncio.wait_for(ws.recv(), 3 * MOVE_SECONDS + 10))
            if frame.get("type") == "error":  # whole, unlike the assertion's message (CI, 7 December)
                print(name, "match", match_id, json.dumps(frame), json.dumps(when))
            assert frame.get("type") != "error", (name, frame, when)
            if "match" in frame and isinstance(frame.get("ply"), int):
                ply, to_move, status = frame["ply"], frame["match"]["to_move"], frame["match"]["status"]
                when.append((f"{frame.get('type')}: ply {ply}, to move {to_move}, {status}", time.monotonic()))
            else:
                when.append((f"{frame.get('type')}", time.monotonic()))
    finally:
        await ws.close()
    return when


async def test_two_players_a_late_socket_and_an_anonymous_watcher_on_the_real_stack():
    with live.own_site("arena2", TOURNAMENT_PAIR_SECONDS="1", MOVE_GRACE_SECONDS="1") as site:
        _proc, url = site.start_daphne()
        site.start_worker(queues="default,clock", name="worker-1")
        site.start_beat()
        data = await asyncio.to_thread(
            site.call, "arena_with_players", starts=4, length=300, move=MOVE_SECONDS, players=2
        )
        arena = data["tournament"]
        p0, p1 = data["players"]["gracz0"], data["players"]["gracz1"]

        # The visitor not logged in: a watcher's socket, its fields checked, the standings live.
        watcher = await open_socket(url, "/ws/site/", None)
        assert json.loads(await watcher.recv()) == {"type": "hello", "user": None}
        for bad in (
            {"type": "watch_tournament", "id": str(arena)},
            {"type": "watch_tournament", "id": arena, "key": 1},
        ):
            await watcher.send(json.dumps(bad))
            assert (await frame_of(watcher, "error"))["code"] == "bad_frame"
        await watcher.send(json.dumps({"type": "challenge", "to": "gracz0", "variant": "cztery-w-rzedzie"}))
        assert (await frame_of(watcher, "error"))["code"] == "login_required"
        await watcher.send(json.dumps({"type": "watch_tournament", "id": arena}))
        assert (await frame_of(watcher, "tournament"))["count"] == 2

        # gracz0's socket is open; gracz1's is away (reconnecting) while the wave pairs them.
        site0 = await open_socket(url, "/ws/site/", p0)
        await site0.send(json.dumps({"type": "tournament_berserk", "match": "1"}))
        assert (await frame_of(site0, "error"))["code"] == "bad_frame"
        paired0 = await frame_of(site0, "tournament_paired", 30)
        assert paired0["opponent"] == "gracz1" and paired0["name"] == "Arena testowa"
        first = paired0["match"]
        await frame_of(watcher, "tournament", 30, lambda f: any(g[0] == first for g in f["playing"]))
        site1 = await open_socket(url, "/ws/site/", p1)  # back: the socket's word on connect
        hello = json.loads(await site1.recv())
        assert hello["user"] == "gracz1"
        current = await frame_of(site1, "tournament_paired", 10)
        assert current["current"] is True and current["match"] == first and current["ply"] == 0
        await asyncio.gather(
            resign_after_moves(url, first, p0, "gracz0", resign=False),
            resign_after_moves(url, first, p1, "gracz1", resign=True),
        )

        # Two things at once, as on the site: the watcher hears gracz0's win in the standings
        # (within 60 s: CI under load once took more than 20), and the players, nobody new being
        # free, are paired again after a few waves and play at once. (CI aborted the rematch before
        # its first move three times: the printed timings showed gracz1's socket getting a state
        # of ply 0 after gracz0's opening move, whose frame had come first and been skipped while
        # waiting for the state. The match socket now holds the match's frames until its first
        # state is sent: tests/games/live/test_match_consumer.py, docs/protocol.md.)
        async def watcher_hears_the_win() -> tuple[dict, float]:
            won = await frame_of(
                watcher, "tournament", 60, lambda f: any(r[1] == "gracz0" and r[2] == 2 for r in f["standings"])
            )
            return won, time.monotonic()

        async def the_rematch() -> tuple[float, list]:
            second0 = await frame_of(site0, "tournament_paired", 60, lambda f: f["match"] != first)
            second1 = await frame_of(site1, "tournament_paired", 30, lambda f: f["match"] != first)
            assert second0["match"] == second1["match"]
            paired_at = time.monotonic()
            timings = await asyncio.gather(
                resign_after_moves(url, second0["match"], p0, "gracz0", resign=True),
                resign_after_moves(url, second0["match"], p1, "gracz1", resign=False),
            )
            return paired_at, [[(what, round(t - paired_at, 2)) for what, t in side] for side in timings]

        (won, won_at), (paired_at, timings) = await asyncio.gather(watcher_hears_the_win(), the_rematch())
        assert won["standings"][0][1] == "gracz0"
        waited = paired_at - won_at  # the rematch's waves after the win (negative: paired first)
        report = await asyncio.to_thread(site.call, "arena_report", tournament_id=arena)
        for ws in (watcher, site0, site1):
            await ws.close()

    ends = [(m["status"], m["end_reason"]) for m in report["matches"]]
    print("the rematch, seconds after both were paired:", json.dumps(timings))  # whole, on a failure
    assert ends == [("finished", "resign")] * 2, (ends, timings, report)
    games = report["matches"]
    assert {m["pink"] for m in games} | {m["blue"] for m in games} == {p0["id"], p1["id"]}
    lines = {line["name"]: line for line in report["lines"]}
    assert lines["gracz0"]["games"] == lines["gracz1"]["games"] == 2
    assert not lines["gracz1"]["paused"] and lines["gracz1"]["timeouts_in_row"] == 0
    assert waited < 25, waited
