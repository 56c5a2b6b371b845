#!/usr/bin/env python3
"""Connect an engine to the site as a bot: the reference bridge of docs/api.md.

    scripts/engine_bridge.py TOKEN [options] -- ENGINE_CMD [ARGS...]

TOKEN is a personal access token with the ``bot:play`` scope of a bot account (or
``env:NAME``: the token is in the environment variable NAME; ``@FILE``: in that file;
either keeps it out of the process list). ENGINE_CMD speaks the line protocol of
docs/bots.md ("Playing an outside engine"): ``bench/kropki_engine.py`` is one.

The bridge reads the account's event stream, accepts the challenges it can play
(the variants the engine says it plays, ``--variants`` to narrow them), declines the
others, and plays each game on a thread of its own with an engine process of its own:
it reads the game stream, tells the engine every move, asks it for its own when the
bot is to move and posts the answer. Streams that break (a daphne restart, the
network) are opened again with a growing pause; a game picks up from the moves the
stream gives on reconnecting. Only the standard library: copy it and change it freely.

Options: ``--url`` (default http://127.0.0.1:8000), ``--time S`` (the engine's seconds a
move, default 1; never more than the site's move time allows), ``--variants a,b``,
``--max-games N`` (play at most N at once, default 4), ``--games N`` (exit after N
finished games: tests), ``--challenge USER --variant V [--rated]`` (challenge USER
once at the start, and again after each game while ``--games`` allows).
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import logging
import os
import shlex
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

log = logging.getLogger("engine_bridge")

RECONNECT_DELAYS = (0.5, 1.0, 2.0, 4.0, 8.0)  # then 8 s between attempts
STREAM_TIMEOUT = 30.0  # no line (not even a keep-alive) for this long: the stream is dead


class ApiError(Exception):
    def __init__(self, status: int, code: str, message: str = "") -> None:
        super().__init__(f"{status} {code}: {message}")
        self.status, self.code = status, code


def refusal(exc: urllib.error.HTTPError) -> ApiError:
    """The API's JSON error answer as an ApiError (docs/api.md "Errors")."""
    try:
        answer = json.loads(exc.read())
    except ValueError:
        answer = {}
    return ApiError(exc.code, answer.get("error", "http_error"), answer.get("message", ""))


class Api:
    """The site's API: JSON calls and NDJSON streams, with the token."""

    def __init__(self, url: str, token: str) -> None:
        self.url = url.rstrip("/")
        self.token = token

    def _request(self, method: str, path: str, data: dict[str, Any] | None = None) -> urllib.request.Request:
        body = json.dumps(data).encode() if data is not None else b"" if method == "POST" else None
        request = urllib.request.Request(self.url + path, data=body, method=method)
        request.add_header("Authorization", f"Bearer {self.token}")
        if data is not None:
            request.add_header("Content-Type", "application/json")
        return request

    def call(self, method: str, path: str, data: dict[str, Any] | None = None) -> dict[str, Any]:
        try:
            with urllib.request.urlopen(self._request(method, path, data), timeout=30) as response:
                return json.loads(response.read() or b"{}")
        except urllib.error.HTTPError as exc:
            raise refusal(exc) from None

    def stream(self, path: str):
        """The lines of an NDJSON stream as dicts (None for a keep-alive line); ends when the
        server ends it, raises OSError/ApiError when it breaks or is refused."""
        try:
            response = urllib.request.urlopen(self._request("GET", path), timeout=STREAM_TIMEOUT)
        except urllib.error.HTTPError as exc:
            raise refusal(exc) from None
        with response:
            while True:
                line = response.readline()
                if not line:
                    return
                yield json.loads(line) if line.strip() else None  # None: a keep-alive line


