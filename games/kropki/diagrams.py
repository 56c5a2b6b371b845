"""Kropki's rules page: its diagrams (checked by the engine), its sections and where each move error is explained."""

from __future__ import annotations

from typing import Any

from games.engine import Effect, State
from games.rules.diagrams import Diagram, gettext_noop

# ---------------------------------------------------------------- helpers


def _k_point(state: State, name: str) -> list[int]:
    return list(state.game.xy(state.game.string_to_action(name)))  # type: ignore[attr-defined]


def _k_territory_at(state: State, name: str) -> str:
    x, y = _k_point(state, name)
    view = state.view()
    owner: str = view["territory"][y * view["width"] + x]
    return owner


def _k_captured(effect: Effect) -> list[list[int]]:
    return [p for t in effect.details.get("territories", []) for p in t["captured"]]


# ------------------------------------------------------------------ Kropki

K6 = {"width": 6, "height": 6}
K7 = {"width": 7, "height": 7}


def _first_capture(state: State, effects: list[Effect]) -> bool:
    last = effects[-1]
    return _k_captured(last) == [_k_point(state, "c3")] and state.scores() == (1, 0) and not last.details["taken"]


def _diagonal_links(state: State, effects: list[Effect]) -> bool:
    last = effects[-1]
    captured = _k_captured(last)
    if sorted(captured) != sorted([_k_point(state, "c4"), _k_point(state, "d4")]):
        return False
    chain = last.details["territories"][0]["chain"]
    diagonal = any(
        abs(a[0] - b[0]) == 1 and abs(a[1] - b[1]) == 1 for a, b in zip(chain, chain[1:] + chain[:1], strict=True)
    )
    # The blue dots have an empty, free diagonal neighbour outside (b3), yet they are taken.
    outside_free = _k_territory_at(state, "b3") == "0" and state.is_legal(state.game.string_to_action("b3"))
    return diagonal and outside_free


def _empty_enclosure(state: State, effects: list[Effect]) -> bool:
    view = state.view()
    c3 = _k_point(state, "c3")
    return (
        not effects[-1].details["territories"]
        and [c3[0], c3[1], 1] in view["empty_enclosures"]
        and state.is_legal(state.game.string_to_action("c3"))
        and state.scores() == (0, 0)
    )


def _intruder_taken(state: State, effects: list[Effect]) -> bool:
    last = effects[-1]
    return (
        last.player == 2
        and last.details["taken"] is True
        and any(t["owner"] == 1 and t["captured"] == [_k_point(state, "c3")] for t in last.details["territories"])
        and state.scores() == (1, 0)
    )


def _mover_first(state: State, effects: list[Effect]) -> bool:
    last = effects[-1]
    c4 = _k_point(state, "c4")
    was_empty_enclosure_of_pink = any(
        e[:2] == c4 and e[2] == 1 for e in _view_before(state, effects)["empty_enclosures"]
    )
    return (
        was_empty_enclosure_of_pink
        and last.player == 2
        and last.details["taken"] is False
        and _k_captured(last) == [_k_point(state, "d4")]
        and state.scores() == (0, 1)
    )


def _view_before(state: State, effects: list[Effect]) -> dict[str, Any]:
    history = state.history[:-1]
    return state.game.state_from_history(history).view()


def _out_of_play(state: State, effects: list[Effect]) -> bool:
    if _k_captured(effects[-1]) != [_k_point(state, "d4")]:
        return False
    d5 = state.game.string_to_action("d5")
    blue_refused = state.current_player() == 2 and state.illegal_reason(d5) == "inside_territory"
    after_blue = state.clone()
    after_blue.apply_action(state.game.string_to_action("a1"))
    pink_refused = after_blue.current_player() == 1 and after_blue.illegal_reason(d5) == "inside_territory"
    return blue_refused and pink_refused and _k_territory_at(state, "d5") == "1"


def _bigger_enclosure(state: State, effects: list[Effect]) -> bool:
    last = effects[-1]
    territories = last.details["territories"]
    if len(territories) != 1 or territories[0]["owner"] != 2:
        return False
    took = territories[0]
    pink_dots = sorted(_k_point(state, n) for n in ("d3", "c4", "e4", "d5"))
    earlier_pink_score = any(e.player == 1 and _k_captured(e) == [_k_point(state, "d4")] for e in effects)
    return (
        earlier_pink_score
        and sorted(took["captured"]) == pink_dots
        and took["freed"] == [_k_point(state, "d4")]
        and state.scores() == (0, 4)
    )


