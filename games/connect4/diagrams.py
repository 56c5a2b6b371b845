"""Cztery w rzędzie's rules page: its diagrams (checked by the engine), its sections and where each move error is explained."""

from __future__ import annotations

from games.engine import Effect, State
from games.rules.diagrams import Claim, Diagram, gettext_noop

# --------------------------------------------------------- Cztery w rzędzie


def _c4_landed(column: int, row: int) -> Claim:
    def claim(state: State, effects: list[Effect]) -> bool:
        d = effects[-1].details
        return d["column"] == column and d["row"] == row and state.outcome() is None

    return claim


def _c4_win(direction: str, min_length: int = 4) -> Claim:
    def claim(state: State, effects: list[Effect]) -> bool:
        outcome = state.outcome()
        last = effects[-1]
        if outcome is None or outcome.reason != "four_in_a_row" or outcome.winner != last.player:
            return False
        lines = last.details["winning_lines"]
        cells = {tuple(c) for line in lines for c in line}
        if len(cells) < min_length:
            return False
        (c1, r1), (c2, r2) = lines[0][0], lines[0][-1]
        found = {(0, 1): "vertical", (1, 0): "horizontal", (1, 1): "rising", (1, -1): "falling"}.get(
            (int(c2 > c1) - int(c2 < c1), int(r2 > r1) - int(r2 < r1))
        )
        return found == direction

    return claim


def _c4_draw(reason: str) -> Claim:
    def claim(state: State, effects: list[Effect]) -> bool:
        outcome = state.outcome()
        if outcome is None or outcome.winner is not None or outcome.reason != reason:
            return False
        filled = sum(v != 0 for row in state.view()["cells"] for v in row)
        return filled == 42 if reason == "full_board" else (filled < 42 and bool(state.view()["live_lines"] == 0))

    return claim


def _digits(text: str) -> tuple[str, ...]:
    return tuple(text)


DIAGRAMS = [
    Diagram(
        key="c4-gravity",
        slug="connect4",
        params={},
        moves=("4", "3", "4"),
        caption=gettext_noop(
            "Pink chooses column 4. The disc drops onto what already lies there and stops in the second "
            "row from the bottom."
        ),
        claim=_c4_landed(4, 2),
    ),
    Diagram(
        key="c4-horizontal",
        slug="connect4",
        params={},
        moves=("1", "1", "2", "2", "3", "3", "4"),
        caption=gettext_noop("Four across: the disc in column 4 ends the game, pink wins."),
        claim=_c4_win("horizontal"),
    ),
    Diagram(
        key="c4-vertical",
        slug="connect4",
        params={},
        moves=("1", "2", "1", "2", "1", "2", "1"),
        caption=gettext_noop("Four up column 1 — also a win."),
        claim=_c4_win("vertical"),
    ),
    Diagram(
        key="c4-rising",
        slug="connect4",
        params={},
        moves=_digits("12233434474"),
        caption=gettext_noop("A diagonal rising to the right: columns 1, 2, 3 and 4, each disc one row higher."),
        claim=_c4_win("rising"),
    ),
    Diagram(
        key="c4-falling",
        slug="connect4",
        params={},
        moves=_digits("76655454414"),
        caption=gettext_noop("The other diagonal, falling to the right: columns 4, 5, 6 and 7."),
        claim=_c4_win("falling"),
    ),
    Diagram(
        key="c4-five",
        slug="connect4",
        params={},
        moves=_digits("112244553"),
        caption=gettext_noop("The disc in column 3 fills the gap and makes five in a line. A longer line wins too."),
        claim=_c4_win("horizontal", min_length=5),
    ),
    Diagram(
        key="c4-full-board",
        slug="connect4",
        params={},
        moves=_digits("257771314744647214154617633623313656555222"),
        caption=gettext_noop("The forty-second and last disc fills the board and nobody has four in a line: a draw."),
        claim=_c4_draw("full_board"),
    ),
    Diagram(
        key="c4-early-draw",
        slug="connect4",
        params={},
        moves=_digits("6262455127741665526426421331357417135"),
        caption=gettext_noop(
            "After this disc in column 5 every one of the 69 lines of four cells holds a disc of each "
            "colour. Nobody can win, so the game ends in a draw although five cells are still empty "
            "(this service's rule)."
        ),
        claim=_c4_draw("no_line_possible"),
    ),
]

# Every section id the rules page must have (tests/games/rules/test_pages.py checks them).
SECTIONS = (
    "pierwsza-gra",
    "zasady",
    "kolumny",
    "cztery-w-linii",
    "dluzsze-linie",
    "pelna-plansza",
    "wczesny-remis",
    "zasady-serwisu",
    "zegar",
    "pomylki",
    "zrodla",
)

# Error code -> the section that explains it (move errors on the match page link there).
RULE_ANCHORS = {
    "off_board": "kolumny",
    "occupied": "kolumny",
    "inside_territory": "kolumny",
    "column_full": "kolumny",
    "segment_drawn": "kolumny",
    "not_your_turn": "kolumny",
    "player_has_ended": "cztery-w-linii",
    "game_over": "cztery-w-linii",
    "unknown_action": "kolumny",
    "turn_expired": "zegar",
    "match_not_active": "cztery-w-linii",
}
