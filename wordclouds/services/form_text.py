"""Text fields of the forms the services read themselves (assets, fonts, projects): the same
rules as DRF's text fields, which the schema states for every text input."""

from typing import Any

from core.errors import InvalidInput


def form_text(value: Any, *, field: str, limit: int) -> str:
    """`value` stripped; 400 when it is longer than `limit` or holds a NUL character (which
    DRF's text fields refuse and PostgreSQL cannot store)."""
    text = (value or "").strip()
    if "\x00" in text:
        raise InvalidInput(f"{field} must not contain NUL characters", code="text_contains_nul")
    if len(text) > limit:
        raise InvalidInput(f"{field} must be at most {limit} characters", code="text_too_long")
    return text