class Engine:
    """One engine process and the protocol of docs/bots.md."""

    def __init__(self, command: list[str]) -> None:
        self.proc = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1, start_new_session=True
        )

    def ask(self, line: str) -> str:
        """Send one command; its answer without ``=`` (raises RuntimeError on ``?``)."""
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        answer = self.proc.stdout.readline()
        if not answer:
            raise RuntimeError(f"the engine exited after {line!r}")
        answer = answer.strip()
        if answer.startswith("?"):
            raise RuntimeError(answer[1:].strip() or "refused")
        return answer.removeprefix("=").strip()

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.ask("quit")
        with contextlib.suppress(Exception):
            self.proc.wait(timeout=5)
        if self.proc.poll() is None:
            self.proc.kill()


def engine_plays(command: list[str], variant: str) -> bool:
    """Whether the engine plays ``variant``: it answers ``variant KEY`` with ``=``. An engine without
    the command plays Kropki only (as in bench/bots.py --gtp): ``new W H`` then starts its games."""
    engine = Engine(command)
    try:
        engine.ask(f"variant {variant}")
        return True
    except RuntimeError:
        try:
            engine.ask("variant kropki-10")  # does it know the command at all?
            return False
        except RuntimeError:
            return variant.startswith("kropki-") and variant.count("-") == 1  # empty boards: kropki-10, -20, -30
    finally:
        engine.close()


