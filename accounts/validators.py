from __future__ import annotations

from typing import TYPE_CHECKING

from django.contrib.auth import password_validation
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

if TYPE_CHECKING:
    from .models import User

_SIMILAR = {
    "username": _("The password is too similar to your username."),
    "email": _("The password is too similar to your e-mail address."),
}


class UserAttributeSimilarityValidator(password_validation.UserAttributeSimilarityValidator):
    """Django's check, with a whole sentence per field: Django's one message
    puts the field's name into "%(verbose_name)s", which Polish would have to
    decline ("podobne do nazwy użytkownika", not "do nazwa użytkownika")."""

    def validate(self, password: str, user: User | None = None) -> None:
        for name in self.user_attributes:
            one = password_validation.UserAttributeSimilarityValidator((name,), self.max_similarity)
            try:
                one.validate(password, user)
            except ValidationError:
                message = _SIMILAR.get(name, _("The password is too similar to your other personal information."))
                raise ValidationError(message, code="password_too_similar") from None
