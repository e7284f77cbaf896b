"""Where a job's files live, and finding a job whether or not it has a database record.

A directory under MEDIA_ROOT/jobs/ that holds a finished position database but has no
record is a successful job for every job endpoint (decisions.md, Jobs)."""
from pathlib import Path

from django.conf import settings

from config.errors import NotFound

# kind -> (file name in the job directory, content type, download extension)
ARTIFACTS = {
    "png": ("wordcloud.png", "image/png", "png"),
    "svg": ("wordcloud.svg", "image/svg+xml", "svg"),
    "svg_stroke": ("wordcloud-stroke.svg", "image/svg+xml", "svg"),
    "db": ("positions.db", "application/vnd.sqlite3", "db"),
    "metrics": ("metrics.json", "application/json", "json"),
}


def jobs_root() -> Path:
    return Path(settings.MEDIA_ROOT) / "jobs"


def job_directory(job_id: str) -> Path:
    """The job's folder; job ids are 32 hex characters, anything else is not a job."""
    if not (len(job_id) == 32 and all(c in "0123456789abcdef" for c in job_id)):
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
