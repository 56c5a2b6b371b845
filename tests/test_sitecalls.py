"""tests/sitecalls/: every family's functions are found by name, once, and take keyword
arguments only; the runner prints what one returned as its ``JSON:`` line (here in the test
database; the whole-site tests run it in a live site's, through LiveSite.call)."""

from __future__ import annotations

import importlib
import inspect
import json

import pytest

from games.models import Match
from tests import sitecalls
from tests.sitecalls.__main__ import main


def test_every_family_function_is_found_once_and_takes_keywords_only():
    calls = sitecalls.names()
    listed = [
        name for family in sitecalls.FAMILIES for name in importlib.import_module(f"tests.sitecalls.{family}").__all__
    ]
    assert sorted(listed) == sorted(calls)
    for name, function in calls.items():
        kinds = {p.kind for p in inspect.signature(function).parameters.values()}
        assert kinds <= {inspect.Parameter.KEYWORD_ONLY, inspect.Parameter.VAR_KEYWORD}, name


def test_an_unknown_name_is_refused_with_the_known_ones():
    with pytest.raises(LookupError, match="players_with_match"):
        sitecalls.function("no_such_call")


@pytest.mark.django_db
def test_the_runner_prints_the_result_as_one_json_line(capsys):
    assert main(["players_with_match", json.dumps({"variant": "kropki-10", "names": ["alice", "bob"]})]) == 0
    (line,) = [line for line in capsys.readouterr().out.splitlines() if line.startswith("JSON:")]
    out = json.loads(line[5:])
    assert set(out) == {"alice", "bob", "match"}
    match = Match.objects.get(pk=out["match"])
    assert (match.pink_id, match.blue_id, match.variant) == (out["alice"]["id"], out["bob"]["id"], "kropki-10")
    assert main(["match_db_state", json.dumps({"match_id": match.pk})]) == 0
    (line,) = [line for line in capsys.readouterr().out.splitlines() if line.startswith("JSON:")]
    assert json.loads(line[5:])["status"] == "active"


def test_the_runner_refuses_arguments_that_are_not_an_object(capsys):
    assert main(["players_with_match", "[1, 2]"]) == 2
    assert "JSON object" in capsys.readouterr().err
