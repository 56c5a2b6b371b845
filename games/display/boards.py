"""Board pictures as SVG: the one entry that draws every board on the site.

The live match page, the record page and the rules diagrams all call
``render_board`` with a state's ``view()``; it hands the game's drawing
(``spec.board``, pure Python, ``games/<game>/board.py``) a plain dict of the
words of the page's language: the shared ``SHARED_WORDS`` below, the spec's
``board_words`` and the game's name, all gettext (the .po files).

``render_board(view, slug, *, interactive=False, title="", highlight=(),
lang="pl", legal=None, coords=True, roving=None) -> str``

- ``view``: ``state.view()`` of the game's engine; ``slug``: the engine slug.
- Returns one ``<svg>`` element (a string, safe to mark safe: every text in it
  is escaped with ``html.escape``). It has a ``viewBox``, ``width``/``height``
  (its natural size; CSS ``.board { max-width: 100%; height: auto }`` in
  ``static/css/boards.css`` scales it) and the classes ``board board-<slug>``.
- Players are told apart by colour *and* shape: Kropki pink dots are circles,
  blue dots are squares; Cztery w rzędzie blue discs carry a white ring;
  Kropki i kwadraty boxes carry the owner's initial and blue segments are
  drawn dashed. Every element has presentation attributes (fill, stroke…), so
  the picture is right without CSS; classes (``dot p1``, ``disc p2``,
  ``segment p1``, ``box p2``, ``territory p1``, ``last``, ``captured``,
  ``win-line``, ``highlight``, ``target``) let CSS restyle it.
- Not interactive: ``role="img"``, an ``aria-label`` and a ``<title>`` (``title``
  if given, else the game's name) plus a ``<desc>`` telling the position in
  words (in ``lang``: ``"pl"`` or ``"en"``).
- Interactive: ``role="group"`` with the same label; every playable target is
  an element with ``class="target"``, ``data-action="<engine action id>"``,
  ``role="button"``, ``tabindex`` and an ``aria-label`` in words
  (``"kropka e5"`` / ``"kolumna 3"`` / ``"odcinek a1–b1"``), plus
  ``data-col``/``data-row`` (board coordinates, 0-based, for arrow keys). The
  page's JS handles clicks and Enter/Space by event delegation on
  ``[data-action]``. Targets are exactly ``legal`` (action ids; default: derived
  from the view, i.e. the legal moves of the position). Kropki's "zakończ"
  (end) action is not on the board: it is the page's own button.
  ``roving`` (default: when there are more than 12 targets) gives
  ``tabindex="0"`` to one target only and ``-1`` to the rest (a roving tab
  stop: the JS moves it with the arrow keys using ``data-col``/``data-row``);
  otherwise every target has ``tabindex="0"``.
- ``highlight``: cells to mark with a dashed ring, e.g. the move a diagram is
  about to play (what the game's ``marks`` gives for its actions).
- ``coords``: draw column letters/row numbers or column numbers around the board.

``describe(view, slug, lang="pl") -> str`` returns the words alone.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.utils.translation import pgettext_lazy

from games.boards.svg import COLOURS
from games.catalogue import game_spec, games, worded

__all__ = ["COLOURS", "SHARED_WORDS", "board_words", "describe", "render_board"]

# The words every board may use (lazy gettext, "board" context: the .po files are their
# source); a game's own are its spec's ``board_words``.
SHARED_WORDS: dict[str, Any] = {
    "pink": pgettext_lazy("board", "pink"),
    "blue": pgettext_lazy("board", "blue"),
    "score": pgettext_lazy("board", "score"),
    "last": pgettext_lazy("board", "last move"),
    "to_move": pgettext_lazy("board", "to move"),
    "over": pgettext_lazy("board", "game over"),
}


def _game_words(slug: str, lang: str) -> dict[str, Any]:
    spec = game_spec(slug)
    return worded({**SHARED_WORDS, **spec.board_words, "name": spec.name}, lang)


def render_board(
    view: dict[str, Any],
    slug: str,
    *,
    interactive: bool = False,
    title: str = "",
    highlight: Iterable[Any] = (),
    lang: str = "pl",
    legal: Iterable[int] | None = None,
    coords: bool = True,
    roving: bool | None = None,
) -> str:
    """The board of ``view`` (a ``state.view()``) as an ``<svg>`` string; see the module docstring."""
    try:
        spec = game_spec(slug)
    except KeyError:
        raise ValueError(f"no renderer for game {slug!r}") from None
    return spec.board.render(
        view,
        interactive=interactive,
        title=title,
        highlight=highlight,
        words=_game_words(slug, lang),
        legal=None if legal is None else sorted(legal),
        coords=coords,
        roving=roving,
    )


def board_words(lang: str = "pl") -> dict[str, Any]:
    """The words boards use, for the live page's patch code (static/js/board_patch.js)."""
    every = dict(SHARED_WORDS)
    for spec in games():
        every.update(spec.board_words)
    names = worded({spec.slug: spec.name for spec in games()}, lang)
    return {**worded(every, lang), "names": names, "colours": COLOURS}


def describe(view: dict[str, Any], slug: str, lang: str = "pl") -> str:
    """The position in words (what screen readers hear for a picture)."""
    return game_spec(slug).board.describe(view, _game_words(slug, lang))
