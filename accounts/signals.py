"""Signals accounts sends when a user's credentials change.

``credentials_changed`` goes out (from ``accounts/views.py``) after a password
change or reset; Django's own ``user_logged_out`` covers logging out. The
games app listens to both and closes that user's open sockets after commit
(``games/receivers.py``): accounts knows nothing of sockets.
"""

from __future__ import annotations

from django.dispatch import Signal

# sent with user_id=<int> and, after a password change, session=(old key, new key, new auth hash):
# every session of that user other than this one is over; the one that changed it lives on
# under its new key (Django cycles it), and its open sockets with it.
credentials_changed = Signal()

# sent with user_id=<int> and token_id=<int>, or None for every token of the account (it was
# deleted): the account's open API streams on those tokens end after commit (games/receivers.py).
tokens_revoked = Signal()
