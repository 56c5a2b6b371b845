"""Ending a user's live sockets when their credentials change.

Every socket of a logged-in user joins ``games.realtime.user_group(user.pk)``;
on logout, password change or password reset we ask that group to close
(code 4401). The message is sent after commit, so a rolled-back change closes
nothing.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.signals import user_logged_out
from django.db import transaction
from django.dispatch import receiver


def user_close_sockets_on_commit(*, user_id: int) -> None:
    """Close every open socket of ``user_id`` once the current transaction commits."""
    from games.realtime import close_user_sockets

    transaction.on_commit(lambda: close_user_sockets(user_id))


@receiver(user_logged_out, dispatch_uid="accounts.close_sockets_on_logout")
def _close_sockets_on_logout(sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
    if user is not None and user.pk is not None:
        user_close_sockets_on_commit(user_id=user.pk)
