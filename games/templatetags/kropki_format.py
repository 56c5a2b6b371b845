"""Number formatting shared by the templates."""

from typing import SupportsInt

from django import template

register = template.Library()


@register.filter
def signed(value: SupportsInt | str | None) -> SupportsInt | str | None:
    """A rating change as the match page writes it: +12, −12 (a real minus sign, U+2212), ±0."""
    if value is None:  # int(None) raises TypeError: shown as given, like any other non-number
        return value
    try:
        delta = int(value)
    except (TypeError, ValueError):
        return value
    return f"+{delta}" if delta > 0 else f"\u2212{-delta}" if delta < 0 else "\u00b10"
