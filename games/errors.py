"""The one error type of match services, with stable machine-readable codes.

Consumers send ``{"type": "error", "code": ..., "message": ...}``; pages show
the message. Engine error codes pass through unchanged.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

MESSAGES = {
    # engine codes any game may use (a game's own: GameSpec.error_words)
    "off_board": _("This point is off the board."),
    "occupied": _("This point is already taken."),
    "segment_drawn": _("This segment is already drawn."),
    "not_your_turn": _("It is your opponent's turn."),
    "game_over": _("The game is over."),
    "unknown_action": _("There is no such move in this game."),
    # match codes
    "not_a_player": _("You are not playing in this match: you can only watch it."),
    "login_required": _("Log in to play."),
    "account_required": _("Ranked play and challenges need an account."),
    "stale_ply": _("The board changed before your move arrived. Showing the current position."),
    "match_not_active": _("This match is over."),
    "turn_expired": _("The time for the move ran out."),
    "draw_unavailable": _("You cannot agree a draw with the computer."),
    "turn_not_expired": _("Your opponent's time has not run out yet."),
    "no_draw_offer": _("There is no draw offer to answer."),
    "draw_already_offered": _("A draw offer is already waiting for an answer."),
    "draw_offer_too_soon": _("You offered a draw a moment ago. Play a few more moves first."),
    "rematch_already_offered": _("You have already offered a rematch in this match."),
    "no_rematch_offer": _("There is no rematch offer to answer."),
    "rematch_unavailable": _("A rematch is not possible."),
    "challenge_not_open": _("This challenge is no longer open."),
    "own_challenge": _("You cannot accept your own challenge."),
    "challenge_expired": _("This challenge has expired. Ask for a new link."),
    "too_many_challenges": _("You have too many open challenges. Cancel one, or wait until one expires."),
    "challenges_too_often": _("You have created many challenges in the last hour. Try again later."),
    "unknown_variant": _("There is no such game variant."),
    "queue_cooldown": _("You cannot join the ranked queue for a while: you did not start your last ranked games."),
    # starting matches (games/play/computer.py, docs/bots.md "Limits")
    "starting_too_often": _("You are starting games too quickly. Wait a minute, then try again."),
    "computer_busy": _(
        "The computer is busy: many games are waiting for its move. Try again in a minute;"
        " the games already started go on."
    ),
    "computer_address_busy": _(
        "Many games against the computer are already being played from your network. Finish one, or try again"
        " in a few minutes; with an account you can play now."
    ),
    "not_found": _("There is no such match."),
    # frame codes (the WebSocket)
    "bad_json": _("The message is not valid JSON."),
    "bad_frame": _("The message has the wrong shape."),
    "unknown_type": _("Unknown message type."),
    "frame_too_large": _("The message is too long."),
    "rate_limited": _("Too many messages at once. Slow down a little."),
    # chat codes (games/play/chat.py)
    "chat_empty": _("The message is empty."),
    "chat_too_long": _("A chat message may have at most 140 characters."),
    "chat_rate_limited": _("You are writing too fast. Wait a moment."),
    "not_a_spectator": _("Players write in the players' chat."),
    "blocked": _("You cannot write to this player."),
    "chat_closed": _("The chat of this match is closed."),
    "chat_full": _("This chat is full: no more messages in this match."),
    "chat_invisible": _("The message shows nothing: write some visible text."),
    "chat_bidi": _("The message contains characters that reverse the direction of the text."),
    "chat_marks": _("The message stacks too many accents on one letter."),
    "report_self": _("You cannot report yourself."),
    "reports_too_often": _("You have sent many reports in the last hour. Try again later."),
    # direct challenges and the site socket (games/play/challenges.py, docs/protocol.md "Site socket")
    "unknown_user": _("There is no such player."),
    "self_challenge": _("You cannot challenge yourself."),
    "not_challengeable": _("This player cannot be challenged: a guest plays only the computer."),
    "already_challenged": _("You have already challenged this player. Wait for the answer."),
    "too_many_pending": _("You have too many challenges waiting for an answer. Wait a moment."),
    "only_played_challenge": _("This player takes challenges only from players they have played."),
    "target_busy": _("This player has several challenges waiting already. Try again in a minute."),
    "target_challenged_often": _("This player has been challenged many times in the last hour. Try again later."),
    "bad_colour": _("There is no such colour."),
    # new accounts (games/play/trust.py)
    "account_too_new": _(
        "Your account is new: rated games, reports and challenges to players you have not played open later."
    ),
    # the computer's review of a finished match (games/review/services.py)
    "analysis_guest": _("The computer's analysis needs an account. Sign up: your games so far stay yours."),
    "analysis_not_finished": _("Only a finished match can be analysed."),
    "analysis_unavailable": _("The computer cannot analyse this game yet."),
    "analysis_busy": _("Your analysis of another match is still running. Wait until it is done."),
    "analysis_daily_cap": _("You have asked for many analyses today. Try again tomorrow."),
    # arenas (games/tournaments/services.py, docs/tournaments.md)
    "tournament_account": _("Tournaments need an account. Sign up: your games so far stay yours."),
    "tournament_bot": _("Computer players do not take part in tournaments."),
    "tournament_not_found": _("There is no such tournament."),
    "tournament_finished": _("This tournament is over: you can no longer join it."),
    "tournament_not_joined": _("You are not playing in this tournament."),
    "tournament_in_game": _("Finish your game first: you can withdraw from the tournament between games."),
    "tournament_bad_settings": _("Choose the tournament's settings from the form's options."),
    "tournament_too_many": _("You already have two tournaments that have not ended. Wait until one is over."),
    "tournament_too_often": _("You have made many tournaments today. Try again tomorrow."),
    "berserk_not_tournament": _("Berserk is only for tournament games."),
    "berserk_twice": _("You have already gone berserk in this game."),
    "berserk_too_late": _("Berserk is only possible before your first move."),
    # bot accounts and the API (games/play/botaccounts.py, games/api/, docs/api.md)
    "bot_account": _("A bot account plays only by direct challenge."),
    "not_a_bot": _("Only a bot account can do this: turn the account into a bot first (Settings)."),
    "has_games": _("Only an account that has not played, queued or challenged yet can become a bot."),
    "token_missing": _("This needs a personal access token: Authorization: Bearer <token>."),
    "token_invalid": _("The token is wrong, revoked, or its account is closed."),
    "token_scope": _("The token has no scope for this."),
    "too_many_streams": _("Too many streams are open for this account. Close one first."),
    "method_not_allowed": _("This address does not take this method."),
    "unknown_endpoint": _("There is no such API address."),
    # the server
    "server_unavailable": _("The server could not save this just now. Nothing was changed: try again."),
}


class MatchError(Exception):
    """A refused request. ``code`` is stable; ``message`` is for people."""

    def __init__(self, code: str, message: str | None = None) -> None:
        self.code = code
        self._message = message
        super().__init__(code if message is None else f"{code}: {message}")

    @property
    def message(self) -> str:
        """In the language active where it is read (a socket's, a page's)."""
        return self._message if self._message is not None else message(self.code)


# The games' own move errors (GameSpec.error_words), added by games.catalogue.register.
GAME_MESSAGES: dict[str, Any] = {}


def message(code: str) -> str:
    """The words of ``code`` in the active language: the site's or a game's own;
    the code itself if nobody words it."""
    words = MESSAGES.get(code) or GAME_MESSAGES.get(code)
    return str(words) if words is not None else code
