"""Notifications (issue 40): what a player hears of when the page is not open, and the list in
the header. The core and the features tell ``games.hooks.notice``; this feature keeps a row for
each (the list, the unread count over the site socket) and, for the kinds a player chose, sends
an e-mail to a verified address from a sweep (the rows are the outbox). docs/social.md
"Notifications"."""
