"""Running a job in the worker: its inputs fetched from the file storage into a scratch
folder, the engine with a progress callback that moves the job along, a heartbeat that shows
the worker is alive while the engine is silent, and every output stored before the job
succeeds. While the store fails, the job waits (stage `waiting_for_storage`) and the transfer
is tried again with growing pauses, for STORAGE_WAIT_SECONDS at most."""

import contextvars
import logging
import os
import re
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from django.conf import settings
from django.db import connections, transaction

from core import metrics
from core.errors import Conflict, NotFound
from wordclouds import engine, storage
from wordclouds.drawing.tiles import tiles_make
from wordclouds.models import Job
from wordclouds.selectors import ARTIFACTS, job_key
from wordclouds.services.jobs import (
    FontGone,
    job_fail,
    job_font_path,
    job_heartbeat,
    job_input_key,
    job_input_names,
    job_mask_font_path,
    job_progress,
    job_start,
    job_succeed,
)
from wordclouds.services.placements import placements_store, positions_file_read
from wordclouds.services.revisions import revision_run
from wordclouds.services.sheets import shop_sizes

logger = logging.getLogger(__name__)

# Progress reports within one stage are written at most this often: a 10,000-name job
# reports thousands of times but writes a few rows a second at most.
PROGRESS_WRITE_SECONDS = 0.5
INTERNAL_ERROR = (
    "the word cloud could not be generated because of an internal error; "
    "submit the job again, and if it fails again, contact support"
)
FONT_GONE = "the font chosen for this job was deleted; choose another font and submit again"
STORAGE_GONE = (
    "the job's files could not be read or stored because the file storage did not answer; "
    "submit the job again"
)
WAITING_STAGE = "waiting_for_storage"
UPLOADS_AT_ONCE = 8


class StorageGaveUp(Exception):
    """The store failed for longer than STORAGE_WAIT_SECONDS."""


class JobAbandoned(Exception):
    """The job is no longer running here (failed as stale meanwhile): stop working on it."""


def job_execute(*, job_id: str) -> None:
    """Run a queued job to success or failure. A job that is not queued (already run, or
    picked up twice) is left alone, so running this twice is harmless. `success` is
    recorded only once every output is stored (a re-run stores the same keys again)."""
    try:
        job = job_start(job_id=job_id, worker_pid=os.getpid())
    except (Conflict, NotFound):
        logger.info("job %s is not queued; left alone", job_id)
        return
    logger.info("job %s started", job_id)
    timer = StageTimer("reading_inputs")
    try:
        with Heartbeat(job_id) as heartbeat, storage.scratch_dir(f"job-{job_id}-") as work:
            inputs, font_path = _with_store(
                job_id, heartbeat, "reading the job's files", lambda: _inputs_fetched(job, work)
            )
            progress = ProgressRecorder(job_id, heartbeat, timer)
            if job.parent_id:
                out_dir = _with_store(
                    job_id,
                    heartbeat,
                    "reading the poster to revise",
                    lambda: revision_run(job, work, font_path, progress),
                )
            else:
                out_dir = work / "out"
                engine.generate(
                    names_path=inputs / job.name_list,
                    out_dir=out_dir,
                    params=job.params,
                    mask_path=inputs / job.mask_image if job.mask_image else None,
                    font_path=font_path,
                    progress=progress,
                    shop_sizes=shop_sizes(),
                    mask_font_path=job_mask_font_path(job, worker=True),
                )
            tiles_make(job_folder=out_dir)  # the lookup page's zoom pyramid, made once
            timer.enter("storing_outputs")
            _with_store(
                job_id, heartbeat, "storing the results", lambda: _outputs_stored(job_id, out_dir)
            )
            # While the outputs are still in scratch: the success's transaction loads the
            # placements from out_dir/positions.db.
            _succeed(job_id, out_dir)
        logger.info("job %s succeeded", job_id)
    except (JobAbandoned, Conflict, NotFound):
        logger.warning("job %s was failed or deleted while this worker ran it", job_id)
    except FontGone:
        _fail(job_id, FONT_GONE, "font_gone")
    except StorageGaveUp:
        _fail(job_id, STORAGE_GONE, "storage")
    except (engine.InputError, engine.LayoutError) as error:
        _fail(job_id, str(error), "input")
    except Exception:
        logger.exception("job %s failed", job_id)
        _fail(job_id, INTERNAL_ERROR, "internal")
    finally:
        timer.total()


class StageTimer:
    """A job's time in each of its stages (the engine's, which the progress reports name,
    and the worker's own before and after it) into metrics.job_stage_seconds, and its whole
    run as stage `total`. The zoom tiles count in the engine's last stage."""

    def __init__(self, first: str):
        self.started = self.since = time.monotonic()
        self.stage = first

    def enter(self, stage: str) -> None:
        if stage != self.stage:
            self._close()
            self.stage = stage

    def _close(self) -> None:
        now = time.monotonic()
        metrics.job_stage_seconds.labels(self.stage).observe(now - self.since)
        self.since = now

    def total(self) -> None:
        """The stage under way ends with the run."""
        self._close()
        metrics.job_stage_seconds.labels("total").observe(time.monotonic() - self.started)


