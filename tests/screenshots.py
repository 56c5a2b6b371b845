"""Screenshots of the site for docs/screenshots/ (issue 13), made on a real site.

    ./scripts/screenshots [--out docs/screenshots]
    .venv/bin/python -m tests.screenshots [--out docs/screenshots]   # after scripts/setup.sh has run

Starts what it needs and stops it at the end: an embedded Redis (kropki_site.lib.devredis) in a
temporary directory, a fresh database migrated there (SQLite, or a new PostgreSQL database next
to ``DATABASE_URL``'s), daphne and a Celery worker with production flags (``DEBUG=0``), and
headless Chromium (/usr/bin/chromium). Then:

- seeds players (ania: Polish, bartek: English, celina, dorota) and a few finished rated matches
  spread over the last weeks, so the profile, ranking and record have something to show, plus a
  live match and an open challenge for the lobby;
- plays one rated match of each variant between ania and bartek by clicking the board in two
  browsers (moves chosen by the computer players of games/bots, seeded: the same pictures each
  run), and takes the match page during play and after the end, at 1280x800 and 360x740, as ania
  sees it (Polish) and as bartek sees it (English, ``-en``). The ends: Kropki 10x10 both players
  end the game, Kropki 20x20 bartek resigns, Cztery w rzędzie and Kropki i kwadraty are played to
  their real finish;
- home (Polish and English, logged out), lobby, profile, ranking and the record of the Kropki
  10x10 match (Polish, logged in as ania), and the error pages 404 (a real request), 400, 403 and
  500 (no URL of the site fails on purpose: they are the pages Django renders with ``DEBUG=0`` for
  tests/web/error_urls.py's failing views, shown on the live site's origin, with its CSS).

Files: ``<page>[-<game>][-<phase>]-<width>[-en].png``, full page, device scale 1.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import sys
import tempfile
import time
from pathlib import Path

from games.bots import choose_action
from games.catalogue import variant as get_variant
from kropki_site.lib import devredis
from tests import live

CHROMIUM, CHROMIUM_ARGS = live.CHROMIUM_FULL, live.CHROMIUM_ARGS  # the pictures: the full browser
WIDTHS = {1280: {"width": 1280, "height": 800}, 360: {"width": 360, "height": 740}}
PASSWORD = "kropka-Trudna-2024"

# game -> (moves before the "during" pictures, how the match ends)
GAMES = {
    "kropki-10": (36, "both-end"),
    "kropki-20": (70, "resign"),
    "cztery-w-rzedzie": (9, "finish"),
    "kropki-i-kwadraty": (24, "finish"),
    "pilkarzyki": (12, "finish"),
}


class Shooter:
    def __init__(self, browser, url: str, out: Path, seed: dict):
        self.browser, self.url, self.out, self.seed = browser, url, out, seed
        self.taken: list[str] = []

    def context(self, who: str | None = None, language: str = "pl"):
        context = self.browser.new_context(
            base_url=self.url,
            viewport=WIDTHS[1280],
            device_scale_factor=1,
            locale="en-US" if language == "en" else "pl-PL",
        )
        context.set_default_timeout(15_000)
        cookies = [{"name": "kropki_language", "value": language, "url": self.url}]
        if who is not None:
            cookies.append({"name": self.seed["cookie_name"], "value": self.seed[who], "url": self.url})
        context.add_cookies(cookies)
        return context

    def shot(self, page, name: str, widths=(1280, 360)) -> None:
        """``name``-<width>.png (an ``-en`` suffix in ``name`` goes after the width)."""
        base, suffix = (name[:-3], "-en") if name.endswith("-en") else (name, "")
        page.mouse.move(0, 0)
        page.evaluate("() => document.activeElement && document.activeElement.blur && document.activeElement.blur()")
        for width in widths:
            page.set_viewport_size(WIDTHS[width])
            page.wait_for_timeout(250)  # layout, media queries, the board's resize
            path = self.out / f"{base}-{width}{suffix}.png"
            page.screenshot(path=str(path), full_page=True, animations="disabled", caret="hide")
            self.taken.append(path.name)
            print(f"  {path.name}", flush=True)
        page.set_viewport_size(WIDTHS[1280])

    def open(self, context, path: str):
        page = context.new_page()
        page.goto(path)
        page.wait_for_load_state("networkidle")
        return page


def ready(page) -> None:
    page.wait_for_selector('#match[data-ready="1"]', state="attached")
    page.wait_for_selector('#conn[data-state="connected"]', state="attached")


def at_ply(page, ply: int) -> None:
    page.wait_for_selector(f'#match[data-ply="{ply}"]', state="attached")


def confirm(page, button: str) -> None:
    page.locator(f'[data-testid="{button}"]').click()
    page.locator('[data-testid="confirm-yes"]').click()


class Game:
    """One live match between ania (pink, Polish) and bartek (blue, English), played by clicks."""

    def __init__(self, shooter: Shooter, variant: str, match_id: int, seed: int):
        self.shooter, self.variant, self.match_id = shooter, variant, match_id
        self.state = get_variant(variant).game().new_initial_state()
        self.rng = random.Random(seed)
        self.ply = 0
        self.pages = {}
        for side, (who, language) in {1: ("ania", "pl"), 2: ("bartek", "en")}.items():
            page = shooter.context(who, language).new_page()
            page.goto(f"/partia/{match_id}/")
            ready(page)
            self.pages[side] = page

    def choose(self) -> int:
        end = getattr(self.state.game, "end_action", None)
        action = choose_action(self.state, "latwy", seed=self.rng.randrange(1 << 30), budget_s=0.05)
        if action == end:  # the "during" moves are points, not "end"
            action = self.rng.choice([a for a in self.state.legal_actions() if a != end])
        return action

    def click(self, side: int, action: int) -> None:
        page = self.pages[side]
        at_ply(page, self.ply)
        page.wait_for_function("() => window.kropkiMatch && window.kropkiMatch.boardReady()")
        page.locator(f'#board [data-action="{action}"]').first.click()
        self.state.apply_action(action)
        self.ply += 1
        for other in self.pages.values():
            at_ply(other, self.ply)

    def play(self, moves: int | None) -> None:
        """``moves`` moves (None: to the end of the game)."""
        while (moves is None or moves > 0) and not self.state.is_terminal():
            player = self.state.current_player()
            assert player is not None
            self.click(player, self.choose())
            if moves is not None:
                moves -= 1

    def shots(self, phase: str) -> None:
        for side, suffix in ((1, ""), (2, "-en")):
            self.shooter.shot(self.pages[side], f"match-{self.variant}-{phase}{suffix}")

    def finish(self, how: str) -> None:
        if how == "resign":
            confirm(self.pages[2], "btn-resign")
        elif how == "both-end":
            first = self.state.current_player()
            assert first is not None
            at_ply(self.pages[first], self.ply)
            confirm(self.pages[first], "btn-end")
            self.ply += 1
            second = 3 - first
            at_ply(self.pages[second], self.ply)
            self.pages[second].wait_for_function("() => window.kropkiMatch.boardReady()")
            confirm(self.pages[second], "btn-end")
            self.ply += 1
        else:
            self.play(None)
        for page in self.pages.values():
            page.wait_for_selector('[data-testid="after-match"]', state="visible")
            page.wait_for_timeout(300)


def make_all(browser, url: str, out: Path, seed: dict, errors: dict) -> list[str]:
    shooter = Shooter(browser, url, out, seed)

    print("==> match pages, during play", flush=True)
    games = {}
    for n, (variant, (moves, _how)) in enumerate(GAMES.items()):
        game = Game(shooter, variant, seed["matches"][variant], seed=100 + n)
        game.play(moves)
        game.shots("during")
        games[variant] = game

    print("==> home and lobby (while the matches are on)", flush=True)
    anonymous_pl, anonymous_en = shooter.context(None, "pl"), shooter.context(None, "en")
    shooter.shot(shooter.open(anonymous_pl, "/"), "home")
    shooter.shot(shooter.open(anonymous_en, "/"), "home-en")
    ania = shooter.context("ania", "pl")
    shooter.shot(shooter.open(ania, "/graj/"), "lobby")

    print("==> match pages, after the end", flush=True)
    for variant, game in games.items():
        game.finish(GAMES[variant][1])
        game.shots("after")

    print("==> profile, record, ranking", flush=True)
    shooter.shot(shooter.open(ania, "/gracz/ania/"), "profile")
    shooter.shot(shooter.open(ania, f"/partia/{seed['matches']['kropki-10']}/zapis/"), "record-kropki-10")
    shooter.shot(shooter.open(ania, "/ranking/"), "ranking")

    print("==> error pages", flush=True)
    shooter.shot(shooter.open(anonymous_pl, "/nie-ma-takiej-strony/"), "error-404")
    shooter.shot(shooter.open(anonymous_en, "/nie-ma-takiej-strony/"), "error-404-en")
    for key, (status, html) in sorted(errors.items()):
        code, language = key.split("-")
        if language == "en" and code != "500":
            continue
        context = anonymous_en if language == "en" else anonymous_pl
        page = context.new_page()
        fake = f"{url}/__screenshot__/{key}/"
        page.route(
            fake,
            lambda route, _request, status=status, html=html: route.fulfill(
                status=status, content_type="text/html; charset=utf-8", body=html
            ),
        )
        page.goto(fake)
        page.wait_for_load_state("networkidle")
        shooter.shot(page, f"error-{code}" + ("-en" if language == "en" else ""))
    return shooter.taken


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default=str(live.ROOT / "docs" / "screenshots"), help="where the PNGs go")
    parser.add_argument("--keep", action="store_true", help="keep the temporary directory (logs, database)")
    args = parser.parse_args(argv)
    out = Path(args.out).resolve()
    out.mkdir(parents=True, exist_ok=True)
    if not os.path.exists(CHROMIUM):
        print(f"{CHROMIUM} is missing: apt-get install chromium", file=sys.stderr)
        return 1

    workdir = Path(tempfile.mkdtemp(prefix="kropki-shots-"))
    redis = site = None
    started = time.monotonic()
    try:
        print(f"==> embedded Redis, database and daphne in {workdir}", flush=True)
        redis = devredis.start(workdir / "redis.sock")
        site = live.make_live_site(workdir, f"unix://{workdir / 'redis.sock'}")
        _proc, url = site.start_daphne()
        site.start_worker()
        print("==> seeding players and matches", flush=True)
        seed = site.call("screenshot_seed", games=list(GAMES), password=PASSWORD)
        errors = site.call("error_pages")
        from playwright.sync_api import sync_playwright

        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
            try:
                taken = make_all(browser, url, out, seed, errors)
            finally:
                browser.close()
        print(f"==> {len(taken)} screenshots in {out} ({time.monotonic() - started:.0f} s)")
        return 0
    finally:
        if site is not None:
            site.stop_all()
            live.drop_live_database(site.env["DATABASE_URL"])
        if redis is not None:
            live.stop_group(redis, timeout=5)
        if args.keep:
            print(f"    kept {workdir}")
        else:
            shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
