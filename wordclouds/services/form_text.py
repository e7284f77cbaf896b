"""Text fields of the forms the services read themselves (assets, fonts): the same rules as
DRF's text fields, which the schema states for every text input, read as a declared `Text`
(core/inputs.py) reads them."""

from typing import Any

from core.inputs import Text


def form_text(value: Any, *, field: str, limit: int) -> str:
    """`value` stripped; 400 when it is longer than `limit` or holds a NUL character (which
    DRF's text fields refuse and PostgreSQL cannot store)."""
    return Text(field, "", high=limit).parse((value or "").strip())
