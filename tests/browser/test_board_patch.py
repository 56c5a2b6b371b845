"""Move frames carry what a move changed and the page patches its board
(static/js/board_patch.js and each game's games/<slug>/static/board_patch.js);
games/display/boards.py stays the one full renderer.

Whole games of every variant, played through real daphne, Redis and Chromium by
two players (Polish) and a spectator (English): at checkpoints and at the end,
each page's patched board equals a fresh server render of the same position in
its language (same dots, lines, territories, targets, labels for screen
readers), prepared as the page prepares its own. The games come from other
people's engines (../shared/vectors/): captures, a dot falling into an empty
enclosure, extra moves, a win and an early draw.
"""

from __future__ import annotations

import gzip
import json
import random
import re
import time
from itertools import pairwise

import pytest
from playwright.sync_api import expect

from games.catalogue import variant as get_variant
from tests.helpers import VECTORS
from tests.live_play.conftest import create_match

from .test_match_browser import at_ply, open_match, shot

MIN_CLICK_SECONDS = 1 / 6  # one player's moves at most 6 a second

CLICK = """(action) => {
  const target = document.querySelector(`#board [data-action="${action}"]`);
  if (!target) return false;
  target.dispatchEvent(new MouseEvent("click", {bubbles: true}));
  return true;
}"""


def comparable(html: str) -> str:
    """A board as drawn, without what only one browser's focus adds (roving tab stop, preview)."""
    return re.sub(r' tabindex="-?\d+"', "", html.replace(" preview", ""))


PATCHED = "() => window.KropkiBoard.canPatch(JSON.parse(document.getElementById('match-snapshot').textContent).game)"


def assert_board_is_the_servers(page, label: str) -> None:
    assert page.evaluate(PATCHED), f"{label}: the game's patch (games/<slug>/static/board_patch.js) did not load"
    page.wait_for_function("() => window.kropkiMatch.boardReady()")
    patched = page.locator("#board").inner_html()
    fresh = page.evaluate("() => window.kropkiMatch.freshBoard()")
    patched, fresh = comparable(patched), comparable(fresh)
    if patched != fresh:
        at = next(
            (i for i, (a, b) in enumerate(zip(patched, fresh, strict=False)) if a != b), min(len(patched), len(fresh))
        )
        raise AssertionError(
            f"{label}: the patched board differs from the server's render at {at}:\n"
            f"patched: …{patched[max(0, at - 150) : at + 250]}\nserver:  …{fresh[max(0, at - 150) : at + 250]}"
        )


def kropki_vector(name: str, want) -> list[int]:
    """The accepted moves of the first vector game that ``want(grids, actions)`` accepts, as action ids."""
    with gzip.open(VECTORS / "kropki" / name, "rt") as lines:
        for line in lines:
            game = json.loads(line)
            width = game["w"]
            actions, grids = [], []
            for (x, y, _player), after in zip(game["moves"], game["after"], strict=True):
                if after["ok"]:
                    actions.append(y * width + x)
                    grids.append(after["grid"])
            cut = want(grids, actions)
            if cut:
                return actions[:cut]
    raise AssertionError(f"no game in {name} has what the test needs")


def falls_into_empty_enclosure(grids: list[str], actions: list[int]) -> int:
    """The whole game, if some dot is played onto an empty enclosure's point and some dot is captured."""
    into = any(grids[i - 1][a] in "xy" for i, a in enumerate(actions) if i)
    captured = any(ch in grids[-1] for ch in "ab")
    return len(actions) if into and captured else 0


def many_captures(grids: list[str], actions: list[int]) -> int:
    """The whole game, if it has at least five captures."""
    captures = sum(
        1
        for before, after in pairwise(grids)
        if after.count("a") + after.count("b") > before.count("a") + before.count("b")
    )
    return len(actions) if captures >= 5 else 0


def connect4_early_draw() -> list[int]:
    with open(VECTORS / "connect4" / "all_dead_random.jsonl") as lines:
        game = json.loads(next(lines))
    return [int(c) - 1 for c in game["moves_to_all_dead"]]


def dots_and_boxes_game(seed: int) -> list[int]:
    """A random game to its end with extra moves (closed boxes) along the way."""
    rng = random.Random(seed)
    state = get_variant("kropki-i-kwadraty").game().new_initial_state()
    extra = 0
    while state.current_player() is not None:
        effect = state.apply_action(rng.choice(state.legal_actions()))
        extra += bool(effect.details["extra_move"])
    assert extra >= 2
    return list(state.history)


