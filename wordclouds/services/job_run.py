"""Running a job in the worker: the engine with a progress callback that moves the job
along, and a heartbeat that shows the worker is alive while the engine is silent."""

import logging
import os
import re
import threading
import time
from pathlib import Path

from django.conf import settings
from django.db import connections, transaction

from core.errors import Conflict, NotFound
from wordclouds import engine
from wordclouds.drawing.tiles import tiles_make
from wordclouds.models import Job
from wordclouds.selectors import ARTIFACTS, jobs_root
from wordclouds.services.jobs import (
    FontGone,
    job_fail,
    job_font_path,
    job_heartbeat,
    job_input_folder,
    job_progress,
    job_start,
    job_succeed,
)
from wordclouds.services.placements import placements_store, positions_file_read

logger = logging.getLogger(__name__)

# Progress reports within one stage are written at most this often: a 10,000-name job
# reports thousands of times but writes a few rows a second at most.
PROGRESS_WRITE_SECONDS = 0.5
INTERNAL_ERROR = (
    "the word cloud could not be generated because of an internal error; "
    "submit the job again, and if it fails again, contact support"
)
FONT_GONE = "the font chosen for this job was deleted; choose another font and submit again"


class JobAbandoned(Exception):
    """The job is no longer running here (failed as stale meanwhile): stop working on it."""


def job_execute(*, job_id: str) -> None:
    """Run a queued job to success or failure. A job that is not queued (already run, or
    picked up twice) is left alone, so running this twice is harmless."""
    try:
        job = job_start(job_id=job_id, worker_pid=os.getpid())
    except (Conflict, NotFound):
        logger.info("job %s is not queued; left alone", job_id)
        return
    out_dir = jobs_root() / job_id
    try:
        with Heartbeat(job_id) as heartbeat:
            engine.generate(
                names_path=job_input_folder(job_id) / job.name_list,
                out_dir=out_dir,
                params=job.params,
                mask_path=_mask_path(job),
                font_path=job_font_path(job),
                progress=ProgressRecorder(job_id, out_dir, heartbeat),
            )
            tiles_make(job_folder=out_dir)  # the lookup page's zoom pyramid, made once
        _succeed(job_id, out_dir)
    except (JobAbandoned, Conflict, NotFound):
        logger.warning("job %s was failed or deleted while this worker ran it", job_id)
    except FontGone:
        _fail(job_id, FONT_GONE)
    except (engine.InputError, engine.LayoutError) as error:
        _fail(job_id, str(error))
    except Exception:
        logger.exception("job %s failed", job_id)
        _fail(job_id, INTERNAL_ERROR)


def _succeed(job_id: str, out_dir: Path) -> None:
    """Success and the job's placements in the lookups' table, committed together (a job run
    again has its placements replaced). The file is read before the transaction opens."""
    positions = positions_file_read(out_dir / ARTIFACTS["db"][0])
    with transaction.atomic():
        job_succeed(job_id=job_id, artifacts=finished_artifacts(out_dir))
        placements_store(job_id=job_id, positions=positions)


def _fail(job_id: str, error: str) -> None:
    try:
        job_fail(job_id=job_id, error=error)
    except (Conflict, NotFound):
        logger.warning("job %s was already finished when it failed: %s", job_id, error)


def _mask_path(job: Job) -> Path | None:
    return job_input_folder(job.id) / job.mask_image if job.mask_image else None


def finished_artifacts(out_dir: Path) -> list[str]:
    """The artifact kinds whose files are in the job's folder."""
    return [kind for kind, (name, _, _) in ARTIFACTS.items() if (out_dir / name).is_file()]


class ProgressRecorder:
    """The engine's progress callback: `(stage, percent, message)`."""

    def __init__(self, job_id: str, out_dir: Path, heartbeat: "Heartbeat"):
        self.job_id = job_id
        self.out_dir = out_dir
        self.heartbeat = heartbeat
        self.stage = None
        self.kind = None
        self.written_at = 0.0
        self.artifacts = []

    def __call__(self, stage: str, percent: float, message: str) -> None:
        if self.heartbeat.abandoned:
            raise JobAbandoned(self.job_id)
        now = time.monotonic()
        artifacts = finished_artifacts(self.out_dir)  # the engine renames each when complete
        # Only counts are throttled: a message of another kind (an attempt retried with
        # smaller words) is written at once, so the events tell every retry.
        kind = re.sub(r"\d+", "#", message)
        if (
            stage == self.stage
            and artifacts == self.artifacts
            and kind == self.kind
            and now - self.written_at < PROGRESS_WRITE_SECONDS
        ):
            return
        self.stage, self.written_at, self.artifacts, self.kind = stage, now, artifacts, kind
        try:
            job_progress(
                job_id=self.job_id,
                stage=stage,
                percent=percent,
                message=message,
                artifacts=artifacts,
            )
        except (Conflict, NotFound):
            raise JobAbandoned(self.job_id) from None


class Heartbeat:
    """A thread touching the running job every JOB_HEARTBEAT_SECONDS; when the job turns
    out to be no longer running, `abandoned` tells the progress callback to stop."""

    def __init__(self, job_id: str):
        self.job_id = job_id
        self.abandoned = False
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._beat, name=f"heartbeat-{job_id}", daemon=True)

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc_info):
        self._stop.set()
        self._thread.join()

    def _beat(self) -> None:
        try:
            while not self._stop.wait(settings.JOB_HEARTBEAT_SECONDS):
                try:
                    if not job_heartbeat(job_id=self.job_id):
                        self.abandoned = True
                        return
                except Exception:
                    logger.warning("heartbeat of job %s failed", self.job_id, exc_info=True)
        finally:
            connections.close_all()
