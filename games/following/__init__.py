"""Following players (issue 40, docs/social.md "Following"): one way, as on lichess. A player
follows another from their profile; ``/obserwowani/`` lists the players one follows (online,
playing now with a link to watch, their last results) and ``/obserwujacy/`` who follows one.
A block removes the follow both ways; an invisible player shows no presence here either."""
