"""The social pages' reads (docs/social.md): a player by the name in the URL."""

from __future__ import annotations

from accounts.models import User
from accounts.usernames import username_fold


def player_by_name(username: str) -> User | None:
    """The account (never a guest) whose name folds to ``username``'s: one query."""
    return User.objects.filter(username_folded=username_fold(username), is_guest=False).first()