def _succeed(job_id: str, out_dir: Path) -> None:
    """Success and the job's placements in the lookups' table, committed together (a job run
    again has its placements replaced). The file is read before the transaction opens."""
    positions = positions_file_read(out_dir / ARTIFACTS["db"][0])
    with transaction.atomic():
        job_succeed(job_id=job_id, artifacts=finished_artifacts(out_dir))
        placements_store(job_id=job_id, positions=positions)


def _inputs_fetched(job: Job, work: Path) -> tuple[Path, Path | None]:
    """The job's stored inputs copied into work/input/, and its font's local file: its own
    upload there, or the file of its font id, fetched once into this process's cache of
    stored files (storage.local_path) and kept there for the next job."""
    folder = work / "input"
    for name in job_input_names(job):
        storage.fetch(job_input_key(job.id, name), folder / name, worker=True)
    if job.font_file:
        return folder, folder / job.font_file
    return folder, job_font_path(job, worker=True)


def _outputs_stored(job_id: str, out_dir: Path) -> None:
    """Every file the engine and the tiles made, stored under jobs/<id>/ (the same keys
    again on a re-run), several at once."""
    paths = [path for path in sorted(out_dir.rglob("*")) if path.is_file()]

    def store(path: Path) -> None:
        try:
            storage.save(job_key(job_id, path.relative_to(out_dir).as_posix()), path, worker=True)
        finally:
            connections.close_all()

    with ThreadPoolExecutor(UPLOADS_AT_ONCE, thread_name_prefix=f"store-{job_id}") as pool:
        # Each in a copy of this context: the request id on the lines the store writes.
        for done in [pool.submit(contextvars.copy_context().run, store, path) for path in paths]:
            done.result()


def _with_store(job_id: str, heartbeat: "Heartbeat", doing: str, action):
    """`action()`, tried again while the store is unavailable: the job shows stage
    waiting_for_storage with a sentence, pauses grow 1, 2, 4... s up to
    STORAGE_BACKOFF_MAX_SECONDS, and after STORAGE_WAIT_SECONDS StorageGaveUp."""
    deadline = time.monotonic() + settings.STORAGE_WAIT_SECONDS
    pause, attempt = 1.0, 1
    while True:
        try:
            return action()
        except storage.StorageUnavailable:
            if heartbeat.abandoned:
                raise JobAbandoned(job_id) from None
            if time.monotonic() + pause > deadline:
                raise StorageGaveUp from None
            message = (
                f"file storage unavailable while {doing}; "
                f"trying again in {pause:g} s (attempt {attempt})"
            )
            logger.warning("job %s: %s", job_id, message)
            try:
                job_progress(
                    job_id=job_id, stage=WAITING_STAGE, percent=0, message=message, artifacts=[]
                )
            except (Conflict, NotFound):
                raise JobAbandoned(job_id) from None
            time.sleep(pause)
            pause, attempt = min(pause * 2, settings.STORAGE_BACKOFF_MAX_SECONDS), attempt + 1


def _fail(job_id: str, error: str, reason: str) -> None:
    logger.info("job %s failed (%s): %s", job_id, reason, error)
    try:
        job_fail(job_id=job_id, error=error, reason=reason)
    except (Conflict, NotFound):
        logger.warning("job %s was already finished when it failed: %s", job_id, error)


def finished_artifacts(out_dir: Path) -> list[str]:
    """The artifact kinds whose files are in the job's folder."""
    return [kind for kind, (name, _, _) in ARTIFACTS.items() if (out_dir / name).is_file()]


class ProgressRecorder:
    """The engine's progress callback: `(stage, percent, message)`. No artifact is listed
    before the job succeeds: its files are stored only then."""

    def __init__(self, job_id: str, heartbeat: "Heartbeat", timer: StageTimer):
        self.job_id = job_id
        self.heartbeat = heartbeat
        self.timer = timer
        self.stage = None
        self.kind = None
        self.written_at = 0.0

    def __call__(self, stage: str, percent: float, message: str) -> None:
        if self.heartbeat.abandoned:
            raise JobAbandoned(self.job_id)
        self.timer.enter(stage)
        now = time.monotonic()
        # Only counts are throttled: a message of another kind (an attempt retried with
        # smaller words) is written at once, so the events tell every retry.
        kind = re.sub(r"\d+", "#", message)
        if (
            stage == self.stage
            and kind == self.kind
            and now - self.written_at < PROGRESS_WRITE_SECONDS
        ):
            return
        self.stage, self.written_at, self.kind = stage, now, kind
        try:
            job_progress(
                job_id=self.job_id, stage=stage, percent=percent, message=message, artifacts=[]
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
        self._thread = threading.Thread(
            target=contextvars.copy_context().run,  # the request id on its log lines
            args=(self._beat,),
            name=f"heartbeat-{job_id}",
            daemon=True,
        )

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
