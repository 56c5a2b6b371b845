"""Issue 39, item 2: for the biggest mistakes of every game (the moves classed mistake or blunder),
a sentence of why from what the engines already know: the four it allowed, the chain it gave
away, the goal it opened, the capture it missed. Each game's real reviewer on scripted games
(``games.bots.review.analyse``, the record page's figures); each reason's words in both
languages; the sentence on the record page's table."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from django.urls import reverse
from django.utils import translation

from games import catalogue
from games.bots.review import EXPLAINED, analyse
from games.connect4 import review as connect4_review
from games.dots_and_boxes import review as dab_review
from games.engine import GAMES
from games.kropki import review as kropki_review
from games.pilkarzyki import review as pilkarzyki_review
from games.pilkarzyki.engine import OWN_GOAL
from games.review.display import value_words
from games.review.services import analysis_request, analysis_run
from tests.factories import finished_match

# Pink lays 1, 2, 3 on the bottom row; blue stacks column 7 and leaves column 4 open (ply 6:
# pink could already make four there); pink plays 6 and misses the four (ply 7).
C4_UNBLOCKED = [0, 6, 1, 6, 2, 6, 5, 6]
# Ply 25: pink's disc in column 5 makes room for blue's four right above it.
C4_OPENED = [3, 1, 3, 5, 3, 3, 3, 3, 0, 5, 4, 5, 5, 6, 0, 5, 1, 0, 0, 0, 1, 1, 0, 1, 4]
# Ply 4: blue lets pink's disc in column 3 threaten two fours at once; ply 5: pink plays elsewhere.
C4_DOUBLE = [3, 6, 4, 6, 6]
# Ply 11: pink's move hands blue a forced win (the solver's); ply 12: blue lets it go.
C4_FORCED = [6, 0, 3, 5, 2, 6, 6, 1, 4, 0, 3, 6]
# tests/games/test_analysis.py's KROPKI_DOT_LEFT with pink not surrounding: blue leaves its dot
# at e5 to be surrounded (ply 6), pink does not take it (ply 7), blue leaves it again (ply 8).
KROPKI_MISSED = [34, 44, 43, 0, 45, 99, 9, 88]
# Ply 19: pink's move lets blue take 2 dots with f6 (found by a seeded sredni/random game).
KROPKI_ALLOWED = [7, 26, 34, 80, 46, 69, 74, 68, 65, 52, 53, 63, 25, 64, 41, 44, 35, 43, 54]
# Ply 20: no capture at once, but 1.6 dots by the search's playouts. Ply 38: blue, losing, gives
# away a third of a dot.
KROPKI_QUIET = [97, 5, 15, 87, 86, 77, 41, 24, 34, 44, 33, 95, 88, 53, 27, 32, 25, 35, 51, 83]
KROPKI_BEHIND = [*KROPKI_QUIET, 23, 14, 73, 37, 11, 92, 90, 26, 36, 64, 45, 49, 16, 74, 47, 38, 3, 62]
# Ply 54: blue, not losing, gives away no dots to speak of, but ends ahead in fewer playouts.
KROPKI_EVEN = [7, 26, 34, 45, 35, 74, 69, 73, 53, 44, 36, 43, 42, 52, 54, 55, 62, 57, 51, 17, 40, 33, 93, 37]
KROPKI_EVEN += [46, 24, 83, 66, 47, 81, 4, 48, 38, 25, 28, 59, 75, 72, 64, 63, 10, 39, 29, 60, 0, 65, 91, 20]
KROPKI_EVEN += [85, 31, 82, 71, 61, 41]
# Seeded sredni/random games of Kropki i kwadraty 5×5: ply 21 hands over a box, ply 29 costs two
# boxes by the end (exact), ply 36 leaves four boxes untaken.
DAB_GAME = [48, 2, 33, 55, 34, 17, 23, 10, 22, 41, 46, 24, 6, 56, 59, 45, 40, 49, 42, 52, 7]
DAB_GAME += [32, 39, 0, 28, 30, 11, 36, 16, 47, 35, 26, 21, 50, 51, 43]
# Ply 36: pink takes the last boxes of a chain where leaving two keeps control.
DAB_NO_DOUBLE_DEAL = [54, 5, 11, 44, 18, 42, 50, 31, 58, 36, 39, 37, 10, 27, 29, 34, 46, 20, 1, 9]
DAB_NO_DOUBLE_DEAL += [47, 51, 21, 45, 13, 33, 56, 41, 48, 7, 53, 28, 24, 25, 59, 55]
# Piłkarzyki: ply 9 passes the turn where blue scores in its next; ply 19 runs into a dead end.
PILKARZYKI_OPENED = [0, 3, 3, 3, 4, 3, 5, 7, 6]
PILKARZYKI_DEAD_END = [6, 5, 7, 5, 3, 1, 0, 5, 0, 7, 2, 4, 6, 3, 5, 2, 5, 3, 5]
# Ply 21: blue could score within its turn and steps away; ply 32: pink's step lets blue win by
# force in its next turn (by leaving pink no free line: no goal); ply 33: blue lets that win go.
PILKARZYKI_LATE = [0, 5, 5, 0, 1, 6, 6, 5, 3, 0, 2, 3, 3, 4, 2, 0, 1, 4, 5, 3, 3, 1, 7, 7, 2, 3, 6, 1, 7, 7, 6, 4, 6]


def reasons(slug: str, params: dict[str, Any], history: list[int], review: Any) -> dict[int, dict[str, Any] | None]:
    """Each mistake's and blunder's reason by ply, from the game's own reviewer."""
    result = analyse(GAMES[slug](**params), history, review)
    return {m["ply"]: m.get("why") for m in result["moves"] if m["class"] in EXPLAINED}


