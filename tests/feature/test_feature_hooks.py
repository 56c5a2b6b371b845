"""A feature hears a match's end without touching games/play (docs/features.md).

tests/feature/endings/ registers an ``after_finish`` hook and an account-export part
through games.hooks, as games/tournaments/ does; the match ends through the normal
service (a resignation), and the feature hears it: once, with that match, ended, inside
the finishing transaction. Nothing in games/ names the feature.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from games import play
from games.display.export import account_json
from games.models import BLUE, PINK, Match
from games.selectors.account import account_rows
from tests.factories import make_match
from tests.feature.endings import feature

FOLDER = Path(feature.__file__).resolve().parent
GAMES = Path(__file__).resolve().parents[2] / "games"


@pytest.fixture
def endings():
    feature.register()
    yield feature
    feature.unregister()


@pytest.mark.django_db(transaction=True)  # no test-wide transaction: "inside one" is the service's own
def test_the_hook_hears_a_resignation_with_that_match(endings, alice, bob):
    match = make_match(alice, bob)
    other = make_match(bob, alice)
    assert endings.heard == []

    play.match_resign(match_id=match.pk, user_id=alice.pk)

    # Once, with the match just ended (saved: status and winner set), inside the finishing transaction.
    assert endings.heard == [(match.pk, Match.Status.FINISHED, BLUE, True)]
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.winner == BLUE

    play.match_resign(match_id=other.pk, user_id=alice.pk)  # Alice plays blue here: pink wins
    assert [h[:3] for h in endings.heard] == [
        (match.pk, Match.Status.FINISHED, BLUE),
        (other.pk, Match.Status.FINISHED, PINK),
    ]


def test_an_active_match_is_not_heard_and_a_forgotten_hook_is_silent(endings, alice, bob):
    match = make_match(alice, bob)
    play.match_offer_draw(match_id=match.pk, user_id=alice.pk)
    assert endings.heard == []

    endings.unregister()
    play.match_resign(match_id=match.pk, user_id=bob.pk)
    assert endings.heard == []


def test_the_feature_adds_its_part_to_the_account_download(endings, alice, bob):
    play.match_resign(match_id=make_match(alice, bob).pk, user_id=bob.pk)
    data = account_json(account_rows(alice))
    assert data["endings"] == {"ends_heard": 1}
    assert "tournaments" in data  # the arenas' part, registered the same way at start-up


def test_the_feature_imports_the_core_hooks_only_and_the_core_does_not_name_it():
    imported = set()
    for path in FOLDER.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module:
                imported.add(node.module)
            elif isinstance(node, ast.Import):
                imported.update(alias.name for alias in node.names)
    assert {m for m in imported if m.startswith("games")} == {"games"}  # ``from games import hooks``
    named = [str(p) for p in GAMES.rglob("*.py") if "tests.feature" in p.read_text()]
    assert named == []
