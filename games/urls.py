from django.urls import include, path, register_converter

from accounts.usernames import UsernameConverter

from .views import (
    apihelp,
    botaccount,
    challenge,
    chat,
    computer,
    home,
    imports,
    lobby,
    match,
    mine,
    privacy,
    profile,
    ranking,
    record,
    rules,
    social,
)

register_converter(UsernameConverter, "username")

urlpatterns = [
    path("", home.home, name="home"),
    path("api/", include("games.api.urls")),  # docs/api.md
    path("zasady/", rules.rules_index, name="rules_index"),
    path("zasady/<slug:slug>/", rules.rules, name="rules"),
    path("faq/", rules.faq, name="faq"),
    path("pomoc/api/", apihelp.api_help, name="api_help"),  # docs/api.md as a page
    path("prywatnosc/", privacy.privacy, name="privacy"),
    path("konto/moje-dane.json", privacy.account_download, name="account_download"),
    path(
        "konto/usun/", privacy.account_delete_view, name="account_delete"
    ),  # one address in both languages, like every page
    path("konto/bot/", botaccount.become_bot, name="become_bot"),  # docs/api.md "Bot accounts"
    path("graj/", lobby.lobby, name="lobby"),
    path("moje-partie/", mine.my_games_page, name="my_games"),
    path("import/", imports.import_game, name="import_game"),
    path("graj/lista/", lobby.lobby_lists, name="lobby_lists"),
    path("graj/kolejka/", lobby.queue_page, name="queue"),
    path("graj/kolejka/dolacz/", lobby.queue_join, name="queue_join"),
    path("graj/kolejka/anuluj/", lobby.queue_cancel, name="queue_cancel"),
    path("graj/kolejka/stan/", lobby.queue_status, name="queue_status"),
    path("gracz/<username:username>/", profile.profile, name="profile"),
    path("gracz/<username:username>/blokuj/", social.block, name="block"),
    path("gracz/<username:username>/odblokuj/", social.unblock, name="unblock"),
    path("ranking/", ranking.ranking, name="ranking"),
    path("ranking/<slug:variant>/", ranking.ranking, name="ranking_variant"),
    path("partia/<int:match_id>/zapis/", record.record, name="record"),
    path("partia/<int:match_id>/zapis/klatka/<int:ply>/", record.record_frame, name="record_frame"),
    path("", include("games.following.urls")),  # following players: /obserwowani/ (docs/social.md)
    path("", include("games.notifications.urls")),  # /powiadomienia/ (docs/social.md "Notifications")
    path("", include("games.review.urls")),  # the computer's review: partia/<id>/analiza/ (docs/analysis.md)
    path("", include("games.puzzles.urls")),  # puzzles: /zadania/ (docs/puzzles.md)
    path("partia/<int:match_id>/eksport.json", record.export_json, name="export_json"),
    path("partia/<int:match_id>/eksport.sgf", record.export_sgf, name="export_sgf"),
    path("graj/komputer/", computer.play_computer, name="play_computer"),
    path("partia/<int:match_id>/", match.match_page, name="match"),
    path("partia/<int:match_id>/plansza/<int:ply>/", match.match_board, name="match_board"),
    path("partia/<int:match_id>/zglos/", chat.chat_report, name="chat_report"),
    path("", include("games.tournaments.urls")),  # the arenas: /turnieje/, a game's berserk
    path("wyzwanie/", challenge.challenge_new, name="challenge_new"),
    path("wyzwanie/<str:token>/", challenge.challenge_page, name="challenge"),
    path("wyzwanie/<str:token>/przyjmij/", challenge.challenge_accept_view, name="challenge_accept"),
    path("wyzwanie/<str:token>/anuluj/", challenge.challenge_cancel_view, name="challenge_cancel"),
    path("wyzwanie/<str:token>/stan/", challenge.challenge_status, name="challenge_status"),
]
