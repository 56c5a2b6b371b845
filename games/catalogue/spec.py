"""What the site knows of one game, and the register of games.

A ``GameSpec`` gathers everything of one game that the rest of the site
reads: its names (lazy gettext, so each page and socket words them in its own
language), its variants, the engine class, the board drawing, the computer
player, the export format, its rules page and diagrams. Nothing outside the
catalogue dispatches on a game's slug: pages, sockets, exports and the
computer ask ``game_spec(slug)`` or ``variant(key)``.

A game joins the site with ``register(spec)``; the built-in games do so in
their folder's ``games/<slug>/spec.py``, which ``games.catalogue`` loads for
each of ``games.engine.BUILT_IN``. docs/games.md says what a new game must bring.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from django.conf import settings
from django.utils import translation
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy

from games import bots
from games.bots import Bot as Bot
from games.bots.review import Reviewer
from games.engine import GAMES as ENGINES
from games.engine import Game
from games.engine.base import InvalidParamsError
from kropki_site.lib import refusals


class Board(Protocol):
    """A game's board drawing (``games/<slug>/board.py``): pure Python, handed the words
    of one language as a plain dict (the shared ones of ``games.display.boards``, the
    spec's ``board_words`` and the game's name, worded by ``worded``)."""

    def render(
        self,
        view: dict[str, Any],
        *,
        interactive: bool,
        title: str,
        highlight: Iterable[Any],
        words: dict[str, Any],
        legal: list[int] | None,
        coords: bool,
        roving: bool | None,
    ) -> str: ...

    def describe(self, view: dict[str, Any], words: dict[str, Any]) -> str: ...

    def marks(self, game: Game, actions: list[int]) -> list[Any]:
        """What a rules diagram marks on its "before" picture for the moves still to come."""
        ...


@dataclass(frozen=True)
class Variant:
    """One rated pool and queue of a game: the game with fixed parameters."""

    key: str  # stored in Match.variant and Rating.variant; also the URL slug
    name: Any  # lazy gettext: "Dots 10×10, quick"
    params: dict[str, Any] = field(default_factory=dict)
    spec: GameSpec | None = field(default=None, compare=False, repr=False)  # set by register()

    @property
    def game_slug(self) -> str:
        return self.game_spec.slug

    @property
    def game_spec(self) -> GameSpec:
        assert self.spec is not None, f"variant {self.key} is not registered"
        return self.spec

    @property
    def rules_slug(self) -> str:
        return self.game_spec.rules_slug

    def game(self, params: dict[str, Any] | None = None) -> Game:
        """The engine with the variant's parameters, or with ``params`` (a match's own: the
        options chosen for it, ``game_params``) when given and not empty."""
        return self.game_spec.engine(**(params or self.params))


@dataclass(frozen=True)
class Choice:
    """One answer to an ``Option``: its form value, words, and the engine parameters it sets."""

    value: str
    words: Any  # lazy gettext
    # The parameters it sets; None takes one out (back to the engine's default). Empty: the
    # variant's own (the default of a setting the variants differ in, such as the board).
    params: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Option:
    """A setting a player may choose for a casual game (a challenge, the computer): the first
    choice is the default, the variant's own (SPEC.md "Kropki: options")."""

    key: str  # the form field is "<game slug>-<key>"
    label: Any  # lazy gettext
    choices: tuple[Choice, ...]


@dataclass(frozen=True)
class FairPlayFigures:
    """Engine-use detection's figures for one game (games/fairplay/detection.py; docs/fairplay.md
    "Detection"), measured by bench/fairplay.py's simulated players."""

    # Detection looks at a player's moves past this many plies (the opening is played from memory).
    opening_plies: int = 8
    # The agreement (best moves among the positions that matter) of the strongest honest player
    # the bench simulates (60 % trudny, 30 % średni, 10 % łatwy), with a margin.
    reference: float = 0.65
    # With think times that never vary the bar is a club player's agreement (30 % łatwy, 50 %
    # średni, 20 % trudny), with a margin: a strong player whose pace is flat is still strong.
    flat_reference: float = 0.5


