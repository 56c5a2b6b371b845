"""Piłkarzyki's rules page: its diagrams (checked by the engine), its sections and where each move error is explained.

Points in the captions are named as the board names them: the column letter
a..i from the left and the row 1..11 from the top goal line (the goal points
are rows 0 and 12), so the ball starts at e6.
"""

from __future__ import annotations

from games.engine import Effect, State
from games.rules.diagrams import Claim, Diagram, gettext_noop

# ---------------------------------------------------------------- Piłkarzyki

_CORNERS = {(0, 0), (8, 0), (0, 10), (8, 10)}


def _on_border(x: int, y: int) -> bool:
    return x in (0, 8) or y in (0, 10)


def _touched_before(effects: list[Effect], x: int, y: int) -> bool:
    """Whether a segment played before the last move ends at (x, y)."""
    return any([x, y] in (e.details["from"], e.details["to"]) for e in effects[:-1])


def _pk_start(state: State, effects: list[Effect]) -> bool:
    (first,) = effects
    d = first.details
    return (
        d["from"] == [4, 5]
        and d["to"] == [4, 4]
        and first.player == 1
        and not d["bounced"]
        and first.next_player == 2
        and state.outcome() is None
    )


def _pk_bounce(off_border: bool, at: tuple[int, int]) -> Claim:
    """The last move lands on ``at`` and bounces: the same player moves again.
    ``off_border``: the point is on the border and no segment was played to it
    before; otherwise it is inside the field and an earlier segment touches it."""

    def claim(state: State, effects: list[Effect]) -> bool:
        last = effects[-1]
        d = last.details
        if not (d["bounced"] and d["extra_move"] and last.next_player == last.player) or d["to"] != list(at):
            return False
        if state.outcome() is not None or state.current_player() != last.player:
            return False
        if off_border:
            return _on_border(*at) and not _touched_before(effects, *at)
        return not _on_border(*at) and _touched_before(effects, *at)

    return claim


def _pk_cross(state: State, effects: list[Effect]) -> bool:
    """The last segment is a diagonal crossing an earlier diagonal of the same
    square, and the turn passes (the point it reaches was untouched)."""
    last = effects[-1]
    x1, y1, x2, y2 = last.details["segment"]
    if abs(x2 - x1) != 1 or abs(y2 - y1) != 1:
        return False
    square = {(x1, y1), (x2, y2), (x1, y2), (x2, y1)}
    other = {(x1, y2), (x2, y1)}
    crossed = any({tuple(e.details["from"]), tuple(e.details["to"])} == other for e in effects[:-1])
    return (
        crossed
        and len(square) == 4
        and not last.details["bounced"]
        and last.next_player != last.player
        and state.outcome() is None
    )


def _pk_goal(state: State, effects: list[Effect]) -> bool:
    """Pink scores in the top goal after a bounce off the post d1."""
    outcome = state.outcome()
    last, before = effects[-1], effects[-2]
    return (
        outcome is not None
        and outcome.reason == "goal"
        and outcome.winner == 1 == last.player
        and last.details["goal"] == "top"
        and before.player == 1
        and before.details["to"] == [3, 0]
        and before.details["bounced"]
        and last.details["from"] == [3, 0]
    )


def _pk_own_goal(state: State, effects: list[Effect]) -> bool:
    """Pink's bounce ends on e11, the middle of their own goal mouth, where every
    kick left goes into the bottom goal (the one blue attacks): blue wins."""
    outcome = state.outcome()
    last = effects[-1]
    if outcome is None or outcome.reason != "own_goal" or outcome.winner != 2 or last.player != 1:
        return False
    if last.details["goal"] != "bottom" or last.details["from"] != [4, 10] or not effects[-2].details["bounced"]:
        return False
    before = state.game.new_initial_state()
    for effect in effects[:-1]:
        before.apply_action(effect.action)
    for action in before.legal_actions():
        after = before.clone()
        after.apply_action(action)
        result = after.outcome()
        if result is None or result.reason != "own_goal":
            return False
    return before.current_player() == 1


def _pk_stuck(state: State, effects: list[Effect]) -> bool:
    """Pink kicks the ball into an empty corner: a bounce with no way out, pink loses."""
    outcome = state.outcome()
    last = effects[-1]
    return (
        outcome is not None
        and outcome.reason == "stuck"
        and outcome.winner == 2
        and last.player == 1
        and last.details["stuck"] == 1
        and tuple(last.details["to"]) in _CORNERS
        and not _touched_before(effects, *last.details["to"])
        and not state.legal_actions()
    )


