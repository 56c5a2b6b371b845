"""Notifications (issue 40, docs/social.md "Notifications"): the list in the header for every
kind, e-mail for the kinds a player chose, only to a verified address, through a real SMTP
server (aiosmtpd on a local port), throttled, each with a one-click unsubscribe; the address's
verification; blocks, invisibility, the data download and deletion."""

from __future__ import annotations

import email
import re
import threading
import time
from collections import Counter
from datetime import timedelta

import pytest
import time_machine
from django.db import connection, connections
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts.models import User
from games.following.services import follow
from games.hooks import Notice
from games.live import online
from games.notifications import selectors, services
from games.notifications.models import Notification, NotificationPrefs, PendingNotice
from games.notifications.selectors import account_part
from games.play.challenges import challenge_direct_create
from games.play.creating import match_create
from games.play.privacy import account_delete
from games.review.services import analysis_request, analysis_run
from games.tournaments.models import Tournament
from games.tournaments.services import tournament_join, tournaments_pair
from tests.factories import finished_match
from tests.smtp import body

pytestmark = pytest.mark.django_db


def unfolded(header: object) -> str:
    """A header's value without the line folding of a long one."""
    return "".join(str(header).split())


def verified(user: User) -> User:
    user.email_verified = True
    user.save(update_fields=["email_verified"])
    return user


def delivered() -> None:
    """Beat's delivery, run until the outbox is empty (the notify worker's, every second)."""
    while services.deliver_pending():
        pass


def rows(user: User, kind: str | None = None):
    found = Notification.objects.filter(user=user)
    return found.filter(kind=kind) if kind else found


# -- the address ---------------------------------------------------------------------------


def test_the_address_is_verified_by_the_link_it_receives(client, alice, inbox, settings):
    settings.EMAIL_VERIFY_PER_HOUR = 2
    client.force_login(alice)
    page = client.get("/powiadomienia/ustawienia/").content.decode()
    assert "nie jest jeszcze potwierdzony" in page
    assert client.post("/konto/ustawienia/email/").status_code == 302
    [mail] = inbox.messages
    assert mail["X-Envelope-To"] == alice.email and "potwierdź adres e-mail" in str(
        email.header.make_header(email.header.decode_header(mail["Subject"]))
    )
    link = re.search(r"http://testserver(/konto/email/potwierdz/\S+/)", body(mail))
    assert link is not None
    anonymous = Client()  # the link works without logging in
    assert anonymous.get(link.group(1)).status_code == 302
    alice.refresh_from_db()
    assert alice.email_verified
    # asked again: refused, nothing sent
    client.post("/konto/ustawienia/email/")
    assert len(inbox.messages) == 1


def test_links_are_limited_and_a_link_dies_with_its_address(client, bob, inbox, settings):
    settings.EMAIL_VERIFY_PER_HOUR = 2
    client.force_login(bob)
    for _ in range(3):
        client.post("/konto/ustawienia/email/")
    assert len(inbox.messages) == 2  # the third within the hour is refused
    link = re.search(r"http://testserver(/konto/email/potwierdz/\S+/)", body(inbox.messages[0]))
    assert link is not None
    bob.email = "new@example.com"
    bob.save(update_fields=["email"])
    client.get(link.group(1))
    bob.refresh_from_db()
    assert not bob.email_verified
    client.get("/konto/email/potwierdz/forged-token/")
    bob.refresh_from_db()
    assert not bob.email_verified


# -- a direct challenge: the list, and an e-mail -------------------------------------------------


