"""Your data (issue 25 items 16, 17, 18; docs/privacy.md): delete the account with the
password, download everything as one JSON file, and the privacy page linked from every footer."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from accounts.blocks import block_create
from accounts.models import Block, User
from games.models import ChatMessage, Match, Report
from games.play.chat import chat_send, report_create
from ratings.models import Rating, RatingChange
from tests.conftest import PASSWORD
from tests.factories import PINK_WINS, make_match
from tests.helpers import play_moves

pytestmark = pytest.mark.django_db


@pytest.fixture
def history(alice, bob, charlie):
    """Alice won a rated game against Bob, chatted, blocked Charlie and reported Bob;
    Bob blocked Alice; a second game between them is still on."""
    done = make_match(alice, bob, rated=True)
    play_moves(done, PINK_WINS)
    line = chat_send(match_id=done.pk, user_id=alice.pk, room="players", text="dobra gra")
    chat_send(match_id=done.pk, user_id=bob.pk, room="players", text="dzięki")
    block_create(blocker=alice, blocked=charlie)
    block_create(blocker=bob, blocked=alice)
    report_create(reporter_id=alice.pk, match_id=done.pk, reported_id=bob.pk, reason="niegrzeczny")
    report_create(reporter_id=bob.pk, match_id=done.pk, reported_id=alice.pk, reason="spam")
    active = make_match(alice, bob)
    return {"done": Match.objects.get(pk=done.pk), "active": active, "line": line}


def delete(client, password=PASSWORD):
    return client.post(reverse("account_delete"), {"password": password})


def test_deleting_the_account_asks_the_password_and_a_wrong_one_changes_nothing(client, alice, history):
    client.force_login(alice)
    page = client.get(reverse("account_delete")).content.decode()
    assert "Usuń moje konto" in page and 'type="password"' in page
    response = delete(client, "nie-moje-haslo")
    assert response.status_code == 200
    assert "To nie jest Twoje hasło." in response.content.decode()
    alice.refresh_from_db()
    assert alice.is_active and not alice.is_deleted and alice.username == "alice"
    assert ChatMessage.objects.filter(author=alice).exists()


def test_deleting_the_account_removes_the_personal_data_and_keeps_the_games(client, alice, bob, history):
    bob_rating = Rating.objects.get(user=bob, variant="cztery-w-rzedzie").rating
    client.force_login(alice)
    response = delete(client)
    assert response.status_code == 302 and response["Location"] == reverse("home")
    home = client.get(reverse("home"))
    assert not home.context["user"].is_authenticated
    assert "Twoje konto zostało usunięte" in home.content.decode()

    alice.refresh_from_db()
    assert alice.is_deleted and not alice.is_active and not alice.has_usable_password()
    assert alice.username == f"usuniety-{alice.pk}" and alice.email == ""
    assert not ChatMessage.objects.filter(author=alice).exists()
    assert ChatMessage.objects.filter(author=bob).exists()  # the other player's lines stay
    assert not Report.objects.filter(reporter=alice).exists()
    assert Report.objects.filter(reporter=bob, reported=alice).exists()  # for staff
    assert not Block.objects.filter(blocker=alice).exists() and not Block.objects.filter(blocked=alice).exists()
    assert not Rating.objects.filter(user=alice).exists()
    # The games stay, with both players; the opponent's rating is as it was.
    done = Match.objects.get(pk=history["done"].pk)
    assert done.pink_id == alice.pk and done.status == Match.Status.FINISHED
    assert Rating.objects.get(user=bob, variant="cztery-w-rzedzie").rating == bob_rating
    assert RatingChange.objects.filter(match_id=done.pk, user=bob).exists()
    # The game in progress was resigned.
    active = Match.objects.get(pk=history["active"].pk)
    assert active.status == Match.Status.FINISHED and active.end_reason == "resign" and active.winner == 2
    # Nobody logs in to it, and its old name is free of it.
    refused = client.post(reverse("login"), {"username": "alice", "password": PASSWORD}, REMOTE_ADDR="10.0.0.9")
    assert refused.status_code == 200 and not refused.context["user"].is_authenticated


def test_pages_show_a_deleted_account_as_such(client, alice, bob, history):
    client.force_login(alice)
    delete(client)
    record = client.get(reverse("record", args=[history["done"].pk])).content.decode()
    assert "konto usunięte" in record and f"usuniety-{alice.pk}" not in record
    bobs = client.get(reverse("profile", args=["bob"])).content.decode()
    assert "konto usunięte" in bobs and f"usuniety-{alice.pk}" not in bobs
    assert client.get(reverse("profile", args=[f"usuniety-{alice.pk}"])).status_code == 404
    exported = json.loads(client.get(reverse("export_json", args=[history["done"].pk])).content)
    assert exported["players"]["pink"]["name"] == "konto usunięte"
    client.cookies["kropki_language"] = "en"
    assert "deleted account" in client.get(reverse("record", args=[history["done"].pk])).content.decode()


def test_the_profile_list_of_an_opponent_drops_the_name_even_when_cached(client, alice, bob, history):
    bobs = reverse("profile", args=["bob"])
    assert ">alice</a>" in client.get(bobs).content.decode()  # cached now
    client.force_login(alice)
    delete(client)
    assert ">alice</a>" not in client.get(bobs).content.decode()


def test_deleting_closes_the_players_sockets_after_commit(
    client, alice, history, monkeypatch, django_capture_on_commit_callbacks
):
    closed = []
    monkeypatch.setattr("games.receivers.close_user_sockets", lambda user_id, session=None: closed.append(user_id))
    client.force_login(alice)
    with django_capture_on_commit_callbacks(execute=True):
        delete(client)
    assert alice.pk in closed


def test_a_deleted_name_prefix_is_reserved(client):
    response = client.post(
        reverse("signup"),
        {"username": "usuniety-5", "email": "u@example.com", "password1": PASSWORD, "password2": PASSWORD},
    )
    assert response.status_code == 200 and not User.objects.filter(username="usuniety-5").exists()


def test_visitors_and_guests_cannot_delete_or_download(client):
    assert client.get(reverse("account_delete")).status_code == 302
    response = client.post(
        reverse("play_computer"), {"variant": "cztery-w-rzedzie", "level": "latwy", "colour": "pink"}
    )
    assert response.status_code == 302  # now a guest
    assert client.get(reverse("account_download"))["Location"] == reverse("signup")
    assert client.post(reverse("account_delete"), {"password": ""})["Location"] == reverse("signup")


def test_download_my_data_is_one_json_file_of_everything_kept(client, alice, bob, charlie, history):
    from games.review.models import Analysis

    Analysis.objects.create(match=history["done"], version="v", requested_by=alice)
    client.force_login(alice)
    response = client.get(reverse("account_download"))
    assert response.status_code == 200 and response["Content-Type"].startswith("application/json")
    assert response["Content-Disposition"].startswith(f'attachment; filename="kropki-konto-{alice.pk}-')
    assert response["Cache-Control"] == "no-store"  # issue 37, item 11 (c): no cache keeps a copy
    data = json.loads(response.content)
    assert data["account"]["username"] == "alice" and data["account"]["email"] == "alice@example.com"
    assert data["account"]["settings"]["language"] == "pl"
    assert [m["id"] for m in data["matches"]] == [history["done"].pk, history["active"].pk]
    done = data["matches"][0]
    # the record's own export format, rating changes included
    assert done == json.loads(client.get(reverse("export_json", args=[history["done"].pk])).content)
    assert done["players"]["pink"]["rating_after"] is not None
    assert data["chat"] == [
        {"match": history["done"].pk, "room": "players", "text": "dobra gra", "at": data["chat"][0]["at"]}
    ]
    assert [b["blocked"] for b in data["blocks"]] == ["charlie"]  # the blocks Alice made
    assert [(r["reported"], r["reason"]) for r in data["reports"]] == [("bob", "niegrzeczny")]
    assert data["ratings"][0]["variant"] == "cztery-w-rzedzie"
    assert [(a["match"], a["status"]) for a in data["analyses_asked"]] == [(history["done"].pk, "queued")]
    assert data["tournaments"] == []


def test_the_settings_page_leads_to_download_and_delete(client, alice):
    client.force_login(alice)
    html = client.get(reverse("account_settings")).content.decode()
    assert f'href="{reverse("account_download")}"' in html and f'href="{reverse("account_delete")}"' in html
    assert "Pobierz moje dane" in html


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        (
            "pl",
            [
                "Prywatność",
                "Ciasteczka",
                "7 dni",
                "sessionid",
                "csrftoken",
                "kropki_language",
                "kropki_browser",
                "30 dni",
                "nie prosi o zgodę",
                "prywatnosc@kropki.local",
                "15 minut",
            ],
        ),
        (
            "en",
            [
                "Privacy",
                "Cookies",
                "7 days",
                "sessionid",
                "csrftoken",
                "kropki_language",
                "kropki_browser",
                "30 days",
                "does not ask for consent",
                "prywatnosc@kropki.local",
                "15 minutes",
            ],
        ),
    ],
)
def test_the_privacy_page_in_both_languages(client, lang, words):
    client.cookies["kropki_language"] = lang
    response = client.get(reverse("privacy"))
    assert response.status_code == 200
    html = response.content.decode()
    for word in words:
        assert word in html, word


@pytest.mark.parametrize("name", ["home", "faq", "lobby", "rules_index", "ranking", "login", "privacy"])
def test_every_footer_links_to_the_privacy_page(client, name):
    html = client.get(reverse(name)).content.decode()
    assert f'<a href="{reverse("privacy")}" data-testid="footer-privacy">' in html


def test_the_404_page_footer_links_to_privacy_too(client):
    html = client.get("/nie-ma-takiej-strony/").content.decode()
    assert 'data-testid="footer-privacy"' in html


def test_no_export_page_or_api_line_gives_a_deleted_accounts_id_or_name(client, alice, bob, history):
    """Issue 37 item 9: a deleted player's user id stayed in the exports, the match page's data
    and the API's game lines, so their games stayed linkable to one another."""
    from games.api.reads import game_full
    from games.display.export import account_json
    from games.play.privacy import account_delete
    from games.selectors.account import account_rows

    done = history["done"]
    account_delete(user_id=alice.pk)
    names = ("alice", f"usuniety-{alice.pk}")

    exported = json.loads(client.get(reverse("export_json", args=[done.pk])).content)
    assert exported["players"]["pink"]["user_id"] is None and exported["players"]["blue"]["user_id"] == bob.pk
    sgf_or_404 = client.get(reverse("export_sgf", args=[done.pk]))
    page = client.get(reverse("match", args=[done.pk]))
    snapshot = page.context["snapshot"]
    assert snapshot["players"]["1"] == {"name": "konto usunięte", "user_id": None}
    assert snapshot["players"]["2"]["user_id"] == bob.pk
    line = game_full(done.pk, bob.pk)
    assert line["players"]["1"] == {"name": "", "id": None, "bot": False, "computer": None}
    assert line["players"]["2"]["id"] == bob.pk
    bobs_data = account_json(account_rows(bob))
    assert {m["players"]["pink"]["user_id"] for m in bobs_data["matches"]} == {None}
    for text in (
        json.dumps(exported),
        sgf_or_404.content.decode(),
        page.content.decode(),
        json.dumps(line),
        json.dumps(bobs_data, ensure_ascii=False),
        client.get(reverse("record", args=[done.pk])).content.decode(),
        client.get(reverse("profile", args=["bob"])).content.decode(),
    ):
        assert not any(name in text for name in names)
        assert f'"user_id": {alice.pk}' not in text
