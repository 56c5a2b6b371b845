"""Rules diagrams: positions defined as move lists, checked by the engine.

Each ``Diagram`` holds a move list (the engine's human notation), a caption
in Polish and English, and a ``claim``: a function of the final state and
the effects of every move that returns True when what the caption says
really happens in the engine. ``tests/rules/test_diagrams.py`` replays every
diagram and checks its claim, so a rules page can never show what the engine
would not do.

``render(lang)`` draws the "before" picture (the position at ``before_ply``,
with the moves still to come marked) and the "after" picture (the final
position) with ``games.render``, the same code as the live board.

Pure Python: no Django.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from .engine import Effect, State, get_game
from .render import render_board

Claim = Callable[[State, list[Effect]], bool]


@dataclass(frozen=True)
class Diagram:
    key: str
    slug: str  # engine slug
    params: dict[str, Any]
    moves: tuple[str, ...]
    caption: dict[str, str]  # {"pl": ..., "en": ...}
    claim: Claim
    before_ply: int | None = None  # default: before the last move
    show_before: bool = True
    marks: tuple[str, ...] | None = None  # moves marked on "before" (default: every move after it)
    extra: dict[str, Any] = field(default_factory=dict)

    def game(self):
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

    def highlight(self) -> list[Any]:
        """What to mark on the "before" picture: the moves still to come."""
        game = self.game()
        marks: list[Any] = []
        for move in self.moves[self.split :] if self.marks is None else self.marks:
            action = game.string_to_action(move)
            if self.slug == "kropki":
                if action != game.end_action:
                    marks.append(list(game.xy(action)))
            elif self.slug == "connect4":
                marks.append(action + 1)
            else:
                marks.append(action)
        return marks[:1] if self.slug == "connect4" else marks

    def render(self, lang: str = "pl") -> dict[str, str]:
        """``before``/``after`` SVGs (``before`` is "" when not shown) and the caption."""
        final, _ = self.replay()
        words = {"pl": ("Przed", "Po"), "en": ("Before", "After")}.get(lang, ("Przed", "Po"))
        before = ""
        if self.show_before:
            start, _ = self.replay(self.split)
            before = render_board(start.view(), self.slug, title=words[0], highlight=self.highlight(), lang=lang)
        after = render_board(final.view(), self.slug, title=words[1] if self.show_before else "", lang=lang)
        return {
            "key": self.key,
            "before": before,
            "after": after,
            "caption": self.caption.get(lang, self.caption["pl"]),
            "before_label": words[0],
            "after_label": words[1],
        }


# ---------------------------------------------------------------- helpers


def _k_point(state: State, name: str) -> list[int]:
    return list(state.game.xy(state.game.string_to_action(name)))  # type: ignore[attr-defined]


def _k_territory_at(state: State, name: str) -> str:
    x, y = _k_point(state, name)
    view = state.view()
    return view["territory"][y * view["width"] + x]


def _k_captured(effect: Effect) -> list[list[int]]:
    return [p for t in effect.details.get("territories", []) for p in t["captured"]]


# ------------------------------------------------------------------ Kropki

K6 = {"width": 6, "height": 6}
K7 = {"width": 7, "height": 7}


def _first_capture(state: State, effects: list[Effect]) -> bool:
    last = effects[-1]
    return _k_captured(last) == [_k_point(state, "c3")] and state.scores() == (1, 0) and not last.details["taken"]


def _diagonal_links(state: State, effects: list[Effect]) -> bool:
    last = effects[-1]
    captured = _k_captured(last)
    if sorted(captured) != sorted([_k_point(state, "c4"), _k_point(state, "d4")]):
        return False
    chain = last.details["territories"][0]["chain"]
    diagonal = any(abs(a[0] - b[0]) == 1 and abs(a[1] - b[1]) == 1 for a, b in zip(chain, chain[1:] + chain[:1]))
    # The blue dots have an empty, free diagonal neighbour outside (b3), yet they are taken.
    outside_free = _k_territory_at(state, "b3") == "0" and state.is_legal(state.game.string_to_action("b3"))
    return diagonal and outside_free


def _empty_enclosure(state: State, effects: list[Effect]) -> bool:
    view = state.view()
    c3 = _k_point(state, "c3")
    return (
        not effects[-1].details["territories"]
        and [c3[0], c3[1], 1] in view["empty_enclosures"]
        and state.is_legal(state.game.string_to_action("c3"))
        and state.scores() == (0, 0)
    )


def _intruder_taken(state: State, effects: list[Effect]) -> bool:
    last = effects[-1]
    return (
        last.player == 2
        and last.details["taken"] is True
        and any(t["owner"] == 1 and t["captured"] == [_k_point(state, "c3")] for t in last.details["territories"])
        and state.scores() == (1, 0)
    )


def _mover_first(state: State, effects: list[Effect]) -> bool:
    last = effects[-1]
    c4 = _k_point(state, "c4")
    was_empty_enclosure_of_pink = any(e[:2] == c4 and e[2] == 1 for e in _view_before(state, effects)["empty_enclosures"])
    return (
        was_empty_enclosure_of_pink
        and last.player == 2
        and last.details["taken"] is False
        and _k_captured(last) == [_k_point(state, "d4")]
        and state.scores() == (0, 1)
    )


def _view_before(state: State, effects: list[Effect]) -> dict[str, Any]:
    history = state.history[:-1]
    return state.game.state_from_history(history).view()


def _out_of_play(state: State, effects: list[Effect]) -> bool:
    if _k_captured(effects[-1]) != [_k_point(state, "d4")]:
        return False
    d5 = state.game.string_to_action("d5")
    blue_refused = state.current_player() == 2 and state.illegal_reason(d5) == "inside_territory"
    after_blue = state.clone()
    after_blue.apply_action(state.game.string_to_action("a1"))
    pink_refused = after_blue.current_player() == 1 and after_blue.illegal_reason(d5) == "inside_territory"
    return blue_refused and pink_refused and _k_territory_at(state, "d5") == "1"


def _bigger_enclosure(state: State, effects: list[Effect]) -> bool:
    last = effects[-1]
    territories = last.details["territories"]
    if len(territories) != 1 or territories[0]["owner"] != 2:
        return False
    took = territories[0]
    pink_dots = sorted(_k_point(state, n) for n in ("d3", "c4", "e4", "d5"))
    earlier_pink_score = any(e.player == 1 and _k_captured(e) == [_k_point(state, "d4")] for e in effects)
    return (
        earlier_pink_score
        and sorted(took["captured"]) == pink_dots
        and took["freed"] == [_k_point(state, "d4")]
        and state.scores() == (0, 4)
    )


def _ended_plays_on(state: State, effects: list[Effect]) -> bool:
    end = next((e for e in effects if e.details.get("ended")), None)
    if end is None or end.player != 1:
        return False
    after = effects[effects.index(end) + 1 :]
    return (
        state.has_ended(1)  # type: ignore[attr-defined]
        and len(after) >= 2
        and all(e.player == 2 and e.next_player == 2 for e in after)
        and state.current_player() == 2
        and not state.is_terminal()
    )


KROPKI = [
    Diagram(
        key="kropki-capture",
        slug="kropki",
        params=K6,
        moves=("c2", "c3", "b3", "f6", "d3", "a6", "c4"),
        caption={
            "pl": "Różowe stawiają c4 i domykają romb c2–d3–c4–b3. Niebieska kropka c3 jest w środku: "
                  "teren należy teraz do różowych, a wynik to 1:0.",
            "en": "Pink plays c4 and closes the diamond c2–d3–c4–b3. The blue dot c3 is inside: the ground "
                  "now belongs to pink and the score is 1:0.",
        },
        claim=_first_capture,
    ),
    Diagram(
        key="kropki-diagonal",
        slug="kropki",
        params=K6,
        moves=("c3", "c4", "d3", "d4", "b4", "a6", "e4", "f6", "c5", "f1", "d5"),
        caption={
            "pl": "Ciąg c3–d3–e4–d5–c5–b4 ma cztery ogniwa po skosie. Niebieskie c4 i d4 nie uciekną przez "
                  "skośną przerwę (np. do b3), bo ucieczka idzie tylko w górę, w dół, w lewo i w prawo: "
                  "obie zostają zabrane, 2:0.",
            "en": "The chain c3–d3–e4–d5–c5–b4 has four diagonal links. Blue c4 and d4 cannot slip out through "
                  "a diagonal gap (to b3, say), because escape goes only up, down, left and right: both are "
                  "taken, 2:0.",
        },
        claim=_diagonal_links,
    ),
    Diagram(
        key="kropki-empty",
        slug="kropki",
        params=K6,
        moves=("c2", "a6", "b3", "f6", "d3", "f1", "c4"),
        caption={
            "pl": "Różowe zamykają romb wokół pustego c3. W środku nie ma niebieskiej kropki, więc nic się "
                  "nie dzieje: wynik zostaje 0:0, a c3 wciąż mogą zagrać oboje (kropkowane kółko tylko to "
                  "przypomina).",
            "en": "Pink closes a diamond around the empty c3. There is no blue dot inside, so nothing happens: "
                  "the score stays 0:0 and both players may still play c3 (the dotted ring is only a reminder).",
        },
        claim=_empty_enclosure,
    ),
    Diagram(
        key="kropki-intruder",
        slug="kropki",
        params=K6,
        moves=("c2", "a6", "b3", "f6", "d3", "f1", "c4", "c3"),
        caption={
            "pl": "Ta sama pozycja: niebieskie grają c3 w puste okrążenie różowych. Ich kropka niczego nie "
                  "otacza, więc zostaje zabrana od razu — dopiero teraz romb staje się państwem różowych (1:0).",
            "en": "The same position: blue plays c3 into pink's empty enclosure. The dot surrounds nothing "
                  "itself, so it is taken at once — only now does the diamond become pink's territory (1:0).",
        },
        claim=_intruder_taken,
    ),
    Diagram(
        key="kropki-mover-first",
        slug="kropki",
        params=K6,
        moves=("c3", "d3", "b4", "e4", "d4", "d5", "c5", "c4"),
        caption={
            "pl": "Punkt c4 leży w pustym okrążeniu różowych. Niebieskie grają c4, a ta kropka sama domyka "
                  "ciąg d3–e4–d5–c4 wokół różowej d4. Najpierw liczy się ruch grającego: niebieskie zabierają "
                  "d4 (0:1), a ich kropka żyje.",
            "en": "The point c4 lies in pink's empty enclosure. Blue plays c4, and this dot itself closes the "
                  "chain d3–e4–d5–c4 around pink's d4. The mover's enclosures come first: blue takes d4 (0:1) "
                  "and the new dot lives.",
        },
        claim=_mover_first,
    ),
    Diagram(
        key="kropki-out-of-play",
        slug="kropki",
        params=K6,
        moves=("d3", "d4", "c4", "f6", "e4", "f1", "c5", "a6", "e5", "b6", "d6"),
        caption={
            "pl": "Różowe otaczają niebieskie d4 razem z pustym punktem d5. Cały środek to ich państwo: "
                  "ani niebieskie, ani same różowe nie mogą już postawić kropki na d5.",
            "en": "Pink surrounds blue d4 together with the empty point d5. All of the inside is pink's "
                  "territory: neither blue nor pink itself may ever place a dot on d5.",
        },
        claim=_out_of_play,
    ),
    Diagram(
        key="kropki-bigger",
        slug="kropki",
        params=K7,
        moves=("d3", "d4", "c4", "d2", "e4", "c3", "d5", "e3", "a7", "b4", "g7", "f4", "g1", "c5", "a1",
               "e5", "b7", "d6"),
        before_ply=16,
        marks=("d6",),
        caption={
            "pl": "Różowe zabrały d4 (1:0). Niebieskie obrysowują to państwo większym rombem i domykają go "
                  "kropką d6: cztery różowe kropki ciągu są teraz niebieskie, a d4 przestaje liczyć się "
                  "różowym. Wynik 0:4.",
            "en": "Pink took d4 (1:0). Blue draws a bigger diamond around that territory and closes it with "
                  "d6: the four pink chain dots are blue's now, and d4 stops counting for pink. Score 0:4.",
        },
        claim=_bigger_enclosure,
    ),
    Diagram(
        key="kropki-ended",
        slug="kropki",
        params=K6,
        moves=("c3", "d3", "zakończ", "d4", "e4"),
        before_ply=2,
        caption={
            "pl": "Różowe kończą grę. Ich kropki i wynik zostają, ale nie robią już ruchów — niebieskie grają "
                  "dalej same, ruch za ruchem (d4, e4…).",
            "en": "Pink ends the game. Their dots and score stay, but they make no more moves — blue plays on "
                  "alone, move after move (d4, e4…).",
        },
        claim=_ended_plays_on,
    ),
]


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
            (int(c2 > c1) - int(c2 < c1), int(r2 > r1) - int(r2 < r1)))
        return found == direction
    return claim


def _c4_draw(reason: str) -> Claim:
    def claim(state: State, effects: list[Effect]) -> bool:
        outcome = state.outcome()
        if outcome is None or outcome.winner is not None or outcome.reason != reason:
            return False
        filled = sum(v != 0 for row in state.view()["cells"] for v in row)
        return filled == 42 if reason == "full_board" else (filled < 42 and state.view()["live_lines"] == 0)
    return claim


def _digits(text: str) -> tuple[str, ...]:
    return tuple(text)


CONNECT4 = [
    Diagram(
        key="c4-gravity",
        slug="connect4",
        params={},
        moves=("4", "3", "4"),
        caption={
            "pl": "Różowe wybierają kolumnę 4. Krążek spada na to, co już w niej leży, i zatrzymuje się "
                  "w drugim rzędzie od dołu.",
            "en": "Pink chooses column 4. The disc drops onto what already lies there and stops in the second "
                  "row from the bottom.",
        },
        claim=_c4_landed(4, 2),
    ),
    Diagram(
        key="c4-horizontal",
        slug="connect4",
        params={},
        moves=("1", "1", "2", "2", "3", "3", "4"),
        caption={
            "pl": "Cztery w poziomie: krążek w kolumnie 4 kończy partię wygraną różowych.",
            "en": "Four across: the disc in column 4 ends the game, pink wins.",
        },
        claim=_c4_win("horizontal"),
    ),
    Diagram(
        key="c4-vertical",
        slug="connect4",
        params={},
        moves=("1", "2", "1", "2", "1", "2", "1"),
        caption={
            "pl": "Cztery w pionie w kolumnie 1 — też wygrana.",
            "en": "Four up column 1 — also a win.",
        },
        claim=_c4_win("vertical"),
    ),
    Diagram(
        key="c4-rising",
        slug="connect4",
        params={},
        moves=_digits("12233434474"),
        caption={
            "pl": "Skos w górę w prawo: kolumny 1, 2, 3 i 4, każdy krążek o rząd wyżej.",
            "en": "A diagonal rising to the right: columns 1, 2, 3 and 4, each disc one row higher.",
        },
        claim=_c4_win("rising"),
    ),
    Diagram(
        key="c4-falling",
        slug="connect4",
        params={},
        moves=_digits("76655454414"),
        caption={
            "pl": "Drugi skos, opadający w prawo: kolumny 4, 5, 6 i 7.",
            "en": "The other diagonal, falling to the right: columns 4, 5, 6 and 7.",
        },
        claim=_c4_win("falling"),
    ),
    Diagram(
        key="c4-five",
        slug="connect4",
        params={},
        moves=_digits("112244553"),
        caption={
            "pl": "Krążek w kolumnie 3 wypełnia lukę i daje pięć w linii. Dłuższa linia też wygrywa.",
            "en": "The disc in column 3 fills the gap and makes five in a line. A longer line wins too.",
        },
        claim=_c4_win("horizontal", min_length=5),
    ),
    Diagram(
        key="c4-full-board",
        slug="connect4",
        params={},
        moves=_digits("257771314744647214154617633623313656555222"),
        caption={
            "pl": "Ostatni, czterdziesty drugi krążek zapełnia planszę i nikt nie ma czterech w linii: remis.",
            "en": "The forty-second and last disc fills the board and nobody has four in a line: a draw.",
        },
        claim=_c4_draw("full_board"),
    ),
    Diagram(
        key="c4-early-draw",
        slug="connect4",
        params={},
        moves=_digits("6262455127741665526426421331357417135"),
        caption={
            "pl": "Po tym krążku w kolumnie 5 każda z 69 linii czterech pól ma już krążek każdego koloru. "
                  "Nikt nie może wygrać, więc partia kończy się remisem, choć pięć pól jest jeszcze wolnych "
                  "(zasada tego serwisu).",
            "en": "After this disc in column 5 every one of the 69 lines of four cells holds a disc of each "
                  "colour. Nobody can win, so the game ends in a draw although five cells are still empty "
                  "(this service's rule).",
        },
        claim=_c4_draw("no_line_possible"),
    ),
]


# -------------------------------------------------------- Kropki i kwadraty

DB = {"rows": 2, "cols": 3}


def _dab_turn_passes(state: State, effects: list[Effect]) -> bool:
    last = effects[-1]
    return not last.details["boxes"] and last.next_player != last.player


def _dab_extra(count: int) -> Claim:
    def claim(state: State, effects: list[Effect]) -> bool:
        last = effects[-1]
        return (
            len(last.details["boxes"]) == count
            and last.details["extra_move"] is True
            and last.next_player == last.player
        )
    return claim


def _dab_one_extra_only(state: State, effects: list[Effect]) -> bool:
    two = effects[-2]
    last = effects[-1]
    return (
        len(two.details["boxes"]) == 2
        and last.player == two.player
        and not last.details["boxes"]
        and last.next_player != last.player
    )


def _dab_chain(state: State, effects: list[Effect]) -> bool:
    opener = effects[-4]
    takers = effects[-3:]
    return (
        not opener.details["boxes"]
        and all(e.player != opener.player and len(e.details["boxes"]) == 1 for e in takers)
        and state.scores()[takers[0].player - 1] == 3
    )


def _dab_majority(state: State, effects: list[Effect]) -> bool:
    outcome = state.outcome()
    drawn = sum(1 for by in state.view()["drawn"] if by)
    return (
        outcome is not None
        and outcome.reason == "boxes_majority"
        and outcome.winner == 1
        and outcome.scores[0] == 13
        and drawn < 60
    )


DOTS_AND_BOXES = [
    Diagram(
        key="dab-segment",
        slug="dots_and_boxes",
        params=DB,
        moves=("a1-b1", "b2-b3", "c1-c2"),
        caption={
            "pl": "Ruch to jeden odcinek między sąsiednimi kropkami, w poziomie albo w pionie. "
                  "Ten nie zamyka żadnego kwadratu, więc ruch przechodzi na przeciwnika.",
            "en": "A move is one segment between neighbouring dots, across or down. This one closes no box, "
                  "so the turn passes to the opponent.",
        },
        claim=_dab_turn_passes,
    ),
    Diagram(
        key="dab-box",
        slug="dots_and_boxes",
        params=DB,
        moves=("a1-b1", "a2-b2", "a1-a2", "b1-b2"),
        caption={
            "pl": "Niebieskie rysują czwarty bok kwadratu a1: kwadrat jest ich (N) i muszą od razu zagrać "
                  "jeszcze raz.",
            "en": "Blue draws the fourth side of box a1: the box is theirs (B) and they must move again at once.",
        },
        claim=_dab_extra(1),
    ),
    Diagram(
        key="dab-two-boxes",
        slug="dots_and_boxes",
        params=DB,
        moves=("a1-b1", "b1-c1", "a2-b2", "b2-c2", "a1-a2", "c1-c2", "b1-b2", "d2-d3"),
        before_ply=6,
        caption={
            "pl": "Odcinek b1–b2 zamyka naraz dwa kwadraty. Różowe biorą oba, ale dostają tylko jeden "
                  "dodatkowy ruch: po d2–d3, który nic nie zamyka, kolej przechodzi na niebieskich.",
            "en": "The segment b1–b2 closes two boxes at once. Pink takes both but gets only one extra move: "
                  "after d2–d3, which closes nothing, it is blue's turn.",
        },
        claim=_dab_one_extra_only,
    ),
    Diagram(
        key="dab-chain",
        slug="dots_and_boxes",
        params=DB,
        moves=("a1-b1", "a2-b2", "b1-c1", "b2-c2", "c1-d1", "c2-d2", "a1-a2", "b1-b2", "c1-c2", "d1-d2"),
        before_ply=6,
        marks=("a1-a2",),
        caption={
            "pl": "Łańcuch trzech kwadratów, każdy z dwoma bokami. Kto pierwszy narysuje w nim odcinek "
                  "(tu różowe, a1–a2), oddaje przeciwnikowi cały łańcuch: niebieskie zabierają trzy "
                  "kwadraty pod rząd.",
            "en": "A chain of three boxes, each with two sides. Whoever draws in it first (here pink, a1–a2) "
                  "hands the whole chain over: blue takes three boxes in a row.",
        },
        claim=_dab_chain,
    ),
    Diagram(
        key="dab-majority",
        slug="dots_and_boxes",
        params={"rows": 5, "cols": 5},
        moves=("b2-c2", "e2-e3", "e3-e4", "d4-d5", "b3-b4", "e1-e2", "b4-c4", "a5-b5", "d5-d6", "e4-f4",
               "e5-f5", "e1-f1", "d2-d3", "a1-a2", "b4-b5", "b2-b3", "e5-e6", "b6-c6", "c6-d6", "d1-e1",
               "d4-e4", "c4-d4", "a5-a6", "a3-b3", "b1-b2", "c3-d3", "f2-f3", "c1-d1", "b5-c5", "c3-c4",
               "b3-c3", "c2-c3", "c2-d2", "d3-d4", "d3-e3", "d2-e2", "d1-d2", "c1-c2", "b1-c1", "c4-c5",
               "c5-d5", "c5-c6", "b5-b6"),
        show_before=False,
        caption={
            "pl": "Różowe mają 13 z 25 kwadratów — więcej niż połowę. Tego nie da się już odrobić, więc "
                  "partia kończy się od razu, choć część odcinków nie jest narysowana (zasada tego serwisu).",
            "en": "Pink owns 13 of the 25 boxes — more than half. That can no longer be overturned, so the "
                  "game ends at once although some segments are still undrawn (this service's rule).",
        },
        claim=_dab_majority,
    ),
]


DIAGRAMS: dict[str, Diagram] = {d.key: d for d in KROPKI + CONNECT4 + DOTS_AND_BOXES}


def get(key: str) -> Diagram:
    return DIAGRAMS[key]