def _ended_plays_on(state: State, effects: list[Effect]) -> bool:
    end = next((e for e in effects if e.details.get("ended")), None)
    if end is None or end.player != 1:
        return False
    after = effects[effects.index(end) + 1 :]
    return (
        state.has_ended(1)  # type: ignore[attr-defined]
        and len(after) >= 2
        and all(e.player == 2 and e.next_player == 2 for e in after)
        and state.current_player() == 2
        and not state.is_terminal()
    )


def _cross_start(state: State, effects: list[Effect]) -> bool:
    start = sorted(d[:3] for d in state.game.new_initial_state().view()["dots"])
    cross = sorted([[*_k_point(state, name), player] for name, player in (("d4", 1), ("e5", 1), ("d5", 2), ("e4", 2))])
    return start == cross and len(state.history) == 1 and effects[0].player == 1 and state.current_player() == 2


def _penalty(state: State, effects: list[Effect]) -> bool:
    (territory,) = effects[-1].details["territories"]
    return (
        territory["captured"] == [_k_point(state, "c3")]
        and territory.get("penalised") == [_k_point(state, "d4")]
        and state.scores() == (0, 0)
    )


def _territory_scored(state: State, effects: list[Effect]) -> bool:
    outcome = state.outcome()
    empty = state.empty_territory()  # type: ignore[attr-defined]
    return outcome is not None and empty == (1, 4) and outcome.scores == (0, 2) and outcome.winner == 2


def _alternate(pink: tuple[str, ...], blue: tuple[str, ...]) -> tuple[str, ...]:
    """Pink's and blue's moves in turn, pink first (the lists are as long, or pink's one longer)."""
    return tuple(move for pair in zip(pink, (*blue, ""), strict=False) for move in pair if move)


# Seed 001's options (SPEC.md "Kropki: options"): the own-dot penalty's first example and the
# territory count of its third, on boards of our own.
PENALTY_MOVES = _alternate(
    ("c3", "a1", "b1", "c1", "d1", "e1", "f1", "g1", "a7", "b7", "c7", "d7", "e7"),
    ("d4", "b3", "b4", "b5", "c6", "d6", "e6", "f5", "f4", "f3", "e2", "d2", "c2"),
)
TERRITORY_MOVES = (
    *_alternate(("f4", "g5", "f6", "e5", "f1", "g1", "g2", "g3"), ("b1", "c1", "d2", "d3", "c4", "b4", "a3", "a2")),
    "zakończ",
    "zakończ",
)

