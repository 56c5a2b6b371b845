"""Form rendering helpers for templates/accounts/_form.html."""

from __future__ import annotations

from django import template
from django.forms import BoundField
from django.utils.safestring import SafeString

register = template.Library()


@register.simple_tag
def field_widget(field: BoundField) -> SafeString:
    """The field's input. Once a form has field errors, the first field with
    one gets ``autofocus`` and no other does (no script needed to move the
    focus there); Django adds ``aria-invalid`` and ``aria-describedby``."""
    form = field.form
    first = next((f.name for f in form.visible_fields() if f.errors), None)
    if first is None:
        return field.as_widget()
    return field.as_widget(attrs={"autofocus": field.name == first})
