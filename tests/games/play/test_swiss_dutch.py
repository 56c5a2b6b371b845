"""The Swiss pairing against bbpPairings, the FIDE-endorsed Dutch program (docs/tournaments.md
"Swiss", "Pairing"; no database): tournaments bbpPairings paired (swiss_bbp/README.md says how
they were made) are replayed round by round through ``pair_round``, which must find every
round's pairs, colours and bye; and the two examples of the 2025 Dutch rules that bbpPairings'
own tests hold (C5, C9)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from games.tournaments.swiss.pairing import (
    BLUE,
    DOWN,
    DUTCH_LIMIT,
    PINK,
    UNPLAYED,
    Entrant,
    float_letters,
    pair_round,
)

DATA = Path(__file__).parent / "swiss_bbp"
POINTS = {"1": 2, "=": 1, "0": 0, "U": 2, "Z": 0}  # half points of a TRF result


@dataclass
class Line:
    """One player's line of a TRF file: each round's (opponent or 0, colour, result)."""

    number: int
    rating: int
    rounds: list[tuple[int, str, str]]


def read_trf(path: Path) -> tuple[list[Line], int]:
    """The players and the number of rounds (XXR, else the rounds played)."""
    players, rounds = [], 0
    for row in path.read_text().replace("\r", "\n").splitlines():
        if row.startswith("001 "):
            tokens = row[91:].split()
            games = [(int(tokens[k]), tokens[k + 1], tokens[k + 2]) for k in range(0, len(tokens), 3)]
            players.append(Line(int(row[4:8]), int(row[48:52]), games))
        elif row.startswith("XXR "):
            rounds = int(row.split()[1])
    return players, rounds or max(len(p.rounds) for p in players)


def entrants_before(players: list[Line], rnd: int) -> list[Entrant]:
    """Every player as they stand before round ``rnd`` (from 1), as the site would give them."""
    after = {p.number: [0] for p in players}  # after[n][k]: n's points after k rounds
    for k in range(rnd - 1):
        for p in players:
            after[p.number].append(after[p.number][-1] + POINTS[p.rounds[k][2]])
    entrants = []
    for p in players:
        if len(p.rounds) >= rnd and p.rounds[rnd - 1][0] == 0 and p.rounds[rnd - 1][2] != "U":
            continue  # not there for this round
        colours, floats, missed, had_bye, opponents = "", "", 0, False, set()
        for k, (opponent, colour, result) in enumerate(p.rounds[: rnd - 1]):
            if opponent == 0:
                colours += UNPLAYED
                if result == "U":
                    had_bye, floats = True, floats + DOWN
                else:
                    missed += 1  # not there (a zero-point bye): the site's late joiner
                continue
            opponents.add(opponent)
            colours += PINK if colour == "w" else BLUE
            floats += float_letters(after[p.number][k], after[opponent][k])[0]
        entrants.append(
            Entrant(
                id=p.number,
                score=after[p.number][rnd - 1],
                rating=p.rating,
                number=p.number,
                opponents=frozenset(opponents),
                colours=colours,
                had_bye=had_bye,
                floats=floats,
                missed=missed,
            )
        )
    return entrants


def played_round(players: list[Line], rnd: int) -> tuple[set[tuple[int, int]], int | None]:
    """bbpPairings' pairs (white/pink first) and bye of round ``rnd``."""
    pairs = {(p.number, p.rounds[rnd - 1][0]) for p in players if p.rounds[rnd - 1][1] == "w"}
    byes = [p.number for p in players if p.rounds[rnd - 1][0] == 0 and p.rounds[rnd - 1][2] == "U"]
    return pairs, (byes[0] if byes else None)


TOURNAMENTS = sorted(DATA.glob("bbp_*.trf"))


def test_the_replayed_tournaments_span_the_sizes_the_dutch_pairs():
    sizes = {len(read_trf(path)[0]) for path in TOURNAMENTS}
    assert min(sizes) <= 7 and max(sizes) == DUTCH_LIMIT and len(TOURNAMENTS) >= 20


@pytest.mark.parametrize("path", TOURNAMENTS, ids=lambda p: p.stem)
def test_every_round_of_a_tournament_paired_by_bbppairings(path: Path):
    players, rounds = read_trf(path)
    wrong = []
    for rnd in range(1, rounds + 1):
        found = pair_round(entrants_before(players, rnd), rounds=rounds)
        expected = played_round(players, rnd)
        if (set(found.pairs), found.bye) != expected:
            wrong.append((rnd, sorted(found.pairs), found.bye, sorted(expected[0]), expected[1]))
    assert not wrong, wrong


@pytest.mark.parametrize("example", ["C5", "C9"])
def test_the_2025_dutch_rules_examples(example: str):
    players, rounds = read_trf(DATA / f"fide_2025_{example}.trf")
    rnd = len(players[0].rounds) + 1
    lines = (DATA / f"fide_2025_{example}.expected").read_text().split("\n")[1:]
    pairs = {tuple(int(x) for x in line.split()) for line in lines if line.strip()}
    expected = ({p for p in pairs if p[1]}, next((p[0] for p in pairs if not p[1]), None))
    found = pair_round(entrants_before(players, rnd), rounds=rounds)
    assert (set(found.pairs), found.bye) == expected