@dataclass(frozen=True)
class GameSpec:
    slug: str  # the engine's slug: "kropki"
    name: Any  # lazy gettext, English msgid: "Dots" (Polish "Kropki")
    summary: Any  # one sentence for the home page and the rules index
    rules_slug: str  # /zasady/<rules_slug>/; its prose: templates/games/rules/<rules_slug>.<lang>.html
    engine: type[Game]
    variants: tuple[Variant, ...]
    board: Board
    bot: Bot
    # A move as the replay command reads it: Kropki [x, y] or ["end"], a column 1..7...
    export_move: Callable[[Game, int], Any]
    # The parameters a record's JSON carries beyond the variant's (e.g. how a game ends on the site).
    export_params: dict[str, Any] = field(default_factory=dict)
    # SGF for games other programs read as SGF: (the game's root properties
    # {"GM": "40", "SZ": "10", "AB": ["jj", ...]}: a list for several values, the move nodes
    # ";B[aa]"...) of a history.
    sgf_moves: Callable[[Game, list[int]], tuple[dict[str, str | list[str]], list[str]]] | None = None
    # Reading a game's SGF (an import, games/play/imports.py): text -> an object with ``params``,
    # ``actions`` and ``info`` (PB, PW, RE, DT); raises ValueError with a refusal ``code``.
    sgf_read: Callable[[str], Any] | None = None
    diagrams: Sequence[Any] = ()  # games.rules.diagrams.Diagram, in the order of the page
    home_picture: str = ""  # the key of the diagram the home page shows
    # The game's Polish name, untranslated ("Cztery w rzędzie"): shown beside the
    # English one where it helps (the rules page's title), marked lang="pl".
    polish_name: str = ""
    # The settings a casual game may change (Option), in the order of the forms.
    options: tuple[Option, ...] = ()
    sections: tuple[str, ...] = ()  # the section ids its rules page must have
    rule_anchors: dict[str, str] = field(default_factory=dict)  # error code -> section id
    order: int = 100  # place in the site's lists (home page, lobby, leaderboards)
    # The words of the game's own endings (Outcome.reason; the site's are Match.EndReason):
    # why a side won ({"four_in_a_row": _("four in a row")}: "Pink wins: four in a row."),
    reason_words: dict[str, Any] = field(default_factory=dict)
    # a whole sentence where that does not read well ({"score": _("%(wins)s on score.")}),
    win_sentences: dict[str, Any] = field(default_factory=dict)
    # and the sentence of a draw that ends so ({"full_board": _("Draw: the board is full.")}).
    draw_words: dict[str, Any] = field(default_factory=dict)
    # Whether the game keeps a score worth showing (Kropki's dots, boxes): the match page's
    # score cards and the record's "Score" column show it; a game won by a line or a goal has none.
    scored: bool = True
    # The engine's move notation in a language ("pl", "en"), where it is words rather than
    # coordinates (Piłkarzyki's "N", "NE"... are directions): lang -> {"N": "góra", ...}.
    # A notation not in it is shown as the engine writes it.
    notation_words: Callable[[str], dict[str, str]] | None = None
    # The live page's notice when the player to move also made the last move (a box closed,
    # a bounce): (to that player, to everyone else with %(name)s), lazy gettext; None: the
    # game has no such rule (Kropki's lone player after "end" is told otherwise).
    again_words: tuple[Any, Any] | None = None
    # The live page's notice when a match ends in one of the game's own ways that needs
    # saying (Cztery w rzędzie: no line of four is possible any more): reason -> lazy words.
    end_notices: dict[str, Any] = field(default_factory=dict)
    # The words the game's board (board.py, board_patch.js) uses beyond the shared ones of
    # games.display.boards (pink, blue, score, last move...): key -> lazy gettext, best with
    # pgettext_lazy("board", ...); the board is handed them worded in the page's language.
    board_words: dict[str, Any] = field(default_factory=dict)
    # The game's own move errors (the engine's codes beyond the site's) and its own reasons to
    # refuse a set-up position (the position editor's, docs/analysis.md): code -> lazy words,
    # shown on the page and sent with the socket's error frame: register() adds them as the
    # refusal table "game <slug>" (kropki_site/lib/refusals.py, status 400).
    error_words: dict[str, Any] = field(default_factory=dict)
    # A sentence telling a player what is theirs on this board (Piłkarzyki: which goal they
    # attack), from the engine's view and the player's side; None when nothing needs saying.
    player_note: Callable[[dict[str, Any], int], Any] | None = None
    # The game's live board patch (a static path, "games/<slug>/board_patch.js", from
    # games/<slug>/static/), loaded by the match page after static/js/board_patch.js;
    # "": the page redraws the server's board after each move.
    board_script: str = ""
    # The board's targets are small for a finger (Kropki: 20×20 points on a phone): the page
    # offers tap to select, tap again to play (the player's "tap to confirm" setting).
    tap_confirm: bool = False
    # The computer's review of a finished game (games/<slug>/review.py, games.bots.review);
    # None: the record page offers no analysis.
    review: Reviewer | None = None
    # A sentence the review's page adds to how moves are marked (lazy gettext): what the
    # game's reviewer counts besides the chances (Kropki: a losing side's dots; Kropki i
    # kwadraty: the boxes a move gives away). None: nothing to add.
    review_note: Any = None
    # A mistake's or a blunder's reason in a sentence of the active language (the record page's
    # review): from the game and the reviewer's ``why`` figures ({"code": ..., ...}); None for
    # figures it has no words for.
    mistake_words: Callable[[Game, dict[str, Any]], str | None] | None = None
    # Puzzles (games/puzzles/, docs/puzzles.md): the game's finder (``games/<slug>/puzzles.py``,
    # a ``games.bots.puzzles.Finder``) and each of its themes' words (lazy gettext); None: none.
    puzzles: Any = None
    puzzle_themes: dict[str, Any] = field(default_factory=dict)
    # What a move did that the review names (Kropki: the dots a chain took), from the move's
    # Effect: {"highlight": [...board marks...], "taken": n} or None.
    explain_move: Callable[[Any], dict[str, Any] | None] | None = None
    # The live-position guard (games/play/guard.py, docs/fairplay.md) keys a position by its
    # engine's ``State.canonical()``. The exempt opening: positions after at most this many
    # plies are common to many unrelated games and are never guarded (an honest computer
    # game never waits for strangers' rated games there).
    opening_plies: int = 8
    # Detection's figures for this game (above); the defaults suit a game the bench never measured.
    fair_play: FairPlayFigures = FairPlayFigures()


