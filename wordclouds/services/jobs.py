"""Jobs: creation (and re-run), and the moves of a job through its statuses.

queued → running → success | failed, and queued → failed when a job cannot start. Each move
is one function that locks the row, checks the source status (Conflict otherwise), records
the time and appends the status event in the same transaction."""

import logging
from datetime import timedelta
from pathlib import Path

from django.conf import settings
from django.core.files.uploadedfile import UploadedFile
from django.db import transaction
from django.utils import timezone

from core.errors import Conflict, NotFound
from core.pipeline import Move, allowed
from wordclouds import storage
from wordclouds.models import Job, JobEvent, new_id
from wordclouds.selectors import artifact_urls, job_key
from wordclouds.services.events import job_event_append
from wordclouds.services.job_inputs import JobInputs, font_id_path, job_inputs_check

logger = logging.getLogger(__name__)
INPUT_FOLDER = "input"
STALE_ERROR = "the worker stopped while running this job; submit it again"
ENQUEUE_ERROR = "the job could not be handed to a worker; submit it again"
STAGE_DONE = "done"
STAGE_FAILED = "failed"


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


def job_create(
    *,
    params: str | None,
    name_list: UploadedFile | None,
    mask_image: UploadedFile | None = None,
    font_file: UploadedFile | None = None,
    font_id: str = "",
) -> Job:
    """Check the inputs in a scratch folder, store them under the job's keys, create the
    queued job and enqueue its run once the row is committed. A rejected request leaves no
    file and no row."""
    with storage.scratch_dir("incoming-") as staging:
        inputs = job_inputs_check(
            folder=staging,
            params=params,
            name_list=name_list,
            mask_image=mask_image,
            font_file=font_file,
            font_id=font_id,
        )
        return _job_store(inputs, staging)


def job_rerun(*, job_id: str) -> Job:
    """A new job from the stored inputs of `job_id` (the admin's re-run action)."""
    job = Job.objects.filter(id=job_id).first()
    if job is None or not storage.exists(job_input_key(job_id, job.name_list)):
        raise NotFound("job not found")
    if job.font_id and font_id_path(job.font_id) is None:
        raise Conflict("the job's font no longer exists")
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
        return _job_store(inputs, staging)


