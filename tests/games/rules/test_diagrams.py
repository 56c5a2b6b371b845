"""Every rules diagram is replayed in the engine and its caption's claim checked."""

from __future__ import annotations

import dataclasses
import xml.etree.ElementTree as ET

import pytest
from django.utils import translation

from games import catalogue
from games.engine import BUILT_IN
from games.views.rules import draw_diagram

DIAGRAMS = {d.key: d for spec in catalogue.games() for d in spec.diagrams}


def get(key):
    return DIAGRAMS[key]


def render(diagram, lang):
    return draw_diagram(catalogue.game_spec(diagram.slug), diagram, lang)


KEYS = sorted(DIAGRAMS)


@pytest.mark.parametrize("key", KEYS)
def test_diagram_claim_holds_in_the_engine(key):
    diagram = DIAGRAMS[key]
    state, effects = diagram.replay()  # raises on any illegal move
    assert len(effects) == len(diagram.moves)
    assert diagram.claim(state, effects), f"{key}: the engine does not do what the caption says"
    assert diagram.check()


@pytest.mark.parametrize("key", KEYS)
def test_diagram_renders_in_both_languages(key):
    diagram = DIAGRAMS[key]
    for lang in ("pl", "en"):
        drawn = render(diagram, lang)
        with translation.override(lang):
            assert drawn["caption"] == translation.gettext(diagram.caption) and drawn["caption"]
        ET.fromstring(drawn["after"])
        if diagram.show_before:
            ET.fromstring(drawn["before"])
            assert 0 <= diagram.split < len(diagram.moves)
            assert 'class="highlight"' in drawn["before"]


def test_captions_are_english_msgids_with_their_polish_in_the_catalogue():
    """A caption is its English words (gettext_noop); the Polish page shows the .po's Polish."""
    built_in = [diagram for diagram in DIAGRAMS.values() if diagram.slug in BUILT_IN]
    assert built_in
    for diagram in built_in:
        assert render(diagram, "en")["caption"] == diagram.caption
        assert render(diagram, "pl")["caption"] != diagram.caption, f"{diagram.key}: no Polish in the .po"
    capture = render(get("kropki-capture"), "pl")["caption"]
    assert capture.startswith("Różowe stawiają c4 i domykają romb c2–d3–c4–b3.")


def test_removing_the_capture_makes_the_kropki_claim_fail():
    """The machinery itself: a capture diagram without its capturing move fails."""
    capture = get("kropki-capture")
    assert capture.check()
    broken = dataclasses.replace(capture, moves=capture.moves[:-1])
    assert broken.check() is False
    # Also when the capturing move is replaced by a harmless one.
    elsewhere = dataclasses.replace(capture, moves=(*capture.moves[:-1], "e5"))
    assert elsewhere.check() is False


def test_every_capture_diagram_fails_without_its_last_move():
    for key in ("kropki-diagonal", "kropki-intruder", "kropki-mover-first", "kropki-bigger", "kropki-out-of-play"):
        diagram = get(key)
        assert dataclasses.replace(diagram, moves=diagram.moves[:-1]).check() is False, key


def test_an_illegal_move_list_fails_instead_of_drawing():
    capture = get("kropki-capture")
    occupied = dataclasses.replace(capture, moves=(*capture.moves, "c3"))
    assert occupied.check() is False


def test_other_games_broken_fixtures_fail():
    assert dataclasses.replace(get("c4-early-draw"), moves=get("c4-early-draw").moves[:-1]).check() is False
    assert dataclasses.replace(get("dab-box"), moves=get("dab-box").moves[:-1]).check() is False
    assert dataclasses.replace(get("c4-horizontal"), moves=get("c4-horizontal").moves[:-1]).check() is False