class Game(threading.Thread):
    """One game: its stream, its engine, its moves."""

    def __init__(self, bridge: Bridge, game_id: int) -> None:
        super().__init__(name=f"game-{game_id}", daemon=True)
        self.bridge, self.id = bridge, game_id
        self.engine: Engine | None = None
        self.told = 0  # moves the engine knows
        self.posted_ply = -1  # the ply our last move answered (not posted twice)
        self.full: dict[str, Any] = {}
        self.moves: list[int] = []  # the game's moves so far: gameFull's list, then each gameState's new one
        self.movers: list[int] = []
        self.over = False

    # the moves in the engine's words
    def kropki(self) -> bool:
        return self.full.get("game") == "kropki"

    def move_text(self, action: int) -> str:
        if not self.kropki():
            return str(action)
        width = self.full["params"]["width"]
        return "end" if action == self.full["end_action"] else f"{action % width} {action // width}"

    def action_of(self, text: str) -> int:
        words = text.split()
        if not self.kropki():
            return int(words[0])
        if words == ["end"]:
            return int(self.full["end_action"])
        return int(words[1]) * self.full["params"]["width"] + int(words[0])

    def new_engine(self) -> None:
        if self.engine is not None:
            self.engine.close()
        engine = self.engine = Engine(self.bridge.command)
        params = self.full["params"]
        try:
            engine.ask(f"variant {self.full['variant']}")
            engine.ask("new")
        except RuntimeError:  # a Kropki-only engine of bench/bots.py --gtp
            engine.ask(f"new {params['width']} {params['height']}")
        seconds = min(self.bridge.seconds, max(0.1, self.full["move_seconds"] - 3.0))
        engine.ask(f"time {seconds}")
        self.told = 0

    def tell(self, state: dict[str, Any]) -> None:
        """The engine learns the moves it has not heard; replayed from the start when it disagrees."""
        moves, movers = state["moves"], state["movers"]
        assert self.engine is not None
        try:
            while self.told < len(moves):
                self.engine.ask(f"play {movers[self.told]} {self.move_text(moves[self.told])}")
                self.told += 1
        except RuntimeError as exc:
            log.warning("game %s: the engine refused a move (%s): starting it again", self.id, exc)
            self.new_engine()
            self.tell(state)

    def think(self, state: dict[str, Any]) -> None:
        you = self.full["you"]
        if state["status"] != "active" or state["to_move"] != you or self.posted_ply == state["ply"]:
            return
        assert self.engine is not None
        answer = self.engine.ask(f"genmove {you}")
        self.told += 1  # the engine played it on its own board
        action = self.action_of(answer)
        self.posted_ply = state["ply"]
        path = f"/api/bot/game/{self.id}/move/{action}?ply={state['ply']}"
        if self.kropki() and action == self.full["end_action"]:
            path = f"/api/bot/game/{self.id}/end?ply={state['ply']}"
        try:
            self.bridge.api.call("POST", path)
        except (OSError, ApiError) as exc:
            if isinstance(exc, ApiError) and exc.status < 500:
                self.refused(answer, exc)
                return
            # Did it arrive (a daphne restart, the network, a proxy's 502)? The stream, opened again,
            # says: the next ply if it did; this ply, still ours, if it did not, and then the move is
            # thought and posted again (the ply was not answered: forgetting that stalled the bot
            # until its clock ran out). The engine starts again from the stream's moves.
            self.posted_ply = -1
            self.new_engine()
            raise OSError(f"move {answer} not confirmed: {exc}") from exc

    def refused(self, answer: str, exc: ApiError) -> None:
        """The site refused our move: stale (the stream will say what changed), over, or the engine was wrong."""
        log.warning("game %s: move %s refused: %s", self.id, answer, exc)
        self.told = 0
        self.new_engine()
        if exc.code not in ("stale_ply", "match_not_active", "turn_expired"):
            self.bridge.api.call("POST", f"/api/bot/game/{self.id}/resign")  # an engine that errs gives up

    def heard(self, line: dict[str, Any]) -> dict[str, Any]:
        """A ``gameState`` line with the moves so far: it carries only the move that made it
        (``last``) and its ``ply``; a gap (never sent: the server says a new gameFull) breaks
        the stream, which is opened again."""
        last = line.get("last")
        if last is not None and line["ply"] == len(self.moves) + 1:
            self.moves.append(last["action"])
            self.movers.append(last["by"])
        elif line["ply"] != len(self.moves):
            raise RuntimeError(f"ply {line['ply']} after {len(self.moves)} moves")
        return {**line, "moves": self.moves, "movers": self.movers}

    def on_state(self, state: dict[str, Any]) -> None:
        if len(state["moves"]) < self.told:  # the engine is ahead of what the site kept
            self.new_engine()
        self.tell(state)
        if state["status"] != "active":
            log.info("game %s over: %s, winner %s", self.id, state["end_reason"], state["winner"])
            self.over = True
            return
        self.think(state)

    def run(self) -> None:
        attempt = 0
        try:
            while not self.over and not self.bridge.stopping.is_set():
                try:
                    for line in self.bridge.api.stream(f"/api/bot/game/stream/{self.id}"):
                        attempt = 0
                        if line is None:
                            continue
                        if line["type"] == "gameFull":
                            log.info("game %s: %s, we play side %s", self.id, line["variant"], line["you"])
                            self.full = line
                            self.moves, self.movers = list(line["state"]["moves"]), list(line["state"]["movers"])
                            if self.engine is None:
                                self.new_engine()
                            self.on_state(line["state"])
                        elif line["type"] == "gameState":
                            self.on_state(self.heard(line))
                    if self.full and not self.over:
                        continue  # the stream ended before the game: open it again
                except ApiError as exc:
                    if exc.code in ("not_found", "token_invalid", "token_scope", "not_a_bot"):
                        log.error("game %s: %s", self.id, exc)
                        return
                    log.warning("game %s: %s", self.id, exc)
                except (OSError, ValueError, RuntimeError, http.client.HTTPException) as exc:  # IncompleteRead: cut off
                    log.warning("game %s: stream broke (%s)", self.id, exc)
                time.sleep(RECONNECT_DELAYS[min(attempt, len(RECONNECT_DELAYS) - 1)])
                attempt += 1
        finally:
            if self.engine is not None:
                self.engine.close()
            self.bridge.game_over(self.id)


