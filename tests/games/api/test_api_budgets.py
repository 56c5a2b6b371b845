"""The API's budgets (docs/api.md "Limits"): requests per account, all its tokens together, and
per client address, whoever calls; a refusal is the API's JSON with 429 and Retry-After. And a
token that is revoked, or whose account is deleted, is no longer live for a stream's check."""

from __future__ import annotations

import pytest
from django.test import Client

from accounts.services import user_anonymise
from accounts.tokens import token_create, token_is_live, token_revoke

pytestmark = pytest.mark.django_db

ALL = ["bot:play", "challenge:write", "board:read"]


def get(client: Client, secret: str, address: str = "10.0.0.1"):
    return client.get("/api/account", headers={"Authorization": f"Bearer {secret}"}, REMOTE_ADDR=address)


def test_an_accounts_tokens_share_one_budget(client, alice, bob, settings):
    settings.API_REQUESTS_PER_MINUTE = 4
    secrets = [token_create(user=alice, name=f"t{n}", scopes=ALL)[1] for n in range(3)]
    answers = [get(client, secrets[n % 3], f"10.0.0.{n}").status_code for n in range(4)]
    assert answers == [200] * 4
    refused = get(client, secrets[2], "10.0.0.9")  # another token, another address: the account's budget
    assert refused.status_code == 429
    assert refused.json()["error"] == "rate_limited"
    assert refused["Retry-After"] == "60"
    bob_secret = token_create(user=bob, name="b", scopes=ALL)[1]
    assert get(client, bob_secret, "10.0.0.9").status_code == 200  # another account: its own


def test_an_address_has_a_budget_whatever_account_calls(client, alice, bob, settings):
    settings.API_ADDRESS_REQUESTS_PER_MINUTE = 3
    a = token_create(user=alice, name="a", scopes=ALL)[1]
    b = token_create(user=bob, name="b", scopes=ALL)[1]
    assert [get(client, secret).status_code for secret in (a, b, a)] == [200, 200, 200]
    refused = get(client, b)
    assert refused.status_code == 429 and refused.json()["error"] == "rate_limited"
    assert refused["Retry-After"] == "60"
    # a wrong token counts too (it is looked up after the address's budget)
    assert get(client, "kro_nonsense").status_code == 429
    assert get(client, b, "10.0.0.2").status_code == 200  # another address


def test_a_stream_opening_counts_against_the_addresss_stream_budget(client, alice, settings):
    settings.API_ADDRESS_STREAMS_PER_MINUTE = 0
    secret = token_create(user=alice, name="a", scopes=ALL)[1]
    refused = client.get("/api/stream/event", headers={"Authorization": f"Bearer {secret}"})
    assert refused.status_code == 429 and refused.json()["error"] == "rate_limited"
    assert refused["Retry-After"] == "60"


def test_a_revoked_token_and_a_deleted_accounts_token_are_not_live(alice, bob):
    token = token_create(user=alice, name="a", scopes=ALL)[0]
    assert token_is_live(token.pk)
    token_revoke(user=alice, token_id=token.pk)
    assert not token_is_live(token.pk)
    other = token_create(user=bob, name="b", scopes=ALL)[0]
    user_anonymise(user=bob)
    assert not token_is_live(other.pk)
    other.refresh_from_db()
    assert other.revoked_at is not None
