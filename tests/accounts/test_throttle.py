"""Issue 12, items 2 and 3: log-in throttling keyed on the canonical username and
on the real client address, locking attackers and not owners."""

import pytest
from django.test import RequestFactory
from django.urls import reverse

from accounts.ip import client_ip
from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db

ATTACKER = "203.0.113.7"
OWNER = "198.51.100.20"


def login(client, username, password, ip=ATTACKER, **extra):
    return client.post(reverse("login"), {"username": username, "password": password}, REMOTE_ADDR=ip, **extra)


def test_letter_case_does_not_reset_the_count(client, alice, settings):
    """12 spellings x 4 wrong passwords used to be 48 failures and no lockout."""
    spellings = [
        "alice",
        "Alice",
        "ALICE",
        "aLice",
        "alIce",
        "aliCe",
        "alicE",
        "ALice",
        "AlIce",
        "aLICE",
        "ALIce",
        "alICE",
    ]
    statuses = [login(client, name, "zle-haslo").status_code for name in spellings for _ in range(4)]
    assert statuses[settings.AXES_FAILURE_LIMIT - 1 :] == [429] * (len(statuses) - settings.AXES_FAILURE_LIMIT + 1)
    assert login(client, "alice", PASSWORD).status_code == 429


def test_nfkc_spellings_count_as_one_name(client, alice, settings):
    """A full-width "ａｌｉｃｅ" is the same name to count."""  # noqa: RUF002 - full width on purpose
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        login(client, "ａｌｉｃｅ", "zle-haslo")  # noqa: RUF001 - full width on purpose
    assert login(client, "ALICE", "zle-haslo").status_code == 429


def test_the_owner_on_another_address_logs_in_while_the_attackers_is_locked(client, alice, settings):
    for _ in range(settings.AXES_FAILURE_LIMIT * 3):
        login(client, "alice", "zle-haslo", ip=ATTACKER)
    assert login(client, "alice", PASSWORD, ip=ATTACKER).status_code == 429
    from django.test import Client

    owner = Client()
    response = login(owner, "Alice", PASSWORD, ip=OWNER)
    assert response.status_code == 302
    assert owner.get(reverse("home")).context["user"] == alice
    # ...and the attacker's address stays locked for that name.
    assert login(client, "alice", PASSWORD, ip=ATTACKER).status_code == 429


def test_one_address_trying_many_names_is_slowed_for_every_name(client, alice, bob, settings):
    """Password spraying: past AXES_IP_FAILURE_LIMIT failures the address gets one attempt per
    AXES_IP_SLOW_SECONDS for any name (the rest: 429 unchecked); another address is untouched."""
    names = [f"gracz{i}" for i in range(settings.AXES_IP_FAILURE_LIMIT)]
    statuses = [login(client, name, "zle-haslo").status_code for name in names]
    assert 429 not in statuses
    assert login(client, "alice", "zle-haslo").status_code == 200  # the slot: checked, and it fails
    slowed = login(client, "bob", PASSWORD)
    assert slowed.status_code == 429 and 'data-testid="locked-out-slowed"' in slowed.content.decode()
    from django.test import Client

    assert login(Client(), "alice", PASSWORD, ip=OWNER).status_code == 302


def test_thirty_made_up_names_do_not_lock_the_owners_out_of_their_address(client, alice, settings):
    """Issue 24 item 13: 30 failed log-ins with made-up names from a school's address locked every
    account out from that address for 15 minutes. Now the owner's correct password gets in."""
    for i in range(settings.AXES_IP_FAILURE_LIMIT):
        login(client, f"zmyslony{i}", "zle-haslo")
    from django.test import Client

    owner = Client()
    response = login(owner, "alice", PASSWORD)  # same address as the attacker
    assert response.status_code == 302
    assert owner.get(reverse("home")).context["user"] == alice
    # The attacker right behind is slowed, with a clear page in Polish.
    page = login(client, "zmyslony-x", "zle-haslo")
    assert page.status_code == 429
    assert "próbować tylko raz na 20 sekund" in page.content.decode()


def test_the_pair_lock_stays_hard_on_a_slowed_address(client, alice, settings):
    for _ in range(settings.AXES_FAILURE_LIMIT):
        login(client, "alice", "zle-haslo")
    for i in range(settings.AXES_IP_FAILURE_LIMIT):
        login(client, f"zmyslony{i}", "zle-haslo")
    assert login(client, "alice", PASSWORD).status_code == 429  # the (address, alice) pair: locked


def test_logging_in_to_ones_own_account_does_not_clear_the_addresss_count(client, alice, bob, settings):
    """The attacker's own successful log-in resets only their own pair."""
    names = [f"gracz{i}" for i in range(settings.AXES_IP_FAILURE_LIMIT)]
    for name in names[:-1]:
        login(client, name, "zle-haslo")
    assert login(client, "bob", PASSWORD).status_code == 302
    client.post(reverse("logout"))
    login(client, names[-1], "zle-haslo")
    login(client, "someone-else", "zle-haslo")  # the slot
    assert login(client, "someone-else-2", "zle-haslo").status_code == 429