_GAMES: dict[str, GameSpec] = {}
_VARIANTS: dict[str, Variant] = {}
_ADDED_ENGINES: set[str] = set()


def register(spec: GameSpec) -> GameSpec:
    """Add ``spec`` and its variants to the site. Registering the same slug
    again replaces it (tests register games of their own)."""
    unregister(spec.slug)
    for variant in spec.variants:
        if variant.key in _VARIANTS:
            raise ValueError(f"variant {variant.key!r} is already registered")
    # the words of its own move errors; first: a code another table has is refused here
    refusals.register(f"game {spec.slug}", {code: (words, 400) for code, words in spec.error_words.items()})
    _GAMES[spec.slug] = spec
    if spec.slug not in ENGINES:  # the engine's own registry (replay, diagrams) knows it too
        ENGINES[spec.slug] = spec.engine
        _ADDED_ENGINES.add(spec.slug)
    bots.register(spec.slug, spec.bot)  # the one door to the computer (games.bots.choose_action)
    for variant in spec.variants:
        object.__setattr__(variant, "spec", spec)
        _VARIANTS[variant.key] = variant
    _sort()
    return spec


def _sort() -> None:
    ordered = sorted(_GAMES.values(), key=lambda spec: spec.order)
    _GAMES.clear()
    _GAMES.update((spec.slug, spec) for spec in ordered)
    keys = [variant.key for spec in ordered for variant in spec.variants]
    known = dict(_VARIANTS)
    _VARIANTS.clear()
    _VARIANTS.update((key, known[key]) for key in keys)


