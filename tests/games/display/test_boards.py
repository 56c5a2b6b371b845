"""games.display.boards: well-formed SVG whose pieces match the engine's view."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET

import pytest

from games import catalogue
from games.display.boards import SHARED_WORDS, board_words, describe, render_board
from games.engine import State, get_game

NS = {"s": "http://www.w3.org/2000/svg"}
GAMES = [("kropki", {"width": 10, "height": 10}), ("connect4", {}), ("dots_and_boxes", {"rows": 5, "cols": 5})]


def play(slug: str, params: dict, moves: list) -> State:
    game = get_game(slug, **params)
    state = game.new_initial_state()
    for move in moves:
        state.apply_action(game.string_to_action(move) if isinstance(move, str) else move)
    return state


def random_state(slug: str, params: dict, plies: int, seed: int):
    game = get_game(slug, **params)
    state = game.new_initial_state()
    rng = random.Random(seed)
    for _ in range(plies):
        if state.is_terminal():
            break
        actions = state.legal_actions()
        if slug == "kropki":
            actions = actions[:-1] or actions  # keep placing dots, do not end
        state.apply_action(rng.choice(actions))
    return state


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    return root


def by_class(root: ET.Element, *classes: str) -> list[ET.Element]:
    found = []
    for el in root.iter():
        names = (el.get("class") or "").split()
        if all(c in names for c in classes):
            found.append(el)
    return found


@pytest.mark.parametrize("slug,params", GAMES)
@pytest.mark.parametrize("seed", range(6))
def test_random_positions_render_as_well_formed_svg(slug, params, seed):
    state = random_state(slug, params, plies=15 + 7 * seed, seed=seed)
    for interactive in (False, True):
        root = parse(render_board(state.view(), slug, interactive=interactive))
        assert root.get("role") == ("group" if interactive else "img")
        assert root.find("s:title", NS) is not None
        assert root.get("aria-label")


@pytest.mark.parametrize("seed", range(8))
def test_kropki_dots_match_the_view(seed):
    state = random_state("kropki", {"width": 10, "height": 10}, plies=60, seed=seed)
    view = state.view()
    root = parse(render_board(view, "kropki"))
    for player in (1, 2):
        dots = [d for d in view["dots"] if d[2] == player]
        assert len(by_class(root, "dot", f"p{player}")) == len(dots)
        assert len(by_class(root, "dot", f"p{player}", "captured")) == sum(d[3] for d in dots)
    # Pink and blue differ in shape, not only in colour.
    assert {el.tag for el in by_class(root, "dot", "p1")} <= {"{http://www.w3.org/2000/svg}circle"}
    assert {el.tag for el in by_class(root, "dot", "p2")} <= {"{http://www.w3.org/2000/svg}rect"}


def test_kropki_capture_is_drawn_as_a_territory_polygon():
    state = play("kropki", {"width": 5, "height": 5}, ["c2", "a1", "b3", "c3", "d3", "e5", "c4"])
    root = parse(render_board(state.view(), "kropki"))
    polygons = by_class(root, "territory", "p1")
    assert len(polygons) == 1 and polygons[0].tag.endswith("polygon")
    assert len(polygons[0].attrib["points"].split()) == 4
    assert len(by_class(root, "dot", "p2", "captured")) == 1
    assert len(by_class(root, "last")) == 1


def test_kropki_empty_enclosure_is_marked_and_stays_a_target():
    state = play("kropki", {"width": 5, "height": 5}, ["c2", "a1", "b3", "a2", "d3", "a3", "c4"])
    view = state.view()
    assert view["empty_enclosures"] == [[2, 2, 1]]
    root = parse(render_board(view, "kropki", interactive=True))
    assert len(by_class(root, "empty-enclosure", "p1")) == 1
    assert "12" in {el.get("data-action") for el in by_class(root, "target")}  # c3 is still playable


@pytest.mark.parametrize("slug,params", GAMES)
@pytest.mark.parametrize("seed", range(6))
def test_interactive_targets_are_exactly_the_legal_actions(slug, params, seed):
    state = random_state(slug, params, plies=10 + 9 * seed, seed=100 + seed)
    root = parse(render_board(state.view(), slug, interactive=True))
    targets = by_class(root, "target")
    actions = sorted(int(el.attrib["data-action"]) for el in targets)
    legal = state.legal_actions()
    if slug == "kropki" and legal:
        legal = legal[:-1]  # "zakończ" is the page's button, not a board target
    assert actions == legal
    for el in targets:
        assert el.get("role") == "button"
        assert el.get("tabindex") in {"0", "-1"}
        assert el.get("aria-label")
    if targets:
        assert sum(el.get("tabindex") == "0" for el in targets) >= 1


def test_targets_follow_an_explicit_legal_list():
    state = play("connect4", {}, ["4"])
    root = parse(render_board(state.view(), "connect4", interactive=True, legal=[0, 6]))
    assert [el.get("data-action") for el in by_class(root, "target")] == ["0", "6"]
    root = parse(render_board(state.view(), "connect4", interactive=True, legal=[]))
    assert by_class(root, "target") == []


def test_target_labels_are_words():
    kropki = parse(render_board(play("kropki", {}, []).view(), "kropki", interactive=True))
    labels = {el.get("aria-label") for el in by_class(kropki, "target")}
    assert "kropka e5" in labels and "kropka a1" in labels
    c4 = parse(render_board(play("connect4", {}, []).view(), "connect4", interactive=True, lang="en"))
    assert [el.get("aria-label") for el in by_class(c4, "target")][2] == "column 3"
    boxes = parse(render_board(play("dots_and_boxes", {}, []).view(), "dots_and_boxes", interactive=True))
    labels = {el.get("aria-label") for el in by_class(boxes, "target")}
    assert "odcinek a1–b1" in labels and "odcinek a1–a2" in labels


@pytest.mark.parametrize("seed", range(6))
def test_connect4_discs_match_the_view(seed):
    state = random_state("connect4", {}, plies=5 + 4 * seed, seed=seed)
    view = state.view()
    root = parse(render_board(view, "connect4"))
    for player in (1, 2):
        count = sum(row.count(player) for row in view["cells"])
        assert len(by_class(root, "disc", f"p{player}")) == count
    assert len(by_class(root, "disc-ring")) == sum(row.count(2) for row in view["cells"])
    assert len(by_class(root, "hole")) == sum(row.count(0) for row in view["cells"])


def test_connect4_winning_line_is_drawn():
    state = play("connect4", {}, ["1", "1", "2", "2", "3", "3", "4"])
    root = parse(render_board(state.view(), "connect4"))
    lines = by_class(root, "win-line")
    assert len(lines) == 1
    assert len(by_class(root, "last")) == 1


@pytest.mark.parametrize("seed", range(6))
def test_dots_and_boxes_segments_and_boxes_match_the_view(seed):
    state = random_state("dots_and_boxes", {"rows": 5, "cols": 5}, plies=8 * seed + 5, seed=seed)
    view = state.view()
    root = parse(render_board(view, "dots_and_boxes"))
    for player in (1, 2):
        assert len(by_class(root, "segment", f"p{player}")) == view["drawn"].count(player)
        assert len(by_class(root, "box", f"p{player}")) == sum(row.count(player) for row in view["boxes"])
    assert len(by_class(root, "dot")) == 36
    assert len(by_class(root, "segment", "free")) == view["drawn"].count(0)


def test_title_is_escaped():
    evil = '<script>alert("x")</script> & "quotes"'
    for slug, params in GAMES:
        svg = render_board(play(slug, params, []).view(), slug, title=evil)
        assert "<script>" not in svg
        root = parse(svg)
        assert (title := root.find("s:title", NS)) is not None and title.text == evil
        assert root.attrib["aria-label"].startswith(evil)


def test_description_names_the_dots_in_both_languages():
    view = play("kropki", {"width": 5, "height": 5}, ["c2", "a1", "b3", "c3", "d3", "e5", "c4"]).view()
    pl = describe(view, "kropki", "pl")
    en = describe(view, "kropki", "en")
    assert "c3 (zabrana)" in pl and "Wynik 1:0" in pl
    assert "c3 (captured)" in en and "Score 1:0" in en


def test_board_words_are_the_catalogues_in_each_language():
    """The boards' words are gettext strings (the .po files): the table the page's patch
    code gets, shared words and each game's own, in Polish and in English."""
    pl, en = board_words("pl"), board_words("en")
    expected = {
        "pink": ("różowe", "pink"),  # shared (games.display.boards)
        "last": ("ostatni ruch", "last move"),
        "to_move": ("ruch mają", "to move"),
        "board": ("plansza", "board"),  # Kropki's
        "ended": ("zakończyły grę", "have ended the game"),
        "empty": ("pusta", "empty"),  # Cztery w rzędzie's
        "P": ("R", "P"),  # Kropki i kwadraty's initials
        "B": ("N", "B"),
        "goal_of": ("bramka, którą atakują", "goal attacked by"),  # Piłkarzyki's
        "moves": ("góra|góra-prawo|prawo|dół-prawo|dół|dół-lewo|lewo|góra-lewo", "N|NE|E|SE|S|SW|W|NW"),
    }
    for key, (polish, english) in expected.items():
        assert (pl[key], en[key]) == (polish, english), key
    assert set(pl) == set(en)
    assert (pl["names"]["kropki"], en["names"]["kropki"]) == ("Kropki", "Dots")
    assert board_words("de") == pl  # a language the site does not speak: the site's own


def test_no_board_word_is_claimed_twice():
    """The page gets one flat table: a game's own words do not clash with the shared ones or another game's."""
    seen = set(SHARED_WORDS)
    for spec in catalogue.games():
        assert not seen & set(spec.board_words), spec.slug
        seen |= set(spec.board_words)


def test_unknown_game_is_refused():
    with pytest.raises(ValueError):
        render_board({}, "szachy")


@pytest.mark.parametrize("key", catalogue.variant_keys())
def test_every_target_holds_one_hit_shape_of_class_hit(key):
    """The boards' CSS styles a target's shape by its class (``.target > .hit``: a rule ending in
    ``*`` under the page's turn class restyled the whole board at every move)."""
    variant = catalogue.variant(key)
    state = variant.game().new_initial_state()
    root = parse(render_board(state.view(), variant.game_slug, interactive=True))
    targets = by_class(root, "target")
    assert targets
    for target in targets:
        assert [child.get("class") for child in target] == ["hit"], ET.tostring(target)
