"""Issue 12, item 1: one visitor cannot stall the computer for everyone.

- a player keeps at most COMPUTER_MATCHES_PER_USER unfinished computer matches:
  a new one abandons (aborts) the oldest; guests made from one IP share
  COMPUTER_MATCHES_PER_GUEST_IP;
- the computer's fair queue (games/play/botqueue.py; issue 24, item 2): one
  move per human and per address at a time, the least recently served first,
  a bound on waiting moves ("the computer is busy").

The live flood (real daphne and Celery) is tests/live_play/test_computer_flood.py.
"""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from accounts.guests import guest_create
from games import play as services
from games.models import Match
from games.play import botqueue
from games.play.computer import computer_token, match_bot_turn
from kropki_site.lib.refusals import Refusal

pytestmark = pytest.mark.django_db

FLOOD = {"variant": "kropki-10", "level": "trudny", "colour": "blue"}


def post(client, **data):
    response = client.post(reverse("play_computer"), {**FLOOD, **data})
    assert response.status_code == 302
    return Match.objects.latest("pk")


def test_a_guest_keeps_only_the_newest_three_unfinished_computer_matches(client, settings):
    settings.COMPUTER_MATCHES_PER_USER = 3
    settings.MATCH_STARTS_PER_MINUTE = 100
    made = [post(client) for _ in range(8)]
    guest = made[0].pink_id or made[0].blue_id
    active = Match.objects.filter(status="active", blue_id=guest)
    assert sorted(active.values_list("pk", flat=True)) == [m.pk for m in made[-3:]]
    for match in made[:-3]:
        match.refresh_from_db()
        assert match.status == "aborted" and match.end_reason == "aborted" and match.winner is None
        assert match.finished_at is not None
        # the computer's task queued for it finds it over and thinks about nothing
        assert match_bot_turn(match_id=match.pk, ply=0) is False


def test_an_account_has_the_same_cap_and_a_rematch_counts(alice, settings):
    settings.COMPUTER_MATCHES_PER_USER = 2
    first = services.match_create(variant="cztery-w-rzedzie", pink_id=alice.pk, blue_id=None, bot_level="latwy")
    services.match_resign(match_id=first.pk, user_id=alice.pk)
    services.match_create(variant="cztery-w-rzedzie", pink_id=alice.pk, blue_id=None, bot_level="latwy")
    services.match_offer_rematch(match_id=first.pk, user_id=alice.pk)  # against the computer: starts at once
    services.match_create(variant="cztery-w-rzedzie", pink_id=alice.pk, blue_id=None, bot_level="latwy")
    assert Match.objects.filter(status="active").count() == 2
    first.refresh_from_db()
    assert first.status == "finished"  # a finished match is never touched


def test_neighbours_on_one_address_cannot_abort_each_others_games(settings):
    # Issue 24, item 1: guest A plays; new guests on A's address start games up to the
    # address's cap. A's game (and every other) stays active; the one over the cap is refused.
    settings.COMPUTER_MATCHES_PER_USER = 3
    settings.COMPUTER_MATCHES_PER_GUEST_IP = 8
    a = post(Client(REMOTE_ADDR="203.0.113.7"), colour="pink")
    started = [post(Client(REMOTE_ADDR="203.0.113.7"), colour="pink") for _ in range(7)]
    refused = Client(REMOTE_ADDR="203.0.113.7", HTTP_ACCEPT_LANGUAGE="pl").post(
        reverse("play_computer"), {**FLOOD, "colour": "pink"}
    )
    assert refused.status_code == 429
    body = refused.content.decode()
    assert 'data-code="computer_address_busy"' in body and "Gra nie została rozpoczęta" in body
    english = Client(REMOTE_ADDR="203.0.113.7", HTTP_ACCEPT_LANGUAGE="en").post(
        reverse("play_computer"), {**FLOOD, "colour": "pink"}
    )
    assert english.status_code == 429 and "Many games against the computer are already being played" in (
        english.content.decode()
    )
    assert set(Match.objects.filter(status="active").values_list("pk", flat=True)) == {a.pk, *(m.pk for m in started)}
    services.match_play(match_id=a.pk, user_id=a.pink_id, ply=0, action=3)  # A plays on
    # another network is not affected
    post(Client(REMOTE_ADDR="198.51.100.1"))


def test_thirty_people_behind_one_address_each_start_a_game():
    # The defaults: 30 browsers (cookies) on one address each start a computer game, nobody aborted.
    made = [post(Client(REMOTE_ADDR="203.0.113.9"), colour="pink") for _ in range(30)]
    assert Match.objects.filter(pk__in=[m.pk for m in made], status="active").count() == 30


