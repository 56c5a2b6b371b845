"""The displays (games/display/) take rows and do no queries: every read is a selector's
(games/selectors/, a feature's selectors.py; docs/features.md "Reads").

Two checks: a walk of the displays' source for the ORM (a manager, a queryset method, a
database import), which fails on the line that brings a query back; and the displays run
on rows the selectors read, under a count of zero queries."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from games.display.export import account_json, match_json, match_sgf
from games.display.frames import state_frame
from games.selectors import match as match_reads
from games.selectors.account import account_rows
from tests.helpers import play

ROOT = Path(__file__).resolve().parents[3]
# What the displays are: the shared ones and each feature's display.py (its reads are in its
# selectors.py).
DISPLAYS = [
    *sorted((ROOT / "games" / "display").glob("*.py")),
    ROOT / "games" / "tournaments" / "display.py",
    ROOT / "games" / "review" / "display.py",
]

# Methods of a manager or a queryset that run a query or build one. Names dicts and lists
# share (get, count, values, items, ...) are left out: the manager and the imports catch those.
QUERY_METHODS = {
    "aggregate",
    "annotate",
    "bulk_create",
    "bulk_update",
    "defer",
    "distinct",
    "exclude",
    "exists",
    "filter",
    "get_or_create",
    "in_bulk",
    "iterator",
    "only",
    "order_by",
    "prefetch_related",
    "raw",
    "refresh_from_db",
    "select_for_update",
    "select_related",
    "update_or_create",
    "using",
    "values_list",
}
QUERY_ATTRIBUTES = {"objects", "_default_manager", "_base_manager"}
QUERY_IMPORTS = ("django.db", "django.shortcuts", "games.selectors", "games.play", "games.hooks", "ratings.selectors")


def queries_in(path: Path, root: Path = ROOT) -> list[str]:
    """Every place in ``path`` that reads the database (or imports what does), as "file:line: what"."""
    found = []
    name = path.relative_to(root)
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Attribute) and node.attr in QUERY_ATTRIBUTES:
            found.append(f"{name}:{node.lineno}: .{node.attr}")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in QUERY_METHODS:
            found.append(f"{name}:{node.lineno}: .{node.func.attr}()")
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.startswith(QUERY_IMPORTS):
            found.append(f"{name}:{node.lineno}: from {node.module} import ...")
        elif isinstance(node, ast.Import):
            found.extend(
                f"{name}:{node.lineno}: import {a.name}" for a in node.names if a.name.startswith(QUERY_IMPORTS)
            )
    return found


def test_the_walk_finds_a_query(tmp_path):
    """The check can fail: a display that reads the database is caught, line by line."""
    bad = tmp_path / "probe.py"  # not in games/display: another worker walks it meanwhile
    text = (
        "from django.db.models import Q\n"
        "from games.models import Move\n\n"
        "def f(match):\n"
        "    return list(Move.objects.filter(match=match).values_list('ply'))\n"
    )
    bad.write_text(text)
    assert queries_in(bad, tmp_path) == [
        "probe.py:1: from django.db.models import ...",
        "probe.py:5: .values_list()",
        "probe.py:5: .filter()",
        "probe.py:5: .objects",
    ]


def test_the_displays_do_no_queries():
    assert DISPLAYS, "no display found: the walk looks in the wrong place"
    found = [line for path in DISPLAYS for line in queries_in(path)]
    assert found == [], "a display reads the database; move the read to a selector:\n" + "\n".join(found)


@pytest.mark.django_db
def test_a_match_s_frame_and_exports_are_drawn_from_rows_alone(make_match, alice, bob, django_assert_num_queries):
    match = make_match("kropki-10")
    play(match, alice, 44)
    play(match, bob, 45)
    fresh = match_reads.committed_match(match.pk)
    assert fresh is not None
    rows = match_reads.snapshot_rows(fresh)
    moves = match_reads.match_moves(fresh)
    ends = match_reads.clock_ends(fresh)
    with django_assert_num_queries(0):
        frame = state_frame(fresh, rows)
        data = match_json(fresh, moves)
        sgf = match_sgf(fresh, ends)
    assert frame["snapshot"]["movers"] == [1, 2]
    assert len(data["moves"]) == 2
    assert sgf.startswith("(;GM[40]")


@pytest.mark.django_db
def test_the_account_s_data_is_drawn_from_rows_alone(make_match, alice, bob, django_assert_num_queries):
    match = make_match("kropki-10")
    play(match, alice, 44)
    rows = account_rows(alice)
    with django_assert_num_queries(0):
        data = account_json(rows)
    assert [m["id"] for m in data["matches"]] == [match.pk]
