"""The app's reads: where a job's files (its zoom tiles among them) live, finding a job
whether or not it has a database record, a job's positions database, assets and projects.

A job's files are kept under the keys `jobs/<id>/...` of the file storage
(wordclouds/storage.py). A job folder that holds a finished position database but has no
record is a successful job for every job endpoint (docs/architecture.md, "Job folders
without a record")."""

import json
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from functools import lru_cache
from pathlib import Path

from django.conf import settings
from django.db.models import OuterRef, Q, QuerySet, Subquery
from django.utils import timezone

from core.access import owner_refusal
from core.errors import NotFound
from core.identity import Identity
from wordclouds import engine, storage
from wordclouds.drawing.tiles import FOLDER as TILES_FOLDER
from wordclouds.drawing.tiles import INDEX as TILES_INDEX
from wordclouds.drawing.tiles import TILE_FORMAT, TILE_SIZE
from wordclouds.engine.positions import read_canvas
from wordclouds.models import Asset, Job, JobEvent, Project

# kind -> (content type, download extension) of each file the engine writes
DOWNLOADS = {
    "png": ("image/png", "png"),
    "svg": ("image/svg+xml", "svg"),
    "svg_stroke": ("image/svg+xml", "svg"),
    "db": ("application/vnd.sqlite3", "db"),
    "metrics": ("application/json", "json"),
}
# kind -> (file name in the job directory, content type, download extension)
ARTIFACTS = {kind: (name, *DOWNLOADS[kind]) for kind, name in engine.ARTIFACTS.items()}


JOBS = "jobs"
# A running job untouched by its worker for JOB_STALE_SECONDS has lost it (killed, out of
# memory, machine restart) and is failed with this sentence. Reads show it failed from that
# moment on; the row is written on the worker's schedule or at the next start
# (services/jobs.py, jobs_fail_stale): a GET never writes (docs/architecture.md).
STALE_ERROR = "the worker stopped while running this job; submit it again"
STAGE_FAILED = "failed"


def is_job_id(text: str) -> bool:
    return len(text) == 32 and all(c in "0123456789abcdef" for c in text)


def job_id_checked(job_id: str) -> str:
    """The job id itself; job ids are 32 hex characters, anything else is not a job (404)."""
    if not is_job_id(job_id):
        raise NotFound("job not found", code="job_not_found")
    return job_id


def job_key(job_id: str, name: str) -> str:
    """The storage key of a file of the job."""
    return f"{JOBS}/{job_id_checked(job_id)}/{name}"


def artifact_key(job_id: str, kind: str) -> str:
    """404 `unknown artifact kind`."""
    if kind not in ARTIFACTS:
        raise NotFound("unknown artifact kind", code="artifact_kind_unknown")
    return job_key(job_id, ARTIFACTS[kind][0])


def artifact_path(job_id: str, kind: str) -> Path:
    """A local file holding a finished artifact (storage.local_path); 404 `unknown artifact
    kind` / `artifact not ready`. The caller has already established that the job exists."""
    try:
        return storage.local_path(artifact_key(job_id, kind))
    except FileNotFoundError:
        raise NotFound("artifact not ready", code="artifact_not_ready") from None


@dataclass(frozen=True)
class JobView:
    """What every job endpoint shows of a job, whether it has a record or is only a
    finished directory on disk (`record` is None then)."""

    job_id: str
    status: str
    stage: str
    progress_percent: int
    message: str
    error: str
    artifacts: dict[str, str]
    created_at: datetime
    updated_at: datetime
    record: Job | None = None
    parent_job_id: str | None = None
    revision: int = 0


def artifact_url(job_id: str, kind: str, *, inline: bool = False) -> str:
    """The download path of one of a job's files (`inline`: shown in the browser)."""
    return f"/api/jobs/{job_id}/files/{kind}" + ("?inline=1" if inline else "")


def artifact_urls(job_id: str, kinds) -> dict[str, str]:
    """The `artifacts` map of a job: each kind to its download path, in ARTIFACTS order."""
    return {kind: artifact_url(job_id, kind) for kind in ARTIFACTS if kind in kinds}


def project_image_url(project: Project) -> str:
    return f"/api/projects/{project.id}/render.png"


def failed_fields(error: str) -> dict:
    """What a failed job shows besides its status: its stage, message and error."""
    return {"stage": STAGE_FAILED, "message": "failed", "error": error}


def stale_cutoff() -> datetime:
    """Running jobs last touched before this moment have lost their worker."""
    return timezone.now() - timedelta(seconds=settings.JOB_STALE_SECONDS)


def jobs_stale() -> QuerySet[Job]:
    """The running jobs whose worker has not touched them for JOB_STALE_SECONDS."""
    return Job.objects.filter(status=Job.Status.RUNNING, updated_at__lt=stale_cutoff())


def job_is_stale(job: Job) -> bool:
    """The job is running and its worker has not touched it for JOB_STALE_SECONDS: it is
    failed, whether or not its row says so yet."""
    return job.status == Job.Status.RUNNING and job.updated_at < stale_cutoff()