@pytest.mark.parametrize("behind_proxy, expected", [(False, "10.0.0.5"), (True, "198.51.100.20")])
def test_x_forwarded_for_is_read_only_behind_the_proxy(settings, behind_proxy, expected):
    settings.BEHIND_PROXY = behind_proxy
    request = RequestFactory().get("/", REMOTE_ADDR="10.0.0.5", HTTP_X_FORWARDED_FOR="198.51.100.20")
    assert client_ip(request) == expected


def test_a_proxy_that_appends_gives_the_right_most_address(settings):
    settings.BEHIND_PROXY = True
    request = RequestFactory().get("/", REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="1.2.3.4, 198.51.100.20")
    assert client_ip(request) == "198.51.100.20"
    garbage = RequestFactory().get("/", REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="not-an-ip")
    assert client_ip(garbage) == "127.0.0.1"


def test_an_ipv6_client_is_counted_by_its_64(settings):
    request = RequestFactory().get("/", REMOTE_ADDR="2001:db8:1:2:aaaa::1")
    assert client_ip(request) == "2001:db8:1:2::"


def test_a_spoofed_header_does_not_dodge_the_lock_without_a_proxy(client, alice, settings):
    settings.BEHIND_PROXY = False
    for i in range(settings.AXES_FAILURE_LIMIT):
        login(client, "alice", "zle-haslo", HTTP_X_FORWARDED_FOR=f"192.0.2.{i}")
    assert login(client, "alice", PASSWORD, HTTP_X_FORWARDED_FOR="192.0.2.99").status_code == 429


def test_behind_the_proxy_every_visitor_is_not_one_address(client, alice, settings):
    """Behind nginx REMOTE_ADDR is 127.0.0.1 for everyone: the header tells them apart."""
    settings.BEHIND_PROXY = True
    for _ in range(settings.AXES_FAILURE_LIMIT):
        login(client, "alice", "zle-haslo", ip="127.0.0.1", HTTP_X_FORWARDED_FOR=ATTACKER)
    assert login(client, "alice", PASSWORD, ip="127.0.0.1", HTTP_X_FORWARDED_FOR=ATTACKER).status_code == 429
    from django.test import Client

    owner = Client()
    assert login(owner, "alice", PASSWORD, ip="127.0.0.1", HTTP_X_FORWARDED_FOR=OWNER).status_code == 302


@pytest.mark.parametrize("behind_proxy, expected", [(False, "10.0.0.5"), (True, "198.51.100.20")])
def test_a_sockets_scope_gives_the_same_address(settings, behind_proxy, expected):
    from accounts.ip import client_ip_from_scope

    settings.BEHIND_PROXY = behind_proxy
    scope = {"client": ("10.0.0.5", 5555), "headers": [(b"host", b"x"), (b"x-forwarded-for", b"198.51.100.20")]}
    assert client_ip_from_scope(scope) == expected
    assert client_ip_from_scope({"client": None, "headers": []}) == "0.0.0.0"


def _slow_the_address(client, settings):
    for i in range(settings.AXES_IP_FAILURE_LIMIT):
        login(client, f"zmyslony{i}", "zle-haslo")


def test_a_remembered_device_passes_the_slow_lane_an_attacker_keeps(client, alice, settings):
    """Issue 37 item 10 (a): an attacker failing continuously from the owner's address took the
    address's one slot each time it came free; the owner got 429 after 429. The owner's browser,
    remembered from an earlier log-in, is checked at once: in on the first attempt."""
    from django.test import Client

    owner = Client()
    assert login(owner, "alice", PASSWORD).status_code == 302
    assert owner.cookies["kropki_device"]["httponly"]
    owner.post(reverse("logout"))
    _slow_the_address(client, settings)
    stranger = Client()  # the same address, no remembered device
    for _ in range(3):
        login(client, "zmyslony-x", "zle-haslo")  # the attacker holds the slot
        assert login(owner, "ALICE", PASSWORD).status_code == 302
        assert owner.get(reverse("home")).context["user"] == alice
        owner.post(reverse("logout"))
        assert login(stranger, "alice", PASSWORD).status_code == 429  # no cookie: the slow lane


def test_a_remembered_device_helps_only_its_own_name_and_a_forged_one_nothing(client, alice, bob, settings):
    from django.test import Client

    owner = Client()
    assert login(owner, "alice", PASSWORD).status_code == 302
    owner.post(reverse("logout"))
    _slow_the_address(client, settings)
    login(client, "zmyslony-x", "zle-haslo")  # the attacker holds the slot
    assert login(owner, "bob", PASSWORD).status_code == 429  # the cookie names alice only
    forged = Client()
    forged.cookies["kropki_device"] = "alice"  # unsigned
    assert login(forged, "alice", PASSWORD).status_code == 429
    # A wrong password from the remembered browser is checked and counts towards the pair's lock.
    for _ in range(settings.AXES_FAILURE_LIMIT):
        assert login(owner, "alice", "zle-haslo").status_code in (200, 429)
    assert login(owner, "alice", PASSWORD).status_code == 429
