"""Computer players for Kropki, on any board size (10x10 and 20x20 on the site).

All three levels run one search, a Monte Carlo tree search written in C
(``fast.c``, built by ``fast_build.py`` into
``fast_ext``): UCT with RAVE (all-moves-as-first statistics), random
playouts to the end of the board on a copied board, priors at the root and
near it for tactics. The levels differ in how many playouts they may make
and in how often they play a looser move (``LEVELS``).

- Candidate moves: free points within distance 2 of a dot (the centre on an
  empty board).
- Priors: a capture is liked; a move on the point where the opponent would
  capture next (saving dots) is liked, unless it is futile: after it the
  opponent can still take as much, or (at the root) the ladder reader sees
  the chase end in a capture anyway; a dot that would be taken at once, or
  one that fills the player's own empty enclosure, is disliked; a move
  touching a dot is slightly liked. At the root, a move making two threats
  at once or starting a ladder that works is liked.
- Playouts: random moves over the free points of the dots' bounding box
  grown by ``MARGIN``, until none is free, skipping for each side the points
  where its dot would only be taken; a playout is won by the side that
  gains from the root's score on (``KOMI``), nudged by the size of the gain.
- Capture races at the root (boards up to ``RACE_MAX_POINTS``): a small negamax over
  the free points next to weak dots (three of the other colour around them), either side
  free to play elsewhere, ``RACE_DEPTH`` plies; a move worth a dot more than playing
  elsewhere (a defence against a net two moves deep, or one's own net) is liked as a
  tactic. trudny's search only: łatwy and średni keep their measured level, and the
  review's search does not read races.
- The chosen move is the most visited at the root.

Ending the game (zakończ): when the opponent has ended, the bot plays on while
it can capture or while it is not ahead, and ends as soon as it is ahead with
nothing to capture at once (as before). While the opponent still plays, the
bot ends only when it is ahead and the board is settled: with every free point
of the board filled by the opponent alone (the most the opponent could do
after we end; several random orders) it still leads, and filling them alone
would gain it nothing more.

The rules in C are a port of ``games/kropki/engine.py``, which stays the
reference (``tests/games/bots/test_kropki_fast_agrees.py`` replays random games
through both). When the extension is missing (not built), a warning is logged
and the pre-issue-16 Python search (``frozen``) plays instead.
"""

from __future__ import annotations

import logging
import random
import time
from typing import Any

from . import frozen as kropki_frozen

log = logging.getLogger(__name__)

try:
    from .fast_ext import ffi, lib
except ImportError as exc:  # not built: see kropki_fast_build.py
    ffi = lib = None
    log.warning(
        "Kropki: compiled search missing (%s); the slow Python search plays. "
        "Build it with: .venv/bin/python games/kropki/fast_build.py",
        exc,
    )

# rave_k, explore, local, expand_after, tactics_depth: see kf_search in fast.c
SEARCH_PARAMS = (600.0, 0.15, 0.0, 4, 2)
MARGIN = 3  # playout area: the dots' bounding box grown by this many points
KOMI = 1  # 1: a playout counts as won when the mover gains from the current score on
# The root's reading of capture races (race_mark in fast.c): its depth in plies, and the
# largest board it reads on. On 10x10 the first dot taken decides most games, and the races
# that lose it are read in a few thousand nodes; on 20x20 a dot seldom decides and weak dots are
# everywhere a fight is, where the reading would cost a third of a move (measured: p90 0.33 s).
RACE_DEPTH = 6
RACE_MAX_POINTS = 144
# Playouts played before the clock may stop a search: on a loaded machine a
# descheduled worker can wake past its deadline, and 16 playouts then missed
# a capture in one (CI). 256 cost at most ~50 ms on the largest board.
MIN_PLAYOUTS = 256

# max_playouts (0: as many as the time allows), the chance of a looser move (a random
# candidate near the last moves instead of the search's) and whether the root reads races.
LEVELS: dict[str, dict[str, float]] = {
    "latwy": {"max_playouts": 60, "loose": 0.25, "races": 0},
    "sredni": {"max_playouts": 300, "loose": 0.1, "races": 0},
    "trudny": {"max_playouts": 0, "loose": 0.0, "races": 1},
}
BUDGETS = {"latwy": 0.05, "sredni": 0.3, "trudny": 1.8}

_warned = False


def available() -> bool:
    """Whether the compiled search is there."""
    return lib is not None


def _board(state: Any) -> tuple[Any, Any]:
    points = ffi.from_buffer("unsigned char[]", state.points)
    counters = ffi.new("int[3]", [state.free, state.captured_dots[1], state.captured_dots[2]])
    return points, counters


def _search_args(
    state: Any, budget_s: float, rng: random.Random, max_playouts: int, komi: int, races: bool = False
) -> list[Any]:
    """The arguments ``kf_search`` and ``kf_review`` share, their statistics' array last."""
    if lib is None:
        raise RuntimeError("the compiled Kropki search is not built")
    game = state.game
    points, counters = _board(state)
    race = RACE_DEPTH if races and game.width * game.height <= RACE_MAX_POINTS else 0
    params = ffi.new("double[9]", [*SEARCH_PARAMS, MARGIN, komi, MIN_PLAYOUTS, race])
    player = state.current_player()
    seed = rng.getrandbits(63)
    return [
        game.width,
        game.height,
        points,
        counters,
        player,
        budget_s,
        int(max_playouts),
        seed,
        params,
        ffi.new("double[4]"),
    ]


