"""The one way a status changes: from an allowed source state, with the time recorded."""

from django.db import models
from django.utils import timezone

from config.errors import Conflict


def move(record: models.Model, *, to: str, sources: set[str], verb: str, stamp: str):
    """Moves `record` (already locked by the caller) to `to`; 409 `<subject> cannot be <verb>
    in status X` from any other state, with nothing changed."""
    if record.status not in sources:
        subject = record._meta.verbose_name
        raise Conflict(f"{subject} cannot be {verb} in status {record.status}")
    record.status = to
    setattr(record, stamp, timezone.now())
    record.save(update_fields=["status", stamp, "updated_at"])
    return record
