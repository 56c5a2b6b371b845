"""The core's refusal codes (kropki_site/lib/refusals.py): the engine's, a match's, the challenges'
and the chat's, each code with its words and the HTTP status the API answers it with. Registered
when imported: games/apps.py imports it at start-up."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from kropki_site.lib.refusals import register

# the engine's codes any game may use (games/engine/base.py; a game's own: GameSpec.error_words)
register(
    "engine",
    {
        "off_board": (_("This point is off the board."), 400),
        "occupied": (_("This point is already taken."), 400),
        "segment_drawn": (_("This segment is already drawn."), 400),
        "not_your_turn": (_("It is your opponent's turn."), 400),
        "game_over": (_("The game is over."), 400),
        "unknown_action": (_("There is no such move in this game."), 400),
    },
)

# a match and its players (core.py, moves.py, offers.py, creating.py, matchmaking.py, computer.py,
# trust.py, botaccounts.py; docs/bots.md "Limits")
register(
    "match",
    {
        "not_a_player": (_("You are not playing in this match: you can only watch it."), 403),
        # games.catalogue.game_params, challenges.py, computer.py (SPEC.md "Kropki: options")
        "bad_options": (_("These settings do not make a game. Choose again."), 400),
        # imports.py (docs/analysis.md "Import")
        "import_unknown_format": (_("This is neither an SGF game nor a game exported from this site (JSON)."), 400),
        "import_not_sgf": (_("The SGF file could not be read."), 400),
        "import_not_kropki": (
            _("Only Kropki games are read from SGF files; other games import from our JSON."),
            400,
        ),
        "import_setup": (
            _("The game starts from dots the site does not know (only an empty board or one, two or three crosses)."),
            400,
        ),
        "import_bad_move": (_("A move of the game breaks the rules: the game cannot be imported."), 400),
        "import_empty": (_("The game has no moves."), 400),
        "import_too_big": (_("The file is too big for one game."), 400),
        "import_too_often": (_("You have imported many games lately. Try again later."), 429),
        "bad_days": (
            _("A correspondence game has 1, 2, 3, 5, 7 or 14 days a move, and is played between people."),
            400,
        ),
        "options_are_casual": (
            _("A game with its own settings is casual: choose casual, or the game type's own settings."),
            400,
        ),
        "login_required": (_("Log in to play."), 400),
        "account_required": (_("Ranked play and challenges need an account."), 400),
        "stale_ply": (_("The board changed before your move arrived. Showing the current position."), 400),
        "match_not_active": (_("This match is over."), 400),
        "turn_expired": (_("The time for the move ran out."), 400),
        "draw_unavailable": (_("You cannot agree a draw with the computer."), 400),
        "turn_not_expired": (_("Your opponent's time has not run out yet."), 400),
        "no_draw_offer": (_("There is no draw offer to answer."), 400),
        "draw_already_offered": (_("A draw offer is already waiting for an answer."), 400),
        "draw_offer_too_soon": (_("You offered a draw a moment ago. Play a few more moves first."), 400),
        "rematch_already_offered": (_("You have already offered a rematch in this match."), 400),
        "no_rematch_offer": (_("There is no rematch offer to answer."), 400),
        "rematch_unavailable": (_("A rematch is not possible."), 400),
        # takeback.py (docs/protocol.md "Takeback")
        "takeback_not_allowed": (
            _(
                "Moves cannot be taken back in rated or tournament games, only in casual games and against the computer."
            ),
            400,
        ),
        "takeback_limit": (_("You have used all your takebacks in this game."), 400),
        "takeback_nothing": (_("There is no move of yours to take back."), 400),
        "takeback_wait": (_("Wait for the computer's move, then take yours back."), 400),
        "takeback_already_offered": (_("Your takeback request is already waiting for an answer."), 400),
        "no_takeback_offer": (_("There is no takeback request to answer."), 400),
        "unknown_variant": (_("There is no such game variant."), 400),
        "queue_cooldown": (
            _("You cannot join the ranked queue for a while: you did not start your last ranked games."),
            400,
        ),
        "starting_too_often": (_("You are starting games too quickly. Wait a minute, then try again."), 429),
        "computer_busy": (
            _(
                "The computer is busy: many games are waiting for its move. Try again in a minute;"
                " the games already started go on."
            ),
            429,
        ),
        "computer_address_busy": (
            _(
                "Many games against the computer are already being played from your network. Finish one, or try again"
                " in a few minutes; with an account you can play now."
            ),
            429,
        ),
        "not_found": (_("There is no such match."), 404),
        "account_too_new": (
            _("Your account is new: rated games, reports and challenges to players you have not played open later."),
            400,
        ),
        "bot_account": (_("A bot account plays only by direct challenge."), 403),
        "has_games": (_("Only an account that has not played, queued or challenged yet can become a bot."), 400),
        "server_unavailable": (_("The server could not save this just now. Nothing was changed: try again."), 503),
    },
)

# open and direct challenges (challenges.py; docs/protocol.md "Site socket")
register(
    "challenges",
    {
        "challenge_not_open": (_("This challenge is no longer open."), 404),
        "own_challenge": (_("You cannot accept your own challenge."), 400),
        "challenge_expired": (_("This challenge has expired. Ask for a new link."), 400),
        "too_many_challenges": (_("You have too many open challenges. Cancel one, or wait until one expires."), 400),
        "challenges_too_often": (_("You have created many challenges in the last hour. Try again later."), 429),
        "unknown_user": (_("There is no such player."), 400),
        "self_challenge": (_("You cannot challenge yourself."), 400),
        "not_challengeable": (_("This player cannot be challenged: a guest plays only the computer."), 400),
        "already_challenged": (_("You have already challenged this player. Wait for the answer."), 400),
        "too_many_pending": (_("You have too many challenges waiting for an answer. Wait a moment."), 429),
        "only_played_challenge": (_("This player takes challenges only from players they have played."), 400),
        "target_busy": (_("This player has several challenges waiting already. Try again in a minute."), 429),
        "target_challenged_often": (
            _("This player has been challenged many times in the last hour. Try again later."),
            429,
        ),
        "bad_colour": (_("There is no such colour."), 400),
    },
)

# chat lines and reports (chat.py; docs/social.md)
register(
    "chat",
    {
        "chat_empty": (_("The message is empty."), 400),
        "chat_too_long": (_("A chat message may have at most 140 characters."), 400),
        "chat_rate_limited": (_("You are writing too fast. Wait a moment."), 400),
        "not_a_spectator": (_("Players write in the players' chat."), 400),
        "blocked": (_("You cannot write to this player."), 403),
        "chat_closed": (_("The chat of this match is closed."), 400),
        "chat_full": (_("This chat is full: no more messages in this match."), 400),
        "chat_invisible": (_("The message shows nothing: write some visible text."), 400),
        "chat_bidi": (_("The message contains characters that reverse the direction of the text."), 400),
        "chat_marks": (_("The message stacks too many accents on one letter."), 400),
        "report_self": (_("You cannot report yourself."), 400),
        "reports_too_often": (_("You have sent many reports in the last hour. Try again later."), 429),
    },
)

# the live-position guard (guard.py, computer.py, the review; docs/fairplay.md "The live-position guard")
register(
    "fair play guard",
    {
        "rated_game_in_progress": (
            _(
                "You are playing a rated game. Until it ends you cannot start a game against the computer"
                " or ask for the computer's analysis."
            ),
            400,
        ),
        "position_in_rated_match": (
            _(
                "This position stands in a rated game being played right now, so the computer does not play"
                " or analyse it. Try again when that game has moved on (usually within a minute)."
            ),
            400,
        ),
    },
)
