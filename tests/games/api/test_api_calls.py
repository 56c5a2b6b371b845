"""The API's calls (docs/api.md) through Django's test client: tokens (scopes, revocation,
a wrong token), bot accounts, challenges and moves with the WebSocket's refusal codes."""

from __future__ import annotations

import pytest
from django.test import Client

from accounts.tokens import token_create, token_revoke
from games.api.reads import game_full
from games.models import Challenge, Match
from games.play import botaccounts
from games.play.challenges import challenge_direct_create
from games.play.matchmaking import seek_create
from ratings.models import Rating

pytestmark = pytest.mark.django_db

ALL = ["bot:play", "challenge:write", "board:read"]


def api(client: Client, method: str, path: str, secret: str | None = None, **data):
    headers = {"Authorization": f"Bearer {secret}"} if secret else {}
    if method == "POST":
        return client.post(path, data=data, headers=headers)
    return client.get(path, data=data, headers=headers)


@pytest.fixture
def bot(make_user):
    user = make_user("robot")
    botaccounts.user_become_bot(user_id=user.pk)
    user.refresh_from_db()
    return user


@pytest.fixture
def bot_secret(bot):
    return token_create(user=bot, name="engine", scopes=ALL)[1]


def test_a_token_is_shown_once_and_only_its_hash_is_kept(alice):
    token, secret = token_create(user=alice, name="my engine", scopes=["board:read"])
    assert secret.startswith("kro_") and len(secret) > 40
    assert secret not in token.digest and token.digest != secret
    assert token.scope_list == ["board:read"]


def test_no_token_a_wrong_token_and_a_revoked_token_get_401_json(client, alice):
    token, secret = token_create(user=alice, name="t", scopes=ALL)
    answer = api(client, "GET", "/api/account")
    assert answer.status_code == 401 and answer.json()["error"] == "token_missing"
    assert answer["Content-Type"] == "application/json"
    answer = api(client, "GET", "/api/account", "kro_nonsense")
    assert answer.status_code == 401 and answer.json()["error"] == "token_invalid"
    assert api(client, "GET", "/api/account", secret).json()["username"] == "alice"
    assert token_revoke(user=alice, token_id=token.pk)
    answer = api(client, "GET", "/api/account", secret)
    assert answer.status_code == 401 and answer.json()["error"] == "token_invalid"


def test_a_token_without_the_scope_is_refused_403(client, alice, bob):
    _token, secret = token_create(user=alice, name="reader", scopes=["board:read"])
    answer = api(client, "POST", "/api/challenge/bob", secret, variant="cztery-w-rzedzie")
    assert answer.status_code == 403 and answer.json()["error"] == "token_scope"


def test_an_unknown_api_address_is_json_404(client):
    answer = client.get("/api/nothing/here")
    assert answer.status_code == 404 and answer.json()["error"] == "unknown_endpoint"


def test_an_account_with_a_game_cannot_become_a_bot(alice, bob, make_match):
    make_match()
    from kropki_site.lib.refusals import Refusal

    with pytest.raises(Refusal) as refused:
        botaccounts.user_become_bot(user_id=alice.pk)
    assert refused.value.code == "has_games"


def test_a_bot_is_refused_in_the_ranked_queue(bot):
    from kropki_site.lib.refusals import Refusal

    with pytest.raises(Refusal) as refused:
        seek_create(user=bot, variants=["cztery-w-rzedzie"])
    assert refused.value.code == "bot_account"


def test_bot_calls_need_a_bot_account(client, alice, bob, make_match):
    match = make_match()
    secret = token_create(user=alice, name="t", scopes=ALL)[1]
    answer = api(client, "POST", f"/api/bot/game/{match.pk}/move/3", secret)
    assert answer.status_code == 403 and answer.json()["error"] == "not_a_bot"


def test_a_challenge_through_the_api_then_moves_with_the_sockets_codes(client, alice, bot, bot_secret):
    answer = api(client, "POST", "/api/challenge/alice", bot_secret, variant="cztery-w-rzedzie", colour="pink")
    assert answer.status_code == 200, answer.content
    challenge_id = answer.json()["challenge"]["id"]
    alice_secret = token_create(user=alice, name="t", scopes=["challenge:write"])[1]
    answer = api(client, "POST", f"/api/challenge/{challenge_id}/accept", alice_secret)
    match_id = answer.json()["game"]["id"]
    match = Match.objects.get(pk=match_id)
    assert match.pink_id == bot.pk
    ok = api(client, "POST", f"/api/bot/game/{match_id}/move/3?ply=0", bot_secret)
    assert ok.json() == {"ok": True, "ply": 1, "duplicate": False}
    again = api(client, "POST", f"/api/bot/game/{match_id}/move/3", bot_secret)  # not its turn now
    assert again.status_code == 400 and again.json()["error"] == "not_your_turn"
    stale = api(client, "POST", f"/api/bot/game/{match_id}/move/4?ply=7", bot_secret)
    assert stale.json()["error"] == "stale_ply"
    bad = api(client, "POST", f"/api/bot/game/{match_id}/move/abc", bot_secret)
    assert bad.status_code == 400 and bad.json()["error"] == "bad_frame"
    for digits in ("%C2%B2", "3?ply=%C2%B2"):  # "²" is a digit to str.isdigit, not to int()
        bad = api(client, "POST", f"/api/bot/game/{match_id}/move/{digits}", bot_secret)
        assert bad.status_code == 400 and bad.json()["error"] == "bad_frame", digits
    ended = api(client, "POST", f"/api/bot/game/{match_id}/end", bot_secret)
    assert ended.json()["error"] in ("unknown_action", "not_your_turn")
    resign = api(client, "POST", f"/api/bot/game/{match_id}/resign", bot_secret)
    assert resign.json() == {"ok": True}
    match.refresh_from_db()
    assert match.status == "finished" and match.winner == 2
    over = api(client, "POST", f"/api/bot/game/{match_id}/move/2", bot_secret)
    assert over.json()["error"] == "match_not_active"


