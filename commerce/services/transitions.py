"""The one way a status changes: a move declared in the model's pipeline (core/pipeline.py),
from one of its source states, with the time recorded."""

from django.db import models
from django.utils import timezone

from core.errors import Conflict
from core.pipeline import allowed


def move(record: models.Model, *, verb: str, stamp: str):
    """Moves `record` (already locked by the caller) by its pipeline's move `verb`; 409
    `<subject> cannot be <verb> in status X` from any other state, with nothing changed."""
    declared = allowed(record, verb)
    if declared is None:
        subject = record._meta.verbose_name
        raise Conflict(f"{subject} cannot be {verb} in status {record.status}")
    record.status = declared.to
    setattr(record, stamp, timezone.now())
    record.save(update_fields=["status", stamp, "updated_at"])
    return record