def last_reason(slug: str, params: dict[str, Any], history: list[int], review: Any) -> dict[str, Any] | None:
    """The reason of ``history``'s last move from the two positions around it alone, as ``analyse``
    hands them to ``why``: for a reviewer whose figures of a position depend on that position
    and its ply only (Kropki's and Piłkarzyki's searches, seeded by the ply, keep no table), the
    same as the whole game's review, at a fraction of its cost."""
    game = GAMES[slug](**params)
    evaluate = review.evaluator(game)
    ply = len(history)
    before_state, after_state = game.state_from_history(history[:-1]), game.state_from_history(history)
    ev = evaluate(before_state, ply - 1, played=history[-1])
    pink = ev.expected if before_state.current_player() == 1 else 1 - ev.expected
    before = {"pink": pink, "exact": ev.exact, "best": ev.best, "detail": ev.detail}
    after: dict[str, Any] = {"exact": True, "best": None, "detail": {}}
    if not after_state.is_terminal():
        then = evaluate(after_state, ply)
        after = {"exact": then.exact, "best": then.best, "detail": then.detail}
    return review.why(before_state, history[-1], before, after)


def test_connect4_the_four_left_open_the_four_missed_the_room_made_and_the_forced_win():
    found = reasons("connect4", {}, C4_UNBLOCKED, connect4_review)
    assert found[6] == {"code": "left_four", "column": 4}
    assert found[7] == {"code": "missed_four", "column": 4}
    assert reasons("connect4", {}, C4_OPENED, connect4_review)[25] == {"code": "opened_four", "column": 5}
    double = reasons("connect4", {}, C4_DOUBLE, connect4_review)
    assert double[4] == {"code": "allowed_double", "column": 3}
    assert double[5] == {"code": "missed_double", "column": 3}
    forced = reasons("connect4", {}, C4_FORCED, connect4_review)
    # the same forced win, 16 discs of blue's ahead (the solver's): given away, then let go
    assert forced[11] == {"code": "forced_loss", "discs": 16}
    assert forced[12] == {"code": "win_let_go", "discs": 16}


def test_kropki_the_capture_left_missed_and_allowed_and_a_quiet_move_s_cost():
    found = reasons("kropki", {"width": 10, "height": 10}, KROPKI_MISSED, kropki_review)
    assert found[6] == {"code": "left_capture", "dots": 1, "point": [4, 5]}  # e6 surrounds e5
    assert found[7] == {"code": "missed_capture", "dots": 1, "point": [4, 5]}
    assert found[8] == {"code": "left_capture", "dots": 1, "point": [4, 5]}
    board = {"width": 10, "height": 10}
    allowed = last_reason("kropki", board, KROPKI_ALLOWED, kropki_review)
    assert allowed == {"code": "allowed_capture", "dots": 2, "point": [5, 5]}
    assert last_reason("kropki", board, KROPKI_QUIET, kropki_review) == {"code": "costs_dots", "dots": 1.59}
    # a losing side's third of a dot: what its drop counted
    assert last_reason("kropki", board, KROPKI_BEHIND, kropki_review) == {"code": "costs_dots", "dots": 0.31}
    assert last_reason("kropki", board, KROPKI_EVEN, kropki_review) == {"code": "fewer_wins", "percent": 11}


