"""Number formatting shared by the templates."""

from django import template

register = template.Library()


@register.filter
def signed(value) -> str:
    """A rating change as the match page writes it: +12, −12 (a real minus sign, U+2212), ±0."""
    try:
        delta = int(value)
    except (TypeError, ValueError):
        return value
    return f"+{delta}" if delta > 0 else f"\u2212{-delta}" if delta < 0 else "\u00b10"
