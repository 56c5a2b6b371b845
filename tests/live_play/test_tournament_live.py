"""An arena on the whole stack (docs/tournaments.md): real daphne, Redis, a Celery
worker and beat (PostgreSQL in CI), eight players driven by this test's bots over the
sockets, a 5 s move clock and a 70 s arena, to the end.

Each bot listens on its site socket; when the wave pairs it (``tournament_paired``) it
opens the match socket and plays Cztery w rzędzie (four stack a column, the others play at
random), two go berserk at the start of every game (over the site socket, once the
game's socket is open), one never
moves (so it times out twice and is paused). In the middle the worker is killed with
SIGKILL and another started. After the end: every player was paired repeatedly, no
player was ever in two games at once or met the same opponent again but after the
rematch's wait, every game that ended in time is in exactly its two
players' lines and their points are the rules' (streaks, berserk), the standings were
frozen with places, and a game that ended after the end counted for ratings, not points
(the bots think longer around the end, so that one does).
"""

from __future__ import annotations

import asyncio
import itertools
import json
import random
import time
from datetime import datetime
from urllib.parse import urlparse

import pytest
import websockets
from websockets.typing import Origin

from games.tournaments.services import REMATCH_AFTER_WAVES
from tests import live

pytestmark = pytest.mark.slow

PLAYERS = 8
MOVE_SECONDS = 5
ARENA_SECONDS = 70
STARTS_IN = 12  # the bots' sockets are open well before the first wave
SLEEPER = "gracz7"  # never moves
BERSERKERS = {"gracz0", "gracz1"}


async def connect(base_url: str, path: str, player: dict):
    host = urlparse(base_url).netloc
    return await websockets.connect(
        f"ws://{host}{path}",
        origin=Origin(f"http://{host}"),
        additional_headers=[("Cookie", f"{player['cookie_name']}={player['cookie']}")],
        open_timeout=10,
    )


class Bot:
    def __init__(self, name: str, player: dict, base_url: str, index: int) -> None:
        self.name, self.player, self.base_url = name, player, base_url
        self.stacker = index < 4
        self.column = index % 7
        self.rng = random.Random(index)
        self.paired: list[int] = []
        self.errors: list[dict] = []
        # (from, to) on the monotonic clock: around the arena's end the bot thinks longer, so
        # that a game paired or running then is sure to run past the end (berserkers, on half
        # the clock, do not)
        self.slow = (0.0, 0.0)

    async def run(self, stop: asyncio.Event) -> None:
        site = await connect(self.base_url, "/ws/site/", self.player)
        games: list[asyncio.Task] = []
        try:
            while not stop.is_set():
                try:
                    frame = json.loads(await asyncio.wait_for(site.recv(), 1.0))
                except TimeoutError:
                    continue
                if frame.get("type") == "tournament_paired" and frame["match"] not in self.paired:
                    self.paired.append(frame["match"])
                    games.append(asyncio.create_task(self.play(frame["match"], site)))
                elif frame.get("type") == "error":
                    self.errors.append(frame)
        finally:
            await asyncio.gather(*games, return_exceptions=True)
            await site.close()

    async def play(self, match_id: int, site) -> None:
        ws = await connect(self.base_url, f"/ws/match/{match_id}/", self.player)
        try:
            first = json.loads(await asyncio.wait_for(ws.recv(), 10))
            if self.name in BERSERKERS:
                # From the game's page, as a person does: half a clock from now. (Sent as the
                # pairing came, it halved the clock before the game's socket was open, and on a
                # loaded machine opening it can take most of that half: the likely reason a
                # berserker was paired only twice in one CI run, its first moves late twice and
                # so paused; not reproduced here, the assertion below now shows its games.)
                await site.send(json.dumps({"type": "tournament_berserk", "match": match_id}))
            snap = first["snapshot"]
            side = 1 if snap["players"]["1"]["name"] == self.name else 2
            ply, to_move, status = snap["ply"], snap["to_move"], snap["status"]
            full: set[int] = set()
            heights = [0] * 7
            while status == "active":
                if to_move == side and self.name != SLEEPER:
                    slow = self.slow[0] <= time.monotonic() <= self.slow[1] and self.name not in BERSERKERS
                    await asyncio.sleep(2.0 if slow else 0.3)
                    free = [c for c in range(7) if heights[c] < 6 and c not in full]
                    column = self.column if self.stacker and self.column in free else self.rng.choice(free)
                    await ws.send(json.dumps({"type": "move", "ply": ply, "action": column}))
                frame = json.loads(await asyncio.wait_for(ws.recv(), 3 * MOVE_SECONDS + 10))
                if frame.get("type") == "error":
                    if frame.get("code") == "column_full":
                        full.add(column)
                    continue
                if "match" not in frame or not isinstance(frame.get("ply"), int):
                    continue
                if isinstance(frame.get("action"), int):
                    heights[frame["action"]] += 1
                ply, to_move, status = frame["ply"], frame["match"]["to_move"], frame["match"]["status"]
        finally:
            await ws.close()