def test_dots_and_boxes_the_boxes_given_left_and_lost_and_the_double_deal_missed():
    found = reasons("dots_and_boxes", {"rows": 5, "cols": 5}, DAB_GAME, dab_review)
    assert found[21] == {"code": "gave_boxes", "boxes": 1, "better": 0}
    assert found[29] == {"code": "costs_boxes", "boxes": 2}
    assert found[36] == {"code": "missed_boxes", "boxes": 4}
    deal = reasons("dots_and_boxes", {"rows": 5, "cols": 5}, DAB_NO_DOUBLE_DEAL, dab_review)
    assert deal[36] == {"code": "no_double_deal"}


def test_pilkarzyki_the_goal_opened_and_missed_the_dead_end_and_the_forced_win():
    assert last_reason("pilkarzyki", {}, PILKARZYKI_OPENED, pilkarzyki_review) == {"code": "opened_goal"}
    assert last_reason("pilkarzyki", {}, PILKARZYKI_DEAD_END, pilkarzyki_review) == {"code": "dead_end"}
    assert last_reason("pilkarzyki", {}, PILKARZYKI_LATE[:21], pilkarzyki_review) == {"code": "missed_goal"}
    given = last_reason("pilkarzyki", {}, PILKARZYKI_LATE[:32], pilkarzyki_review)
    assert given == {"code": "forced_loss", "turns": 1}
    assert last_reason("pilkarzyki", {}, PILKARZYKI_LATE, pilkarzyki_review) == {"code": "win_let_go", "turns": 1}


def test_pilkarzyki_an_own_goal_is_named():
    game = GAMES["pilkarzyki"]()
    rng = random.Random(3)
    for _ in range(200):
        state = game.new_initial_state()
        while not state.is_terminal():
            mover = state.current_player()
            for action in state.legal_actions():
                after = state.clone()
                after.apply_action(action)
                outcome = after.outcome()
                if outcome is not None and outcome.reason == OWN_GOAL:
                    quiet: dict[str, Any] = {"exact": False, "best": None, "detail": {}}
                    assert outcome.winner != mover
                    assert pilkarzyki_review.why(state, action, quiet, quiet) == {"code": "own_goal"}
                    return
            state.apply_action(rng.choice(state.legal_actions()))
    pytest.fail("no random game came next to its own goal")


def test_a_move_that_is_no_mistake_gets_no_reason():
    game = GAMES["connect4"]()
    result = analyse(game, C4_UNBLOCKED, connect4_review)
    assert all("why" not in m for m in result["moves"] if m["class"] not in EXPLAINED)
    assert any("why" in m for m in result["moves"])


# Figures of every code each game's ``why`` gives, and what its sentence must say in each language.
SAMPLES: dict[str, dict[str, tuple[dict[str, Any], str, str]]] = {
    "connect4": {
        "missed_four": ({"column": 4}, "Czwórka w kolumnie 4 wygrywała od razu.", "A four in column 4 won at once."),
        "left_four": (
            {"column": 2},
            "do czwórki w kolumnie 2, a ten ruch jej nie",
            "four in column 2, and this move did",
        ),
        "opened_four": ({"column": 5}, "tuż nad nim, w kolumnie 5.", "right above it, in column 5."),
        "missed_double": ({"column": 3}, "w kolumnie 3 groził dwiema czwórkami", "in column 3 threatened two fours"),
        "allowed_double": ({"column": 6}, "w kolumnie 6 grozi dwiema czwórkami", "in column 6 threatens two fours"),
        "win_let_go": ({"discs": 3}, "wystarczały jeszcze 3 własne krążki", "within 3 more discs; after it"),
        "forced_loss": ({"discs": 1}, "kładąc jeszcze najwyżej 1 krążek.", "wins by force, with 1 more disc."),
    },
    "dots_and_boxes": {
        "missed_boxes": ({"boxes": 5}, "zostawił 5 kwadratów do wzięcia", "left 5 boxes that could be taken"),
        "gave_boxes": (
            {"boxes": 3, "better": 1},
            "oddaje przeciwnikowi 3 kwadraty z rzędu. Lepszy ruch oddaje tylko 1.",
            "hands the opponent 3 boxes in a row. The better move gives away only 1.",
        ),
        "no_double_deal": ({}, "dwa ostatnie kwadraty łańcucha", "leaving the last two to the opponent"),
        "costs_boxes": ({"boxes": 2}, "kosztuje 2 kwadraty do końca partii.", "costs 2 boxes by the end."),
    },
    "kropki": {
        "missed_capture": (
            {"dots": 2, "point": [4, 5]},
            "Ruch w e6 zabrałby 2 kropki.",
            "A move at e6 would have taken 2 dots.",
        ),
        "left_capture": (
            {"dots": 1, "point": [0, 0]},
            "ruch przeciwnika w a1 zabierał 1 kropkę",
            "take 1 dot with a move at a1",
        ),
        "allowed_capture": (
            {"dots": 5, "point": [2, 9]},
            "zabrać 5 kropek ruchem w c10.",
            "take 5 dots with a move at c10.",
        ),
        "costs_dots": ({"dots": 0.4}, "średnio o 0,4 kropki gorzej", "ends about 0.4 dots worse than"),
        "fewer_wins": ({"percent": 12}, "z przewagą o 12 % rzadziej", "ends ahead 12 % less often"),
    },
    "pilkarzyki": {
        "own_goal": ({}, "do własnej bramki.", "in the player's own goal."),
        "dead_end": ({}, "bez wolnej linii", "no free line left"),
        "missed_goal": ({}, "W tej turze można było strzelić gola", "A goal could be scored in this turn"),
        "opened_goal": ({}, "może strzelić gola w swojej najbliższej turze.", "can score in their next turn."),
        "win_let_go": ({"turns": 2}, "wygrana była wymuszona w ciągu 2 tur", "the win was forced within 2 turns"),
        "trapped": ({}, "każda dalsza droga kończy partię przegraną", "every way on ends the game in a loss"),
        "forced_loss": ({"turns": 1}, "na pewno w ciągu 1 swojej tury.", "wins by force within 1 turn of theirs."),
        "ball_back": ({"rows": 2}, "mniej więcej 2 rzędy bliżej własnej bramki", "about 2 rows nearer"),
    },
}