def job_status_shown(job: Job) -> str:
    """The job's status as every read shows it: a stale job is failed."""
    return Job.Status.FAILED if job_is_stale(job) else job.status


def job_failed_at(job: Job) -> datetime:
    """When a stale job failed: JOB_STALE_SECONDS after its worker last touched it (the time
    reads show, and the time its written failure keeps)."""
    return job.updated_at + timedelta(seconds=settings.JOB_STALE_SECONDS)


def _view_of_record(job: Job) -> JobView:
    view = JobView(
        job_id=job.id,
        status=job.status,
        stage=job.stage,
        progress_percent=job.progress_percent,
        message=job.message,
        error=job.error,
        artifacts=artifact_urls(job.id, job.artifacts),
        created_at=job.created_at,
        updated_at=job.updated_at,
        record=job,
        parent_job_id=job.parent_id,
        revision=job.revision,
    )
    if job_is_stale(job):
        return replace(view, status=Job.Status.FAILED, **failed_fields(STALE_ERROR))
    return view


def _view_of_directory(job_id: str) -> JobView:
    """A finished folder without a record: a successful job dated by its position database."""
    files = storage.files()
    with storage.answers("stat"):
        modified = files.get_modified_time(artifact_key(job_id, "db")).astimezone(UTC)
        present = [kind for kind in ARTIFACTS if files.exists(artifact_key(job_id, kind))]
    return JobView(
        job_id=job_id,
        status=Job.Status.SUCCESS,
        stage="done",
        progress_percent=100,
        message="finished",
        error="",
        artifacts=artifact_urls(job_id, present),
        created_at=modified,
        updated_at=modified,
    )


def _is_finished_folder(job_id: str) -> bool:
    return storage.exists(artifact_key(job_id, "db"))


def job_get(job_id: str) -> JobView:
    """The job with this id: its record, else a finished folder that has no record;
    404 `job not found` otherwise. A stale job (job_is_stale) shows as failed."""
    job_key(job_id, "")
    job = _with_last_event_id(Job.objects.filter(id=job_id)).first()
    if job is not None and job.deleting:
        raise NotFound(
            "job not found", code="job_not_found"
        )  # retention is removing it (services/retention.py)
    if job is not None:
        return _view_of_record(job)
    if _is_finished_folder(job_id):
        return _view_of_directory(job_id)
    raise NotFound("job not found", code="job_not_found")


def job_list(
    *, owner: str | None = None, status: str | None = None, limit: int = 100
) -> list[JobView]:
    """Jobs newest first: `owner`'s (a customer's `owner_key`), or every job (None, for staff):
    records, and then (local folder only) finished folders that have no record."""
    jobs = Job.objects.filter(deleting=False)
    if owner is not None:
        jobs = jobs.filter(owner=owner)
    if status:
        jobs = jobs.filter(_shown_with_status(status))
    views = [_view_of_record(job) for job in jobs[:limit]]
    if owner is None and status in (None, "", Job.Status.SUCCESS):
        views += _record_less_finished_jobs()
    views.sort(key=lambda view: view.created_at, reverse=True)
    return views[:limit]


def _record_less_finished_jobs() -> list[JobView]:
    """Folders put into MEDIA_ROOT/jobs by hand. The bucket is never listed: there every job
    has its row (`manage.py media_to_store` makes one for each such folder it copies)."""
    files = storage.files()
    if not storage.is_local(files) or not files.exists(JOBS):
        return []
    ids = {name for name in files.listdir(JOBS)[0] if is_job_id(name)}
    ids -= set(Job.objects.filter(id__in=ids).values_list("id", flat=True))
    return [_view_of_directory(job_id) for job_id in ids if _is_finished_folder(job_id)]


def job_queue_position(view: JobView) -> int | None:
    """How many queued jobs wait ahead of a queued job (anyone's, created before it: the
    queue's order); None unless it is queued. A count, naming no job: whoever holds the id
    reads it (the studio without signing in, docs/api.md)."""
    if view.status != Job.Status.QUEUED:
        return None
    ahead = Job.objects.filter(_shown_with_status(Job.Status.QUEUED), deleting=False)
    return ahead.filter(created_at__lt=view.created_at).count()


def _shown_with_status(status: str) -> Q:
    """The jobs a read shows with `status`: a stale job is failed, not running."""
    stale = Q(status=Job.Status.RUNNING, updated_at__lt=stale_cutoff())
    if status == Job.Status.RUNNING:
        return Q(status=status) & ~stale
    if status == Job.Status.FAILED:
        return Q(status=status) | stale
    return Q(status=status)


def _with_last_event_id(jobs: QuerySet[Job]) -> QuerySet[Job]:
    """Each job with `last_event_id`, read in the same statement as its status, so that a
    stale job's failure is shown under the id its write will take (_stale_failure)."""
    last = JobEvent.objects.filter(job=OuterRef("pk")).order_by("-seq").values("seq")[:1]
    return jobs.annotate(last_event_id=Subquery(last))


def job_with_last_event_id(job_id: str) -> Job | None:
    """The job's record with `last_event_id`, or None."""
    return _with_last_event_id(Job.objects.filter(id=job_id)).first()


