"""The live-position guard (games/play/guard.py, docs/fairplay.md "The live-position guard"):
positions keyed as positions, the exempt opening, a computer move held while its position
stands in a rated match and made once it does not, the review refused or held back, and a
player with an active rated match kept from the computer."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import translation

from games import play as services
from games.catalogue import variant_keys
from games.engine import get_game
from games.models import Match, Move
from games.play import guard
from games.play.computer import computer_match_start, match_bot_turn
from games.review.models import Analysis
from games.review.services import analysis_request, analysis_run
from kropki_site.lib.refusals import Refusal, words
from tests.factories import finished_match
from tests.helpers import C4, play_moves

# A Cztery w rzędzie game past the opening (9 discs, blue to move), one of its transpositions
# (pink's 3rd and 4th discs swapped) and its mirror image.
LIVE = [3, 3, 2, 4, 4, 2, 5, 1, 1]
TRANSPOSED = [3, 3, 2, 4, 5, 2, 4, 1, 1]
MIRRORED = [6 - column for column in LIVE]


@pytest.fixture
def sent_later(monkeypatch):
    """The held moves' retries (Celery tasks with a countdown), recorded instead of sent."""
    calls: list[tuple[str, tuple, float]] = []
    monkeypatch.setattr(services.publisher, "send_later", lambda name, args, delay: calls.append((name, args, delay)))
    return calls


def key(variant: str, history: list[int]) -> str:
    return guard.position_key(variant, get_game("connect4").state_from_history(history))


# -- keys ------------------------------------------------------------------------------------


def test_a_transposition_and_the_mirror_image_have_the_same_key():
    live = key(C4, LIVE)
    assert len(live) == 32
    assert key(C4, TRANSPOSED) == live
    assert key(C4, MIRRORED) == live
    assert key(C4, [*LIVE[:-1], 0]) != live  # another position