@pytest.mark.parametrize("slug", sorted(SAMPLES))
def test_every_reason_of_every_game_is_worded_in_both_languages(slug):
    spec = catalogue.game_spec(slug)
    assert spec.mistake_words is not None and spec.review is not None
    assert set(SAMPLES[slug]) == set(spec.review.WHY_CODES)  # every code the reviewer gives
    game = spec.variants[0].game()
    for code, (figures, polish, english) in SAMPLES[slug].items():
        why = {"code": code, **figures}
        with translation.override("pl"):
            said = spec.mistake_words(game, why)
            assert said is not None and polish in said, (code, said)
        with translation.override("en"):
            said = spec.mistake_words(game, why)
            assert said is not None and english in said, (code, said)
    # a code it does not know (a later reviewer's, say) has no words rather than wrong ones
    assert spec.mistake_words(game, {"code": "unknown"}) is None


@pytest.mark.django_db
@pytest.mark.parametrize(
    "lang, missed, left",
    [
        (
            "pl",
            "Czwórka w kolumnie 4 wygrywała od razu.",
            "Przeciwnikowi brakowało już tylko jednego krążka do czwórki w kolumnie 4",
        ),
        ("en", "A four in column 4 won at once.", "The opponent could already make four in column 4"),
    ],
)
def test_the_record_page_says_why_in_the_table_and_to_the_replay(client, alice, bob, lang, missed, left):
    match = finished_match(alice, bob, C4_UNBLOCKED, "cztery-w-rzedzie")
    analysis_run(analysis_request(alice, match.pk).pk)
    page = client.get(reverse("record", args=[match.pk]), HTTP_ACCEPT_LANGUAGE=lang).content.decode()
    assert page.count('data-testid="analysis-why"') == 2  # the two blunders, and nothing else
    assert missed in page
    assert left.replace("'", "&#x27;") in page
    script = json.loads(page.split('id="analysis-data" type="application/json">')[1].split("</script>")[0])
    assert script["why"][6] == missed  # the replay's words at ply 7
    assert script["why"][5].startswith(left)
    assert [bool(w) for w in script["why"]] == [c in EXPLAINED for c in script["classes"]]


def test_the_table_says_a_win_or_a_loss_within_the_turn_being_played_in_words():
    # Piłkarzyki's turns ahead count from 0, the turn being played: never "a goal in 0 turns"
    with translation.override("en"):
        assert value_words({"detail": {"win_in_turns": 0}}) == "a win within this turn"
        assert value_words({"detail": {"loss_in_turns": 0}}) == "a loss within this turn"
        assert value_words({"detail": {"win_in_turns": 2}}) == "a goal in 2 turns"
    with translation.override("pl"):
        assert value_words({"detail": {"win_in_turns": 0}}) == "wygrana jeszcze w tej turze"
        assert value_words({"detail": {"loss_in_turns": 0}}) == "przegrana jeszcze w tej turze"
