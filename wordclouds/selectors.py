"""The app's reads: where a job's files (its zoom tiles among them) live, finding a job
whether or not it has a database record, a job's positions database, assets and projects.

A directory under MEDIA_ROOT/jobs/ that holds a finished position database but has no
record is a successful job for every job endpoint (docs/architecture.md)."""

import json
import sqlite3
from collections.abc import Iterator
from contextlib import closing, contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from django.conf import settings
from django.db.models import QuerySet

from core.errors import NotFound
from wordclouds import engine
from wordclouds.drawing.tiles import FOLDER as TILES_FOLDER
from wordclouds.drawing.tiles import INDEX as TILES_INDEX
from wordclouds.drawing.tiles import TILE_FORMAT
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


def jobs_root() -> Path:
    return Path(settings.MEDIA_ROOT) / "jobs"


def _is_job_id(text: str) -> bool:
    return len(text) == 32 and all(c in "0123456789abcdef" for c in text)


def job_directory(job_id: str) -> Path:
    """The job's folder; job ids are 32 hex characters, anything else is not a job."""
    if not _is_job_id(job_id):
        raise NotFound("job not found")
    return jobs_root() / job_id


def artifact_path(job_id: str, kind: str) -> Path:
    """Path of a finished artifact; 404 `unknown artifact kind` / `artifact not ready`.
    The caller has already established that the job exists."""
    if kind not in ARTIFACTS:
        raise NotFound("unknown artifact kind")
    path = job_directory(job_id) / ARTIFACTS[kind][0]
    if not path.is_file():
        raise NotFound("artifact not ready")
    return path


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
    directory: Path
    record: Job | None = None


def artifact_url(job_id: str, kind: str, *, inline: bool = False) -> str:
    """The download path of one of a job's files (`inline`: shown in the browser)."""
    return f"/api/jobs/{job_id}/files/{kind}" + ("?inline=1" if inline else "")


def artifact_urls(job_id: str, kinds) -> dict[str, str]:
    """The `artifacts` map of a job: each kind to its download path, in ARTIFACTS order."""
    return {kind: artifact_url(job_id, kind) for kind in ARTIFACTS if kind in kinds}


def project_image_url(project: Project) -> str:
    return f"/api/projects/{project.id}/render.png"


def _view_of_record(job: Job) -> JobView:
    return JobView(
        job_id=job.id,
        status=job.status,
        stage=job.stage,
        progress_percent=job.progress_percent,
        message=job.message,
        error=job.error,
        artifacts=artifact_urls(job.id, job.artifacts),
        created_at=job.created_at,
        updated_at=job.updated_at,
        directory=jobs_root() / job.id,
        record=job,
    )


def _view_of_directory(directory: Path) -> JobView:
    """A finished directory without a record: a successful job dated by its mtime."""
    modified = datetime.fromtimestamp(directory.stat().st_mtime, tz=UTC)
    present = [kind for kind, (name, _, _) in ARTIFACTS.items() if (directory / name).is_file()]
    return JobView(
        job_id=directory.name,
        status=Job.Status.SUCCESS,
        stage="done",
        progress_percent=100,
        message="finished",
        error="",
        artifacts=artifact_urls(directory.name, present),
        created_at=modified,
        updated_at=modified,
        directory=directory,
    )


def _is_finished_directory(directory: Path) -> bool:
    return (directory / ARTIFACTS["db"][0]).is_file()


def job_get(job_id: str) -> JobView:
    """The job with this id: its record, else a finished directory that has no record;
    404 `job not found` otherwise."""
    directory = job_directory(job_id)
    job = Job.objects.filter(id=job_id).first()
    if job is not None:
        return _view_of_record(job)
    if _is_finished_directory(directory):
        return _view_of_directory(directory)
    raise NotFound("job not found")


def job_list(*, status: str | None = None, limit: int = 100) -> list[JobView]:
    """Jobs newest first: records, and finished directories that have no record."""
    jobs = Job.objects.all()
    if status:
        jobs = jobs.filter(status=status)
    views = [_view_of_record(job) for job in jobs[:limit]]
    if status in (None, "", Job.Status.SUCCESS):
        views += _record_less_finished_jobs()
    views.sort(key=lambda view: view.created_at, reverse=True)
    return views[:limit]


def _record_less_finished_jobs() -> list[JobView]:
    root = jobs_root()
    if not root.is_dir():
        return []
    ids = {entry.name for entry in root.iterdir() if _is_job_id(entry.name)}
    ids -= set(Job.objects.filter(id__in=ids).values_list("id", flat=True))
    return [
        _view_of_directory(root / job_id) for job_id in ids if _is_finished_directory(root / job_id)
    ]


def job_events(*, job_id: str, after: int = 0, limit: int | None = None):
    """The job's events with seq > after, oldest first."""
    events = JobEvent.objects.filter(job_id=job_id, seq__gt=after).order_by("seq")
    return events[:limit] if limit else events


def job_recent_events(*, job_id: str, count: int = 50) -> list[JobEvent]:
    """The last `count` events, oldest first."""
    latest = JobEvent.objects.filter(job_id=job_id).order_by("-seq")[:count]
    return list(reversed(latest))


def _tiles_folder(job_id: str) -> Path:
    """404 `job not found`, or `artifact not ready` before the worker made the pyramid (a job
    folder from before tiles existed has none: the page shows its PNG instead)."""
    job_get(job_id)
    folder = job_directory(job_id) / TILES_FOLDER
    if not (folder / TILES_INDEX).is_file():
        raise NotFound("artifact not ready")
    return folder


def tiles_index(*, job_id: str) -> dict:
    return json.loads((_tiles_folder(job_id) / TILES_INDEX).read_text())


def tile_path(*, job_id: str, level: int, column: int, row: int) -> Path:
    path = _tiles_folder(job_id) / str(level) / f"{column}_{row}.{TILE_FORMAT}"
    if not path.is_file():
        raise NotFound("tile not found")
    return path


def asset_get(asset_id: str) -> Asset:
    asset = Asset.objects.filter(id=asset_id).first()
    if asset is None:
        raise NotFound("asset not found")
    return asset


def asset_list(*, type: str = "", job_id: str = "") -> QuerySet[Asset]:
    """Newest first; the filters that are given apply together."""
    assets = Asset.objects.order_by("-created_at", "id")
    if type:
        assets = assets.filter(type=type)
    if job_id:
        assets = assets.filter(job_id=job_id)
    return assets


def project_get(project_id: str) -> Project:
    project = Project.objects.select_related("template").filter(id=project_id).first()
    if project is None:
        raise NotFound("project not found")
    return project


def project_list() -> QuerySet[Project]:
    """Newest first."""
    return Project.objects.order_by("-created_at", "id")


@contextmanager
def positions_db(path: Path) -> Iterator[sqlite3.Connection]:
    """A read-only connection (`mode=ro`): the file is never written, nor created."""
    with closing(sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)) as connection:
        connection.row_factory = sqlite3.Row
        yield connection


def canvas_size(connection: sqlite3.Connection) -> tuple[int | float, int | float]:
    meta = dict(
        connection.execute(
            "SELECT key, value FROM meta WHERE key IN ('canvas_width', 'canvas_height')"
        ).fetchall()
    )
    return number(meta["canvas_width"]), number(meta["canvas_height"])


def number(value) -> int | float:
    """A number as the answers give it: an int when whole (a canvas of 400, not 400.0)."""
    value = float(value)
    return int(value) if value.is_integer() else value
