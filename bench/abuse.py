"""The computer-queue flood (issue 12, item 1): does one guest stall everyone's computer?

    python bench/abuse.py [--honest N] [--flood M] [--variant KEY] [--level LEVEL] [--timeout S]

Starts what it needs: its own Redis (a unix socket in a temporary directory),
a database (a temporary SQLite file, or a fresh PostgreSQL database next to
DATABASE_URL when that is set; migrated), one daphne and one Celery worker as
scripts/run starts them (``-Q default,bots --concurrency 2``), in production
mode (``DEBUG=0``). ``BEHIND_PROXY=1`` so that each simulated visitor can come
from an address of its own (``X-Forwarded-For``, accounts/ip.py).

Two phases, each with N honest guests (default 5; each a new browser from a
new address) who one after another start a computer match in which the
computer moves first (``colour=blue``; default Kropki 10×10, trudny) and wait
for that move on the match's WebSocket:

- ``quiet``: nobody else plays;
- ``flood``: one more guest (one cookie, one address) sends M POSTs to
  /graj/komputer/ (default 50) as fast as the site answers, starting just
  before the honest guests, and goes on until they are done.

An honest guest's latency is from sending the POST to its socket seeing the
computer's first move (the ``moved`` frame of ply 1, or a first ``state``
frame already past it); one that has not come within ``--timeout`` counts as
the timeout (``timeouts`` says how many; the figures are then lower bounds). The last line printed is one JSON object:
{"variant", "level", "honest", "quiet_p50_s", "quiet_p99_s", "flood_p50_s",
 "flood_p99_s", "p50_ratio", "p99_ratio", "timeouts", "flood_posts",
 "flood_statuses", "active_computer_matches_after", "ok"}, and with ``--attacks starve`` (or all)
``starve_one_*`` / ``starve_six_*`` (``_p50_s``, ``_p99_s``, ``_p50_ratio``, ``_p99_ratio``,
``_attacker_replies``, ``_attacker_errors``); ``ok`` is p99_ratio <= 2 and p50_ratio <= 2 (the
starve cases: p99 ratio <= 2 and p50 ratio <= 1.5, issue 37 item 10 d), and the exit code says the same.
"""

from __future__ import annotations

import argparse
import asyncio
import http.cookiejar
import json
import os
import random
import re
import shutil
import statistics
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests import live  # noqa: E402 - the same process helpers as the live tests

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "kropki_site.settings")
import django  # noqa: E402 - the attackers replay the engine through the catalogue

django.setup()


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


class Browser:
    """One visitor: a cookie jar and an address (X-Forwarded-For, read with BEHIND_PROXY=1)."""

    def __init__(self, base_url: str, address: str):
        self.base_url = base_url
        self.address = address
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar), _NoRedirect)

    def cookie(self, name: str) -> str | None:
        return next((c.value for c in self.jar if c.name == name), None)

    def _open(self, request: urllib.request.Request) -> tuple[int, dict, str]:
        request.add_header("X-Forwarded-For", self.address)
        try:
            with self.opener.open(request, timeout=30) as response:
                return response.status, dict(response.headers), response.read().decode()
        except urllib.error.HTTPError as exc:
            return exc.code, dict(exc.headers), exc.read().decode()

    def prime(self) -> None:
        """GET the form once: the CSRF cookie."""
        if self.cookie("csrftoken") is None:
            self._open(urllib.request.Request(self.base_url + "/graj/komputer/"))

    def start_computer_match(self, *, variant: str, level: str, colour: str = "blue") -> tuple[int, int | None]:
        """POST /graj/komputer/ (a GET first for the CSRF cookie): (status, match id or None)."""
        self.prime()
        token = self.cookie("csrftoken") or ""
        body = urllib.parse.urlencode(
            {"variant": variant, "level": level, "colour": colour, "csrfmiddlewaretoken": token}
        ).encode()
        request = urllib.request.Request(self.base_url + "/graj/komputer/", data=body, method="POST")
        request.add_header("Referer", self.base_url + "/graj/komputer/")
        status, headers, _ = self._open(request)
        found = re.search(r"/partia/(\d+)/", headers.get("Location", ""))
        return status, int(found.group(1)) if found else None


def _frame_ply(frame: dict) -> int | None:
    if frame.get("type") in ("moved", "finished") and "ply" in frame:
        return frame["ply"]
    for key in ("match", "snapshot"):
        if isinstance(frame.get(key), dict) and "ply" in frame[key]:
            return frame[key]["ply"]
    return None


async def first_computer_move(browser: Browser, match_id: int, started: float, timeout: float) -> float:
    """Seconds from ``started`` until the match's socket shows ply >= 1."""
    import websockets
    from websockets.typing import Origin

    host = urllib.parse.urlparse(browser.base_url).netloc
    session = browser.cookie("sessionid")
    async with websockets.connect(
        f"ws://{host}/ws/match/{match_id}/",
        origin=Origin(f"http://{host}"),
        additional_headers=[("Cookie", f"sessionid={session}"), ("X-Forwarded-For", browser.address)],
        open_timeout=timeout,
    ) as ws:
        deadline = started + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"no computer move in match {match_id} within {timeout} s")
            frame = json.loads(await asyncio.wait_for(ws.recv(), left))
            ply = _frame_ply(frame)
            if ply is not None and ply >= 1:
                return time.monotonic() - started


