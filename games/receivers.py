"""What games does when accounts signal a change: a user who logs out or
changes their password has every open socket closed (code 4401), after commit,
so a rolled-back change closes nothing."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.signals import user_logged_out
from django.db import transaction
from django.dispatch import receiver

from accounts.signals import credentials_changed, tokens_revoked
from games.live.transport import close_user_sockets, end_api_streams


def close_sockets_on_commit(user_id: int, session: tuple[str, str, str] | None = None) -> None:
    transaction.on_commit(lambda: close_user_sockets(user_id, session))


@receiver(user_logged_out, dispatch_uid="games.close_sockets_on_logout")
def _on_logout(sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
    if user is not None and user.pk is not None:
        close_sockets_on_commit(user.pk)


@receiver(credentials_changed, dispatch_uid="games.close_sockets_on_credentials")
def _on_credentials_changed(
    sender: Any, user_id: int, session: tuple[str, str, str] | None = None, **kwargs: Any
) -> None:
    close_sockets_on_commit(user_id, session)


@receiver(tokens_revoked, dispatch_uid="games.end_streams_on_revoke")
def _on_tokens_revoked(sender: Any, user_id: int, token_id: int | None, **kwargs: Any) -> None:
    transaction.on_commit(lambda: end_api_streams(user_id, token_id))
