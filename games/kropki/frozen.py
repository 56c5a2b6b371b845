"""The Kropki computer player as it was before issue 16, frozen for the bench.

``bench/bots.py --vs-frozen`` plays the current trudny against this one
(``frozen-trudny``), and ``games/kropki/bot.py`` falls back to it when the
compiled extension is missing. Do not improve it: it is the yardstick.

The text below is the original module's.

Computer players for Kropki, on any board size (10x10 and 20x20 on the site).

Everything goes through the engine: ``clone()``, ``apply_action()``,
``scores()``, ``legal_actions()``, ``has_ended()``. One helper looks at a
clone from the other player's side by setting its ``to_move`` (the only
engine attribute the bots touch, and only on their own clones) to find the
opponent's immediate captures.

Candidate moves are free points near existing dots (Chebyshev distance ≤ 2);
on an empty board, the points around the centre.

Levels:

- ``trudny``: Monte Carlo tree search (UCT with progressive bias). Priors
  at every expanded node: a move that captures is strongly preferred, a move
  that stops a capture the opponent has ready next, and a move next to dots
  are preferred, a move that puts the dot into an empty enclosure of the
  opponent (where it is taken at once) is avoided. Play-outs are short
  (``ROLLOUT_PLIES``) local random games judged by the score difference.
- ``sredni``: greedy one ply: captures the most it can, else stops the
  opponent's biggest immediate capture, else a random point next to dots.
- ``latwy``: a random free point near existing dots.

Ending the game (zakończ): a bot never ends while the opponent still plays.
Once the opponent has ended, the bot plays on while it can capture or while
it is not ahead, and ends as soon as it is ahead with nothing to capture at
once.
"""

from __future__ import annotations

import math
import random
import time
from typing import Any

ROLLOUT_PLIES = 16


def _dims(state: Any) -> tuple[int, int, int]:
    game = state.game
    w, h = game.params["width"], game.params["height"]
    return w, h, w * h


def _near(state: Any, radius: int) -> list[int]:
    """Free points within ``radius`` of a dot, ascending; around the centre
    on an empty board."""
    w, h, end = _dims(state)
    legal = set(state.legal_actions())
    legal.discard(end)
    dots = [a for a in state.history if a != end]
    if not dots:
        cx, cy = w // 2, h // 2
        dots = [cy * w + cx]
        radius = max(radius, 1)
    near: set[int] = set()
    for a in dots:
        x, y = a % w, a // w
        for dy in range(-radius, radius + 1):
            yy = y + dy
            if 0 <= yy < h:
                for dx in range(-radius, radius + 1):
                    xx = x + dx
                    if 0 <= xx < w:
                        near.add(yy * w + xx)
    out = sorted(near & legal)
    return out or sorted(legal)


def _gain(state: Any, action: int, player: int) -> tuple[int, bool]:
    """(score change for ``player`` minus the opponent's, the dot was taken
    at once) when ``player`` plays ``action`` in ``state``."""
    child = state.clone()
    if child.current_player() != player:
        child.to_move = player  # look from the other side (own clone only)
    before = child.scores()
    effect = child.apply_action(action)
    after = child.scores()
    i = player - 1
    diff = (after[i] - before[i]) - (after[1 - i] - before[1 - i])
    return diff, bool(effect.details.get("taken"))


def _captures(state: Any, player: int, moves: list[int]) -> dict[int, int]:
    """Moves of ``moves`` that gain score for ``player`` right now."""
    out = {}
    for a in moves:
        diff, _ = _gain(state, a, player)
        if diff > 0:
            out[a] = diff
    return out


def _end_decision(state: Any, moves: list[int]) -> int | None:
    """END when the opponent has ended and we are ahead with nothing to take."""
    me = state.current_player()
    opp = 3 - me
    if not state.has_ended(opp):
        return None
    caps = _captures(state, me, moves)
    if caps:
        return max(caps, key=lambda a: caps[a])
    s = state.scores()
    if s[me - 1] > s[opp - 1] or not moves:
        return _dims(state)[2]
    return None


# -- łatwy / średni ----------------------------------------------------------


def choose_latwy(state: Any, budget_s: float, rng: random.Random) -> int:
    moves = _near(state, 2)
    end = _end_decision(state, moves)
    if end is not None:
        return end
    return rng.choice(moves)


def choose_sredni(state: Any, budget_s: float, rng: random.Random) -> int:
    deadline = time.perf_counter() + budget_s
    me = state.current_player()
    moves = _near(state, 2)
    end = _end_decision(state, moves)
    if end is not None:
        return end
    mine = _captures(state, me, moves)
    if mine:
        return max(mine, key=lambda a: (mine[a], rng.random()))
    if not state.has_ended(3 - me) and time.perf_counter() < deadline:
        theirs = _captures(state, 3 - me, moves)
        if theirs:
            return max(theirs, key=lambda a: (theirs[a], rng.random()))
    close = _near(state, 1)
    safe = [a for a in close if time.perf_counter() > deadline or not _gain(state, a, me)[1]]
    return rng.choice(safe or close)


# -- trudny: MCTS ------------------------------------------------------------