def honest_latency(base_url: str, address: str, *, variant: str, level: str, timeout: float) -> float:
    browser = Browser(base_url, address)
    browser.prime()
    started = time.monotonic()
    status, match_id = browser.start_computer_match(variant=variant, level=level)
    if status != 302 or match_id is None:
        raise RuntimeError(f"an honest guest could not start a match: HTTP {status}")
    try:
        return asyncio.run(first_computer_move(browser, match_id, started, timeout))
    except TimeoutError:  # counted as the timeout itself: the figures are then lower bounds
        return timeout


class Flooder(threading.Thread):
    """One guest, one cookie, one address: POSTs until told to stop (and at least ``minimum``)."""

    def __init__(self, base_url: str, *, variant: str, level: str, minimum: int):
        super().__init__(daemon=True)
        self.browser = Browser(base_url, "10.66.66.66")
        self.variant, self.level, self.minimum = variant, level, minimum
        self.stop = threading.Event()
        self.posts = 0
        self.statuses: dict[int, int] = {}

    def run(self) -> None:
        while self.posts < self.minimum or not self.stop.is_set():
            try:
                status, _ = self.browser.start_computer_match(variant=self.variant, level=self.level)
            except OSError:  # refused, reset or timed out: counted as status 0
                status = 0
            self.statuses[status] = self.statuses.get(status, 0) + 1
            self.posts += 1


class Attacker(threading.Thread):
    """Issue 24, item 2: one guest who answers its computer at once, for ever (a new
    match when one ends): it keeps a computer move of its own waiting all the time.
    Plays pink, a random free point each turn (the engine, replayed from the frames)."""

    def __init__(self, base_url: str, address: str, *, variant: str, level: str, seed: int):
        super().__init__(daemon=True)
        self.browser = Browser(base_url, address)
        self.variant, self.level = variant, level
        self.random = random.Random(seed)
        self.stop = threading.Event()
        self.replies = 0  # computer moves it has seen
        self.moves = 0
        self.errors: list[str] = []

    def run(self) -> None:
        while not self.stop.is_set():
            status, match_id = self.browser.start_computer_match(variant=self.variant, level=self.level, colour="pink")
            if status != 302 or match_id is None:
                self.errors.append(f"HTTP {status}")
                time.sleep(1)
                continue
            try:
                asyncio.run(self._play(match_id))
            except Exception as exc:  # a closed socket, a timeout: start another match
                self.errors.append(type(exc).__name__)

    async def _play(self, match_id: int) -> None:
        import websockets
        from websockets.typing import Origin

        from games.catalogue import variant as variant_of

        state = variant_of(self.variant).game().new_initial_state()
        host = urllib.parse.urlparse(self.browser.base_url).netloc
        async with websockets.connect(
            f"ws://{host}/ws/match/{match_id}/",
            origin=Origin(f"http://{host}"),
            additional_headers=[
                ("Cookie", f"sessionid={self.browser.cookie('sessionid')}"),
                ("X-Forwarded-For", self.browser.address),
            ],
            open_timeout=30,
        ) as ws:
            ply, sent_at = 0, -1
            while not self.stop.is_set():
                if state.current_player() == 1 and sent_at != ply:  # pink (1), ours: at once
                    free = [a for a in state.legal_actions() if a != getattr(state.game, "end_action", -1)]
                    if not free:
                        return
                    await ws.send(json.dumps({"type": "move", "ply": ply, "action": self.random.choice(free)}))
                    self.moves += 1
                    sent_at = ply
                frame = json.loads(await asyncio.wait_for(ws.recv(), 60))
                if frame.get("type") == "finished":
                    return
                if frame.get("type") == "moved":
                    if frame["ply"] != ply + 1:
                        return  # a gap: start another match
                    state.apply_action(frame["action"])
                    ply = frame["ply"]
                    if frame.get("by") == 2:
                        self.replies += 1
                elif frame.get("type") == "error":
                    self.errors.append(str(frame.get("code")))
                    return


def attackers_start(url: str, addresses: list[str], *, variant: str, level: str) -> list[Attacker]:
    attackers = [Attacker(url, address, variant=variant, level=level, seed=i) for i, address in enumerate(addresses)]
    for attacker in attackers:
        attacker.start()
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and not all(a.replies >= 1 for a in attackers):  # all under way
        time.sleep(0.1)
    return attackers


def attackers_stop(attackers: list[Attacker]) -> dict:
    for attacker in attackers:
        attacker.stop.set()
    for attacker in attackers:
        attacker.join(timeout=90)
    return {
        "replies": sum(a.replies for a in attackers),
        "moves": sum(a.moves for a in attackers),
        "errors": sorted({e for a in attackers for e in a.errors}),
    }


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