def search(
    state: Any, budget_s: float, rng: random.Random, max_playouts: int = 0, komi: int = KOMI, races: bool = False
) -> tuple[int, dict[str, float]]:
    """(action, statistics) of the C search for the player to move.

    ``statistics``: playouts, win_rate (of the chosen move's playouts, for the player to
    move), nodes, score_change (the mover's mean gain over the playouts). ``komi=0``: a
    playout is won by the side ahead at its end (the review's win rate) rather than by the
    side that gained from now on (the player's). ``races``: the root reads capture races
    (trudny's; see the module docstring). Raises RuntimeError when the extension is missing or
    no move exists."""
    args = _search_args(state, budget_s, rng, max_playouts, komi, races)
    pos = lib.kf_search(*args)
    if pos < 0:
        raise RuntimeError(f"kf_search found no move ({pos})")
    stats = args[-1]
    info = {"playouts": stats[0], "win_rate": stats[1], "nodes": stats[2], "score_change": stats[3]}
    return state.game.action_of_pos[pos], info


def review_search(
    state: Any, played: int, max_playouts: int, played_min: int, rng: random.Random, budget_s: float
) -> tuple[int, dict[str, float]]:
    """(action, statistics) of the review's search (``kf_review``, ``komi=0``): ``search``'s,
    with the ``played`` action a root child searched at least ``played_min`` playouts, so that
    its value and the chosen move's come from one tree. ``statistics``: playouts, nodes,
    best_rate, best_visits, best_gain (the chosen move's win rate, visits and mean gain for
    the player to move) and played_rate, played_visits, played_gain (-1 when the played action
    is not a point of the board)."""
    args = _search_args(state, budget_s, rng, max_playouts, 0)
    game = state.game
    pos = game.pos_of_action[played] if 0 <= played < len(game.pos_of_action) else -1
    out = ffi.new("double[6]")
    chosen = lib.kf_review(*args, pos, int(played_min), out)
    if chosen < 0:
        raise RuntimeError(f"kf_review found no move ({chosen})")
    stats = args[-1]
    names = ("best_rate", "best_visits", "best_gain", "played_rate", "played_visits", "played_gain")
    info = {"playouts": stats[0], "nodes": stats[2], **{name: out[k] for k, name in enumerate(names)}}
    return game.action_of_pos[chosen], info


def settled(state: Any, player: int, rng: random.Random, tries: int = 8) -> bool:
    """Whether ``player`` leads and the board is settled (see the module
    docstring); False without the extension."""
    if lib is None:
        return False
    game = state.game
    points, counters = _board(state)
    return bool(lib.kf_settled(game.width, game.height, points, counters, player, tries, rng.getrandbits(63)))


def ladder_works(state: Any, attacker: int, action: int) -> bool:
    """Whether ``attacker``, threatening to capture by playing ``action``,
    still captures when the other side answers there and the chase goes on
    (the search's ladder reader); False without the extension."""
    if lib is None:
        return False
    game = state.game
    points, counters = _board(state)
    return bool(lib.kf_ladder(game.width, game.height, points, counters, attacker, game.pos_of_action[action]))


def _loose_move(state: Any, rng: random.Random) -> int:
    """A random free point next to one of the last few dots (or near any)."""
    w = state.game.width
    end = state.game.end_action
    recent = [a for a in state.history[-4:] if a != end]
    around = []
    for a in recent:
        x, y = a % w, a // w
        for dy in (-1, 0, 1):
            for dx in (-1, 0, 1):
                xx, yy = x + dx, y + dy
                if 0 <= xx < w and 0 <= yy < state.game.height and state.is_legal(yy * w + xx):
                    around.append(yy * w + xx)
    return rng.choice(around) if around else rng.choice(kropki_frozen._near(state, 2))


def _choose(state: Any, level: str, budget_s: float, rng: random.Random) -> int:
    global _warned
    if lib is None:
        if not _warned:
            log.warning("Kropki %s: compiled search missing, playing the old Python search", level)
            _warned = True
        return kropki_frozen.CHOOSERS[level](state, budget_s, rng)
    me = state.current_player()
    end = state.game.end_action
    if state.has_ended(3 - me):
        moves = kropki_frozen._near(state, 2)
        decision = kropki_frozen._end_decision(state, moves)
        if decision is not None:
            return decision
    elif settled(state, me, rng):
        return int(end)
    settings = LEVELS[level]
    if settings["loose"] and rng.random() < settings["loose"]:
        return _loose_move(state, rng)
    action, _ = search(state, budget_s, rng, int(settings["max_playouts"]), races=bool(settings["races"]))
    return int(action)


def choose(state: Any, level: str, rng: random.Random, budget_s: float | None = None) -> int:
    return _choose(state, level, BUDGETS[level] if budget_s is None else budget_s, rng)


def choose_frozen(state: Any, level: str, rng: random.Random, budget_s: float | None = None) -> int:
    """The pre-issue-16 player at ``level`` (for the bench)."""
    return kropki_frozen.choose(state, level, rng, budget_s)


def playout_speed(state: Any, seconds: float, seed: int = 1) -> float:
    """Random full-board playouts per second from ``state`` in C (bench)."""
    game = state.game
    points, counters = _board(state)
    count = lib.kf_playout_speed(game.width, game.height, points, counters, state.current_player() or 1, seconds, seed)
    return float(count / seconds)


def python_playout_speed(state: Any, seconds: float, seed: int = 1) -> float:
    """The same random full-board playouts through the Python engine (bench)."""
    rng = random.Random(seed)
    end = state.game.end_action
    deadline = time.perf_counter() + seconds
    count = 0
    start = time.perf_counter()
    while time.perf_counter() < deadline:
        child = state.clone()
        order = [a for a in child.legal_actions() if a != end]
        rng.shuffle(order)
        for a in order:
            if child.is_terminal():
                break
            if child.is_legal(a):
                child.apply_action(a)
        count += 1
    return count / (time.perf_counter() - start)
