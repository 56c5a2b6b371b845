"""Kropki i kwadraty's rules page: its diagrams (checked by the engine), its sections and where each move error is explained."""

from __future__ import annotations

from games.engine import Effect, State
from games.rules.diagrams import Claim, Diagram, gettext_noop

# -------------------------------------------------------- Kropki i kwadraty

DB = {"rows": 2, "cols": 3}


def _dab_turn_passes(state: State, effects: list[Effect]) -> bool:
    last = effects[-1]
    return not last.details["boxes"] and last.next_player != last.player


def _dab_extra(count: int) -> Claim:
    def claim(state: State, effects: list[Effect]) -> bool:
        last = effects[-1]
        return (
            len(last.details["boxes"]) == count
            and last.details["extra_move"] is True
            and last.next_player == last.player
        )

    return claim


def _dab_one_extra_only(state: State, effects: list[Effect]) -> bool:
    two = effects[-2]
    last = effects[-1]
    return (
        len(two.details["boxes"]) == 2
        and last.player == two.player
        and not last.details["boxes"]
        and last.next_player != last.player
    )


def _dab_chain(state: State, effects: list[Effect]) -> bool:
    opener = effects[-4]
    takers = effects[-3:]
    return (
        not opener.details["boxes"]
        and all(e.player != opener.player and len(e.details["boxes"]) == 1 for e in takers)
        and state.scores()[takers[0].player - 1] == 3
    )


def _dab_majority(state: State, effects: list[Effect]) -> bool:
    outcome = state.outcome()
    drawn = sum(1 for by in state.view()["drawn"] if by)
    return (
        outcome is not None
        and outcome.reason == "boxes_majority"
        and outcome.winner == 1
        and outcome.scores[0] == 13
        and drawn < 60
    )


DIAGRAMS = [
    Diagram(
        key="dab-segment",
        slug="dots_and_boxes",
        params=DB,
        moves=("a1-b1", "b2-b3", "c1-c2"),
        caption=gettext_noop(
            "A move is one segment between neighbouring dots, across or down. This one closes no box, "
            "so the turn passes to the opponent."
        ),
        claim=_dab_turn_passes,
    ),
    Diagram(
        key="dab-box",
        slug="dots_and_boxes",
        params=DB,
        moves=("a1-b1", "a2-b2", "a1-a2", "b1-b2"),
        caption=gettext_noop(
            "Blue draws the fourth side of box a1: the box is theirs (B) and they must move again at once."
        ),
        claim=_dab_extra(1),
    ),
    Diagram(
        key="dab-two-boxes",
        slug="dots_and_boxes",
        params=DB,
        moves=("a1-b1", "b1-c1", "a2-b2", "b2-c2", "a1-a2", "c1-c2", "b1-b2", "d2-d3"),
        before_ply=6,
        caption=gettext_noop(
            "The segment b1–b2 closes two boxes at once. Pink takes both but gets only one extra move: "
            "after d2–d3, which closes nothing, it is blue's turn."
        ),
        claim=_dab_one_extra_only,
    ),
    Diagram(
        key="dab-chain",
        slug="dots_and_boxes",
        params=DB,
        moves=("a1-b1", "a2-b2", "b1-c1", "b2-c2", "c1-d1", "c2-d2", "a1-a2", "b1-b2", "c1-c2", "d1-d2"),
        before_ply=6,
        marks=("a1-a2",),
        caption=gettext_noop(
            "A chain of three boxes, each with two sides. Whoever draws in it first (here pink, a1–a2) "
            "hands the whole chain over: blue takes three boxes in a row."
        ),
        claim=_dab_chain,
    ),
    Diagram(
        key="dab-majority",
        slug="dots_and_boxes",
        params={"rows": 5, "cols": 5},
        moves=(
            "b2-c2",
            "e2-e3",
            "e3-e4",
            "d4-d5",
            "b3-b4",
            "e1-e2",
            "b4-c4",
            "a5-b5",
            "d5-d6",
            "e4-f4",
            "e5-f5",
            "e1-f1",
            "d2-d3",
            "a1-a2",
            "b4-b5",
            "b2-b3",
            "e5-e6",
            "b6-c6",
            "c6-d6",
            "d1-e1",
            "d4-e4",
            "c4-d4",
            "a5-a6",
            "a3-b3",
            "b1-b2",
            "c3-d3",
            "f2-f3",
            "c1-d1",
            "b5-c5",
            "c3-c4",
            "b3-c3",
            "c2-c3",
            "c2-d2",
            "d3-d4",
            "d3-e3",
            "d2-e2",
            "d1-d2",
            "c1-c2",
            "b1-c1",
            "c4-c5",
            "c5-d5",
            "c5-c6",
            "b5-b6",
        ),
        show_before=False,
        caption=gettext_noop(
            "Pink owns 13 of the 25 boxes — more than half. That can no longer be overturned, so the "
            "game ends at once although some segments are still undrawn (this service's rule)."
        ),
        claim=_dab_majority,
    ),
]

# Every section id the rules page must have (tests/games/rules/test_pages.py checks them).
SECTIONS = (
    "pierwsza-gra",
    "zasady",
    "odcinki",
    "kwadraty",
    "dodatkowy-ruch",
    "koniec",
    "lancuchy",
    "zasady-serwisu",
    "zegar",
    "pomylki",
    "zrodla",
)

# Error code -> the section that explains it (move errors on the match page link there).
RULE_ANCHORS = {
    "off_board": "odcinki",
    "occupied": "odcinki",
    "inside_territory": "odcinki",
    "column_full": "odcinki",
    "segment_drawn": "odcinki",
    "not_your_turn": "dodatkowy-ruch",
    "player_has_ended": "koniec",
    "game_over": "koniec",
    "unknown_action": "odcinki",
    "turn_expired": "zegar",
    "match_not_active": "koniec",
}
