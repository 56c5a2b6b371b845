"""The API on the real stack (docs/api.md): daphne with scripts/run's flags, Redis, a Celery
worker, and ``scripts/engine_bridge.py`` over ``bench/kropki_engine.py --level losowy`` (a
random legal move: cheap).

- a bridge-driven bot plays a whole game of every variant against a person on the WebSocket;
- a bot plays a bot (two bridges, one challenging the other);
- tokens over HTTP: a wrong one, a revoked one, one without the scope (401/403 JSON);
- a bot's moves out of turn and malformed ones refused with the WebSocket's codes;
- a bot account refused by the ranked queue's page;
- a game stream and the event stream broken by a daphne restart, opened again, resuming
  from the moves;
- the bridge's daphne killed while its engine thinks: the bridge moves once it is back;
- the event stream's headers and first line come at once.
"""

from __future__ import annotations

import asyncio
import http.cookiejar
import json
import random
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from urllib.parse import urlparse

import pytest
import websockets
from websockets.typing import Origin

from games import catalogue
from games.engine import get_game
from tests import live

pytestmark = pytest.mark.slow

VARIANTS = {v.key: (v.game_slug, v.params) for v in catalogue.variants()}  # every game of the site
ENGINE = f"{sys.executable} {live.ROOT / 'bench' / 'kropki_engine.py'} --level losowy"


@pytest.fixture(scope="module")
def api_site() -> Iterator[live.LiveSite]:
    with live.own_site("api", MOVE_SECONDS="900") as site:  # the set-up's match waits through the tests
        site.start_worker()
        yield site


@pytest.fixture(scope="module")
def api_url(api_site) -> str:
    _proc, url = api_site.start_daphne(name="daphne-1")
    return url


@pytest.fixture(scope="module")
def people(api_site, api_url) -> dict:
    return api_site.call("api_people")


def call(url: str, method: str, path: str, token: str | None = None, data: dict | None = None) -> tuple[int, dict]:
    body = json.dumps(data).encode() if data is not None else (b"" if method == "POST" else None)
    request = urllib.request.Request(url + path, data=body, method=method)
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    if data is not None:
        request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            assert response.headers["Content-Type"] == "application/json"
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as exc:
        assert exc.headers["Content-Type"] == "application/json", exc.headers
        return exc.code, json.loads(exc.read())


class Stream:
    """An NDJSON stream read line by line (keep-alive lines counted apart)."""

    def __init__(self, url: str, path: str, token: str) -> None:
        request = urllib.request.Request(url + path, headers={"Authorization": f"Bearer {token}"})
        self.response = urllib.request.urlopen(request, timeout=20)
        assert self.response.headers["Content-Type"] == "application/x-ndjson"
        self.keepalives = 0

    def next(self) -> dict | None:
        while True:
            raw = self.response.readline()
            if not raw:
                return None
            if raw.strip():
                return json.loads(raw)
            self.keepalives += 1

    def until(self, predicate, seconds: float = 60) -> dict:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            line = self.next()
            assert line is not None, "the stream ended"
            if predicate(line):
                return line
        raise AssertionError(f"no such line within {seconds} s")

    def close(self) -> None:
        self.response.close()


def bridge(api_site, url: str, token: str, *extra: str, name: str) -> live.Proc:
    args = [sys.executable, str(live.ROOT / "scripts" / "engine_bridge.py"), token, "--url", url, "--time", "0.05"]
    proc = live.start(name, [*args, *extra, "--", ENGINE], api_site.env, api_site.workdir)
    api_site.procs.append(proc)
    return proc


async def open_ws(url: str, match_id: int, player: dict):
    host = urlparse(url).netloc
    ws = await websockets.connect(
        f"ws://{host}/ws/match/{match_id}/",
        origin=Origin(f"http://{host}"),
        additional_headers=[("Cookie", f"{player['cookie_name']}={player['cookie']}")],
        open_timeout=10,
        max_size=2**20,
    )
    first = json.loads(await asyncio.wait_for(ws.recv(), 10))
    assert first["type"] == "state"
    return ws, first