def test_a_guest_starting_forty_games_in_seconds_is_refused_with_a_clear_page(settings):
    # Issue 24, item 16: the 7th start within a minute is refused (per person), its own
    # games untouched; and an address's many guests together are held to their own rate.
    settings.MATCH_STARTS_PER_MINUTE = 6
    browser = Client(HTTP_ACCEPT_LANGUAGE="pl")
    codes = [browser.post(reverse("play_computer"), {**FLOOD, "colour": "pink"}).status_code for _ in range(40)]
    assert codes == [302] * 6 + [429] * 34
    assert Match.objects.filter(status="active").count() == 3  # its own newest three (its own cap)
    response = browser.post(reverse("play_computer"), {**FLOOD, "colour": "pink"})
    assert 'data-code="starting_too_often"' in response.content.decode()
    assert "Zaczynasz gry zbyt szybko" in response.content.decode()
    settings.MATCH_STARTS_PER_MINUTE = 0
    english = Client(HTTP_ACCEPT_LANGUAGE="en", REMOTE_ADDR="198.51.100.3").post(reverse("play_computer"), FLOOD)
    assert english.status_code == 429 and "You are starting games too quickly" in english.content.decode()
    settings.MATCH_STARTS_PER_MINUTE = 6
    settings.MATCH_STARTS_PER_ADDRESS_MINUTE = 3
    others = [Client(REMOTE_ADDR="203.0.113.44").post(reverse("play_computer"), FLOOD).status_code for _ in range(5)]
    assert others == [302] * 3 + [429] * 2


def test_a_rematch_with_the_computer_is_counted_too(alice, settings):
    settings.MATCH_STARTS_PER_MINUTE = 2
    first = services.computer_match_start(user_id=alice.pk, variant="cztery-w-rzedzie", level="latwy", colour="pink")
    services.match_resign(match_id=first.pk, user_id=alice.pk)
    services.match_offer_rematch(match_id=first.pk, user_id=alice.pk)
    second = Match.objects.latest("pk")
    services.match_resign(match_id=second.pk, user_id=alice.pk)
    with pytest.raises(Refusal) as refused:
        services.match_offer_rematch(match_id=second.pk, user_id=alice.pk)
    assert refused.value.code == "starting_too_often"


def _waiting_match(user, address: str) -> Match:
    """A computer match of ``user`` (on ``address``) whose computer (pink) is to move, queued."""
    botqueue.remember_address(user.pk, address)
    match = services.match_create(variant="cztery-w-rzedzie", pink_id=None, blue_id=user.pk, bot_level="latwy")
    assert botqueue.job_add(match_id=match.pk, ply=0, owner=user.pk)[0]
    return match


def _claimed() -> tuple[int, int] | None:
    """The next claimed job as (match id, ply)."""
    claim = botqueue.job_claim()
    return None if claim is None else (claim.match_id, claim.ply)


def _guests(count: int) -> list:
    return [guest_create() for _ in range(count)]


def test_six_players_on_one_address_answering_at_once_do_not_starve_another():
    # Issue 24, item 2: six guests of one address each have a computer move waiting;
    # one of theirs is being computed. An honest player's move, queued last, goes next:
    # the address holds at most BOT_THINKING_PER_ADDRESS (1) of the pool.
    attackers = [_waiting_match(g, "203.0.113.66") for g in _guests(6)]
    first = botqueue.job_claim()
    assert first is not None and first[0] in {m.pk for m in attackers}
    honest = _waiting_match(guest_create(), "198.51.100.5")
    assert _claimed() == (honest.pk, 0)
    assert botqueue.job_claim() is None  # the address's one slot is taken: no second attacker
    botqueue.job_done(first[0])
    assert botqueue.job_claim() is not None  # its next one may go now


def test_six_players_on_six_addresses_do_not_starve_another():
    # The same from six addresses: the two pool processes are taken by two of them;
    # the honest player (never served) overtakes the four still waiting.
    attackers = [_waiting_match(g, f"203.0.113.{i}") for i, g in enumerate(_guests(6))]
    for _ in attackers:  # each has had computer moves already (they answer at once)
        claimed = botqueue.job_claim()
        assert claimed is not None
        botqueue.job_done(claimed[0])
    for match in attackers:
        assert match.blue_id is not None
        botqueue.job_add(match_id=match.pk, ply=0, owner=match.blue_id)
    running = [botqueue.job_claim(), botqueue.job_claim()]
    assert {r[0] for r in running if r} <= {m.pk for m in attackers}
    honest = _waiting_match(guest_create(), "198.51.100.5")
    first = running[0]
    assert first is not None
    botqueue.job_done(first[0])  # a process is free
    assert _claimed() == (honest.pk, 0)