def test_a_kropki_transposition_mirror_or_turn_has_the_same_key():
    from games import catalogue

    game = catalogue.variant("kropki-10").game()
    dots = [0, 99, 2, 97, 4, 95, 6, 93, 8, 91]  # pink along the top row, blue the bottom: nothing taken
    swapped = [2, 99, 0, *dots[3:]]
    one, two = game.state_from_history(dots), game.state_from_history(swapped)
    assert guard.position_key("kropki-10", one) == guard.position_key("kropki-10", two) != ""
    # relayed mirrored or turned a quarter: the same position
    for turn in (lambda x, y: (9 - x, y), lambda x, y: (x, 9 - y), lambda x, y: (9 - y, x)):
        moved = [turn(a % 10, a // 10) for a in dots]
        three = game.state_from_history([y * 10 + x for x, y in moved])
        assert guard.position_key("kropki-10", three) == guard.position_key("kropki-10", one)


def test_dots_and_boxes_and_pilkarzyki_fold_their_symmetries():
    from games import catalogue

    boxes = catalogue.variant("kropki-i-kwadraty").game()  # 5 × 5 boxes
    # horizontal segment (r, c) is 5r + c; mirrored left-right it is (r, 4 - c)
    lines = [0, 7, 13, 19, 26, 2, 9, 21]
    mirrored = [5 * (s // 5) + 4 - s % 5 for s in lines]
    one, two = boxes.state_from_history(lines), boxes.state_from_history(mirrored)
    assert guard.position_key("kropki-i-kwadraty", one) == guard.position_key("kropki-i-kwadraty", two) != ""
    pitch = catalogue.variant("pilkarzyki").game()
    steps = [0, 0, 2, 4, 6, 6, 5, 4, 3, 3]  # directions 0 N ... 7 NW; mirrored: d -> 8 - d
    one = pitch.state_from_history(steps)
    two = pitch.state_from_history([(8 - d) % 8 for d in steps])
    assert not one.is_terminal()
    assert guard.position_key("pilkarzyki", one) == guard.position_key("pilkarzyki", two) != ""


def test_the_opening_is_exempt_in_every_game():
    for variant in variant_keys():
        from games import catalogue

        game = catalogue.variant(variant).game()
        state = game.new_initial_state()
        plies = guard.opening_plies(variant)
        assert plies >= 1
        while len(state.history) < plies + 1 and not state.is_terminal():
            assert guard.position_key(variant, state) == ""
            state.apply_action(state.legal_actions()[len(state.history) % len(state.legal_actions())])
        if not state.is_terminal():
            assert guard.position_key(variant, state) != "", variant


@pytest.mark.django_db
def test_a_rated_match_keeps_the_key_of_its_position_and_drops_it_at_the_end(make_match, alice):
    match = make_match(rated=True)
    assert match.position_key == ""
    play_moves(match, LIVE[:8])
    match.refresh_from_db()
    assert match.position_key == ""  # still the opening
    play_moves(match, LIVE[8:])
    match.refresh_from_db()
    assert match.position_key == key(C4, LIVE)
    services.match_resign(match_id=match.pk, user_id=alice.pk)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.position_key == ""


@pytest.mark.django_db
def test_a_casual_match_keeps_no_key(make_match):
    match = play_moves(make_match(rated=False), LIVE)
    assert match.position_key == ""


# -- the computer ----------------------------------------------------------------------------


def _computer_match_at(user, history: list[int]) -> Match:
    """A computer match (the computer blue) whose moves so far are ``history``: the human's
    through the move service, the computer's through its own (as if it had chosen them)."""
    match = computer_match_start(user_id=user.pk, variant=C4, level="latwy", colour="pink")
    for ply, action in enumerate(history):
        if ply % 2 == 0:
            services.match_play(match_id=match.pk, user_id=user.pk, ply=ply, action=action)
        else:
            services.match_bot_play(match_id=match.pk, ply=ply, action=action)
    match.refresh_from_db()
    return match


@pytest.mark.django_db
def test_the_computer_waits_while_its_position_stands_in_a_rated_match(make_match, bob, charlie, sent_later):
    rated = play_moves(make_match(rated=True), LIVE)
    computer = _computer_match_at(charlie, TRANSPOSED)
    assert computer.to_move == computer.bot_side
    assert match_bot_turn(match_id=computer.pk, ply=9) is False
    computer.refresh_from_db()
    assert computer.ply == 9 and computer.is_active  # held: no move, nothing lost
    assert sent_later == [("games.tasks.bot_move", (computer.pk, 9), pytest.approx(1.5))]
    # the rated match moves on: the held move is made
    services.match_play(match_id=rated.pk, user_id=bob.pk, ply=9, action=0)
    assert match_bot_turn(match_id=computer.pk, ply=9) is True
    computer.refresh_from_db()
    assert computer.ply == 10 and Move.objects.get(match=computer, ply=10).player == 2


@pytest.mark.django_db
def test_a_position_reached_by_a_rated_match_while_the_computer_thinks_is_held(
    make_match, charlie, sent_later, monkeypatch
):
    rated = play_moves(make_match(rated=True), LIVE[:8])
    computer = _computer_match_at(charlie, LIVE)
    from games import bots

    choose = bots.choose_action

    def thinking(state, level, **kwargs):  # the rated match reaches the position meanwhile
        play_moves(rated, LIVE[8:])
        return choose(state, level, **kwargs)

    monkeypatch.setattr(bots, "choose_action", thinking)
    assert match_bot_turn(match_id=computer.pk, ply=9) is False
    computer.refresh_from_db()
    assert computer.ply == 9 and len(sent_later) == 1


@pytest.mark.django_db
def test_the_held_move_is_made_once_the_rated_match_ends(make_match, alice, charlie, sent_later):
    rated = play_moves(make_match(rated=True), LIVE)
    computer = _computer_match_at(charlie, MIRRORED)
    assert match_bot_turn(match_id=computer.pk, ply=9) is False
    services.match_resign(match_id=rated.pk, user_id=alice.pk)
    assert match_bot_turn(match_id=computer.pk, ply=9) is True


@pytest.mark.django_db
def test_an_honest_game_in_the_opening_never_waits(make_match, charlie, sent_later):
    play_moves(make_match(rated=True), LIVE[:7])  # strangers' rated game on an early position
    computer = _computer_match_at(charlie, LIVE[:7])
    assert match_bot_turn(match_id=computer.pk, ply=7) is True
    assert sent_later == []


@pytest.mark.django_db
def test_a_move_held_too_long_ends_the_computer_match_without_a_result(make_match, charlie, settings, sent_later):
    play_moves(make_match(rated=True), LIVE)
    computer = _computer_match_at(charlie, LIVE)
    settings.GUARD_HOLD_SECONDS = -1
    assert match_bot_turn(match_id=computer.pk, ply=9) is False
    computer.refresh_from_db()
    assert computer.status == Match.Status.ABORTED and computer.ply == 9


@pytest.mark.django_db
def test_switched_off_the_guard_lets_the_computer_move(make_match, charlie, settings, sent_later):
    settings.FAIR_PLAY_GUARD = False
    play_moves(make_match(rated=True), LIVE)
    computer = _computer_match_at(charlie, LIVE)
    assert match_bot_turn(match_id=computer.pk, ply=9) is True


@pytest.mark.django_db
def test_a_player_with_an_active_rated_match_cannot_start_a_computer_match(make_match, alice, charlie):
    make_match(rated=True)
    with pytest.raises(Refusal) as refused:
        computer_match_start(user_id=alice.pk, variant=C4, level="trudny", colour="blue")
    assert refused.value.code == "rated_game_in_progress"
    with translation.override("en"):
        assert "rated game" in words("rated_game_in_progress")
    with translation.override("pl"):
        assert "partię rankingową" in words("rated_game_in_progress")
    computer_match_start(user_id=charlie.pk, variant=C4, level="trudny", colour="blue")  # a stranger may


@pytest.mark.django_db
def test_the_computer_form_says_why(client, make_match, alice):
    make_match(rated=True)
    client.force_login(alice)
    response = client.post(reverse("play_computer"), {"variant": C4, "level": "trudny", "colour": "blue"})
    page = response.content.decode()
    assert 'data-code="rated_game_in_progress"' in page
    assert response.status_code == 400 and "Error 429" not in page  # the refusal's own status, not a limit's
    assert not Match.objects.filter(bot_level="trudny").exists()


@pytest.mark.django_db
def test_nor_a_rematch_with_the_computer(make_match, alice, bob):
    computer = computer_match_start(user_id=alice.pk, variant=C4, level="latwy", colour="pink")
    services.match_resign(match_id=computer.pk, user_id=alice.pk)
    make_match(rated=True, pink=bob, blue=alice)
    with pytest.raises(Refusal) as refused:
        services.match_offer_rematch(match_id=computer.pk, user_id=alice.pk)
    assert refused.value.code == "rated_game_in_progress"


# -- the review ------------------------------------------------------------------------------


def _finished(pink, blue, history: list[int]) -> Match:
    return finished_match(pink, blue, history)


@pytest.mark.django_db
def test_a_player_with_an_active_rated_match_cannot_ask_for_a_review(make_match, alice, charlie):
    finished = _finished(alice, charlie, [3, 3, 3])
    make_match(rated=True)
    with pytest.raises(Refusal) as refused:
        analysis_request(alice, finished.pk)
    assert refused.value.code == "rated_game_in_progress"


@pytest.mark.django_db
def test_a_review_through_a_live_position_is_refused_until_it_moves_on(make_match, bob, charlie, make_user):
    rated = play_moves(make_match(rated=True), LIVE)
    # two alts replay the live position (another move order), resign and ask for the review
    finished = _finished(charlie, make_user("dave"), [*TRANSPOSED, 0])
    with pytest.raises(Refusal) as refused:
        analysis_request(charlie, finished.pk)
    assert refused.value.code == "position_in_rated_match"
    services.match_play(match_id=rated.pk, user_id=bob.pk, ply=9, action=6)
    assert analysis_request(charlie, finished.pk).status == Analysis.Status.QUEUED  # asked again: taken


@pytest.mark.django_db
def test_a_stored_review_shows_no_values_while_a_position_of_it_stands(client, make_match, alice, charlie, make_user):
    finished = _finished(charlie, make_user("dave"), [*TRANSPOSED, 0, 0])
    analysis_run(analysis_request(charlie, finished.pk).pk)
    url = reverse("record", args=[finished.pk])
    better = reverse("record_frame", args=[finished.pk, 10]) + "?lepszy=1"
    assert 'class="review-chart"' in client.get(url).content.decode()
    rated = play_moves(make_match(rated=True), LIVE)  # now a rated game stands on its 9th position
    page = client.get(url).content.decode()
    assert 'data-testid="analysis-held"' in page
    assert 'class="review-chart"' not in page and 'id="analysis-data"' not in page
    assert client.get(better).status_code == 404
    services.match_resign(match_id=rated.pk, user_id=alice.pk)
    assert 'class="review-chart"' in client.get(url).content.decode()
