"""The moderation page (games/fairplay/admin.py): staff read a flag with its evidence, the
player's rated games, open reports, flagged pairs and past decisions, and decide there with a
reason; the log is read-only; people without the permission neither see nor decide."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Permission
from django.urls import reverse

from accounts.models import PairFlag
from games.fairplay.models import FairPlayDecision, FairPlayFlag
from games.models import Report
from tests.helpers import C4

pytestmark = pytest.mark.django_db


@pytest.fixture
def case(make_user, alice, bob, rated_game):
    """A flagged account with games, a report and a flagged pair."""
    cheat = make_user("cheat")
    won = rated_game(cheat, alice)
    rated_game(cheat, bob)
    flag = FairPlayFlag.objects.create(
        user=cheat,
        kind=FairPlayFlag.Kind.ENGINE,
        variant=C4,
        figures={"agreement": 0.934, "games": 12},
        evidence=[{"match": won.pk, "plies": [4, 6], "note": "only move found in 0.4 s"}, "junk"],
    )
    Report.objects.create(reporter=alice, reported=cheat, match=won, reason="too strong, too fast")
    PairFlag.note(cheat.pk, bob.pk, reason=PairFlag.Reason.SHARED_ADDRESS, match_id=None)
    return {"user": cheat, "flag": flag, "match": won, "bob": bob}


def test_the_flag_list_and_page_show_the_evidence_games_reports_and_pairs(client, staff, case):
    client.force_login(staff)
    listing = client.get(reverse("admin:games_fairplayflag_changelist")).content.decode()
    assert "cheat" in listing and "agreement 0.93 · games 12" in listing

    page = client.get(reverse("admin:games_fairplayflag_change", args=[case["flag"].pk]))
    assert page.status_code == 200
    html = page.content.decode()
    record = reverse("record", args=[case["match"].pk])
    assert f'href="{record}"' in html and "4, 6" in html and "only move found in 0.4 s" in html
    assert html.count('data-testid="evidence-row"') == 1  # the malformed item is left out
    assert "too strong, too fast" in html  # the open report
    assert reverse("admin:games_fairplayflag_account", args=[case["bob"].pk]) in html  # an opponent's page
    pairs = html[html.index('data-testid="pairs"') :]
    assert "bob" in pairs[: pairs.index("</table>")]
    games = html[html.index('data-testid="rated-games"') :]
    assert games[: games.index("</table>")].count("<tr>") == 3  # the heading and both rated games of the cheat
    for log in ("fairplaydecision", "ratingrefund"):
        assert client.get(reverse(f"admin:games_{log}_changelist")).status_code == 200


def test_staff_mark_from_the_page_with_a_reason_and_the_decision_is_logged(client, staff, case):
    client.force_login(staff)
    url = reverse("admin:games_fairplayflag_change", args=[case["flag"].pk])
    empty = client.post(url, {"action": "mark_engine", "reason": "  ", "flag": case["flag"].pk})
    assert empty.status_code == 200 and not FairPlayDecision.objects.exists()

    done = client.post(url, {"action": "mark_engine", "reason": "engine moves", "flag": case["flag"].pk})
    assert done.status_code == 302
    decision = FairPlayDecision.objects.get()
    assert (decision.action, decision.staff, decision.reason, decision.flag) == (
        "mark_engine",
        staff,
        "engine moves",
        case["flag"],
    )
    assert decision.refunds.count() == 2  # alice and bob
    case["user"].refresh_from_db()
    assert case["user"].fair_play_mark == "engine"
    page = client.get(url).content.decode()
    assert "engine moves" in page and 'data-testid="lift"' in page

    account = reverse("admin:games_fairplayflag_account", args=[case["user"].pk])
    assert client.post(account, {"action": "lift", "reason": "appeal"}).status_code == 302
    case["user"].refresh_from_db()
    assert case["user"].fair_play_mark == ""
    assert list(FairPlayDecision.objects.order_by("pk").values_list("action", flat=True)) == ["mark_engine", "lift"]


def test_a_dismissed_flag_and_an_account_without_flags(client, staff, case, charlie):
    client.force_login(staff)
    url = reverse("admin:games_fairplayflag_change", args=[case["flag"].pk])
    assert (
        client.post(url, {"action": "dismiss", "reason": "a strong player", "flag": case["flag"].pk}).status_code == 302
    )
    case["flag"].refresh_from_db()
    assert case["flag"].status == FairPlayFlag.Status.DISMISSED
    page = client.get(reverse("admin:games_fairplayflag_account", args=[charlie.pk]))
    assert page.status_code == 200 and "Brak flag." in page.content.decode()  # the site's first language


def test_without_the_permission_the_page_is_closed_or_read_only(client, make_user, case):
    clerk = make_user("clerk")
    clerk.is_staff = True
    clerk.save()
    client.force_login(clerk)
    url = reverse("admin:games_fairplayflag_change", args=[case["flag"].pk])
    assert client.get(url).status_code in (403, 404)
    clerk.user_permissions.add(Permission.objects.get(codename="view_fairplayflag"))
    page = client.get(url)
    assert page.status_code == 200 and 'data-testid="decision-form"' not in page.content.decode()
    assert client.post(url, {"action": "mark_engine", "reason": "x"}).status_code == 404
    assert not FairPlayDecision.objects.exists()


def test_the_user_admin_and_the_flagged_pairs_link_the_page_and_show_the_mark_read_only(client, staff, case):
    client.force_login(staff)
    page = reverse("admin:games_fairplayflag_account", args=[case["user"].pk])
    user_page = client.get(reverse("admin:accounts_user_change", args=[case["user"].pk])).content.decode()
    assert page in user_page and 'name="fair_play_mark"' not in user_page  # shown, not editable
    pairs = client.get(reverse("admin:accounts_pairflag_changelist")).content.decode()
    assert page in pairs and reverse("admin:games_fairplayflag_account", args=[case["bob"].pk]) in pairs


def test_the_list_dismisses_many_flags_with_one_reason_after_asking_it(client, staff, case, alice):
    noise = FairPlayFlag.objects.create(user=alice, kind=FairPlayFlag.Kind.ENGINE)
    client.force_login(staff)
    url = reverse("admin:games_fairplayflag_changelist")
    chosen = {"action": "dismiss_selected", "_selected_action": [case["flag"].pk, noise.pk]}
    asked = client.post(url, chosen)
    assert asked.status_code == 200 and 'data-testid="dismiss-form"' in asked.content.decode()
    assert not FairPlayDecision.objects.exists()  # nothing until the reason is given
    assert client.post(url, {**chosen, "reason": "  "}).status_code == 200  # a blank reason asks again
    done = client.post(url, {**chosen, "reason": "the detector misread fast openings"})
    assert done.status_code == 302
    assert set(FairPlayFlag.objects.values_list("status", flat=True)) == {"dismissed"}
    assert set(FairPlayDecision.objects.values_list("action", "staff__username", "reason")) == {
        ("dismiss", "moderator", "the detector misread fast openings")
    }
    assert FairPlayDecision.objects.count() == 2