DIAGRAMS = [
    Diagram(
        key="pk-start",
        slug="pilkarzyki",
        params={},
        moves=("N",),
        show_before=False,
        caption=gettext_noop(
            "The ball starts in the middle of the field, at e6. Pink kicks it one point up, to e5. No line "
            "ended there yet, so now it is blue's turn."
        ),
        claim=_pk_start,
    ),
    Diagram(
        key="pk-bounce-border",
        slug="pilkarzyki",
        params={},
        moves=("E", "E", "E", "E"),
        show_before=False,
        caption=gettext_noop(
            "Blue reaches the side line at i6. The edge of the field counts as a drawn line, so the ball "
            "bounces: blue kicks again."
        ),
        claim=_pk_bounce(True, (8, 5)),
    ),
    Diagram(
        key="pk-bounce-used",
        slug="pilkarzyki",
        params={},
        moves=("N", "E", "SW"),
        show_before=False,
        caption=gettext_noop(
            "Pink goes back diagonally to e6, where their first line starts. The point has been used "
            "already, so the ball bounces here too and pink plays on."
        ),
        claim=_pk_bounce(False, (4, 5)),
    ),
    Diagram(
        key="pk-cross",
        slug="pilkarzyki",
        params={},
        moves=("NE", "W", "SE"),
        show_before=False,
        caption=gettext_noop(
            "Pink's line from e5 to f6 crosses their first line, from e6 to f5. That is allowed: only the "
            "lines themselves are taken, not the places where they cross. Point f6 was free, so the "
            "turn passes to blue."
        ),
        claim=_pk_cross,
    ),
    Diagram(
        key="pk-goal",
        slug="pilkarzyki",
        params={},
        moves=("N", "NE", "NW", "NW", "N", "NE"),
        show_before=False,
        caption=gettext_noop(
            "Pink kicks from d2 to d1, the post of the top goal. The post lies on the edge of the field, so "
            "the ball bounces, and with a second kick pink puts it diagonally into the goal: a goal, "
            "pink wins."
        ),
        claim=_pk_goal,
    ),
    Diagram(
        key="pk-own-goal",
        slug="pilkarzyki",
        params={},
        moves=("SW", "SE", "SW", "S", "E", "S", "E", "N", "SW", "W", "NW", "E", "SE", "SE"),
        show_before=False,
        caption=gettext_noop(
            "Pink bounces at d10 and kicks diagonally to e11, the middle of their own goal line (the bottom "
            "goal, which blue attacks). The point has been used, so they must kick again, and every line "
            "from e11 back into the field is drawn: only a kick into the bottom goal is left. An own goal, "
            "blue wins."
        ),
        claim=_pk_own_goal,
    ),
    Diagram(
        key="pk-stuck",
        slug="pilkarzyki",
        params={},
        moves=("NW", "NW", "NW", "N", "NW"),
        show_before=False,
        caption=gettext_noop(
            "Pink kicks the ball from b2 into the corner a1. The corner lies on the edge of the field, so "
            "it is a bounce and pink must kick again, but the only line that led out of the corner is "
            "already drawn. The ball is stuck: pink loses."
        ),
        claim=_pk_stuck,
    ),
]

# The diagram the home page and the rules index show.
HOME_PICTURE = "pk-goal"

# Every section id the rules page must have (tests/games/rules/test_pages.py checks them).
SECTIONS = (
    "pierwsza-gra",
    "zasady",
    "boisko",
    "ruch",
    "odbicie",
    "gol",
    "samoboj",
    "zablokowana-pilka",
    "koniec",
    "zasady-serwisu",
    "zegar",
    "pomylki",
    "zrodla",
)

# Error code -> the section that explains it (move errors on the match page link there).
RULE_ANCHORS = {
    "off_board": "ruch",
    "occupied": "ruch",
    "inside_territory": "ruch",
    "column_full": "ruch",
    "segment_drawn": "ruch",
    "not_a_goal_entry": "gol",
    "not_your_turn": "odbicie",
    "player_has_ended": "koniec",
    "game_over": "koniec",
    "unknown_action": "ruch",
    "turn_expired": "zegar",
    "match_not_active": "koniec",
}