async def human_plays(url: str, match_id: int, person: dict, variant: str) -> dict:
    """The person's side on the WebSocket: a random legal move when it is their turn (Kropki: they
    end the game after a few moves, so the bot plays alone until it ends too). Returns the end frame."""
    slug, params = VARIANTS[variant]
    state = get_game(slug, **params).new_initial_state()
    ws, first = await open_ws(url, match_id, person)
    me = first["you"]
    rng = random.Random(match_id)
    applied = first["ply"]
    assert applied == 0
    sent_for = -1
    try:

        async def maybe_move(to_move, ply, status):
            nonlocal sent_for
            if status != "active" or to_move != me or sent_for == ply:
                return
            legal = state.legal_actions()
            end = getattr(state.game, "end_action", None)
            if end is not None and (ply >= 6 or legal == [end]):
                await ws.send(json.dumps({"type": "end", "ply": ply}))
            else:
                choice = rng.choice([a for a in legal if a != end])
                await ws.send(json.dumps({"type": "move", "ply": ply, "action": choice}))
            sent_for = ply

        last = (first["snapshot"]["to_move"], 0, first["snapshot"]["status"])
        await maybe_move(*last)
        deadline = time.monotonic() + 240
        while time.monotonic() < deadline:
            frame = json.loads(await asyncio.wait_for(ws.recv(), 30))
            kind = frame.get("type")
            if kind == "error" and frame["code"] == "rate_limited":  # the socket's frame budget: a person is slower
                await asyncio.sleep(1.1)
                sent_for = -1
                await maybe_move(*last)
                continue
            if kind == "error":
                raise AssertionError(f"the person's move was refused: {frame}")
            if "action" in frame and frame.get("ply") == applied + 1:
                state.apply_action(frame["action"])
                applied += 1
            if kind == "finished":
                return frame
            if kind == "moved":
                last = (frame["match"]["to_move"], frame["ply"], frame["match"]["status"])
                await maybe_move(*last)
        raise AssertionError("the game did not end in time")
    finally:
        await ws.close()


def test_a_bridge_bot_plays_a_whole_game_of_every_variant_against_a_person(api_site, api_url, people):
    bot = bridge(api_site, api_url, people["robot1"]["token"], "--max-games", "1", name="bridge-robot1")
    events = Stream(api_url, "/api/stream/event", people["ania"]["token"])
    try:
        for variant in VARIANTS:
            status, answer = call(
                api_url, "POST", "/api/challenge/robot1", people["ania"]["token"], {"variant": variant}
            )
            assert status == 200, answer
            challenge_id = answer["challenge"]["id"]
            start = events.until(lambda e, c=challenge_id: e["type"] == "gameStart" and e["game"].get("challenge") == c)
            match_id = start["game"]["id"]
            # ania's gameStart says whom and which colour she plays, as the opening one does (issue 37)
            assert start["game"]["variant"] == variant and start["game"]["opponent"] == "robot1", start
            assert start["game"]["opponent_bot"] is True and start["game"]["colour"] in ("pink", "blue")
            assert start["game"]["colour"] == {1: "pink", 2: "blue"}[start["game"]["you"]]
            end = asyncio.run(human_plays(api_url, match_id, people["ania"], variant))
            assert end["match"]["status"] == "finished", end
            events.until(lambda e, m=match_id: e["type"] == "gameFinish" and e["game"]["id"] == m)
            # the bot's name carries its mark on the record of the game
            page = urllib.request.urlopen(f"{api_url}/partia/{match_id}/zapis/", timeout=10).read().decode()
            assert "BOT robot1" in page
        assert bot.popen.poll() is None, live.tail(bot.log)
    finally:
        events.close()
        bot.stop()