def unregister(slug: str) -> None:
    spec = _GAMES.pop(slug, None)
    if spec is not None:
        for variant in spec.variants:
            _VARIANTS.pop(variant.key, None)
        if slug in _ADDED_ENGINES:  # an engine register() added (a game from outside) leaves no trace
            _ADDED_ENGINES.discard(slug)
            del ENGINES[slug]
        bots.unregister(slug)
        refusals.forget(f"game {slug}")  # the words of its own move errors


def game_spec(slug: str) -> GameSpec:
    """The game with engine slug ``slug``; KeyError if none."""
    return _GAMES[slug]


def games() -> list[GameSpec]:
    """Every game, in the site's order."""
    return list(_GAMES.values())


def by_rules_slug(rules_slug: str) -> GameSpec | None:
    return next((spec for spec in _GAMES.values() if spec.rules_slug == rules_slug), None)


def variant(key: str) -> Variant:
    """The variant called ``key``; KeyError for an unknown one."""
    return _VARIANTS[key]


def variants() -> list[Variant]:
    return list(_VARIANTS.values())


def variant_keys() -> list[str]:
    return list(_VARIANTS)


def game_params(key: str, chosen: Mapping[str, object]) -> dict[str, Any]:
    """The engine parameters of a game of variant ``key`` with the options ``chosen`` (form
    fields "<slug>-<option>"; a missing field is the option's default): empty when they come
    to the variant's own, else the whole parameters. Refusal ``bad_options`` for a value no
    choice has or a combination the engine refuses."""
    chosen_variant = variant(key)
    spec = chosen_variant.game_spec
    params = dict(chosen_variant.params)
    for option in spec.options:
        value = chosen.get(f"{spec.slug}-{option.key}", option.choices[0].value)
        choice = next((c for c in option.choices if c.value == value), None)
        if choice is None:
            raise refusals.Refusal("bad_options")
        params |= choice.params
    try:
        params = spec.engine.validate_params({k: v for k, v in params.items() if v is not None})
    except InvalidParamsError:
        raise refusals.Refusal("bad_options") from None
    return {} if params == chosen_variant.game().params else params


def option_fields(chosen: Mapping[str, str] | None = None) -> list[dict[str, Any]]:
    """The forms' settings of every game that has some (templates/games/_game_options.html): per
    game its slug, name and fields (form name, label, (value, words) choices, the chosen value)."""
    chosen = chosen or {}
    return [
        {
            "slug": spec.slug,
            "name": spec.name,
            "options": [
                {
                    "name": f"{spec.slug}-{option.key}",
                    "label": option.label,
                    "choices": [(choice.value, choice.words) for choice in option.choices],
                    "selected": chosen.get(f"{spec.slug}-{option.key}", option.choices[0].value),
                }
                for option in spec.options
            ],
        }
        for spec in _GAMES.values()
        if spec.options
    ]


def variant_games() -> list[tuple[str, Any, str]]:
    """(key, name, game slug) of every variant: the forms' game choice, whose game decides which
    settings show (static/js/app.js)."""
    return [(v.key, v.name, v.game_slug) for v in _VARIANTS.values()]


def _chosen(key: str, params: dict[str, Any]) -> list[tuple[Option, Choice]]:
    """The options in which a game's ``params`` differ from its variant's, each with the choice
    that says how, in the order of the forms: [] for the variant's own game."""
    if not params:
        return []
    chosen_variant = variant(key)
    own = chosen_variant.params
    found = []
    for option in chosen_variant.game_spec.options:
        for choice in option.choices:
            sets = choice.params.items()
            if sets and all(params.get(k) == v for k, v in sets) and any(own.get(k) != v for k, v in sets):
                found.append((option, choice))
                break
    return found


