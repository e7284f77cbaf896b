"""Jobs: creation (and re-run), and the moves of a job through its statuses.

queued → running → success | failed, and queued → failed when a job cannot start. Each move
is one function that locks the row and moves it by Job.pipeline (core.pipeline.move: the
source status checked, Conflict otherwise, the time recorded), appending the status event in
the same transaction. A stale job (selectors.job_is_stale) is failed already for every read:
the worker's late moves of it are refused, and jobs_fail_stale writes its failure."""

import dataclasses
import logging
from datetime import datetime
from pathlib import Path
from typing import Unpack

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.crypto import salted_hmac

from core import metrics
from core.access import owner_refusal
from core.errors import Conflict, Forbidden, InvalidInput, NotFound, TooManyRequests
from core.identity import Identity
from core.inputs import Choice, Inputs, Number, said_alike
from core.pipeline import move
from core.request_ids import request_id_current
from wordclouds import storage
from wordclouds.models import Job, JobEvent, new_id
from wordclouds.selectors import (
    STALE_ERROR,
    artifact_urls,
    failed_fields,
    job_failed_at,
    job_is_stale,
    job_key,
    jobs_stale,
    stale_cutoff,
)
from wordclouds.services.events import job_event_append
from wordclouds.services.job_inputs import (
    JobInputs,
    JobUploads,
    font_id_path,
    font_locked,
    job_inputs_check,
)

logger = logging.getLogger(__name__)


@dataclasses.dataclass(frozen=True)
class JobListQuery:
    status: str | None = None
    limit: int = 100


# GET /api/jobs's query (selectors.job_list reads it); DRF's ValidationError code as before.
JOB_LIST_QUERY = Inputs(
    JobListQuery,
    (
        Choice(
            "status",
            "jobs in this status",
            code="invalid_field",
            choices=tuple(Job.Status.values),
            absent="every status",
        ),
        Number(
            "limit",
            "the most jobs answered",
            code="invalid_field",
            low=1,
            high=1000,
            integer=True,
            **said_alike("{name} must be an integer from {low} to {high}"),
        ),
    ),
)
INPUT_FOLDER = "input"
ENQUEUE_ERROR = "the job could not be handed to a worker; submit it again"
STAGE_DONE = "done"


def job_input_key(job_id: str, name: str) -> str:
    """The storage key of one of the job's inputs (jobs/<id>/input/<name>)."""
    return job_key(job_id, f"{INPUT_FOLDER}/{name}")


def job_input_names(inputs: Job | JobInputs) -> list[str]:
    """The names of the input files stored with the job."""
    return [name for name in (inputs.name_list, inputs.mask_image, inputs.font_file) if name]


class FontGone(Exception):
    """The font chosen for a job (its upload or its font id) no longer exists."""


def job_font_path(job: Job, *, worker: bool = False) -> Path | None:
    """A local file of the font chosen for the job: its uploaded font, else its font id's
    file, else None (the engine's bundled default). FontGone when that file is no longer
    there."""
    if job.font_file:
        try:
            return storage.local_path(job_input_key(job.id, job.font_file), worker=worker)
        except FileNotFoundError:
            raise FontGone from None
    if not job.font_id:
        return None
    path = font_id_path(job.font_id, worker=worker)
    if path is None:
        raise FontGone
    return path


def job_mask_font_path(job: Job, *, worker: bool = False) -> Path | None:
    """A local file of the job's MASK_FONT_ID (the font MASK_TEXT is drawn in), or None when
    it gives none (the job's font draws it). FontGone when that font no longer exists."""
    font_id = (job.params or {}).get("MASK_FONT_ID")
    if not font_id:
        return None
    path = font_id_path(font_id, worker=worker)
    if path is None:
        raise FontGone
    return path


def job_create(*, owner: str = "", client: str | None = None, **uploads: Unpack[JobUploads]) -> Job:
    """Check the inputs in a scratch folder, store them under the job's keys, create the
    queued job (`owner`'s: core.identity's `owner_key`, '' for none; asked for by `client`:
    core.throttles.request_client, None for staff) and enqueue its run once the row is
    committed. A rejected request leaves no file and no row."""
    queued = job_client_check(client=client)
    with storage.scratch_dir("incoming-") as staging:
        inputs = job_inputs_check(folder=staging, **uploads)
        return _job_store(inputs, staging, owner=owner, client=queued)


