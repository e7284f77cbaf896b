"""Retention (docs/deploy.md, "Retention"): jobs older than JOB_RETENTION_DAYS deleted with
their files, events and placements, never one that is kept by staff or referred to — by an
asset made from it, by a revision of it, or by what another app registers (commerce: its
design lists, and so its orders). Each deletion first marks the job `deleting` (reads answer
404 from then on), then removes its files, then its row: a run that stops half-way leaves a
marked job whose files are partly gone, and the next run finishes it; no file is left
without its row, and no shown row without its files."""

import logging
from collections.abc import Callable, Iterable
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from wordclouds import storage
from wordclouds.models import Asset, Job, PlacementSet
from wordclouds.selectors import job_key

logger = logging.getLogger(__name__)
_REFERENCES: list[Callable[[], Iterable[str]]] = []


def job_references_register(source: Callable[[], Iterable[str]]) -> None:
    """Another app's jobs that must stay: ``source()`` yields their ids (commerce's design
    lists register theirs in its AppConfig.ready)."""
    _REFERENCES.append(source)


def jobs_referred_to() -> set[str]:
    ids = set(Asset.objects.exclude(job_id="").values_list("job_id", flat=True))
    ids |= set(Job.objects.exclude(parent=None).values_list("parent_id", flat=True))
    for source in _REFERENCES:
        ids |= set(source())
    return ids


def jobs_expired(*, now: datetime | None = None) -> list[Job]:
    """The jobs the next run deletes: finished before the retention, neither kept nor
    referred to; and any a stopped run left marked."""
    marked = list(Job.objects.filter(deleting=True))
    days = settings.JOB_RETENTION_DAYS
    if days <= 0:
        return marked
    cutoff = (now or timezone.now()) - timedelta(days=days)
    old = Job.objects.filter(
        created_at__lt=cutoff,
        keep=False,
        deleting=False,
        status__in=(Job.Status.SUCCESS, Job.Status.FAILED),
    ).exclude(id__in=jobs_referred_to())
    return marked + list(old.order_by("created_at"))


def job_keys(job_id: str, *, worker: bool = True) -> list[str]:
    """Every stored key under the job's folder."""
    return storage.keys_under(job_key(job_id, "").rstrip("/"), worker=worker)


def retention_plan(*, now: datetime | None = None) -> list[dict]:
    """What the next run deletes: each job's id, creation time, files and bytes."""
    files = storage.files(worker=True)
    plan = []
    for job in jobs_expired(now=now):
        keys = job_keys(job.id)
        with storage.answers("size"):
            size = sum(files.size(key) for key in keys)
        plan.append(
            {"job_id": job.id, "created_at": job.created_at, "files": len(keys), "bytes": size}
        )
    return plan


def retention_run(*, now: datetime | None = None) -> list[str]:
    """Delete the expired jobs; returns their ids. Idempotent: a job already gone is skipped."""
    deleted = []
    for job in jobs_expired(now=now):
        with transaction.atomic():
            marked = Job.objects.filter(id=job.id).update(deleting=True)
        if not marked:
            continue
        files = job_erase(job.id, worker=True)
        logger.info("retention deleted job %s (%d files)", job.id, files)
        deleted.append(job.id)
    return deleted


def job_erase(job_id: str, *, worker: bool = False) -> int:
    """Delete a job marked `deleting`: its files, then its placements and its row (the order
    of the module's docstring); returns how many files went. A store's failure raises, and
    the job stays marked for the next retention run to finish."""
    keys = job_keys(job_id, worker=worker)
    files = storage.files(worker=worker)
    for key in keys:
        with storage.answers("delete"):
            files.delete(key)
    with transaction.atomic():
        PlacementSet.objects.filter(job_id=job_id).delete()
        Job.objects.filter(id=job_id, deleting=True).delete()
    return len(keys)