ACTIVE = """
from games.models import Match
print("ACTIVE:%d" % Match.objects.filter(status="active").exclude(bot_level="").count())
"""


def run(honest: int, flood: int, variant: str, level: str, timeout: float, attacks: str = "all") -> dict:
    workdir = Path(tempfile.mkdtemp(prefix="kropki-abuse-"))
    redis_proc = None
    site = None
    try:
        from kropki_site.lib import devredis

        sock = workdir / "redis.sock"
        redis_proc = devredis.start(sock)
        site = live.make_live_site(
            workdir,
            f"unix://{sock}",
            BEHIND_PROXY="1",
            MOVE_SECONDS="600",
            GUESTS_PER_IP="10",
            MATCH_STARTS_PER_MINUTE="6",
            MATCH_STARTS_PER_ADDRESS_MINUTE="60",
        )
        _proc, url = site.start_daphne()
        site.start_worker(queues="default,bots", name="worker", concurrency=2)

        def phase(prefix: str) -> list[float]:
            return [
                honest_latency(url, f"{prefix}.{i + 1}", variant=variant, level=level, timeout=timeout)
                for i in range(honest)
            ]

        quiet = phase("10.1.0")
        result: dict = {
            "variant": variant,
            "level": level,
            "honest": honest,
            "quiet_p50_s": round(statistics.median(quiet), 3),
            "quiet_p99_s": round(percentile(quiet, 0.99), 3),
        }
        timed = list(quiet)
        ok = True
        if attacks in ("all", "flood"):
            flooder = Flooder(url, variant=variant, level=level, minimum=flood)
            flooder.start()
            while flooder.posts < min(10, flood):  # the flood is under way
                time.sleep(0.05)
            flooded = phase("10.2.0")
            flooder.stop.set()
            flooder.join(timeout=120)
            timed += flooded
            result.update(
                {
                    "flood_p50_s": round(statistics.median(flooded), 3),
                    "flood_p99_s": round(percentile(flooded, 0.99), 3),
                    "flood_posts": flooder.posts,
                    "flood_statuses": flooder.statuses,
                }
            )
            result["p50_ratio"] = round(result["flood_p50_s"] / result["quiet_p50_s"], 2)
            result["p99_ratio"] = round(result["flood_p99_s"] / result["quiet_p99_s"], 2)
            ok = ok and result["p50_ratio"] <= 2 and result["p99_ratio"] <= 2
        if attacks in ("all", "starve"):
            # Issue 24, item 2: six guests answering their computer at once, on one address, then on six.
            for name, addresses, prefix in (
                ("starve_one", ["10.66.1.1"] * 6, "10.3.0"),
                ("starve_six", [f"10.66.2.{i + 1}" for i in range(6)], "10.4.0"),
            ):
                attackers = attackers_start(url, addresses, variant=variant, level=level)
                starved = phase(prefix)
                stats = attackers_stop(attackers)
                timed += starved
                result.update(
                    {
                        f"{name}_p50_s": round(statistics.median(starved), 3),
                        f"{name}_p99_s": round(percentile(starved, 0.99), 3),
                        f"{name}_p50_ratio": round(statistics.median(starved) / result["quiet_p50_s"], 2),
                        f"{name}_p99_ratio": round(percentile(starved, 0.99) / result["quiet_p99_s"], 2),
                        f"{name}_attacker_replies": stats["replies"],
                        f"{name}_attacker_errors": stats["errors"],
                    }
                )
                # issue 37, item 10 (d): the honest median within 1.5x of the quiet one
                ok = ok and result[f"{name}_p99_ratio"] <= 2 and result[f"{name}_p50_ratio"] <= 1.5
        active = int(site.manage("shell", "-c", ACTIVE).stdout.split("ACTIVE:")[1].split()[0])
        result["timeouts"] = sum(1 for value in timed if value >= timeout)
        result["active_computer_matches_after"] = active
        result["ok"] = ok
        return result
    finally:
        if site is not None:
            site.stop_all()
            live.drop_live_database(site.env["DATABASE_URL"])
        if redis_proc is not None:
            live.stop_group(redis_proc)
        shutil.rmtree(workdir, ignore_errors=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--honest", type=int, default=5)
    parser.add_argument("--flood", type=int, default=50)
    parser.add_argument("--variant", default="kropki-10")
    parser.add_argument("--level", default="trudny")
    parser.add_argument("--timeout", type=float, default=60.0)
    parser.add_argument("--attacks", choices=["all", "flood", "starve"], default="all")
    args = parser.parse_args()
    try:
        result = run(args.honest, args.flood, args.variant, args.level, args.timeout, args.attacks)
    except Exception as exc:  # still one JSON line
        print(json.dumps({"error": f"{type(exc).__name__}: {exc}"}))
        return 1
    print(json.dumps(result))
    return 0 if result["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