def job_client_check(*, client: str | None) -> str:
    """The job column of `client` (a keyed hash; '' for staff), once it is known to have
    fewer than MAX_QUEUED_PER_CLIENT jobs queued or running: 429 `too_many_queued_jobs`
    otherwise. Checked before the inputs are: requests at the same moment may pass together."""
    if client is None:
        return ""
    column = salted_hmac("wordclouds.job-client", client).hexdigest()[:32]
    most = settings.MAX_QUEUED_PER_CLIENT
    unfinished = (Job.Status.QUEUED, Job.Status.RUNNING)
    if Job.objects.filter(client=column, status__in=unfinished).count() >= most:
        raise TooManyRequests(
            f"this client has {most} jobs queued or running; wait for one to finish",
            code="too_many_queued_jobs",
            retry_after=10,
        )
    return column


def job_rerun(*, job_id: str) -> Job:
    """A new job from the stored inputs of `job_id` (the admin's re-run action)."""
    job = Job.objects.filter(id=job_id).first()
    if job is not None and job.parent_id:
        raise Conflict(
            "a revision is not run again; make a new revision of its parent",
            code="revision_not_rerun",
        )
    if job is None or not storage.exists(job_input_key(job_id, job.name_list)):
        raise NotFound("job not found", code="job_not_found")
    if job.font_id and font_id_path(job.font_id) is None:
        raise Conflict("the job's font no longer exists", code="job_font_missing")
    with storage.scratch_dir("rerun-") as staging:
        for name in job_input_names(job):
            storage.fetch(job_input_key(job_id, name), staging / name)
        inputs = JobInputs(
            params=job.params,
            name_list=job.name_list,
            mask_image=job.mask_image,
            font_file=job.font_file,
            font_id=job.font_id,
        )
        return _job_store(inputs, staging, owner=job.owner)


def _job_store(inputs: JobInputs, staging: Path, **fields) -> Job:
    """Files first, then the row (with its ``owner`` and ``client``, and a revision's
    ``parent``, ``revision`` and ``edits``); when the row cannot be committed the files saved
    go, and
    only those: a store that fails often hangs, and each delete of a key never written would
    wait out its timeout before the 503. The transaction is a block rather than a decorator
    so that the clean-up also covers a failing commit."""
    job_id = new_id()
    saved = []
    try:
        for name in job_input_names(inputs):
            key = job_input_key(job_id, name)
            storage.save(key, staging / name)
            saved.append(key)
        with transaction.atomic():
            # Locked until commit: the font cannot be deleted before the job names it.
            if inputs.font_id and not font_locked(inputs.font_id):
                raise InvalidInput("unknown font_id", code="font_id_unknown")
            job = Job.objects.create(
                id=job_id,
                params=inputs.params,
                name_list=inputs.name_list,
                mask_image=inputs.mask_image,
                font_file=inputs.font_file,
                font_id=inputs.font_id,
                message="waiting for a worker",
                **fields,
            )
            job_event_append(job=job, type=JobEvent.Type.STATUS, message="job queued")
            transaction.on_commit(lambda: _enqueue(job_id))
    except BaseException:
        storage.delete(saved)
        raise
    return job


def job_owner_check(caller: Identity, job: Job) -> None:
    """403 `not_owner` unless `caller` is staff or the job's owner (one made without a token:
    staff only). A 403, not a 404: whoever asks holds the job's id, which shows the job to
    anyone already (docs/security.md)."""
    hidden = Forbidden("only the job's owner or staff may change it", code="not_owner")
    refused = owner_refusal(caller, job.owner, hidden=hidden)
    if refused is not None:
        raise refused


def _enqueue(job_id: str) -> None:
    """The job's task on the broker, carrying the request's id into the worker's log lines."""
    from django_q.tasks import async_task

    metrics.jobs_submitted.inc()
    logger.info("job %s queued", job_id)
    try:
        async_task("wordclouds.tasks.job_run", job_id, request_id=request_id_current())
    except Exception:
        logger.exception("could not enqueue job %s", job_id)
        job_fail(job_id=job_id, error=ENQUEUE_ERROR, reason="enqueue")


