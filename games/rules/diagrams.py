"""Rules diagrams: positions defined as move lists, checked by the engine.

Each ``Diagram`` holds a move list (the engine's human notation), a caption
(an English msgid marked ``gettext_noop("...")``: its Polish is in the .po
files, and the rules page translates it with ``gettext``), and a ``claim``: a
function of the final state and the effects of every move that returns True
when what the caption says really happens in the engine.
``tests/games/rules/test_diagrams.py`` replays every diagram and checks its
claim, so a rules page can never show what the engine would not do. Each
game's diagrams are in ``games/<game>/diagrams.py``; the rules page draws them
(``games/views/rules.py``) with the live board's code.

Pure Python: no Django.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from games.engine import Effect, Game, State, get_game

Claim = Callable[[State, list[Effect]], bool]


def gettext_noop(message: str) -> str:
    """Marks ``message`` for ``./scripts/messages`` (makemessages extracts calls named
    gettext_noop) and returns it unchanged: this module and the games' diagrams know no
    Django, so the page that shows a caption translates it (``gettext(diagram.caption)``)."""
    return message


@dataclass(frozen=True)
class Diagram:
    key: str
    slug: str  # engine slug
    params: dict[str, Any]
    moves: tuple[str, ...]
    caption: str  # an English msgid marked with gettext_noop; shown as gettext(caption)
    claim: Claim
    before_ply: int | None = None  # default: before the last move
    show_before: bool = True
    marks: tuple[str, ...] | None = None  # moves marked on "before" (default: every move after it)
    extra: dict[str, Any] = field(default_factory=dict)

    def game(self) -> Game:
        return get_game(self.slug, **self.params)

    def replay(self, upto: int | None = None) -> tuple[State, list[Effect]]:
        """The state after the first ``upto`` moves (all by default) and
        their effects; raises the engine's error on an illegal move."""
        game = self.game()
        state = game.new_initial_state()
        effects = []
        for move in self.moves[: len(self.moves) if upto is None else upto]:
            effects.append(state.apply_action(game.string_to_action(move)))
        return state, effects

    def check(self) -> bool:
        """Whether the caption's claim holds when the moves are replayed."""
        try:
            state, effects = self.replay()
        except ValueError:
            return False
        if not effects:
            return False
        return bool(self.claim(state, effects))

    @property
    def split(self) -> int:
        return len(self.moves) - 1 if self.before_ply is None else self.before_ply

    def marked_actions(self) -> list[int]:
        """The actions the "before" picture marks: the moves still to come
        (the game's board turns them into points, columns or segments)."""
        game = self.game()
        return [
            game.string_to_action(move) for move in (self.moves[self.split :] if self.marks is None else self.marks)
        ]
