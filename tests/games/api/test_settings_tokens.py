"""Tokens and the bot switch on the settings page: a secret shown once, revoked, a bot for good;
the BOT mark and the bots' leaderboard."""

from __future__ import annotations

import re

import pytest

from accounts.models import ApiToken
from games.play import botaccounts

pytestmark = pytest.mark.django_db


def test_a_token_is_made_shown_once_listed_and_revoked(client, alice):
    client.force_login(alice)
    page = client.post("/konto/ustawienia/tokeny/", {"name": "mojtoken7", "scopes": ["bot:play", "board:read"]})
    assert page.status_code == 200 and page["Cache-Control"] == "no-store"
    found = re.search(r'data-testid="new-token-secret">([^<]+)<', page.content.decode())
    assert found is not None
    secret = found.group(1)
    token = ApiToken.objects.get(user=alice)
    assert token.scopes == "bot:play board:read" and secret not in str(token.__dict__)
    again = client.get("/konto/ustawienia/").content.decode()
    assert "mojtoken7" in again and secret not in again  # listed, never shown again
    assert client.get("/api/account", headers={"Authorization": f"Bearer {secret}"}).status_code == 200
    client.post(f"/konto/ustawienia/tokeny/{token.pk}/uniewaznij/")
    assert client.get("/api/account", headers={"Authorization": f"Bearer {secret}"}).status_code == 401
    assert "mojtoken7" not in client.get("/konto/ustawienia/").content.decode()


def test_a_token_needs_a_name_and_a_scope(client, alice):
    client.force_login(alice)
    assert client.post("/konto/ustawienia/tokeny/", {"name": "x"}).status_code == 400
    assert client.post("/konto/ustawienia/tokeny/", {"name": " ", "scopes": ["bot:play"]}).status_code == 400
    assert not ApiToken.objects.exists()


def test_someone_elses_token_cannot_be_revoked(client, alice, bob):
    from accounts.tokens import token_create

    token, _secret = token_create(user=bob, name="bob's", scopes=["board:read"])
    client.force_login(alice)
    client.post(f"/konto/ustawienia/tokeny/{token.pk}/uniewaznij/")
    token.refresh_from_db()
    assert token.revoked_at is None


def test_an_account_becomes_a_bot_only_when_confirmed_and_is_marked(client, make_user, alice):
    robot = make_user("robot")
    client.force_login(robot)
    client.post("/konto/bot/", {})
    robot.refresh_from_db()
    assert not robot.is_bot
    client.post("/konto/bot/", {"confirm": "yes"})
    robot.refresh_from_db()
    assert robot.is_bot
    assert "BOT robot" in client.get("/gracz/robot/").content.decode()


def test_bots_have_their_own_leaderboard(client, make_user, alice, bob):
    from games.play.challenges import challenge_direct_answer, challenge_direct_create
    from tests.helpers import play_moves

    robot = make_user("robot")
    botaccounts.user_become_bot(user_id=robot.pk)
    for human in (alice,):
        challenge = challenge_direct_create(
            user_id=human.pk, target_name="robot", variant="cztery-w-rzedzie", rated=True, colour="pink"
        )
        match = challenge_direct_answer(challenge_id=challenge.pk, user_id=robot.pk, accept=True)
        play_moves(match, [0, 1, 0, 1, 0, 1, 0])
    people = client.get("/ranking/cztery-w-rzedzie/").content.decode()
    bots = client.get("/ranking/cztery-w-rzedzie/?boty=1").content.decode()
    assert "alice" in people and "robot" not in people
    assert "BOT robot" in bots and "alice" not in bots.split("ranking-table")[1]


def test_house_bots_are_made_once_with_a_token_file_each(settings, tmp_path, client):
    from django.core.management import call_command

    from accounts.models import User

    settings.VAR_DIR = tmp_path
    call_command("house_bots")
    call_command("house_bots")  # again: nothing new
    bots = User.objects.filter(username__startswith="kropki-bot-", is_bot=True)
    assert sorted(b.username for b in bots) == ["kropki-bot-latwy", "kropki-bot-sredni", "kropki-bot-trudny"]
    secret = (tmp_path / "house-bots" / "kropki-bot-trudny.token").read_text().strip()
    answer = client.get("/api/account", headers={"Authorization": f"Bearer {secret}"})
    assert answer.json()["username"] == "kropki-bot-trudny" and answer.json()["bot"] is True
    assert ApiToken.objects.filter(user__in=bots).count() == 3