async def test_an_arena_of_eight_bots_on_the_real_stack_to_its_end():
    with live.own_site(
        "arena",
        TOURNAMENT_PAIR_SECONDS="1",
        MOVE_GRACE_SECONDS="1",
        RATED_GAMES_PER_PAIR_PER_DAY="1000",
    ) as site:
        _proc, url = site.start_daphne()
        worker = site.start_worker(queues="default,clock", name="worker-1")
        site.start_beat()
        data = await asyncio.to_thread(
            site.call, "arena_with_players", starts=STARTS_IN, length=ARENA_SECONDS, move=MOVE_SECONDS, players=PLAYERS
        )
        stop = asyncio.Event()
        bots = [Bot(name, p, url, i) for i, (name, p) in enumerate(sorted(data["players"].items()))]
        # The arena's own end on this clock, which every time below is counted from (the set-up
        # call itself may take seconds on a busy machine: a window counted from its return once
        # opened after the end, and no game ran past it).
        end = time.monotonic() + (datetime.fromisoformat(data["ends_at"]).timestamp() - time.time())
        for bot in bots:
            bot.slow = (end - 10, end + 3)
        runs = [asyncio.create_task(bot.run(stop)) for bot in bots]
        # In the middle: kill -9 the worker (a wave or a sweep may be under way) and start another.
        await asyncio.sleep(end - ARENA_SECONDS / 2 - time.monotonic())
        worker.kill()
        site.procs.remove(worker)
        site.start_worker(queues="default,clock", name="worker-2")
        # To the end, and until the games still running then are over.
        await asyncio.sleep(end + 2 - time.monotonic())
        deadline = time.monotonic() + 60
        while True:
            report = await asyncio.to_thread(site.call, "arena_report", tournament_id=data["tournament"])
            if report["status"] == "finished" and all(m["status"] != "active" for m in report["matches"]):
                break
            assert time.monotonic() < deadline, "the arena or its last games did not end"
            await asyncio.sleep(2)
        stop.set()
        await asyncio.gather(*runs)

    ends = report["ends_at"]
    matches = {m["id"]: m for m in report["matches"]}
    lines = {line["name"]: line for line in report["lines"]}
    by_id = {line["user"]: line for line in report["lines"]}

    # Every player but the sleeper paired repeatedly; the sleeper paused after two timeouts.
    for bot in bots:
        if bot.name != SLEEPER:
            mine = [m for m in matches.values() if lines[bot.name]["user"] in (m["pink"], m["blue"])]
            assert len(bot.paired) >= 3, (bot.name, bot.paired, lines[bot.name], mine, bot.errors)
    sleeper = lines[SLEEPER]["user"]
    sleeper_games = [m for m in matches.values() if sleeper in (m["pink"], m["blue"])]
    assert lines[SLEEPER]["paused"] and len(sleeper_games) == 2, sleeper_games
    assert all(m["status"] == "aborted" or m["end_reason"] == "timeout" for m in sleeper_games)

    # Never two games at once; the same opponent twice in a row only after the rematch's wait
    # (issue 38: REMATCH_AFTER_WAVES waves of 1 s here with nobody new for either).
    for uid in by_id:
        mine = sorted((m for m in matches.values() if uid in (m["pink"], m["blue"])), key=lambda m: m["created"])
        for a, b in itertools.pairwise(mine):
            assert b["created"] >= a["finished"] - 0.001, (uid, a["id"], b["id"])
            if {a["pink"], a["blue"]} == {b["pink"], b["blue"]}:
                assert b["created"] - a["finished"] >= REMATCH_AFTER_WAVES * 1.0 - 0.001, (uid, a["id"], b["id"])

    # Each game that ended in time and counts (two own moves each) scored once in each player's
    # line; later ones, and those that ended before two moves each, not at all.
    counted = {mid for mid, m in matches.items() if m["status"] == "finished" and m["counts"] and m["finished"] < ends}
    assert all(
        m["counts"] == (min(m["own_moves"].values()) >= 2) for m in matches.values() if m["status"] == "finished"
    )
    late = [m for m in matches.values() if m["finished"] >= ends]
    for line in report["lines"]:
        ids = [r["m"] for r in line["results"]]
        assert len(ids) == len(set(ids)) == line["games"]
        in_time = {mid for mid in counted if line["user"] in (matches[mid]["pink"], matches[mid]["blue"])}
        assert set(ids) == in_time, line["name"]
        # The points are the rules': 2/1/0, doubled after two wins, +1 for a berserk win of 7 own moves.
        wins, total = 0, 0
        for r in line["results"]:
            m = matches[r["m"]]
            side = 1 if m["pink"] == line["user"] else 2
            result = "d" if m["winner"] is None else "w" if m["winner"] == side else "l"
            fire = wins >= 2
            points = {"w": 2, "d": 1, "l": 0}[result] * (2 if fire else 1)
            if result == "d" and m["ply"] <= 10:
                points = 0
            berserk = m["pink_berserk"] if side == 1 else m["blue_berserk"]
            if result == "w" and berserk and m["own_moves"][str(side)] >= 7:
                points += 1
            assert (r["r"], r["p"], r["f"], r["b"]) == (result, points, fire, berserk), (line["name"], r, m)
            wins = wins + 1 if result == "w" else 0
            total += points
        assert total == line["points"]
    assert any(r["b"] for line in report["lines"] for r in line["results"]), "no berserk game"
    assert any(r["f"] for line in report["lines"] for r in line["results"]), "no streak"

    # Frozen: every line has its place, in the order of the points; no line points at a game.
    ranked = sorted(report["lines"], key=lambda line: line["rank"])
    assert [line["rank"] for line in ranked] == list(range(1, PLAYERS + 1))
    assert [line["points"] for line in ranked] == sorted((line["points"] for line in ranked), reverse=True)
    assert all(line["match"] is None for line in report["lines"])
    # A game still running at the end finished normally and was rated, but scored nothing.
    played_late = [m for m in late if m["status"] == "finished" and min(m["own_moves"].values()) >= 1]
    assert played_late, "no game ran past the end"
    assert all(m["rating_changes"] == 2 for m in played_late)