def test_a_bot_plays_a_bot(api_site, api_url, people):
    host = bridge(api_site, api_url, people["robot1"]["token"], name="bridge-robot1b")
    guest = bridge(
        api_site,
        api_url,
        people["robot2"]["token"],
        "--challenge",
        "robot1",
        "--variant",
        "cztery-w-rzedzie",
        "--games",
        "1",
        name="bridge-robot2",
    )
    try:
        assert guest.popen.wait(timeout=120) == 0, live.tail(guest.log)
        text = guest.log.read_text()
        assert "challenged robot1" in text
    finally:
        host.stop()
        guest.stop()
    status, answer = call(api_url, "GET", "/api/account", people["robot2"]["token"])
    assert status == 200 and answer["bot"] is True


def test_tokens_wrong_revoked_and_without_scope_get_json_refusals(api_url, people):
    assert call(api_url, "GET", "/api/account") == (401, call(api_url, "GET", "/api/account")[1])
    status, answer = call(api_url, "GET", "/api/account")
    assert status == 401 and answer["error"] == "token_missing"
    status, answer = call(api_url, "GET", "/api/account", "kro_wrong")
    assert status == 401 and answer["error"] == "token_invalid"
    status, answer = call(
        api_url, "POST", "/api/challenge/robot1", people["ania"]["revoked_token"], {"variant": "kropki-10"}
    )
    assert status == 401 and answer["error"] == "token_invalid"
    status, answer = call(
        api_url, "POST", "/api/challenge/robot1", people["ania"]["read_token"], {"variant": "kropki-10"}
    )
    assert status == 403 and answer["error"] == "token_scope"
    for path in ("/api/stream/event", "/api/bot/game/stream/1"):
        status, answer = call(api_url, "GET", path, "kro_wrong")
        assert status == 401 and answer["error"] == "token_invalid", path
    status, answer = call(api_url, "GET", "/api/stream/event", people["ania"]["read_token"])
    assert status == 403 and answer["error"] == "token_scope"
    status, answer = call(api_url, "POST", "/api/bot/game/1/move/3", people["ania"]["token"])
    assert status == 403 and answer["error"] == "not_a_bot"


def test_moves_out_of_turn_and_malformed_are_refused_with_the_codes(api_url, people):
    match_id, token = people["restart_match"], people["robot3"]["token"]
    status, answer = call(api_url, "POST", f"/api/bot/game/{match_id}/move/abc", token)
    assert (status, answer["error"]) == (400, "bad_frame")
    status, answer = call(api_url, "POST", f"/api/bot/game/{match_id}/move/99999", token)
    assert (status, answer["error"]) == (400, "unknown_action")
    status, answer = call(api_url, "POST", f"/api/bot/game/{match_id}/end", token)
    assert (status, answer["error"]) == (400, "unknown_action")
    status, answer = call(api_url, "POST", f"/api/bot/game/{match_id}/move/3?ply=5", token)
    assert (status, answer["error"]) == (400, "stale_ply")
    status, answer = call(api_url, "POST", f"/api/bot/game/{match_id}/move/3?ply=0", token)
    assert (status, answer) == (200, {"ok": True, "ply": 1, "duplicate": False})
    status, answer = call(api_url, "POST", f"/api/bot/game/{match_id}/move/4", token)
    assert (status, answer["error"]) == (400, "not_your_turn")
    status, answer = call(api_url, "POST", f"/api/bot/game/{match_id}/move/3", people["robot1"]["token"])
    assert (status, answer["error"]) == (403, "not_a_player")
    status, answer = call(api_url, "GET", f"/api/bot/game/{match_id}/resign", token)
    assert (status, answer["error"]) == (405, "method_not_allowed")


