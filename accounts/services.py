from __future__ import annotations

from .models import User


def user_set_language(*, user: User, language: str) -> User:
    if language not in User.Language.values:
        raise ValueError(f"unknown language {language!r}")
    if user.language != language:
        user.language = language
        user.save(update_fields=["language"])
    return user