class Bridge:
    def __init__(self, api: Api, command: list[str], args: argparse.Namespace) -> None:
        self.api, self.command, self.args = api, command, args
        self.seconds = args.time
        self.wanted = set(args.variants.split(",")) if args.variants else None
        self.plays: dict[str, bool] = {}  # the engine's answer for each variant challenged in
        self.games: dict[int, Game] = {}
        self.finished = 0
        self.done_ids: set[int] = set()  # games the event stream said are over
        self.lock = threading.Lock()
        self.stopping = threading.Event()

    def game_over(self, game_id: int) -> None:
        with self.lock:
            self.games.pop(game_id, None)
            self.finished += 1
            done = self.args.games and self.finished >= self.args.games
        if done:
            self.stopping.set()
        elif self.args.challenge:
            self.challenge()

    def challenge(self) -> None:
        try:
            answer = self.api.call(
                "POST",
                f"/api/challenge/{self.args.challenge}",
                {"variant": self.args.variant, "rated": self.args.rated, "colour": "random"},
            )
            log.info("challenged %s: %s", self.args.challenge, answer)
        except ApiError as exc:
            log.warning("challenge refused: %s", exc)

    def will_play(self, variant: str) -> bool:
        if self.wanted is not None and variant not in self.wanted:
            return False
        if variant not in self.plays:
            self.plays[variant] = engine_plays(self.command, variant)
            log.info("engine plays %s: %s", variant, self.plays[variant])
        return self.plays[variant]

    def on_event(self, event: dict[str, Any]) -> None:
        kind = event.get("type")
        if kind == "challenge":
            challenge = event["challenge"]
            with self.lock:
                playing = [g for g in self.games.values() if not g.over and g.id not in self.done_ids]
            busy = len(playing) >= self.args.max_games
            verb = "accept" if not busy and self.will_play(str(challenge.get("variant"))) else "decline"
            log.info(
                "%s challenge %s from %s (%s)", verb, challenge["id"], challenge.get("from"), challenge.get("variant")
            )
            with contextlib.suppress(ApiError):
                self.api.call("POST", f"/api/challenge/{challenge['id']}/{verb}")
        elif kind == "gameFinish":  # its game stream says so too; this frees the place at once
            with self.lock:
                self.done_ids.add(int(event["game"]["id"]))
        elif kind == "gameStart":
            game_id = int(event["game"]["id"])
            with self.lock:
                if game_id in self.games:
                    return
                game = self.games[game_id] = Game(self, game_id)
            game.start()

    def run(self) -> int:
        if self.args.challenge:
            self.challenge()
        attempt = 0
        while not self.stopping.is_set():
            try:
                for event in self.api.stream("/api/stream/event"):
                    attempt = 0
                    if event is not None:
                        self.on_event(event)
                    if self.stopping.is_set():
                        break
            except ApiError as exc:
                if exc.status in (401, 403):
                    log.error("%s", exc)
                    return 2
                log.warning("event stream: %s", exc)
            except (OSError, ValueError, http.client.HTTPException) as exc:
                log.warning("event stream broke (%s)", exc)
            if self.stopping.is_set():
                break
            time.sleep(RECONNECT_DELAYS[min(attempt, len(RECONNECT_DELAYS) - 1)])
            attempt += 1
        return 0


def read_token(value: str) -> str:
    if value.startswith("env:"):
        return os.environ[value[4:]].strip()
    if value.startswith("@"):
        return Path(value[1:]).read_text().strip()
    return value


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if "--" not in argv:
        print(__doc__, file=sys.stderr)
        return 2
    split = argv.index("--")
    ours, command = argv[:split], argv[split + 1 :]
    if len(command) == 1:
        command = shlex.split(command[0])
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("token")
    parser.add_argument("--url", default=os.environ.get("KROPKI_URL", "http://127.0.0.1:8000"))
    parser.add_argument("--time", type=float, default=1.0)
    parser.add_argument("--variants", default="")
    parser.add_argument("--max-games", type=int, default=4)
    parser.add_argument("--games", type=int, default=0)
    parser.add_argument("--challenge", default="")
    parser.add_argument("--variant", default="kropki-10")
    parser.add_argument("--rated", action="store_true")
    args = parser.parse_args(ours)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(threadName)s: %(message)s")
    bridge = Bridge(Api(args.url, read_token(args.token)), command, args)
    return bridge.run()


if __name__ == "__main__":
    raise SystemExit(main())