def test_a_bot_is_refused_by_the_ranked_queue(api_url, people):
    robot = people["robot2"]
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    cookie = f"{robot['cookie_name']}={robot['cookie']}"
    opener.open(urllib.request.Request(f"{api_url}/graj/", headers={"Cookie": cookie}), timeout=10).read()
    csrf = next(c.value for c in jar if c.name == "csrftoken")

    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args, **kwargs):
            return None

    request = urllib.request.Request(
        f"{api_url}/graj/kolejka/dolacz/",
        data=f"variant=kropki-10&csrfmiddlewaretoken={csrf}".encode(),
        headers={"Cookie": f"{cookie}; csrftoken={csrf}", "Referer": f"{api_url}/graj/"},
    )
    with pytest.raises(urllib.error.HTTPError) as sent:
        urllib.request.build_opener(NoRedirect).open(request, timeout=10)
    assert sent.value.code == 302 and sent.value.headers["Location"] == "/graj/"  # not to the queue
    said = [h.split(";", 1)[0] for h in sent.value.headers.get_all("Set-Cookie") or [] if h.startswith("messages=")]
    lobby = urllib.request.Request(f"{api_url}/graj/", headers={"Cookie": "; ".join([cookie, *said])})
    assert (
        "Konto bota gra tylko przez bezpośrednie wyzwania." in urllib.request.urlopen(lobby, timeout=10).read().decode()
    )


def test_streams_reconnect_after_a_daphne_restart_and_resume_from_the_moves(api_site, api_url, people):
    match_id, token = people["restart_match"], people["robot3"]["token"]
    proc, url = api_site.start_daphne(name="daphne-restart")
    port = urlparse(url).port
    game = Stream(url, f"/api/bot/game/stream/{match_id}", token)
    events = Stream(url, "/api/stream/event", token)
    full = game.next()
    assert full is not None and full["type"] == "gameFull" and full["you"] == 1
    before = full["state"]["moves"]
    start = events.until(lambda e: e["type"] == "gameStart")["game"]
    assert start == {
        "id": match_id,
        "variant": "cztery-w-rzedzie",
        "challenge": None,
        "you": 1,
        "colour": "pink",
        "opponent": "ania",
        "opponent_bot": False,
        "rated": False,
    }
    proc.stop()
    api_site.procs.remove(proc)
    drain(game)  # the stream ends, cleanly or not, with its daphne
    drain(events)
    # ania moves while that daphne is down (through the other one)
    ania = people["ania"]

    async def ania_moves() -> None:
        ws, first = await open_ws(api_url, match_id, ania)
        await ws.send(json.dumps({"type": "move", "ply": first["ply"], "action": 2}))
        while json.loads(await asyncio.wait_for(ws.recv(), 10)).get("type") != "moved":
            pass
        await ws.close()

    if full["state"]["to_move"] == 2:
        asyncio.run(ania_moves())
    _proc, again = api_site.start_daphne(port=port, name="daphne-restarted")
    assert again == url
    game = Stream(url, f"/api/bot/game/stream/{match_id}", token)
    full = game.next()
    assert full is not None and full["type"] == "gameFull"
    assert full["state"]["moves"][: len(before)] == before and full["state"]["to_move"] == 1
    events = Stream(url, "/api/stream/event", token)
    assert events.until(lambda e: e["type"] == "gameStart")["game"]["id"] == match_id
    ply = full["state"]["ply"]
    status, answer = call(url, "POST", f"/api/bot/game/{match_id}/move/3?ply={ply}", token)
    assert status == 200, answer
    line = game.until(lambda s: s["type"] == "gameState")
    assert line["ply"] == ply + 1 and line["last"]["action"] == 3 and line["last"]["by"] == 1
    assert "moves" not in line  # a gameState carries the new move, not the list
    status, answer = call(url, "POST", f"/api/bot/game/{match_id}/resign", token)
    assert status == 200
    last = game.until(lambda s: s["status"] != "active")
    assert last["status"] == "finished" and last["winner"] == 2 and last["end_reason"] == "resign"
    assert game.next() is None  # the stream ends with the game
    game.close()
    events.close()


