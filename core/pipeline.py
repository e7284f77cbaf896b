"""Status pipelines (django-oscar's `pipeline` idea): each model with a status declares its
allowed moves in one place, a class attribute `pipeline` mapping the move's verb to the
statuses it may start from and the status it ends in (`allow`), and `move` is the one
function that changes a status, for every model (Job, DesignList, Order, Payment, Refund).

A record is created in its status field's default; every other status is reached by `move`,
never by assigning `status` (tests/test_pipelines.py reads the code for such assignments). A
new move (a refund, say) is one more entry in the model's `pipeline`."""

from typing import NamedTuple

from django.db import models
from django.utils import timezone

from core.errors import Conflict


class Move(NamedTuple):
    sources: frozenset[str]
    to: str


def allow(*sources: str, to: str) -> Move:
    """Declares a move: from any of `sources` to `to`."""
    return Move(frozenset(sources), to)


def allowed(record: models.Model, verb: str) -> Move | None:
    """The declared move `verb` of the record's model, if the record's status is one of its
    sources; None otherwise."""
    declared = type(record).pipeline[verb]
    return declared if record.status in declared.sources else None


def move(record: models.Model, verb: str, *, stamp: str | None = None, **fields):
    """Moves `record` (locked by the caller, inside its transaction) by its pipeline's move
    `verb`: the status becomes the move's target, `stamp` (a time field) now, and `fields`
    their values, saved together. 409 `<subject> cannot be <verb> in status X` from any
    other status, with nothing changed."""
    declared = allowed(record, verb)
    if declared is None:
        subject = record._meta.verbose_name
        raise Conflict(f"{subject} cannot be {verb} in status {record.status}", code="wrong_status")
    changes = {"status": declared.to, **fields}
    if stamp is not None:
        changes[stamp] = timezone.now()
    for name, value in changes.items():
        setattr(record, name, value)
    record.save(update_fields=[*changes, "updated_at"])
    return record
