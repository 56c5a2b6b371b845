"""Kropki (Dots) on the site: 10×10 and 20×20 from an empty board, 30×30, and the clubs' 39×32
from a cross (SPEC.md "Kropki: options"), each its own rating pool."""

from __future__ import annotations

from typing import Any

from django.utils.formats import number_format
from django.utils.translation import gettext, ngettext, pgettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from games.catalogue.spec import Choice, FairPlayFigures, GameSpec, Option, Variant, register
from games.engine.base import column_name

from . import board, bot, diagrams, puzzles, review
from .engine import INSIDE_TERRITORY, MARGIN, PLAYER_HAS_ENDED, SCORE, SETUP_CAPTURE, Kropki
from .sgf import read_sgf

_SGF_LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"


def export_move(game: Any, action: int) -> Any:
    """A move as the replay command reads it: ``[x, y]`` or ``["end"]``."""
    if action == game.end_action:
        return ["end"]
    x, y = game.xy(action)
    return [x, y]


def _sgf_point(game: Any, action: int) -> str:
    x, y = game.xy(action)
    return f"{_SGF_LETTERS[x]}{_SGF_LETTERS[y]}"


def sgf_moves(game: Any, history: list[int]) -> tuple[dict[str, str | list[str]], list[str]]:
    """SGF as Kropki programs write it (KataGo dots, Kropla, eidokropki):
    ``GM[40]SZ[w:h]`` (``w`` when square), a starting position's dots as the setup
    properties ``AB`` (pink) and ``AW`` (blue), and the nodes: the first player (pink) as B,
    coordinates ``aa`` = top-left column then row, and only dots (ending the
    game is not a move in SGF; the result says how it ended). Seed 001's options, when a game
    has any, in the rules property: ``RU[margin:15,penalty,territory]``."""
    size = f"{game.width}" if game.width == game.height else f"{game.width}:{game.height}"
    props: dict[str, str | list[str]] = {"GM": "40", "SZ": size}
    rules = [f"margin:{game.margin}"] if game.margin else []
    rules += [flag for flag in ("penalty", "territory") if game.params.get(flag)]
    if rules:
        props["RU"] = ",".join(rules)
    for key, player in (("AB", 1), ("AW", 2)):
        setup = [_sgf_point(game, action) for action, owner in game.start_dots if owner == player]
        if setup:
            props[key] = setup
    nodes = []
    state = game.new_initial_state()
    for action in history:
        player = state.current_player()
        state.apply_action(action)
        if action == game.end_action:
            continue
        nodes.append(f";{'B' if player == 1 else 'W'}[{_sgf_point(game, action)}]")
    return props, nodes


# A ring of more points than this is told by its size, not point by point.
RING_NAMED_UP_TO = 8


def _point(point: list[int]) -> str:
    return f"{column_name(point[0])}{point[1] + 1}"


def _ring(chain: list[list[int]]) -> str:
    if len(chain) <= RING_NAMED_UP_TO:
        return "–".join(_point(p) for p in chain)
    return ngettext("a ring of %(n)s dot", "a ring of %(n)s dots", len(chain)) % {"n": len(chain)}


def _side(player: int) -> str:
    # Translators: a side as the subject of a sentence about a capture ("Pink close the ring…")
    return pgettext("side", "Pink") if player == 1 else pgettext("side", "Blue")


def explain_capture(effect: Any) -> dict[str, Any] | None:
    """review.explain's figures and a sentence for each ring, in the active language: the
    move that closed it, its points, the dots it took; or, for a dot played into the other
    side's empty ring, that the ring took it."""
    explained = review.explain(effect)
    if explained is None:
        return None
    sentences = []
    for ring in explained["rings"]:
        n = len(ring["captured"])
        words = {
            "side": _side(explained["player"]),
            "move": _point(explained["move"]),
            "ring": _ring(ring["chain"]),
            "n": n,
            "dots": ", ".join(_point(p) for p in sorted(ring["captured"])),
        }
        if ring["owner"] == explained["player"]:
            text = ngettext(
                "%(side)s close the ring with %(move)s (%(ring)s) and take %(n)s dot: %(dots)s.",
                "%(side)s close the ring with %(move)s (%(ring)s) and take %(n)s dots: %(dots)s.",
                n,
            )
        else:
            text = gettext(
                "%(side)s play %(move)s inside an empty ring of the other side (%(ring)s): the ring takes it."
            )
        sentences.append(text % words)
    return explained | {"text": " ".join(sentences)}


# The words of Kropki's board (games/kropki/board.py, games/kropki/static/board_patch.js) beyond the
# shared ones of games.display.boards.
BOARD_WORDS = {
    "board": pgettext_lazy("board", "board"),
    "dots": pgettext_lazy("board", "dots"),
    "captured": pgettext_lazy("board", "captured"),
    "none": pgettext_lazy("board", "none"),
    "territories": pgettext_lazy("board", "territories"),
    "empty_encl": pgettext_lazy("board", "empty enclosures"),
    # Translators: after a player's colour: "Pink have ended the game."
    "ended": pgettext_lazy("board", "have ended the game"),
    "dot": pgettext_lazy("board", "dot"),
}


