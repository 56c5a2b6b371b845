"""Issue 37 item 9 on the real stack (daphne, production flags): once an account is deleted, no
export, page data or API line of its old games gives its user id or its name (old or
"usuniety-<id>"); they show the "deleted account" placeholder, with no link and a null id."""

from __future__ import annotations

import json
import re
import urllib.error
import urllib.request
from collections.abc import Iterator

import pytest

from tests import live

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def site() -> Iterator[live.LiveSite]:
    with live.own_site("deleted-player") as site:
        yield site


def get(url: str, headers: dict[str, str] | None = None) -> tuple[int, str]:
    request = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as refused:
        return refused.code, refused.read().decode()


def first_line(url: str, secret: str) -> dict:
    request = urllib.request.Request(url, headers={"Authorization": f"Bearer {secret}"})
    with urllib.request.urlopen(request, timeout=30) as response:
        while True:
            raw = response.readline()
            assert raw, "the stream ended without a line"
            if raw.strip():
                return json.loads(raw)


def snapshot_of(page: str) -> dict:
    found = re.search(r'<script id="match-snapshot" type="application/json">(.*?)</script>', page, re.S)
    assert found is not None
    return json.loads(found.group(1))


def test_no_export_page_or_api_read_of_a_deleted_players_games_gives_their_id_or_name(site):
    people = site.call("deleted_player_games")
    _proc, url = site.start_daphne()
    kasia, olek = people["kasia"], people["olek"]
    assert site.call("api_account_delete", user_id=kasia) == {"deleted": True}
    olek_session = {"Cookie": f"{people['cookie_name']}={people['olek_cookie']}"}
    names = ("kasia", f"usuniety-{kasia}")
    read: dict[str, str] = {}

    status, body = get(f"{url}/partia/{people['done']}/eksport.json")
    exported = json.loads(body)
    assert status == 200 and exported["players"]["pink"] == {**exported["players"]["pink"], "user_id": None}
    assert exported["players"]["pink"]["name"] == "konto usunięte"
    assert exported["players"]["blue"]["user_id"] == olek
    read["export.json"] = body
    status, read["export.sgf"] = get(f"{url}/partia/{people['done']}/eksport.sgf")
    assert status == 404  # SGF: Kropki only (this is Cztery w rzędzie); the Kropki game's:
    status, read["export.sgf kropki"] = get(f"{url}/partia/{people['active']}/eksport.sgf")
    assert status == 200 and "PB[konto usunięte]" in read["export.sgf kropki"]
    for match in ("done", "active"):  # the game in progress was resigned by the deletion
        status, page = get(f"{url}/partia/{people[match]}/")
        assert status == 200
        players = snapshot_of(page)["players"]
        assert players["1"] == {"name": "konto usunięte", "user_id": None} and players["2"]["user_id"] == olek
        read[f"match page {match}"] = page
        status, read[f"record {match}"] = get(f"{url}/partia/{people[match]}/zapis/")
        line = first_line(f"{url}/api/bot/game/stream/{people[match]}", people["olek_token"])
        assert line["type"] == "gameFull"
        assert line["players"]["1"] == {"name": "", "id": None, "bot": False, "computer": None}
        assert line["players"]["2"]["id"] == olek
        read[f"gameFull {match}"] = json.dumps(line)
    status, read["olek's profile"] = get(f"{url}/gracz/olek/")
    assert status == 200 and "konto usunięte" in read["olek's profile"]
    status, body = get(f"{url}/konto/moje-dane.json", olek_session)
    mine = json.loads(body)
    assert status == 200 and mine["account"]["username"] == "olek"
    assert [m["players"]["pink"]["user_id"] for m in mine["matches"]] == [None, None]
    read["olek's data"] = body
    assert get(f"{url}/gracz/usuniety-{kasia}/")[0] == 404

    for where, text in read.items():
        assert not any(name in text for name in names), where
        assert f'"user_id": {kasia}' not in text and f'"user_id":{kasia}' not in text, where
        assert f"/gracz/usuniety-{kasia}/" not in text, where
    print(f"read {len(read)} exports, pages and API lines: none names or links the deleted account")
