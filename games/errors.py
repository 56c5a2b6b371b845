"""The one error type of match services, with stable machine-readable codes.

Consumers send ``{"type": "error", "code": ..., "message": ...}``; pages show
the message. Engine error codes pass through unchanged.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

MESSAGES = {
    # engine codes
    "off_board": _("Ten punkt leży poza planszą."),
    "occupied": _("To miejsce jest już zajęte."),
    "inside_territory": _("Ten punkt leży wewnątrz czyjegoś terytorium: nie można tam grać."),
    "column_full": _("Ta kolumna jest pełna."),
    "segment_drawn": _("Ten odcinek jest już narysowany."),
    "not_your_turn": _("Teraz ruch przeciwnika."),
    "player_has_ended": _("Zakończyłeś już grę: nie możesz dalej stawiać kropek."),
    "game_over": _("Gra jest już skończona."),
    "unknown_action": _("Nie ma takiego ruchu w tej grze."),
    # match codes
    "not_a_player": _("Nie grasz w tej partii: możesz ją tylko oglądać."),
    "login_required": _("Zaloguj się, aby grać."),
    "stale_ply": _("Plansza się zmieniła, zanim dotarł twój ruch. Pokazujemy aktualny stan."),
    "match_not_active": _("Ta partia jest już zakończona."),
    "turn_expired": _("Czas na ruch minął."),
    "draw_unavailable": _("Z komputerem nie można umówić się na remis."),
    "turn_not_expired": _("Czas przeciwnika jeszcze nie minął."),
    "no_draw_offer": _("Nie ma propozycji remisu do przyjęcia."),
    "draw_already_offered": _("Propozycja remisu już czeka na odpowiedź."),
    "no_rematch_offer": _("Nie ma propozycji rewanżu do przyjęcia."),
    "rematch_unavailable": _("Rewanż nie jest możliwy."),
    "challenge_not_open": _("To wyzwanie nie jest już aktualne."),
    "own_challenge": _("Nie możesz przyjąć własnego wyzwania."),
    "unknown_variant": _("Nie ma takiego wariantu gry."),
    "not_found": _("Nie ma takiej partii."),
    # frame codes (the WebSocket)
    "bad_json": _("Wiadomość nie jest poprawnym JSON-em."),
    "bad_frame": _("Wiadomość ma złą postać."),
    "unknown_type": _("Nieznany rodzaj wiadomości."),
    "frame_too_large": _("Wiadomość jest za długa."),
    "rate_limited": _("Za dużo wiadomości naraz. Zwolnij trochę."),
}


class MatchError(Exception):
    """A refused request. ``code`` is stable; ``message`` is for people."""

    def __init__(self, code: str, message: str | None = None) -> None:
        self.code = code
        self.message = message if message is not None else str(MESSAGES.get(code, code))
        super().__init__(f"{code}: {self.message}")