def _job_store(inputs: JobInputs, staging: Path) -> Job:
    """Files first, then the row; when the row cannot be committed the files saved go, and
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
            job = Job.objects.create(
                id=job_id,
                params=inputs.params,
                name_list=inputs.name_list,
                mask_image=inputs.mask_image,
                font_file=inputs.font_file,
                font_id=inputs.font_id,
                message="waiting for a worker",
            )
            job_event_append(job=job, type=JobEvent.Type.STATUS, message="job queued")
            transaction.on_commit(lambda: _enqueue(job_id))
    except BaseException:
        storage.delete(saved)
        raise
    return job


def _enqueue(job_id: str) -> None:
    from django_q.tasks import async_task

    try:
        async_task("wordclouds.tasks.job_run", job_id)
    except Exception:
        logger.exception("could not enqueue job %s", job_id)
        job_fail(job_id=job_id, error=ENQUEUE_ERROR)


def _job_locked(job_id: str) -> Job:
    job = Job.objects.select_for_update().filter(id=job_id).first()
    if job is None:
        raise NotFound("job not found")
    return job


def _require(job: Job, move: str) -> Move:
    """The declared move, or 409 unless the job's pipeline (Job.pipeline) allows `move` from
    its status."""
    declared = allowed(job, move)
    if declared is None:
        raise Conflict(f"job {job.id} cannot {move} while {job.status}")
    return declared


@transaction.atomic
def job_start(*, job_id: str, worker_pid: int) -> Job:
    """queued → running, owned by the worker process `worker_pid`."""
    job = _job_locked(job_id)
    job.status = _require(job, "start").to
    job.worker_pid = worker_pid
    job.started_at = timezone.now()
    job.message = "started"
    job.save(update_fields=["status", "worker_pid", "started_at", "message", "updated_at"])
    job_event_append(job=job, type=JobEvent.Type.STATUS, message="job started")
    return job


@transaction.atomic
def job_progress(
    *, job_id: str, stage: str, percent: int, message: str, artifacts: list[str]
) -> Job:
    """Progress of a running job: a status event when the stage changes, otherwise a log
    event. Progress never decreases and stays below 100 until success."""
    job = _job_locked(job_id)
    _require(job, "report progress")
    new_stage = stage != job.stage
    job.stage = stage
    job.progress_percent = min(99, max(job.progress_percent, int(percent)))
    job.message = message[:500]
    job.artifacts = artifact_urls(job.id, artifacts)
    job.save(update_fields=["stage", "progress_percent", "message", "artifacts", "updated_at"])
    event_type = JobEvent.Type.STATUS if new_stage else JobEvent.Type.LOG
    job_event_append(job=job, type=event_type, message=message)
    return job


@transaction.atomic
def job_succeed(*, job_id: str, artifacts: list[str]) -> Job:
    """running → success, progress 100."""
    job = _job_locked(job_id)
    job.status = _require(job, "succeed").to
    job.stage = STAGE_DONE
    job.progress_percent = 100
    job.message = "finished"
    job.artifacts = artifact_urls(job.id, artifacts)
    job.finished_at = timezone.now()
    job.save(
        update_fields=[
            "status",
            "stage",
            "progress_percent",
            "message",
            "artifacts",
            "finished_at",
            "updated_at",
        ]
    )
    job_event_append(job=job, type=JobEvent.Type.STATUS, message="job finished")
    return job


@transaction.atomic
def job_fail(*, job_id: str, error: str) -> Job:
    """queued | running → failed with a sentence the user can act on."""
    job = _job_locked(job_id)
    _require(job, "fail")
    return _failed(job, error)


def _failed(job: Job, error: str) -> Job:
    job.status = Job.Status.FAILED
    job.stage = STAGE_FAILED
    job.message = "failed"
    job.error = error
    job.finished_at = timezone.now()
    job.save(update_fields=["status", "stage", "message", "error", "finished_at", "updated_at"])
    job_event_append(job=job, type=JobEvent.Type.STATUS, message=error)
    return job


def job_heartbeat(*, job_id: str) -> bool:
    """The worker is still on the job. False once another status is recorded (failed as
    stale meanwhile), which tells the worker to stop; a row this connection cannot see (yet)
    is not a reason to stop."""
    touched = Job.objects.filter(id=job_id, status=Job.Status.RUNNING).update(
        updated_at=timezone.now()
    )
    return touched == 1 or not Job.objects.filter(id=job_id).exists()


def jobs_fail_stale(*, job_id: str | None = None) -> int:
    """Fail running jobs whose worker has not touched them for JOB_STALE_SECONDS: its
    process died (killed, out of memory, machine restart). Called when the worker starts,
    and when a running job is read or streamed. Returns how many were failed."""
    stale = Job.objects.filter(status=Job.Status.RUNNING, updated_at__lt=_stale_cutoff())
    if job_id is not None:
        stale = stale.filter(id=job_id)
    return sum(_job_fail_stale(job_id=stale_id) for stale_id in stale.values_list("id", flat=True))


@transaction.atomic
def _job_fail_stale(*, job_id: str) -> bool:
    """running (without heartbeat) → failed; re-checked under the lock, since the worker
    may have touched the job since it was listed."""
    job = _job_locked(job_id)
    if job.status != Job.Status.RUNNING or job.updated_at >= _stale_cutoff():
        return False
    _failed(job, STALE_ERROR)
    return True


def _stale_cutoff():
    return timezone.now() - timedelta(seconds=settings.JOB_STALE_SECONDS)