def job_last_event_id(job: Job) -> int:
    """The id of the last event a read shows of the job (`job` from job_get or
    job_with_last_event_id): its stale failure's, while that is not written."""
    failure = _stale_failure(job)
    return failure.seq if failure else job.last_event_id or 0


def _stale_failure(job: Job) -> JobEvent | None:
    """The status event that failing a stale job appends (the same id, stage, progress and
    sentence), shown by reads until it is written; None for a job that is not stale."""
    if not job_is_stale(job):
        return None
    return JobEvent(
        job=job,
        seq=(job.last_event_id or 0) + 1,
        type=JobEvent.Type.STATUS,
        stage=STAGE_FAILED,
        progress_percent=job.progress_percent,
        message=STALE_ERROR,
        timestamp=job_failed_at(job),
    )


def _with_stale_failure(job: Job, events: list[JobEvent], after: int) -> list[JobEvent]:
    """`events` and, last, the stale job's failure when it is after `after` and not among
    them (written since the job was read)."""
    failure = _stale_failure(job)
    if failure is None or failure.seq <= after or any(e.seq == failure.seq for e in events):
        return events
    return [*events, failure]


def job_events_after(*, job: Job, after: int = 0, limit: int) -> list[JobEvent]:
    """The job's events with seq > after, oldest first, at most `limit`; a stale job's
    failure comes last (when there is room) until it is written. `job` from
    job_with_last_event_id."""
    events = list(JobEvent.objects.filter(job_id=job.id, seq__gt=after).order_by("seq")[:limit])
    return events if len(events) == limit else _with_stale_failure(job, events, after)


def job_recent_events(view: JobView, count: int = 50) -> list[JobEvent]:
    """The last `count` events a read shows of the job (view from job_get), oldest first."""
    if view.record is None:
        return []
    latest = JobEvent.objects.filter(job_id=view.job_id).order_by("-seq")[:count]
    return _with_stale_failure(view.record, list(reversed(latest)), 0)[-count:]


def tiles_index(*, job_id: str) -> dict:
    """404 `job not found`, or `artifact not ready` before the worker stored the pyramid (a
    job from before tiles existed has none: the page shows its PNG instead)."""
    job_get(job_id)
    return _stored_tiles_index(job_id)


@lru_cache(maxsize=256)
def _stored_tiles_index(job_id: str) -> dict:
    """A stored index never changes (a missing one is not kept: it may come)."""
    try:
        return json.loads(storage.read_bytes(job_key(job_id, f"{TILES_FOLDER}/{TILES_INDEX}")))
    except FileNotFoundError:
        raise NotFound("artifact not ready", code="artifact_not_ready") from None


def tile_key(*, job_id: str, level: int, column: int, row: int) -> str:
    """The storage key of one tile; 404 `tile not found` outside the pyramid, judged from
    its index (no request to the store)."""
    index = tiles_index(job_id=job_id)
    if not 0 <= level < index["levels"]:
        raise NotFound("tile not found", code="tile_not_found")
    width, height = index["width"], index["height"]
    for _ in range(index["levels"] - 1 - level):
        width, height = -(-width // 2), -(-height // 2)
    if not (0 <= column < -(-width // TILE_SIZE) and 0 <= row < -(-height // TILE_SIZE)):
        raise NotFound("tile not found", code="tile_not_found")
    return job_key(job_id, f"{TILES_FOLDER}/{level}/{column}_{row}.{TILE_FORMAT}")


def asset_get(asset_id: str) -> Asset:
    asset = Asset.objects.filter(id=asset_id).first()
    if asset is None:
        raise NotFound("asset not found", code="asset_not_found")
    return asset


def asset_list(*, type: str = "", job_id: str = "") -> QuerySet[Asset]:
    """Newest first; the filters that are given apply together."""
    assets = Asset.objects.order_by("-created_at", "id")
    if type:
        assets = assets.filter(type=type)
    if job_id:
        assets = assets.filter(job_id=job_id)
    return assets


def project_get(project_id: str, *, caller: Identity | None = None) -> Project:
    """The project; with `caller`, only if they may see it: another customer's (or one staff
    made) is 404, as if it did not exist (docs/security.md)."""
    project = Project.objects.select_related("template").filter(id=project_id).first()
    missing = NotFound("project not found", code="project_not_found")
    if project is None:
        raise missing
    if caller is not None and owner_refusal(caller, project.owner, hidden=missing) is not None:
        raise missing
    return project


def project_list(*, owner: str | None = None) -> QuerySet[Project]:
    """Newest first: `owner`'s (a customer's `owner_key`), or every project (None: staff)."""
    projects = Project.objects.order_by("-created_at", "id")
    return projects if owner is None else projects.filter(owner=owner)


def canvas_size(db_path: Path) -> tuple[int | float, int | float]:
    """The canvas of a job's positions.db as the answers give it (`number`)."""
    width, height = read_canvas(db_path)
    return number(width), number(height)


def number(value) -> int | float:
    """A number as the answers give it: an int when whole (a canvas of 400, not 400.0)."""
    value = float(value)
    return int(value) if value.is_integer() else value