class _Node:
    __slots__ = ("children", "moves", "parent_caps", "player", "priors", "state", "value", "visits")

    def __init__(self, state: Any, parent_caps: dict[int, int]) -> None:
        self.state = state
        self.player = state.current_player()
        self.moves: list[int] | None = None
        self.priors: dict[int, float] = {}
        self.children: dict[int, _Node] = {}
        self.visits = 0
        self.value = 0.0  # sum of results for the player who moved INTO this node
        self.parent_caps = parent_caps


class Mcts:
    def __init__(self, root_state: Any, rng: random.Random, deadline: float) -> None:
        self.rng = rng
        self.deadline = deadline
        self.w, self.h, self.end = _dims(root_state)
        me = root_state.current_player()
        threats: dict[int, int] = {}
        if not root_state.has_ended(3 - me):
            threats = _captures(root_state, 3 - me, _near(root_state, 2))
        self.root = _Node(root_state, threats)

    def expand(self, node: _Node) -> None:
        state = node.state
        moves = _near(state, 2)
        me = node.player
        close = set(_near(state, 1))
        priors = {}
        my_caps = {}
        for a in moves:
            diff, taken = _gain(state, a, me)
            p = 0.5 if a in close else 0.2
            if diff > 0:
                my_caps[a] = diff
                p = 3.0 + diff
            elif taken:
                p = 0.01
            if a in node.parent_caps:
                p = max(p, 2.0 + node.parent_caps[a])
            priors[a] = p
        # keep the search narrow on big boards
        ranked = sorted(moves, key=lambda a: -priors[a])
        node.moves = ranked[:40]
        node.priors = priors
        node.parent_caps = my_caps  # reused: the opponent's threats for the children

    def select(self, node: _Node) -> int:
        assert node.moves is not None  # expanded first
        log_n = math.log(node.visits + 1)
        best, best_a = -1e9, node.moves[0]
        for a in node.moves:
            child = node.children.get(a)
            prior = node.priors[a]
            if child is None:
                score = 0.5 + 1.2 * math.sqrt(log_n + 1) + prior
            else:
                q = child.value / child.visits
                score = q + 1.2 * math.sqrt(log_n / child.visits) + prior / (child.visits + 1)
            if score > best:
                best, best_a = score, a
        return best_a

    def rollout(self, state: Any) -> tuple[int, int]:
        state = state.clone()
        w, h, end = self.w, self.h, self.end
        rng = self.rng
        recent = [a for a in state.history[-6:] if a != end]
        for _ in range(ROLLOUT_PLIES):
            if state.current_player() is None:
                break
            a = -1
            for _try in range(6):
                if recent:
                    base = rng.choice(recent)
                    x = base % w + rng.randint(-1, 1)
                    y = base // w + rng.randint(-1, 1)
                else:
                    x, y = rng.randrange(w), rng.randrange(h)
                if 0 <= x < w and 0 <= y < h and state.is_legal(y * w + x):
                    a = y * w + x
                    break
            if a < 0:
                break
            state.apply_action(a)
            recent.append(a)
            if len(recent) > 8:
                recent.pop(0)
        scores: tuple[int, int] = state.scores()
        return scores

    def run(self) -> int:
        root = self.root
        self.expand(root)
        assert root.moves is not None
        if len(root.moves) == 1:
            return root.moves[0]
        iterations = 0
        while True:
            iterations += 1
            if iterations > 8 and time.perf_counter() > self.deadline:
                break
            node = root
            path = [node]
            while True:
                if node.state.current_player() is None:
                    break
                if node.moves is None:
                    self.expand(node)
                    if not node.moves:
                        break
                a = self.select(node)
                child = node.children.get(a)
                if child is None:
                    cs = node.state.clone()
                    cs.apply_action(a)
                    child = _Node(cs, node.parent_caps)
                    node.children[a] = child
                    path.append(child)
                    node = child
                    break
                node = child
                path.append(node)
            s = self.rollout(node.state)
            diff = s[0] - s[1]
            result1 = 0.5 + 0.5 * math.tanh(diff / 2.0)  # for player 1
            for i, n in enumerate(path):
                n.visits += 1
                if i:
                    mover = path[i - 1].player
                    n.value += result1 if mover == 1 else 1.0 - result1
        best = max(root.children.items(), key=lambda kv: (kv[1].visits, kv[1].value))
        return best[0]


def choose_trudny(state: Any, budget_s: float, rng: random.Random) -> int:
    deadline = time.perf_counter() + budget_s
    moves = _near(state, 2)
    end = _end_decision(state, moves)
    if end is not None:
        return end
    if len(moves) == 1:
        return moves[0]
    return Mcts(state, rng, deadline).run()


CHOOSERS = {"latwy": choose_latwy, "sredni": choose_sredni, "trudny": choose_trudny}
BUDGETS = {"latwy": 0.05, "sredni": 0.3, "trudny": 1.8}


def choose(state: Any, level: str, rng: random.Random, budget_s: float | None = None) -> int:
    return CHOOSERS[level](state, BUDGETS[level] if budget_s is None else budget_s, rng)