DIAGRAMS = [
    Diagram(
        key="kropki-capture",
        slug="kropki",
        params=K6,
        moves=("c2", "c3", "b3", "f6", "d3", "a6", "c4"),
        caption=gettext_noop(
            "Pink plays c4 and closes the diamond c2–d3–c4–b3. The blue dot c3 is inside: the ground "
            "now belongs to pink and the score is 1:0."
        ),
        claim=_first_capture,
    ),
    Diagram(
        key="kropki-diagonal",
        slug="kropki",
        params=K6,
        moves=("c3", "c4", "d3", "d4", "b4", "a6", "e4", "f6", "c5", "f1", "d5"),
        caption=gettext_noop(
            "The chain c3–d3–e4–d5–c5–b4 has four diagonal links. Blue c4 and d4 cannot slip out through "
            "a diagonal gap (to b3, say), because escape goes only up, down, left and right: both are "
            "taken, 2:0."
        ),
        claim=_diagonal_links,
    ),
    Diagram(
        key="kropki-empty",
        slug="kropki",
        params=K6,
        moves=("c2", "a6", "b3", "f6", "d3", "f1", "c4"),
        caption=gettext_noop(
            "Pink closes a diamond around the empty c3. There is no blue dot inside, so nothing happens: "
            "the score stays 0:0 and both players may still play c3 (the dotted ring is only a reminder)."
        ),
        claim=_empty_enclosure,
    ),
    Diagram(
        key="kropki-intruder",
        slug="kropki",
        params=K6,
        moves=("c2", "a6", "b3", "f6", "d3", "f1", "c4", "c3"),
        caption=gettext_noop(
            "The same position: blue plays c3 into pink's empty enclosure. The dot surrounds nothing "
            "itself, so it is taken at once — only now does the diamond become pink's territory (1:0)."
        ),
        claim=_intruder_taken,
    ),
    Diagram(
        key="kropki-mover-first",
        slug="kropki",
        params=K6,
        moves=("c3", "d3", "b4", "e4", "d4", "d5", "c5", "c4"),
        caption=gettext_noop(
            "The point c4 lies in pink's empty enclosure. Blue plays c4, and this dot itself closes the "
            "chain d3–e4–d5–c4 around pink's d4. The mover's enclosures come first: blue takes d4 (0:1) "
            "and the new dot lives."
        ),
        claim=_mover_first,
    ),
    Diagram(
        key="kropki-out-of-play",
        slug="kropki",
        params=K6,
        moves=("d3", "d4", "c4", "f6", "e4", "f1", "c5", "a6", "e5", "b6", "d6"),
        caption=gettext_noop(
            "Pink surrounds blue d4 together with the empty point d5. All of the inside is pink's "
            "territory: neither blue nor pink itself may ever place a dot on d5."
        ),
        claim=_out_of_play,
    ),
    Diagram(
        key="kropki-bigger",
        slug="kropki",
        params=K7,
        moves=(
            "d3",
            "d4",
            "c4",
            "d2",
            "e4",
            "c3",
            "d5",
            "e3",
            "a7",
            "b4",
            "g7",
            "f4",
            "g1",
            "c5",
            "a1",
            "e5",
            "b7",
            "d6",
        ),
        before_ply=16,
        marks=("d6",),
        caption=gettext_noop(
            "Pink took d4 (1:0). Blue draws a bigger diamond around that territory and closes it with "
            "d6: the four pink chain dots are blue's now, and d4 stops counting for pink. Score 0:4."
        ),
        claim=_bigger_enclosure,
    ),
    Diagram(
        key="kropki-ended",
        slug="kropki",
        params=K6,
        moves=("c3", "d3", "zakończ", "d4", "e4"),
        before_ply=2,
        caption=gettext_noop(
            "Pink ends the game. Their dots and score stay, but they make no more moves — blue plays on "
            "alone, move after move (d4, e4…)."
        ),
        claim=_ended_plays_on,
    ),
    Diagram(
        key="kropki-cross",
        slug="kropki",
        params={"width": 8, "height": 8, "start": "cross"},
        moves=("c3",),
        before_ply=0,
        caption=gettext_noop(
            "The clubs' start: a cross in the middle of the board, pink d4 and e5, blue d5 and e4. "
            "Pink still moves first (here c3)."
        ),
        claim=_cross_start,
    ),
    Diagram(
        key="kropki-penalty",
        slug="kropki",
        params={**K7, "penalty": True},
        moves=PENALTY_MOVES,
        caption=gettext_noop(
            "With the own-dot penalty: blue closes the ring with c2 and takes pink c3 (+1), but its own "
            "dot d4 is inside the new territory too (−1). Score 0:0."
        ),
        claim=_penalty,
    ),
    Diagram(
        key="kropki-territory",
        slug="kropki",
        params={**K7, "territory": True},
        moves=TERRITORY_MOVES,
        show_before=False,
        caption=gettext_noop(
            "With territory scored: blue's empty ring holds 4 points (b2, c2, b3, c3), pink's 1 (f5). "
            "Pink placed the second-to-last dot: (4 − (1 − 1)) × ½ = 2 points for blue. Score 0:2."
        ),
        claim=_territory_scored,
    ),
]

# Every section id the rules page must have (tests/games/rules/test_pages.py checks them).
SECTIONS = (
    "pierwsza-gra",
    "zasady",
    "plansza-i-ruch",
    "ciag",
    "okrazenie-puste",
    "kropka-w-okrazeniu",
    "kolejnosc",
    "poza-gra",
    "wieksze-okrazenie",
    "liczenie",
    "konczenie",
    "pelna-plansza",
    "rozmiary",
    "opcje",
    "zasady-serwisu",
    "zegar",
    "pomylki",
    "zrodla",
)

# Error code -> the section that explains it (move errors on the match page link there).
RULE_ANCHORS = {
    "off_board": "plansza-i-ruch",
    "occupied": "plansza-i-ruch",
    "inside_territory": "poza-gra",
    "column_full": "plansza-i-ruch",
    "segment_drawn": "plansza-i-ruch",
    "not_your_turn": "plansza-i-ruch",
    "player_has_ended": "konczenie",
    "game_over": "konczenie",
    "unknown_action": "plansza-i-ruch",
    # match-level codes
    "turn_expired": "zegar",
    "match_not_active": "konczenie",
}