def _job_locked(job_id: str, *, stale_too: bool = False) -> Job:
    """The job's row, locked. A stale job is failed for every read, so a move of it is
    refused (409) like a move of a failed one, unless `stale_too` (writing that failure)."""
    job = Job.objects.select_for_update().filter(id=job_id).first()
    if job is None:
        raise NotFound("job not found", code="job_not_found")
    if job_is_stale(job) and not stale_too:
        raise Conflict(f"job {job_id} lost its worker: {STALE_ERROR}", code="job_stale")
    return job


@transaction.atomic
def job_start(*, job_id: str, worker_pid: int) -> Job:
    """queued → running, owned by the worker process `worker_pid`."""
    job = move(
        _job_locked(job_id), "started", stamp="started_at", worker_pid=worker_pid, message="started"
    )
    job_event_append(job=job, type=JobEvent.Type.STATUS, message="job started")
    return job


@transaction.atomic
def job_progress(
    *, job_id: str, stage: str, percent: int, message: str, artifacts: list[str]
) -> Job:
    """Progress of a running job: a status event when the stage changes, otherwise a log
    event. Progress never decreases and stays below 100 until success."""
    job = _job_locked(job_id)
    new_stage = stage != job.stage
    move(
        job,
        "updated",
        stage=stage,
        progress_percent=min(99, max(job.progress_percent, int(percent))),
        message=message[:500],
        artifacts=artifact_urls(job.id, artifacts),
    )
    event_type = JobEvent.Type.STATUS if new_stage else JobEvent.Type.LOG
    job_event_append(job=job, type=event_type, message=message)
    return job


@transaction.atomic
def job_succeed(*, job_id: str, artifacts: list[str]) -> Job:
    """running → success, progress 100."""
    job = move(
        _job_locked(job_id),
        "succeeded",
        stamp="finished_at",
        stage=STAGE_DONE,
        progress_percent=100,
        message="finished",
        artifacts=artifact_urls(job_id, artifacts),
    )
    job_event_append(job=job, type=JobEvent.Type.STATUS, message="job finished")
    transaction.on_commit(lambda: _counted_finished("success"))
    return job


@transaction.atomic
def job_fail(*, job_id: str, error: str, reason: str) -> Job:
    """queued | running → failed with a sentence the user can act on (409 for a stale job:
    it has failed already, as the worker stopped); `reason` is its kind for the metrics
    (one of metrics.job_failures' few)."""
    return _failed(_job_locked(job_id), error, reason=reason)


def _failed(job: Job, error: str, *, reason: str, at: datetime | None = None) -> Job:
    """Failed with `error`, at `at` (now by default), counted once committed."""
    at = at or timezone.now()
    move(job, "failed", finished_at=at, **failed_fields(error))
    job_event_append(job=job, type=JobEvent.Type.STATUS, message=error, at=at)
    transaction.on_commit(lambda: _counted_finished("failed", reason))
    return job


def _counted_finished(status: str, reason: str = "") -> None:
    metrics.jobs_finished.labels(status).inc()
    if reason:
        metrics.job_failures.labels(reason).inc()


def job_heartbeat(*, job_id: str) -> bool:
    """The worker is still on the job. False once it is no longer running or has gone stale
    (failed for every read meanwhile), which tells the worker to stop; a row this
    connection cannot see (yet) is not a reason to stop."""
    touched = Job.objects.filter(
        id=job_id, status=Job.Status.RUNNING, updated_at__gte=stale_cutoff()
    ).update(updated_at=timezone.now())
    return touched == 1 or not Job.objects.filter(id=job_id).exists()


def jobs_fail_stale() -> int:
    """Writes the failure of every stale job (its worker has not touched it for
    JOB_STALE_SECONDS: the process died, was killed, ran out of memory, the machine
    restarted), which reads show already. Run on the worker's schedule (the supervisor's
    every ping, manage.py runcluster) and when a worker process starts, never by a request.
    Returns how many were failed."""
    stale_ids = list(jobs_stale().values_list("id", flat=True))
    return sum(_job_fail_stale(job_id=stale_id) for stale_id in stale_ids)


@transaction.atomic
def _job_fail_stale(*, job_id: str) -> bool:
    """running (without heartbeat) → failed; re-checked under the lock, since the worker
    may have touched the job since it was listed."""
    job = _job_locked(job_id, stale_too=True)
    if not job_is_stale(job):
        return False
    _failed(
        job, STALE_ERROR, reason="worker_lost", at=job_failed_at(job)
    )  # the time reads have shown
    return True
