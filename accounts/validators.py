from __future__ import annotations

from django.contrib.auth import password_validation
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

_SIMILAR = {
    "username": _("The password is too similar to your username."),
    "email": _("The password is too similar to your e-mail address."),
}


class UserAttributeSimilarityValidator(password_validation.UserAttributeSimilarityValidator):
    """Django's check, with a whole sentence per field: Django's one message
    puts the field's name into "%(verbose_name)s", which Polish would have to
    decline ("podobne do nazwy użytkownika", not "do nazwa użytkownika")."""

    def validate(self, password, user=None):
        for name in self.user_attributes:
            one = password_validation.UserAttributeSimilarityValidator((name,), self.max_similarity)
            try:
                one.validate(password, user)
            except ValidationError:
                message = _SIMILAR.get(name, _("The password is too similar to your other personal information."))
                raise ValidationError(message, code="password_too_similar") from None