# The settings of a casual game (SPEC.md "Kropki: options"): seed 001's and the clubs'.
OPTIONS = (
    Option(
        "board",
        _("Board"),
        (
            Choice("", _("the game type's")),
            *(
                Choice(f"{w}x{h}", f"{w}×{h}", {"width": w, "height": h})
                for w, h in ((10, 10), (20, 20), (30, 30), (40, 40), (39, 32))
            ),
        ),
    ),
    Option(
        "start",
        _("Starting position"),
        (
            Choice("", _("the game type's")),
            Choice("empty", _("an empty board"), {"start": None}),
            Choice("cross", _("from a cross"), {"start": "cross"}),
            Choice("two_crosses", _("from two crosses"), {"start": "two_crosses"}),
            Choice("triple_cross", _("from three crosses"), {"start": "triple_cross"}),
        ),
    ),
    Option(
        "margin",
        _("Win by a margin"),
        (
            Choice("", _("no: the higher score at the end"), {"margin": None}),
            Choice("1", _("a lead of 1"), {"margin": 1}),
            Choice("15", _("a lead of 15"), {"margin": 15}),
            Choice("30", _("a lead of 30"), {"margin": 30}),
        ),
    ),
    Option(
        "penalty",
        _("Own dots in own territory"),
        (
            Choice("", _("no penalty"), {"penalty": None}),
            Choice("on", _("−1 for each (penalty)"), {"penalty": True}),
        ),
    ),
    Option(
        "territory",
        _("Empty rings at the end"),
        (
            Choice("", _("not scored"), {"territory": None}),
            Choice("on", _("scored (territory)"), {"territory": True}),
        ),
    ),
)


def mistake_words(game: Any, why: dict[str, Any]) -> str | None:
    """review.why's figures in a sentence of the active language."""
    code, n = why["code"], why.get("dots", 0)
    words = {"n": n, "point": _point(why["point"]) if "point" in why else ""}
    if code == "missed_capture":
        return (
            ngettext(
                "A move at %(point)s would have taken %(n)s dot.", "A move at %(point)s would have taken %(n)s dots.", n
            )
            % words
        )
    if code == "left_capture":
        return (
            ngettext(
                "The opponent could already take %(n)s dot with a move at %(point)s, and this move did not stop it.",
                "The opponent could already take %(n)s dots with a move at %(point)s, and this move did not stop it.",
                n,
            )
            % words
        )
    if code == "allowed_capture":
        return (
            ngettext(
                "After this move the opponent can take %(n)s dot with a move at %(point)s.",
                "After this move the opponent can take %(n)s dots with a move at %(point)s.",
                n,
            )
            % words
        )
    if code == "costs_dots":
        return gettext(
            "No dot changes hands at once, but in the computer's playouts this move ends about %(dots)s dots"
            " worse than the better move."
        ) % {"dots": number_format(why["dots"], 1)}
    if code == "fewer_wins":
        return gettext(
            "No dots are lost at once, but in the computer's playouts after this move the player ends ahead"
            " %(percent)s %% less often than after the better move."
        ) % {"percent": why["percent"]}
    return None


SPEC = register(
    GameSpec(
        slug="kropki",
        name=_("Dots"),
        polish_name="Kropki",
        options=OPTIONS,
        summary=_(
            "Surround your opponent's dots with a closed chain of yours. Boards of 10×10, 20×20 and "
            "30×30, and the clubs' 39×32 from a cross."
        ),
        rules_slug="kropki",
        engine=Kropki,
        variants=(
            Variant("kropki-10", _("Dots 10×10, quick"), {"width": 10, "height": 10}),
            Variant("kropki-20", _("Dots 20×20, large"), {"width": 20, "height": 20}),
            Variant("kropki-30", _("Dots 30×30"), {"width": 30, "height": 30}),
            # the clubs' standard (playdots, zagram, the pointsgame server)
            Variant("kropki-39x32-cross", _("Dots 39×32 from a cross"), {"width": 39, "height": 32, "start": "cross"}),
        ),
        board=board,
        board_words=BOARD_WORDS,
        bot=bot,
        review=review,
        mistake_words=mistake_words,
        review_note=_(
            "When a player's chances are below 40 %, the dots a move gives away count too, not only the chances."
        ),
        puzzles=puzzles,
        puzzle_themes={
            "capture": pgettext_lazy("puzzle theme", "Capture"),
            "save": pgettext_lazy("puzzle theme", "Save your dots"),
        },
        explain_move=explain_capture,
        export_move=export_move,
        sgf_moves=sgf_moves,
        sgf_read=read_sgf,
        diagrams=tuple(diagrams.DIAGRAMS),
        home_picture="kropki-diagonal",
        sections=diagrams.SECTIONS,
        rule_anchors=diagrams.RULE_ANCHORS,
        order=10,
        # The guard's exempt opening (docs/fairplay.md): the first 8 dots (the cross and its
        # neighbours that many games start with).
        opening_plies=8,
        # Engine-use detection (docs/fairplay.md "Detection"), measured by bench/fairplay.py.
        fair_play=FairPlayFigures(opening_plies=10, reference=0.4, flat_reference=0.25),
        tap_confirm=True,
        error_words={
            INSIDE_TERRITORY: _("This point lies inside someone's territory: nobody may play there."),
            PLAYER_HAS_ENDED: _("You have ended the game: you cannot place more dots."),
            # the position editor's (docs/analysis.md "Position editor")
            SETUP_CAPTURE: _(
                "These dots surround a dot of the other colour: a set-up has plain dots only, no captures "
                "(give the dots taken before as the score)."
            ),
        },
        board_script="games/kropki/board_patch.js",
        win_sentences={SCORE: _("%(wins)s on score."), MARGIN: _("%(wins)s: the lead reached the agreed margin.")},
        draw_words={SCORE: _("Draw on equal score.")},
    )
)