def play_match(new_context, live_url, live_site, variant: str, actions: list[int], *, check_every: int, name: str = ""):
    data = create_match(live_site, variant)
    alice = open_match(new_context, live_url, data["match"], data["alice"])
    bob = open_match(new_context, live_url, data["match"], data["bob"])
    watcher = open_match(new_context, live_url, data["match"], None, locale="en-GB")
    players = {1: alice, 2: bob}
    pages = {"alice": alice, "bob": bob, "watcher (en)": watcher}
    state = get_variant(variant).game().new_initial_state()
    last_click = {1: 0.0, 2: 0.0}
    for ply, action in enumerate(actions):
        side = state.current_player()
        assert side is not None
        page = players[side]
        at_ply(page, ply)
        page.wait_for_function("() => window.kropkiMatch.boardReady()")
        # No faster than a person: a socket's sustained rate limit is 8 frames/s (RATE_PER_SECOND),
        # and a whole game clicked at machine speed would spend its burst and be refused.
        time.sleep(max(0.0, last_click[side] + MIN_CLICK_SECONDS - time.monotonic()))
        last_click[side] = time.monotonic()
        assert page.evaluate(CLICK, action), f"ply {ply}: no target for action {action}"
        state.apply_action(action)
        for each in pages.values():
            at_ply(each, ply + 1)
        if (ply + 1) % check_every == 0:
            for who, each in pages.items():
                assert_board_is_the_servers(each, f"{variant} {who} at ply {ply + 1}")
    assert state.is_terminal()
    for who, each in pages.items():
        expect(each.get_by_test_id("result")).to_be_visible()
        expect(each.locator("#board svg")).to_have_attribute("role", "img")
        assert each.locator("#board [data-action]").count() == 0
        assert_board_is_the_servers(each, f"{variant} {who} at the end")
    expect(watcher.get_by_test_id("result")).to_have_text(re.compile(r"wins|Draw"))
    expect(alice.get_by_test_id("result")).to_have_text(re.compile(r"Wygrywają|Remis"))
    if name:
        shot(watcher, f"patch-{name}-spectator-en")
    return pages


def test_kropki_10_whole_game_with_captures_and_a_dot_into_an_empty_enclosure(new_context, live_url, live_site):
    actions = kropki_vector("random_10x10.jsonl.gz", falls_into_empty_enclosure)
    play_match(new_context, live_url, live_site, "kropki-10", actions, check_every=10, name="kropki-10")


def test_kropki_20_whole_match_with_captures(new_context, live_url, live_site):
    """The variant that could not be played at all: 20x20, two players and a spectator, to the full board."""
    actions = kropki_vector("random_20x20.jsonl.gz", many_captures)
    pages = play_match(new_context, live_url, live_site, "kropki-20", actions, check_every=60, name="kropki-20")
    assert pages["watcher (en)"].locator("#board .territory, #board .chain").count() >= 1


def test_connect_four_early_draw(new_context, live_url, live_site):
    pages = play_match(new_context, live_url, live_site, "cztery-w-rzedzie", connect4_early_draw(), check_every=9)
    expect(pages["watcher (en)"].get_by_test_id("result")).to_have_text(re.compile("no line of four"))


def test_connect_four_win(new_context, live_url, live_site):
    pages = play_match(new_context, live_url, live_site, "cztery-w-rzedzie", [3, 3, 2, 2, 4, 4, 1], check_every=3)
    assert pages["alice"].locator("#board .win-line").count() == 1


@pytest.mark.parametrize("seed", [7])
def test_dots_and_boxes_whole_game_with_extra_moves(new_context, live_url, live_site, seed):
    play_match(
        new_context,
        live_url,
        live_site,
        "kropki-i-kwadraty",
        dots_and_boxes_game(seed),
        check_every=8,
        name="dots-and-boxes",
    )


def pilkarzyki_game(seed: int) -> list[int]:
    """A random game that bounces at least three times and ends with the ball in a goal."""
    for attempt in range(1000):
        rng = random.Random(seed * 1000 + attempt)
        state = get_variant("pilkarzyki").game().new_initial_state()
        bounces = 0
        while state.current_player() is not None:
            legal = state.legal_actions()
            # drift towards a goal so that games end in one, not in a stuck ball
            forward = (
                [a for a in legal if a in (0, 1, 7)]
                if state.current_player() == 1
                else [a for a in legal if a in (3, 4, 5)]
            )
            effect = state.apply_action(rng.choice(forward if forward and rng.random() < 0.6 else legal))
            bounces += bool(effect.details["extra_move"])
        if (
            bounces >= 3
            and (outcome := state.outcome()) is not None
            and outcome.reason in ("goal", "own_goal")
            and len(state.history) <= 60
        ):
            return list(state.history)
    raise AssertionError("no short game with bounces and a goal")


def test_pilkarzyki_whole_game_with_bounces_and_a_goal(new_context, live_url, live_site):
    pages = play_match(
        new_context, live_url, live_site, "pilkarzyki", pilkarzyki_game(3), check_every=4, name="pilkarzyki"
    )
    expect(pages["watcher (en)"].get_by_test_id("result")).to_have_text(re.compile("goal"))
