"""The two ways a word-cloud run can fail: bad input, or names that do not fit."""


class InputError(Exception):
    """An input the caller must fix; ``str(error)`` is the user-facing detail text."""


class WorkbookTooLarge(InputError):
    """A part of an uploaded workbook unpacks to more than its cap (engine/xlsx.py)."""


class LayoutError(Exception):
    """Some names could not be placed; the message says how many and what to change."""