def test_a_challenge_reaches_the_list_and_a_verified_away_player_by_email_once_in_a_while(alice, bob, charlie, inbox):
    verified(bob)
    challenge_direct_create(user_id=alice.pk, target_name="bob", variant="kropki-10", rated=False)
    assert not rows(bob).exists()  # in the outbox until beat's delivery
    delivered()
    [row] = rows(bob, "challenge")
    assert row.shown and row.read_at is None and row.mail == Notification.Mail.PENDING
    assert services.mail_pending()["sent"] == 1
    [mail] = inbox.messages
    assert mail["X-Envelope-To"] == bob.email
    assert "alice wyzywa Cię na partię (Kropki 10×10, szybka)." in body(mail)
    unsubscribe = re.fullmatch(r"<(http://testserver(/powiadomienia/wypisz/\S+/))>", unfolded(mail["List-Unsubscribe"]))
    assert unsubscribe is not None and mail["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    # a second challenge within the gap: in the list, not mailed
    challenge_direct_create(user_id=charlie.pk, target_name="bob", variant="kropki-10", rated=False)
    delivered()
    assert rows(bob, "challenge").count() == 2
    assert rows(bob, "challenge").filter(mail=Notification.Mail.PENDING).count() == 0
    assert services.mail_pending()["sent"] == 0 and len(inbox.messages) == 1


def test_no_mail_to_an_unverified_address_nor_to_a_player_on_the_site(alice, bob, charlie, inbox):
    challenge_direct_create(user_id=alice.pk, target_name="bob", variant="kropki-10", rated=False)
    delivered()
    assert rows(bob, "challenge").get().mail == Notification.Mail.NONE  # not verified
    verified(charlie)
    online.mark_online(charlie.pk)
    try:
        challenge_direct_create(user_id=alice.pk, target_name="charlie", variant="kropki-10", rated=False)
        delivered()  # while charlie is on the site
    finally:
        online.mark_offline_if_gone(charlie.pk)
    assert rows(charlie, "challenge").get().mail == Notification.Mail.NONE  # on the site: the live notice
    services.mail_pending()
    assert inbox.messages == []


def test_one_notice_to_many_mails_only_those_off_the_site(alice, bob, charlie, inbox, settings):
    """One notice to several players reads who is online in one round trip (``online_among``):
    the one on the site gets the line only, the others the mail too."""
    for user in (alice, bob, charlie):
        verified(user)
    online.mark_online(bob.pk)
    try:
        assert online.online_among([alice.pk, bob.pk, charlie.pk]) == {bob.pk}
        assert (
            services.notify([alice.pk, bob.pk, charlie.pk], "challenge", {"name": "dana", "variant": "kropki-10"}) == 3
        )
        delivered()
    finally:
        online.mark_offline_if_gone(bob.pk)
    mailed = set(Notification.objects.filter(mail=Notification.Mail.PENDING).values_list("user_id", flat=True))
    assert mailed == {alice.pk, charlie.pk}
    assert online.online_among([alice.pk, bob.pk]) == set() and online.online_among([]) == set()


def test_one_click_unsubscribe_from_the_mail_stops_that_kind(alice, bob, charlie, inbox, settings):
    settings.NOTIFY_MAIL_GAP_HOURS = 0
    verified(bob)
    challenge_direct_create(user_id=alice.pk, target_name="bob", variant="kropki-10", rated=False)
    delivered()
    services.mail_pending()
    url = re.fullmatch(r"<http://testserver(\S+)>", unfolded(inbox.messages[0]["List-Unsubscribe"]))
    assert url is not None
    mail_program = Client(enforce_csrf_checks=True)  # no cookie, no CSRF token: RFC 8058's POST
    assert mail_program.get(url.group(1)).status_code == 200  # a link checker's GET changes nothing
    assert not NotificationPrefs.objects.filter(user=bob).exists()
    answer = mail_program.post(url.group(1), {"List-Unsubscribe": "One-Click"})
    assert answer.status_code == 200 and "Gotowe" in answer.content.decode()
    assert NotificationPrefs.objects.get(user=bob).mail == {"challenge": False}
    challenge_direct_create(user_id=charlie.pk, target_name="bob", variant="kropki-10", rated=False)
    delivered()
    assert services.mail_pending()["sent"] == 0 and len(inbox.messages) == 1
    forged = mail_program.post(url.group(1)[:-5] + "xxxx/")
    assert forged.status_code == 400


def test_a_server_down_leaves_the_mail_for_the_next_sweep(alice, bob, inbox, settings):
    verified(bob)
    challenge_direct_create(user_id=alice.pk, target_name="bob", variant="kropki-10", rated=False)
    delivered()
    port = settings.EMAIL_PORT
    settings.EMAIL_PORT = 1  # nothing listens there
    with pytest.raises(OSError):
        services.mail_pending()
    assert rows(bob, "challenge").get().mail == Notification.Mail.PENDING
    settings.EMAIL_PORT = port
    assert services.mail_pending()["sent"] == 1 and len(inbox.messages) == 1


# -- the sweep: a batch taken in one write and settled in one more -----------------------------


def waiting_mails(user: User, n: int, settings) -> list[int]:
    """``n`` challenges to ``user`` waiting to be mailed (no gap between them)."""
    settings.NOTIFY_MAIL_GAP_HOURS = 0
    for i in range(n):
        services.notify([user.pk], "challenge", {"name": "alice", "variant": "kropki-10", "challenge": i})
    delivered()
    return list(rows(user).filter(mail=Notification.Mail.PENDING).values_list("pk", flat=True))


def test_a_sweep_writes_twice_whatever_its_batch(bob, inbox, settings):
    """The database hears of a batch twice (the claim, the sent ones), not twice a mail: ten
    thousand mails are not twenty thousand writes beside the moves (docs/performance.md)."""
    verified(bob)
    queries = []
    for n in (2, 12):
        assert len(waiting_mails(bob, n, settings)) == n
        with CaptureQueriesContext(connection) as sweep:
            assert services.mail_pending(batch=n) == {"sent": n}
        writes = [
            q["sql"] for q in sweep.captured_queries if q["sql"].lstrip()[:6].upper() in ("UPDATE", "INSERT", "DELETE")
        ]
        assert len(writes) == 2, writes
        queries.append(len(sweep.captured_queries))
    assert queries[0] == queries[1]
    assert len(inbox.messages) == 14
    assert set(rows(bob).values_list("mail", flat=True)) == {Notification.Mail.SENT}
    assert not rows(bob).filter(mailed_at=None).exists()


@pytest.mark.django_db(transaction=True)
def test_two_sweeps_never_both_send_a_mail(bob, inbox, settings):
    """While one sweep sends its batch (the server holds its first mail), another takes none of it."""
    verified(bob)
    waiting_mails(bob, 3, settings)
    inbox.release = threading.Event()
    first: Counter[str] = Counter()

    def sweep() -> None:
        try:
            first.update(services.mail_pending())
        finally:
            connections.close_all()

    thread = threading.Thread(target=sweep)
    thread.start()
    try:
        assert inbox.holding.wait(10)  # the first sweep is mid-batch
        assert services.mail_pending() == {}
    finally:
        inbox.release.set()
        thread.join(10)
    assert first == {"sent": 3}
    assert len(inbox.messages) == 3
    assert set(rows(bob).values_list("mail", flat=True)) == {Notification.Mail.SENT}


def test_mails_a_dead_sweep_took_go_again_once_its_claim_runs_out(bob, inbox, settings):
    """At least once: a sweep that took its batch and died leaves the rows taken; the next sweeps
    leave them to it while its claim lasts, then send them."""
    verified(bob)
    waiting_mails(bob, 2, settings)
    claim = timedelta(seconds=settings.NOTIFY_CLAIM_SECONDS)
    assert len(Notification.take("mail", 10, stale=claim)) == 2  # what a sweep does first; then it dies
    assert services.mail_pending() == {}
    assert set(rows(bob).values_list("mail", flat=True)) == {Notification.Mail.SENDING}
    with time_machine.travel(timezone.now() + claim + timedelta(seconds=1)):
        assert services.mail_pending() == {"sent": 2}
    assert len(inbox.messages) == 2
    assert set(rows(bob).values_list("mail", flat=True)) == {Notification.Mail.SENT}


def test_a_server_going_down_mid_batch_leaves_the_rest_pending(bob, inbox, settings):
    verified(bob)
    waiting_mails(bob, 4, settings)
    inbox.down_after = 1  # "421 closing" from the second mail on
    assert services.mail_pending() == {"sent": 1}
    assert sorted(rows(bob).values_list("mail", flat=True)) == ["pending", "pending", "pending", "sent"]
    inbox.down_after = None
    assert services.mail_pending() == {"sent": 3}
    assert len(inbox.messages) == 4


def test_an_address_refused_for_good_fails_its_row_and_the_others_go(alice, bob, charlie, inbox, settings):
    """A 550 for one address is that row's end, not a server down: the rows behind it are sent
    (one refused address first in the queue never stops the mail)."""
    verified(bob)
    verified(charlie)
    inbox.refused = {bob.email}
    waiting_mails(bob, 1, settings)
    waiting_mails(charlie, 2, settings)
    assert services.mail_pending() == {"failed": 1, "sent": 2}
    assert rows(bob).get().mail == Notification.Mail.FAILED
    assert [m["X-Envelope-To"] for m in inbox.messages] == [charlie.email, charlie.email]


def test_a_sweep_sends_only_while_its_claim_lasts(bob, inbox, settings):
    """Past half its claim a sweep stops (another may take the rows once it runs out): with a
    claim of no time at all, everything is left for the next sweep."""
    verified(bob)
    waiting_mails(bob, 2, settings)
    settings.NOTIFY_CLAIM_SECONDS = 0
    assert services.mail_pending() == {}
    assert set(rows(bob).values_list("mail", flat=True)) == {Notification.Mail.PENDING}
    assert inbox.messages == []


# -- the list -------------------------------------------------------------------------------


def test_the_list_shows_a_follower_and_reading_it_clears_the_count(client, alice, bob):
    follow(follower=alice, username="bob")
    follow(follower=alice, username="bob")  # again: nothing new
    delivered()
    assert selectors.unread_counts([bob.pk]) == {bob.pk: 1}
    client.force_login(bob)
    page = client.get("/powiadomienia/").content.decode()
    assert "alice obserwuje Cię." in page and 'href="/gracz/alice/"' in page
    assert selectors.unread_counts([bob.pk]) == {}
    assert "alice obserwuje Cię." in client.get("/powiadomienia/").content.decode()  # read, still listed


def test_the_unread_count_stops_where_the_header_says_99_plus(alice, bob, charlie):
    """Counting stops at 100 (the header's "99+"), in one query for many players."""
    Notification.objects.bulk_create(
        [Notification(user=bob, kind="challenge", data={"name": "x", "challenge": i}) for i in range(150)]
        + [Notification(user=alice, kind="challenge", data={"name": "x", "challenge": i}) for i in range(3)]
        + [Notification(user=alice, kind="challenge", data={"name": "x"}, read_at=timezone.now())]
        + [Notification(user=alice, kind="challenge", data={"name": "x"}, shown=False)]
    )
    with CaptureQueriesContext(connection) as queries:
        assert selectors.unread_counts([alice.pk, bob.pk, charlie.pk]) == {alice.pk: 3, bob.pk: 100}
    assert len(queries) == 1
    assert "LIMIT 100" in queries[0]["sql"]
    assert [selectors.unread_count(u.pk) for u in (alice, bob, charlie)] == [3, 100, 0]


def statements(queries: CaptureQueriesContext) -> list[str]:
    """The statements captured, without the savepoints of a transaction inside the test's."""
    return [q["sql"] for q in queries.captured_queries if "SAVEPOINT" not in q["sql"]]


def test_a_notice_reads_its_players_once_and_counts_only_those_on_the_site(
    alice, bob, charlie, django_capture_on_commit_callbacks
):
    """Told, a notice costs its caller one insert (the outbox); delivered, three players: the
    outbox taken and emptied, one read of them (their choices, their browsers), the rows in one
    insert, and the header's count only for the one with a page open: the others' pages, when
    they open, read it themselves (docs/performance.md "A notice's statements")."""
    online.mark_online(bob.pk)
    with CaptureQueriesContext(connection) as told:
        assert services.notify([alice.pk, bob.pk, charlie.pk], "follower", {"name": "dave"}) == 3
    assert len(statements(told)) == 1 and statements(told)[0].startswith("INSERT")
    with CaptureQueriesContext(connection) as queries, django_capture_on_commit_callbacks(execute=True):
        assert services.deliver_pending() == 3
    counts = [sql for sql in statements(queries) if "COUNT(*)" in sql]
    assert len(counts) == 1
    assert f'"accounts_user"."id" IN ({bob.pk})' in counts[0]
    assert len(statements(queries)) == 5, [sql[:80] for sql in statements(queries)]
    assert services.deliver_pending() == 0 and rows(alice).count() == 1


def test_many_notices_at_once_cost_the_statements_of_one_and_mail_a_kind_once(alice, bob, charlie):
    """``notify_many`` (a sweep's, an arena wave's followers): one insert for ten notices as for
    one, and their delivery the same statements too: each player's rows, and the mail rule as if
    told one by one: a kind mailed once in the gap, a game's kind once per game."""
    for user in (alice, bob):
        user.email_verified = True
        user.save(update_fields=["email_verified"])
    notices = [Notice([alice.pk, bob.pk], "challenge", {"name": "dana", "challenge": i}) for i in range(4)]
    notices += [
        Notice([alice.pk], "corr_turn", {"name": "dana", "variant": "kropki-10", "match": m}) for m in (7, 7, 8)
    ]
    notices += [Notice([charlie.pk, charlie.pk], "follower", {"name": "dana"}, key="follower:1")] * 3
    with CaptureQueriesContext(connection) as told:
        assert services.notify_many(notices) == 4 * 2 + 3 + 3
    assert len(statements(told)) == 1
    with CaptureQueriesContext(connection) as queries:
        assert services.deliver_pending() == 4 * 2 + 3 + 3
    many = len(statements(queries))
    mailed = Notification.objects.exclude(mail=Notification.Mail.NONE)
    assert sorted(mailed.filter(kind="challenge").values_list("user_id", flat=True)) == [alice.pk, bob.pk]
    assert sorted(mailed.filter(kind="corr_turn").values_list("data__match", flat=True)) == [7, 8]
    assert Notification.objects.filter(user=charlie).count() == 1  # one key, one line
    assert Notification.objects.filter(kind="challenge").count() == 8
    services.notify_many([Notice([alice.pk], "corr_turn", {"name": "x", "match": m}) for m in (8, 9)])
    with CaptureQueriesContext(connection) as queries:  # the gap now read from the rows
        assert services.deliver_pending() == 2
    assert sorted(mailed.filter(kind="corr_turn").values_list("data__match", flat=True)) == [7, 8, 9]
    assert len(statements(queries)) == many == 5, [sql[:80] for sql in statements(queries)]


def test_a_notice_to_more_players_than_a_delivery_takes_goes_out_over_several(alice, bob, charlie, make_user):
    """A delivery takes at most ``batch`` players, oldest notice first: a notice to more (an
    arena's to its thousands) is split, its rest left in the outbox for the next run; a key
    still reaches a player once."""
    dave = make_user("dave")
    services.notify([alice.pk, bob.pk, charlie.pk], "tournament_soon", {"name": "A", "url": "/t/1/"}, key="t:1")
    services.notify([dave.pk, alice.pk], "follower", {"name": "eve"})
    assert services.deliver_pending(batch=2) == 2
    assert set(Notification.objects.values_list("user_id", flat=True)) == {alice.pk, bob.pk}
    assert services.deliver_pending(batch=2) == 2  # charlie's line, then the next notice's first
    assert services.deliver_pending(batch=2) == 1
    assert services.deliver_pending(batch=2) == 0
    soon = [(user.pk, "tournament_soon") for user in (alice, bob, charlie)]
    assert sorted(Notification.objects.values_list("user_id", "kind")) == sorted(
        [*soon, (dave.pk, "follower"), (alice.pk, "follower")]
    )
    services.notify([alice.pk], "tournament_soon", {"name": "A", "url": "/t/1/"}, key="t:1")
    assert services.deliver_pending() == 1  # taken, and no second line: the key was told
    assert rows(alice, "tournament_soon").count() == 1


def test_beats_run_delivers_in_small_steps_spread_over_its_interval(make_user, settings):
    """``deliver_paced`` (beat's task, every NOTIFY_DELIVER_SECONDS): at most STEPS batches of
    BATCH players, spaced evenly, so a backlog leaves the outbox at a steady pace."""
    settings.NOTIFY_DELIVER_STEPS, settings.NOTIFY_DELIVER_BATCH, settings.NOTIFY_DELIVER_SECONDS = 3, 2, 0.3
    players = [make_user(f"gracz{i}") for i in range(7)]
    services.notify([p.pk for p in players], "follower", {"name": "x"})
    began = time.monotonic()
    assert services.deliver_paced() == 6  # three steps of two
    assert time.monotonic() - began >= 0.2  # two gaps of a tenth of a second between them
    assert Notification.objects.count() == 6
    assert services.deliver_paced() == 1 and services.deliver_paced() == 0
    assert Notification.objects.count() == 7


def test_a_notice_of_a_kind_gone_since_is_dropped_and_the_others_go(alice, bob):
    """A notice told before a release that removed its kind never blocks the outbox, nor ends a
    step: a step of two drops three gone ones and still delivers the notice after them."""
    for _ in range(3):
        PendingNotice.objects.create(user_ids=[alice.pk], kind="gone", data={})
    services.notify([bob.pk], "follower", {"name": "alice"})
    assert services.deliver_pending(batch=2) == 1
    assert not PendingNotice.objects.exists()
    assert [(n.user_id, n.kind) for n in Notification.objects.all()] == [(bob.pk, "follower")]


def test_a_notice_commits_with_its_event_or_not_at_all(alice, bob):
    """The outbox row is written in the caller's transaction: an event rolled back tells nothing."""
    from django.db import transaction

    with pytest.raises(RuntimeError), transaction.atomic():
        follow(follower=alice, username="bob")
        raise RuntimeError("the event fails after telling")
    assert services.deliver_pending() == 0
    assert not rows(bob).exists()


def test_the_settings_turn_a_kind_off_in_the_list(client, alice, bob, charlie):
    client.force_login(bob)
    page = client.get("/powiadomienia/ustawienia/").content.decode()
    assert 'name="site-follower" aria-label' in page and "checked" in page
    client.post("/powiadomienia/ustawienia/", {"site-challenge": "on"})  # not the whole form: nothing
    assert not NotificationPrefs.objects.filter(user=bob).exists()
    client.post("/powiadomienia/ustawienia/", {"form": "notifications", "site-challenge": "on", "mail-challenge": "on"})
    prefs = NotificationPrefs.objects.get(user=bob)
    assert prefs.site["follower"] is False and prefs.site["challenge"] is True
    follow(follower=charlie, username="bob")
    delivered()
    assert not rows(bob, "follower").exists()


def test_a_player_one_follows_starting_a_game_is_heard_only_when_chosen_and_visible(
    alice, bob, charlie, make_user, django_capture_on_commit_callbacks
):
    dave = make_user("dave")
    follow(follower=bob, username="alice")

    def start(**players):
        with django_capture_on_commit_callbacks(execute=True):  # the hook runs after commit
            game = match_create(variant="kropki-10", **players)
        delivered()
        return game

    start(pink_id=alice.pk, blue_id=dave.pk)
    assert not rows(bob, "followed_playing").exists()  # off by default
    services.prefs_save(user_id=bob.pk, site={"followed_playing": True}, mail={})
    game = start(pink_id=dave.pk, blue_id=alice.pk)
    row = rows(bob, "followed_playing").get()
    assert row.data == {"name": "alice", "variant": "kropki-10", "match": game.pk}
    start(pink_id=bob.pk, blue_id=alice.pk)
    assert rows(bob, "followed_playing").count() == 1  # not of a game against oneself
    alice.invisible = True
    alice.save(update_fields=["invisible"])
    start(pink_id=alice.pk, blue_id=charlie.pk)
    assert rows(bob, "followed_playing").count() == 1  # an invisible player's games stay unsaid
    start(pink_id=alice.pk, blue_id=None, bot_level="latwy")
    assert rows(bob, "followed_playing").count() == 1


def test_a_tournament_about_to_start_is_told_once_to_its_players(alice, bob):
    now = timezone.now()
    t = Tournament.objects.create(
        name="Wieczorna",
        variant="kropki-10",
        starts_at=now + timedelta(minutes=20),
        ends_at=now + timedelta(minutes=80),
        minutes=60,
        status=Tournament.Status.UPCOMING,
    )
    tournament_join(tournament_id=t.pk, user=alice)
    tournaments_pair(now=now)
    delivered()
    assert not rows(alice, "tournament_soon").exists()
    tournaments_pair(now=now + timedelta(minutes=16))
    tournaments_pair(now=now + timedelta(minutes=17))
    delivered()
    [row] = rows(alice, "tournament_soon")
    assert row.data == {"name": "Wieczorna", "url": f"/turnieje/{t.pk}/"}
    assert not rows(bob).exists()


@pytest.mark.django_db(transaction=True)
def test_a_review_ready_is_in_the_list(alice, bob):
    from tests.games.test_analysis import KROPKI_DOT_LEFT

    match = finished_match(alice, bob, KROPKI_DOT_LEFT, "kropki-10")
    assert analysis_run(analysis_request(alice, match.pk).pk)
    delivered()
    row = rows(alice, "review_done").get()
    assert row.data == {"match": match.pk}
    assert not rows(bob, "review_done").exists()


# -- privacy ----------------------------------------------------------------------------------


def test_the_data_download_has_them_and_deletion_takes_them(alice, bob):
    follow(follower=alice, username="bob")
    delivered()
    services.prefs_save(user_id=bob.pk, site={"challenge": True}, mail={"challenge": False})
    part = account_part(bob)
    assert part["settings"]["mail"] == {
        "corr_turn": False,
        "corr_reminder": False,
        "challenge": False,
        "tournament_soon": False,
    }
    assert [n["kind"] for n in part["notifications"]] == ["follower"]
    account_delete(user_id=bob.pk)
    assert not Notification.objects.filter(user=bob).exists()
    assert not NotificationPrefs.objects.filter(user=bob).exists()