def test_the_bridge_moves_in_time_when_daphne_restarts_while_its_engine_thinks(api_site, api_url, people):
    """Issue 37 item 12: the bridge's engine thinks 3 s; its daphne is killed meanwhile, so the move's
    POST finds no server. When that daphne is back the bridge opens its streams again, gets the same
    position (still its turn) and must move: before the fix it took the position for one it had
    answered and waited for ever, its clock running out."""
    match_id, ania = people["bridge_restart_match"], people["ania"]
    proc, url = api_site.start_daphne(name="daphne-bridge")
    port = urlparse(url).port
    slow = f"{sys.executable} {live.ROOT / 'tests' / 'live_play' / 'slow_engine.py'} 3"
    args = [sys.executable, str(live.ROOT / "scripts" / "engine_bridge.py"), people["robot4"]["token"]]
    bot = live.start("bridge-robot4", [*args, "--url", url, "--games", "1", "--", slow], api_site.env, api_site.workdir)
    api_site.procs.append(bot)

    async def play() -> float:
        ws, first = await open_ws(api_url, match_id, ania)  # ania's side on the daphne that stays
        try:
            assert first["you"] == 1 and first["snapshot"]["to_move"] == 1 and first["ply"] == 0
            # the bridge has the game open (its robot4 is in the game's stream of watchers) before ania moves
            await asyncio.sleep(3)
            await ws.send(json.dumps({"type": "move", "ply": 0, "action": 3}))
            while json.loads(await asyncio.wait_for(ws.recv(), 10)).get("type") != "moved":
                pass
            moved_at = time.monotonic()
            await asyncio.sleep(0.7)  # the move reaches the bridge through its game stream: its engine thinks
            await asyncio.to_thread(proc.kill)  # and its daphne dies meanwhile
            api_site.procs.remove(proc)
            await asyncio.sleep(max(0.0, moved_at + 4.5 - time.monotonic()))  # the POST found nobody
            await asyncio.to_thread(api_site.start_daphne, port, "daphne-bridge-again")
            back = time.monotonic()
            while True:
                frame = json.loads(await asyncio.wait_for(ws.recv(), 40))
                if frame.get("type") == "moved" and frame["ply"] == 2:
                    waited = time.monotonic() - back
                    break
            await ws.send(json.dumps({"type": "resign"}))
            while json.loads(await asyncio.wait_for(ws.recv(), 10)).get("type") != "finished":
                pass
            return waited
        finally:
            await ws.close()

    try:
        waited = asyncio.run(play())
    except TimeoutError:
        raise AssertionError("the bridge never moved after the restart:\n" + live.tail(bot.log, 200)) from None
    print(f"the bridge moved {waited:.1f} s after its daphne was back")
    assert waited < 20, live.tail(bot.log)  # its engine's 3 s and a reconnection, far within a move's time
    assert bot.popen.wait(timeout=30) == 0, live.tail(bot.log)  # --games 1: it saw the game end


def drain(stream: Stream) -> None:
    """Read ``stream`` until it ends or breaks."""
    try:
        while stream.next() is not None:
            pass
    except Exception:  # a reset, or http.client.IncompleteRead (a chunked body cut off)
        pass
    stream.close()


def test_an_idle_stream_sends_keepalive_lines(api_url, people):
    events = Stream(api_url, "/api/stream/event", people["robot2"]["token"])
    started = time.monotonic()
    lines = [events.response.readline() for _ in range(2)]
    assert b"\n" in lines and time.monotonic() - started < 15  # within two keep-alive intervals
    events.close()


def test_the_event_stream_sends_its_headers_and_a_first_line_at_once(api_url, people):
    """Issue 37: an idle event stream's headers went out with its first keep-alive (6 s): a client
    with a shorter timeout saw no stream. Now a keep-alive line comes with them at once."""
    started = time.monotonic()
    request = urllib.request.Request(
        api_url + "/api/stream/event", headers={"Authorization": f"Bearer {people['robot2']['token']}"}
    )
    with urllib.request.urlopen(request, timeout=3) as response:  # raises TimeoutError without headers
        assert response.headers["Content-Type"] == "application/x-ndjson"
        assert response.readline() == b"\n"
        assert time.monotonic() - started < 3