def test_get_on_a_post_call_is_405_json(client, bot_secret):
    answer = api(client, "GET", "/api/bot/game/1/resign", bot_secret)
    assert answer.status_code == 405 and answer.json()["error"] == "method_not_allowed"


def test_a_person_playing_a_bot_gains_half(alice, bob, bot, make_user, settings):
    from tests.helpers import play_moves

    # All four are new accounts: lift the daily cap on gains from new opponents (ratings/services.py),
    # which would hold carol's whole win to it, to compare the halves Glicko-2 gives.
    settings.NEW_OPPONENT_GAIN_PER_DAY = 10**6

    carol = make_user("carol")
    results = {}
    for human, opponent in ((alice, bot), (carol, bob)):
        challenge = challenge_direct_create(
            user_id=human.pk, target_name=opponent.username, variant="cztery-w-rzedzie", rated=True, colour="pink"
        )
        from games.play.challenges import challenge_direct_answer

        match = challenge_direct_answer(challenge_id=challenge.pk, user_id=opponent.pk, accept=True)
        play_moves(match, [0, 1, 0, 1, 0, 1, 0])  # pink wins
        results[human.username] = Rating.objects.get(user=human, variant="cztery-w-rzedzie").rating - 1500
        results[opponent.username] = Rating.objects.get(user=opponent, variant="cztery-w-rzedzie").rating - 1500
    assert results["alice"] == pytest.approx(results["carol"] / 2, abs=0.01)
    assert results["robot"] == pytest.approx(results["bob"], abs=0.01)
    assert Challenge.objects.filter(status="accepted").count() == 2


def test_a_session_cookie_alone_is_not_an_identity(client, alice, bob, make_match):
    """A logged-in browser's POST (a forged cross-site form, say) carries no token: 401, nothing done."""
    match = make_match()
    client.force_login(alice)
    answer = client.post(f"/api/bot/game/{match.pk}/resign")
    assert answer.status_code == 401 and answer.json()["error"] == "token_missing"
    match.refresh_from_db()
    assert match.status == "active"


def test_draw_yes_offers_or_accepts_and_end_plays_kropkis_end(client, alice, bot, bot_secret, make_match):
    from games.play import match_offer_draw

    match = make_match("kropki-10", pink=alice, blue=bot)
    assert api(client, "POST", f"/api/bot/game/{match.pk}/draw/yes", bot_secret).json() == {"ok": True, "offered": True}
    again = api(client, "POST", f"/api/bot/game/{match.pk}/draw/yes", bot_secret)
    assert again.status_code == 400 and again.json()["error"] == "draw_already_offered"
    assert api(client, "POST", f"/api/bot/game/{match.pk}/draw/no", bot_secret).json()["error"] == "no_draw_offer"
    ended = api(client, "POST", f"/api/bot/game/{match.pk}/end", bot_secret)
    assert ended.json()["error"] == "not_your_turn"
    other = make_match("kropki-10", pink=bot, blue=alice)
    assert api(client, "POST", f"/api/bot/game/{other.pk}/end?ply=0", bot_secret).json() == {
        "ok": True,
        "ply": 1,
        "duplicate": False,
    }
    match_offer_draw(match_id=other.pk, user_id=alice.pk)
    answer = api(client, "POST", f"/api/bot/game/{other.pk}/draw/yes", bot_secret)
    assert answer.json() == {"ok": True, "accepted": True}
    other.refresh_from_db()
    assert other.status == "finished" and other.end_reason == "agreement"


def test_a_challenge_through_the_api_with_a_games_own_settings(client, alice, bot, bot_secret):
    """docs/api.md: the forms' "<game>-<option>" fields; such a game is casual, and a value no
    form offers is refused with its code; the game's gameFull has the parameters."""
    rated = api(
        client, "POST", "/api/challenge/alice", bot_secret, variant="kropki-10", rated="true", **{"kropki-margin": "15"}
    )
    assert rated.status_code == 400 and rated.json()["error"] == "options_are_casual"
    bad = api(client, "POST", "/api/challenge/alice", bot_secret, variant="kropki-10", **{"kropki-board": "99x99"})
    assert bad.status_code == 400 and bad.json()["error"] == "bad_options"
    assert not Challenge.objects.exists()
    answer = api(
        client,
        "POST",
        "/api/challenge/alice",
        bot_secret,
        variant="kropki-10",
        **{"kropki-board": "40x40", "kropki-penalty": "on"},
    )
    assert answer.status_code == 200, answer.content
    challenge = Challenge.objects.get()
    assert challenge.params == {"width": 40, "height": 40, "penalty": True}
    alice_secret = token_create(user=alice, name="t", scopes=["challenge:write", "board:read"])[1]
    match_id = api(client, "POST", f"/api/challenge/{challenge.pk}/accept", alice_secret).json()["game"]["id"]
    assert Match.objects.get(pk=match_id).params == challenge.params
    full = game_full(match_id, alice.pk)
    assert full["params"] == challenge.params and full["end_action"] == 40 * 40
