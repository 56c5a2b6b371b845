import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "name", ["home", "lobby", "play_computer", "rules_index", "ranking", "tournaments", "signup", "login"]
)
def test_page_answers_in_polish_by_default(client, name):
    response = client.get(reverse(name))
    assert response.status_code == 200
    assert response["Content-Language"] == "pl"
    assert '<html lang="pl">' in response.content.decode()


def test_rules_page_exists_for_each_game(client):
    for slug in ["kropki", "kropki-i-kwadraty", "cztery-w-rzedzie"]:
        assert client.get(reverse("rules", args=[slug])).status_code == 200
    assert client.get(reverse("rules", args=["szachy"])).status_code == 404
