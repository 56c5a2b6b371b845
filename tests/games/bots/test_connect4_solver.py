"""The exact Cztery w rzędzie solver (games/connect4/solver.py over solver.c)
against references: the shared vectors (scored by Pascal Pons' solver), an
independent slow negamax written here, the engine's own ending of a game
played out perfectly; its opening book's file format; and trudny, which must
keep every position's value."""

from __future__ import annotations

import json
import random
import time
from functools import cache
from pathlib import Path

import pytest

from games.bots import choose_action
from games.connect4 import bits, book, solver
from games.connect4 import bot as c4_bot
from games.connect4.solver_ext import lib as c4_lib
from games.engine import get_game

pytestmark = pytest.mark.skipif(not solver.available(), reason="games/connect4/solver_ext is not built")


def test_the_solver_is_built() -> None:
    """Fails (rather than skips) when the extension is missing: setup.sh builds it."""
    assert solver.available()


def _rows(vectors_dir: Path, name: str) -> list[dict]:
    with open(vectors_dir / "connect4" / name) as f:
        return [json.loads(line) for line in f if line.strip()]


def _columns(digits: str) -> list[int]:
    return [int(d) - 1 for d in digits]


# -- the score convention ------------------------------------------------------


def test_a_score_says_who_wins_and_when() -> None:
    # the empty board: the first player wins with his 21st disc, the 41st of the game
    empty = solver.Value.from_score(1, 0)
    assert (empty.result, empty.plies, empty.own_moves) == ("win", 41, 21)
    # the second player to move (1 disc down) loses to the first player's 21st disc
    assert solver.Value.from_score(-1, 1) == solver.Value(-1, 40)
    # a win at once: score (43 - moves) // 2, one ply
    assert solver.Value.from_score((43 - 10) // 2, 10).plies == 1
    assert solver.Value.from_score((43 - 11) // 2, 11).plies == 1
    # a loss to the opponent's next disc: two plies
    assert solver.Value.from_score(-(42 - 10) // 2, 10).plies == 2
    assert solver.Value.from_score(0, 17) == solver.Value(0, None)


def test_finished_or_illegal_games_are_refused() -> None:
    with pytest.raises(ValueError, match="over"):
        solver.solve([0, 1, 0, 1, 0, 1, 0])
    with pytest.raises(ValueError, match="full"):
        solver.solve([0] * 7)
    with pytest.raises(ValueError, match="column"):
        solver.solve([7])


# -- against the vectors and the reference --------------------------------------


def test_values_equal_pons_on_the_shared_positions(vectors_dir: Path) -> None:
    """Every vector position with 14 discs or more: its value; from 17 discs
    on also the value of each column and the best columns (a few seconds in
    all). The earlier ones are the bench's (bench/c4_solver.py)."""
    rows = [r for r in _rows(vectors_dir, "positions_plies08-20.jsonl") if r["plies"] >= 14]
    assert len(rows) > 300
    for row in rows:
        columns = _columns(row["moves"])
        assert solver.solve(columns).score == row["score"], row["id"]
        if row["plies"] < 17:
            continue
        values = solver.move_values(columns)
        assert [values[c].score if c in values else None for c in range(7)] == row["analysis"], row["id"]
        value, best = solver.best_moves(columns)
        assert value.score == row["score"]
        assert sorted(c + 1 for c in best) == sorted(row["best_cols"]), row["id"]


def test_values_equal_pons_on_a_few_early_positions(vectors_dir: Path) -> None:
    rows = [r for r in _rows(vectors_dir, "positions_plies08-20.jsonl") if r["plies"] in (10, 11)]
    for row in sorted(rows, key=lambda r: r["solve_s"])[:6]:
        assert solver.solve(_columns(row["moves"])).score == row["score"], row["id"]


@cache
def _reference(cur: int, mask: int, moves: int) -> int:
    """Plain negamax over every legal move, no pruning and no shared code with
    the C search but the threat finder: the mover's score (Pons' convention)."""
    best = -bits.CELLS
    for _, ncur, nmask, wins in bits.children(cur, mask):
        if wins:
            score = (bits.CELLS + 1 - moves) // 2
        elif moves + 1 == bits.CELLS:
            score = 0
        else:
            score = -_reference(ncur, nmask, moves + 1)
        best = max(best, score)
    return best


def _random_position(rng: random.Random, discs: int) -> list[int] | None:
    columns: list[int] = []
    state = get_game("connect4").new_initial_state()
    while len(columns) < discs:
        col = rng.choice(state.legal_actions())
        state.apply_action(col)
        if state.is_terminal():
            return None
        columns.append(col)
    return columns


def test_values_equal_a_plain_negamax_on_random_positions() -> None:
    rng = random.Random(28)
    checked = 0
    while checked < 40:
        columns = _random_position(rng, rng.choice((27, 28, 29, 30)))
        if columns is None:
            continue
        cur, mask, moves = solver.position(columns)
        values = solver.move_values(columns)
        for c, ncur, nmask, wins in bits.children(cur, mask):
            state = get_game("connect4").state_from_history(columns)
            state.apply_action(c)
            outcome = state.outcome()
            assert wins == (outcome is not None and outcome.winner is not None)
            want = (
                (bits.CELLS + 1 - moves) // 2 if wins else 0 if moves + 1 == 42 else -_reference(ncur, nmask, moves + 1)
            )
            assert values[c].score == want, (columns, c)
        assert solver.solve(columns).score == _reference(cur, mask, moves)
        checked += 1


def test_the_result_keeping_move_keeps_the_result(vectors_dir: Path) -> None:
    """What trudny settles for when the exact value takes too long."""
    rows = [r for r in _rows(vectors_dir, "positions_plies08-20.jsonl") if r["plies"] >= 14][::3]
    for i, row in enumerate(rows):
        order = list(range(7))
        random.Random(i).shuffle(order)
        order = [c for c in order if row["analysis"][c] is not None]
        result, col = solver.result_keeping_move(_columns(row["moves"]), order)
        score = row["score"]
        assert result == ("win" if score > 0 else "draw" if score == 0 else "loss"), row["id"]
        if score >= 0:
            assert row["analysis"][col] >= min(score, 1), row["id"]


def test_forget_leaves_nothing_of_the_questions_before(vectors_dir: Path) -> None:
    """``forget`` (a review's start) starts the table's next generation: the same solve then
    costs what it cost on an empty table, also after the 65,535 generations that clear it."""
    columns = _columns(next(r for r in _rows(vectors_dir, "positions_plies08-20.jsonl") if r["plies"] == 12)["moves"])

    def nodes() -> int:
        before = int(c4_lib.c4_nodes())
        solver.solve(columns)
        return int(c4_lib.c4_nodes()) - before

    solver.forget()
    fresh = nodes()
    assert nodes() < fresh / 10, "the table kept what the first solve found"
    solver.forget()
    assert nodes() == fresh
    for _ in range(1 << 16):
        solver.forget()
    assert nodes() == fresh


def test_perfect_play_ends_as_the_value_says(vectors_dir: Path) -> None:
    """From vector positions, both sides play a best column (the fastest win,
    the slowest loss) through the engine: the game ends with the predicted
    winner after exactly ``plies`` more discs, or drawn."""
    game = get_game("connect4")
    rows = [r for r in _rows(vectors_dir, "positions_plies08-20.jsonl") if r["plies"] >= 16][::4]
    for row in rows:
        columns = _columns(row["moves"])
        value = solver.solve(columns)
        state = game.state_from_history(columns)
        mover = state.current_player()
        assert mover is not None
        start = len(columns)
        while not state.is_terminal():
            _, best = solver.best_moves(list(state.history))
            state.apply_action(best[0])
        outcome = state.outcome()
        assert outcome is not None
        if value.result == "draw":
            assert outcome.winner is None, row["id"]
        else:
            assert outcome.winner == (mover if value.result == "win" else 3 - mover), row["id"]
            assert len(state.history) - start == value.plies, row["id"]


def test_the_early_draw_agrees(vectors_dir: Path) -> None:
    """Where the site declares the draw (all 69 lines dead), and one ply
    before, the solver says draw: the rule changes no value."""
    for row in _rows(vectors_dir, "all_dead_random.jsonl")[:40]:
        columns = _columns(row["moves_to_all_dead"])
        assert solver.solve(columns[:-1]).score == row["solver_score_one_ply_before"] == 0
        if len(columns) < 42:
            assert solver.solve(columns).score == row["solver_score_at_all_dead"] == 0


# -- the opening book ---------------------------------------------------------------


def test_the_book_file_round_trips(tmp_path: Path, vectors_dir: Path) -> None:
    """A book written by ``book.write`` is read back; a position and its
    mirror image find the same record; a position it lacks finds none."""
    row = _rows(vectors_dir, "positions_plies08-20.jsonl")[0]
    columns = _columns(row["moves"])
    cur, mask, moves = solver.position(columns)
    path = tmp_path / "book.xz"
    book.write({bits.canonical_key(cur, mask): row["score"], bits.canonical_key(0, 0): 1}, moves, path)
    try:
        book.load(path)
        assert book.plies() == moves
        assert book.lookup(cur, mask, moves) == row["score"]
        mirrored = solver.position([6 - c for c in columns])
        assert book.lookup(*mirrored) == row["score"]
        assert book.lookup(0, 0, 0) == 1
        other = solver.position([*columns[:-1], (columns[-1] + 1) % 7])
        assert book.lookup(*other) is None
    finally:
        book.load(book.PATH)


def test_the_book_builder_backs_the_values_up(tmp_path: Path) -> None:
    """``book.build`` with a stand-in for the solver at the last ply (the real
    one takes far too long there): one record per position up to mirror images
    (1 + 4 + 25 up to two discs), the last ply's scores as solved, and every
    earlier one the best of its children's."""
    fake = {}

    def solve(cur: int, mask: int, moves: int) -> int:
        key = bits.canonical_key(cur, mask)
        fake[key] = key % 7 - 3
        return fake[key]

    path = tmp_path / "book.xz"
    try:
        assert book.build(2, path, solve=solve) == 30
        book.load(path)
        assert book.plies() == 2
        for key, score in fake.items():
            cur_mask = next((c, m) for c, m in _positions_up_to(2)[2] if bits.canonical_key(c, m) == key)
            assert book.lookup(*cur_mask, 2) == score
        for ply in (1, 0):
            for cur, mask in _positions_up_to(2)[ply]:
                want = max(-_book_score(ncur, nmask) for _, ncur, nmask, _ in bits.children(cur, mask))
                assert book.lookup(cur, mask, ply) == want
    finally:
        book.load(book.PATH)


def _book_score(cur: int, mask: int) -> int:
    value = book.lookup(cur, mask, bin(mask).count("1"))
    assert value is not None
    return value


def _positions_up_to(depth: int) -> list[list[tuple[int, int]]]:
    levels = [[(0, 0)]]
    for _ in range(depth):
        levels.append([(ncur, nmask) for cur, mask in levels[-1] for _, ncur, nmask, _ in bits.children(cur, mask)])
    return levels


# -- trudny ----------------------------------------------------------------------------


def test_trudny_keeps_the_value_of_every_position(vectors_dir: Path) -> None:
    """Positions of 14 discs or more from the vectors (the solver answers
    these well within the budget): trudny's column always keeps the value,
    the fastest win and the slowest loss included."""
    game = get_game("connect4")
    rows = [r for r in _rows(vectors_dir, "positions_plies08-20.jsonl") if r["plies"] >= 14]
    for i, row in enumerate(rows[::2]):
        state = game.state_from_history(_columns(row["moves"]))
        col = choose_action(state, "trudny", seed=i)
        assert row["analysis"][col] == row["score"], (row["id"], col)


@pytest.mark.slow
def test_trudny_takes_the_time_a_hard_early_position_needs(vectors_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """a0053 (8 discs, a draw; one column keeps it) takes the solver 2-3 s, more than
    trudny's share of its 1.8 s budget: at its own budget trudny thinks on
    (PERFECT_BUDGET_S) and keeps the draw, where it used to play a losing column.

    Told in two parts, in CPU time: trudny gives the solver PERFECT_BUDGET_S here, and the
    exact solve that keeps the draw needs less than its share of it of one core. (Played
    end to end by the wall clock it failed once in a CI run, four test processes on two
    cores: the solve got under a third of a core. The CPU time itself varies with the
    machine: 1.8 s on one, 2.2 s idle and 2.8 s in a full run on a slower one; a bound at
    half the share failed there.)"""
    row = next(r for r in _rows(vectors_dir, "positions_plies08-20.jsonl") if r["id"] == "a0053")
    columns = _columns(row["moves"])
    assert len(columns) < c4_bot.LONG_BEFORE_DISCS
    state = get_game("connect4").state_from_history(columns)
    budgets: list[float] = []

    def asked(_columns: list[int], budget_s: float, _rng: random.Random) -> int:
        budgets.append(budget_s)
        return 0

    monkeypatch.setattr(c4_bot, "choose_perfect", asked)
    choose_action(state, "trudny", seed=0)
    assert budgets == [c4_bot.PERFECT_BUDGET_S]
    monkeypatch.undo()

    c4_lib.c4_reset()  # nothing left in the table from the tests before
    order = [c for c in range(7) if columns.count(c) < 6]
    random.Random(0).shuffle(order)
    cpu = time.process_time()
    _value, col = solver.keeping_move(columns, order)
    cpu = time.process_time() - cpu
    assert row["analysis"][col] == row["score"] == 0, col
    print(f"a0053: the exact solve kept the draw in {cpu:.2f} s of CPU")
    assert cpu < c4_bot.PERFECT_BUDGET_S * c4_bot.EXACT_SHARE, cpu


def test_trudny_varies_among_equal_columns() -> None:
    """Two seeds, the same value kept, not always the same column."""
    rng = random.Random(5)
    seen_different = False
    for _ in range(30):
        columns = _random_position(rng, 24)
        if columns is None:
            continue
        state = get_game("connect4").state_from_history(columns)
        _value, best = solver.best_moves(columns)
        picks = {choose_action(state, "trudny", seed=s) for s in range(4)}
        assert picks <= set(best), (columns, picks, best)
        seen_different |= len(picks) > 1
    assert seen_different


def test_without_the_solver_trudny_plays_the_python_search(monkeypatch: pytest.MonkeyPatch) -> None:
    columns = [3, 3, 3, 3, 2, 4, 2, 4, 5, 1, 1, 5, 0, 6, 6, 6, 0, 0, 2, 2]
    assert c4_bot.choose_perfect(columns, 1.0, random.Random(0)) is not None
    monkeypatch.setattr(solver, "lib", None)
    assert not solver.available()
    assert c4_bot.choose_perfect(columns, 1.0, random.Random(0)) is None
    state = get_game("connect4").state_from_history(columns)
    assert choose_action(state, "trudny", seed=0, budget_s=0.2) in state.legal_actions()


def test_trudny_leaves_the_first_plies_to_the_python_search() -> None:
    """Below SOLVER_FROM_DISCS discs (and beyond the book) the solver is not
    asked: it would spend the budget without an answer."""
    assert c4_bot.choose_perfect([3, 3, 2], 1.0, random.Random(0)) is None


def test_the_book_builders_processes_solve_as_one_does() -> None:
    """``build --jobs N``: the last ply shared among processes, each with its own table, gives
    each position the solver's score, in the positions' order (14-disc positions: quick)."""
    rng = random.Random(14)
    game = get_game("connect4")
    histories: list[list[int]] = []
    while len(histories) < 9:
        state = game.new_initial_state()
        while len(state.history) < 14 and not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
        if not state.is_terminal():
            histories.append(list(state.history))
    positions = [(cur, mask) for cur, mask, _ in map(solver.position, histories)]
    want = [solver.solve(columns).score for columns in histories]
    assert len(set(want)) > 1  # positions that tell an order apart
    assert [s for part in book._solved_parts(positions, 14, book._solve_in_c, 3) for s in part] == want