def test_a_token_plays_the_fairest_move_not_its_own_and_one_move_per_player_at_a_time():
    greedy = guest_create()
    mine = [_waiting_match(greedy, "203.0.113.7") for _ in range(2)]
    honest = _waiting_match(guest_create(), "198.51.100.5")
    busy = botqueue.job_claim()  # one of greedy's being computed elsewhere
    assert busy is not None and busy[0] in {m.pk for m in mine}
    # the token sent for greedy's other match plays the honest one's move
    assert computer_token(match_id=next(m.pk for m in mine if m.pk != busy[0]), ply=0) is True
    honest.refresh_from_db()
    assert honest.ply == 1
    assert computer_token(match_id=0, ply=0) is False  # greedy's second waits for its first
    botqueue.job_done(busy[0])
    assert computer_token(match_id=0, ply=0) is True


def test_the_same_position_is_queued_once():
    match = _waiting_match(guest_create(), "203.0.113.8")
    assert match.blue_id is not None
    assert botqueue.job_add(match_id=match.pk, ply=0, owner=match.blue_id) == (False, 1)
    assert _claimed() == (match.pk, 0)
    assert botqueue.job_add(match_id=match.pk, ply=0, owner=match.blue_id)[0] is False  # being computed


def test_a_reply_made_while_the_last_computer_move_is_released_is_not_lost():
    # The player answers within milliseconds of the computer's move, before its job is released.
    match = _waiting_match(guest_create(), "203.0.113.9")
    assert match.blue_id is not None
    assert _claimed() == (match.pk, 0)
    assert botqueue.job_add(match_id=match.pk, ply=2, owner=match.blue_id)[0] is True
    assert botqueue.job_claim() is None  # its owner's move is still being released
    botqueue.job_done(match.pk)
    assert _claimed() == (match.pk, 2)


def test_when_the_computer_is_busy_a_new_game_is_refused_and_the_waiting_ones_go_on(settings):
    settings.BOT_QUEUE_LIMIT = 3
    waiting = [_waiting_match(g, f"203.0.113.{i}") for i, g in enumerate(_guests(3))]
    response = Client(HTTP_ACCEPT_LANGUAGE="pl").post(reverse("play_computer"), FLOOD)
    assert response.status_code == 429
    assert 'data-code="computer_busy"' in response.content.decode()
    assert "Komputer jest zajęty" in response.content.decode()
    english = Client(HTTP_ACCEPT_LANGUAGE="en", REMOTE_ADDR="198.51.100.4").post(reverse("play_computer"), FLOOD)
    assert "The computer is busy" in english.content.decode()
    for _ in waiting:
        assert computer_token(match_id=0, ply=0) is True
    assert Match.objects.filter(pk__in=[m.pk for m in waiting], ply=1).count() == 3


def test_forty_started_and_abandoned_games_are_deleted_after_a_day(settings):
    # Issue 24, item 16: a guest's flood of starts left aborted matches for good once the
    # guest had one finished match (the stale-guest cleanup keeps such a guest).
    from datetime import timedelta

    from django.utils import timezone

    from games.models import Move
    from games.tasks import delete_unplayed_computer_matches

    guest = guest_create()

    def start():
        return services.match_create(variant="cztery-w-rzedzie", pink_id=guest.pk, blue_id=None, bot_level="latwy")

    finished = start()
    services.match_resign(match_id=finished.pk, user_id=guest.pk)
    flood = [start() for _ in range(40)]  # each start abandons the oldest beyond its own three
    played = start()
    services.match_play(match_id=played.pk, user_id=guest.pk, ply=0, action=3)
    services.computer_matches_trim(user_ids=[guest.pk], keep=0)
    opened_by_computer = services.match_create(
        variant="cztery-w-rzedzie", pink_id=None, blue_id=guest.pk, bot_level="latwy"
    )
    services.match_bot_play(match_id=opened_by_computer.pk, ply=0, action=3)  # only the computer moved
    services.computer_matches_trim(user_ids=[guest.pk], keep=0)
    day_ago = timezone.now() - timedelta(hours=25)
    Match.objects.exclude(pk=flood[-1].pk).update(finished_at=day_ago)
    assert Move.objects.filter(match=opened_by_computer).count() == 1
    assert delete_unplayed_computer_matches() == 40  # 39 old flood matches and the computer-only one
    left = set(Match.objects.values_list("pk", flat=True))
    assert left == {finished.pk, played.pk, flood[-1].pk}  # the result, a played game, one ended an hour ago
    entry = settings.CELERY_BEAT_SCHEDULE["delete-unplayed-computer-matches"]
    assert entry["task"] == delete_unplayed_computer_matches.name and entry["schedule"] == 3600.0


