"""Status pipelines (django-oscar's `pipeline` idea): each model with a status declares its
allowed moves in one place, a class attribute `pipeline` mapping the move's verb to a `Move`
(the statuses it may start from, the status it ends in). The services that change a status
read it (commerce/services/transitions.py, wordclouds/services/jobs.py); a new move (a
refund, say) is one more entry there."""

from typing import NamedTuple


class Move(NamedTuple):
    sources: frozenset[str]
    to: str


def move(*sources: str, to: str) -> Move:
    return Move(frozenset(sources), to)


def allowed(record, verb: str) -> Move | None:
    """The declared move `verb` of the record's model, if the record's status is one of its
    sources; None otherwise."""
    declared = type(record).pipeline[verb]
    return declared if record.status in declared.sources else None