def options_words(key: str, params: dict[str, Any]) -> list[tuple[str, str]]:
    """(label, words) of each option in which a game's ``params`` differ from its variant's
    (("Board", "40×40"), ...): what a challenge, a match page and a record say."""
    return [(str(option.label), str(choice.words)) for option, choice in _chosen(key, params)]


def option_values(key: str, params: dict[str, Any]) -> dict[str, str]:
    """The form fields that choose a game's ``params`` again ("New game" after such a game)."""
    slug = variant(key).game_slug
    return {f"{slug}-{option.key}": choice.value for option, choice in _chosen(key, params)}


def variant_choices() -> list[tuple[str, Any]]:
    """(key, name) of every variant: model and form choices (a callable, so a
    game registered later is offered too)."""
    return [(v.key, v.name) for v in _VARIANTS.values()]


def _every_games(words: str) -> dict[str, Any]:
    """One of the specs' ending tables (``reason_words``, ``win_sentences``, ``draw_words``),
    merged over every game."""
    return {reason: text for spec in _GAMES.values() for reason, text in getattr(spec, words).items()}


def reason_words() -> dict[str, Any]:
    """Every game's own ending reasons and their words."""
    return _every_games("reason_words")


def win_sentences() -> dict[str, Any]:
    """Every game's endings whose win is a sentence of its own ("%(wins)s on score.")."""
    return _every_games("win_sentences")


def draw_words() -> dict[str, Any]:
    """Every game's endings that can be a draw, and the draw's sentence."""
    return _every_games("draw_words")


def end_reasons() -> list[str]:
    """Every game's own ending reasons."""
    return list(dict.fromkeys([*reason_words(), *win_sentences(), *draw_words()]))


def variant_name(key: str) -> Any:
    """A variant's name, or a rating pool's (a correspondence pool: "Dots 10×10 · correspondence")."""
    if key.endswith(CORRESPONDENCE_SUFFIX) and key not in _VARIANTS:
        return format_lazy("{} · {}", _VARIANTS[pool_variant(key)].name, gettext_lazy("correspondence"))
    return _VARIANTS[key].name


# Correspondence (SPEC.md "Correspondence, notifications, following"): days a move, and each
# variant's own rated pool beside its live one, keyed "<variant>-koresp" (Rating.variant).
CORRESPONDENCE_DAYS = (1, 2, 3, 5, 7, 14)
CORRESPONDENCE_SUFFIX = "-koresp"


def pool_key(variant: str, days: int | None) -> str:
    """The rating pool of a game of ``variant``: its own, or its correspondence pool."""
    return f"{variant}{CORRESPONDENCE_SUFFIX}" if days else variant


def pool_variant(key: str) -> str:
    """The variant of a rating pool."""
    return key.removesuffix(CORRESPONDENCE_SUFFIX) if key not in _VARIANTS else key


def pool_keys() -> list[str]:
    """Every rating pool: each variant's live pool, then each one's correspondence pool."""
    return [*_VARIANTS, *(pool_key(key, 1) for key in _VARIANTS)]


def is_correspondence_pool(key: str) -> bool:
    return key not in _VARIANTS and key.endswith(CORRESPONDENCE_SUFFIX)


def site_language(lang: str) -> str:
    """``lang`` when the site speaks it ("pl", "en"), else the site's default language."""
    return lang if lang in dict(settings.LANGUAGES) else settings.LANGUAGE_CODE


def worded(words: Mapping[str, Any], lang: str) -> dict[str, str]:
    """Lazy gettext ``words`` (key -> words) as plain text in ``lang`` (the site's default
    for a language it does not speak): what the pure board drawings and the page's JS get."""
    with translation.override(site_language(lang)):
        return {key: str(text) for key, text in words.items()}