def test_a_move_queued_past_the_bound_tells_the_match_the_computer_is_busy(settings, monkeypatch):
    from games.live import transport
    from games.play import publisher

    settings.BOT_QUEUE_LIMIT = 2
    sent: list[tuple[int, dict]] = []
    monkeypatch.setattr(transport, "send_to_match", lambda match_id, frame: sent.append((match_id, frame)))
    monkeypatch.setattr(publisher, "send_now", lambda *args: None)  # no broker in this test
    first = _waiting_match(guest_create(), "203.0.113.1")  # one move waits: below the bound
    second = services.match_create(
        variant="cztery-w-rzedzie", pink_id=None, blue_id=guest_create().pk, bot_level="latwy"
    )
    assert second.blue_id is not None
    botqueue.submit(second.pk, 0, second.blue_id)
    assert sent == [(second.pk, {"type": "computer_busy", "ply": 0, "waiting": 2})]
    botqueue.submit(second.pk, 0, second.blue_id)  # the same position again: queued once, said once
    assert len(sent) == 1 and botqueue.waiting() == 2
    assert _claimed() == (first.pk, 0)  # and it is made in its turn


def test_a_bot_account_refused_a_computer_match_gets_403_not_429(alice):
    # Issue 37, item 11 (a): a bot account may not play the computer; that is a policy
    # refusal (403, code bot_account), not a rate limit (429). No match is made.
    alice.is_bot = True
    alice.save(update_fields=["is_bot"])
    browser = Client(HTTP_ACCEPT_LANGUAGE="en")
    browser.force_login(alice)
    response = browser.post(reverse("play_computer"), FLOOD)
    assert response.status_code == 403
    assert 'data-code="bot_account"' in response.content.decode()
    assert not Match.objects.filter(blue_id=alice.pk).exists()


def _answered_at_once(match: Match, user) -> None:
    """``user`` answers the computer's move in ``match`` at once (the computer's job queued again)."""
    match.refresh_from_db()
    services.match_play(match_id=match.pk, user_id=user.pk, ply=match.ply, action=3)
    botqueue.job_add(match_id=match.pk, ply=match.ply + 1, owner=user.pk)


def test_a_quick_answer_is_hurried_only_while_another_players_move_waits(settings):
    # Issue 37, item 10 (d): a player who answers the computer at once is thought for at most
    # BOT_HURRIED_THINK_SECONDS while another player's move waits; a first move, or one claimed
    # with nobody else waiting, gets the level's whole budget.
    settings.BOT_QUICK_ANSWER_SECONDS = 3
    one, two = _guests(2)
    first = _waiting_match(one, "203.0.113.20")
    claim = botqueue.job_claim()
    assert claim is not None and claim.match_id == first.pk and not claim.hurried  # a first move
    botqueue.job_done(first.pk)
    assert botqueue.job_add(match_id=first.pk, ply=2, owner=one.pk)[0]  # answered at once
    claim = botqueue.job_claim()
    assert claim is not None and not claim.hurried  # nobody else waits: the whole budget
    botqueue.job_done(first.pk)
    second = _waiting_match(two, "203.0.113.21")
    assert botqueue.job_claim() == (second.pk, 0, False)  # a first move, someone waiting or not
    botqueue.job_done(second.pk)
    assert botqueue.job_add(match_id=first.pk, ply=4, owner=one.pk)[0]
    assert botqueue.job_add(match_id=second.pk, ply=2, owner=two.pk)[0]
    claims = [botqueue.job_claim(), botqueue.job_claim()]
    assert [c.hurried for c in claims if c is not None] == [True, False]  # the other still waited
    for claim in claims:
        assert claim is not None
        botqueue.job_done(claim.match_id)
    settings.BOT_QUICK_ANSWER_SECONDS = 0  # answers that came after 0 s are not quick
    assert botqueue.job_add(match_id=first.pk, ply=6, owner=one.pk)[0]
    assert botqueue.job_add(match_id=second.pk, ply=4, owner=two.pk)[0]
    assert [getattr(botqueue.job_claim(), "hurried", None) for _ in range(2)] == [False, False]


def test_a_hurried_move_thinks_at_most_the_hurried_budget(settings, monkeypatch):
    from games import bots

    budgets: list[float | None] = []
    real = bots.choose_action

    def spy(state, level, *, seed=None, budget_s=None):
        budgets.append(budget_s)
        return real(state, level, seed=seed, budget_s=budget_s)

    monkeypatch.setattr(bots, "choose_action", spy)
    settings.BOT_HURRIED_THINK_SECONDS = 0.01
    one, two = _guests(2)
    matches = [_waiting_match(one, "203.0.113.30"), _waiting_match(two, "203.0.113.31")]
    assert computer_token(match_id=0, ply=0) and computer_token(match_id=0, ply=0)  # first moves
    for match, user in zip(matches, (one, two), strict=True):
        _answered_at_once(match, user)
    assert computer_token(match_id=0, ply=0) and computer_token(match_id=0, ply=0)
    assert budgets == [None, None, 0.01, None]  # hurried while the other waited; then alone
