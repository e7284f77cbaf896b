"""The worker's side of a job (wordclouds.tasks.job_run): moves through the statuses, events,
progress, artifacts, failures a user can act on, and running twice."""

import re
import shutil
import time

import pytest

from core.errors import Conflict
from tests.names import sample_names, write_names
from wordclouds.engine import print_size_advice
from wordclouds.models import Font, Job
from wordclouds.services.job_run import (
    FONT_GONE,
    INTERNAL_ERROR,
    PROGRESS_WRITE_SECONDS,
    Heartbeat,
    JobAbandoned,
    ProgressRecorder,
    StageTimer,
)
from wordclouds.services.jobs import STALE_ERROR, job_fail, job_start, job_succeed
from wordclouds.tasks import job_run

pytestmark = pytest.mark.django_db
STAGES = [
    "queued",
    "reading_names",
    "preparing_mask",
    "loading_font",
    "placing_words",
    "rendering",
    "writing_artifacts",
    "done",
]


def test_a_job_runs_through_its_stages_to_success(queued_job):
    job_id = queued_job()

    job_run(job_id)

    job = Job.objects.get(id=job_id)
    assert (job.status, job.stage, job.progress_percent, job.error) == ("success", "done", 100, "")
    assert job.worker_pid and job.started_at <= job.finished_at
    assert set(job.artifacts) == {"png", "svg", "svg_stroke", "db", "metrics"}
    events = list(job.events.order_by("seq"))
    assert [e.seq for e in events] == list(range(1, len(events) + 1))
    progress = [e.progress_percent for e in events]
    assert progress == sorted(progress)
    status_stages = [e.stage for e in events if e.type == "status"]
    assert status_stages[0] == "queued" and status_stages[-1] == "done"
    order = [STAGES.index(stage) for stage in status_stages]
    assert order == sorted(order)
    assert {"reading_names", "placing_words", "rendering"} <= set(status_stages)


def test_running_twice_leaves_a_finished_job_alone(queued_job):
    job_id = queued_job()
    job_run(job_id)
    before = Job.objects.get(id=job_id)

    job_run(job_id)

    after = Job.objects.get(id=job_id)
    assert (after.status, after.updated_at, after.events.count()) == (
        before.status,
        before.updated_at,
        before.events.count(),
    )


def test_names_that_do_not_fit_fail_with_the_engines_sentence(queued_job):
    job_id = queued_job(sample_names(400), {"WIDTH": 64, "HEIGHT": 64, "MIN_FONT_SIZE": 30})

    job_run(job_id)

    job = Job.objects.get(id=job_id)
    assert (job.status, job.stage) == ("failed", "failed")
    assert re.match(r"\d+ of 400 names did not fit; use a larger canvas", job.error)
    assert "Traceback" not in job.error
    assert job.events.order_by("seq").last().message == job.error


def test_a_poster_too_small_for_its_names_names_a_size_the_shop_sells(queued_job, tmp_path):
    """The shop's active products with a size are weighed beside the A sizes (commerce
    registers them): one a little larger than the names need, smaller than the A size that
    would fit, is the size the failure names; an inactive one never is."""
    from commerce.models import Product

    params = {"WIDTH": 600, "HEIGHT": 400, "SEED": 3, "PRINT_WIDTH_MM": 20}
    names = sample_names(400)
    plain = print_size_advice(names_path=write_names(tmp_path / "names.xlsx", names), params=params)
    fitting = next(size for size in plain["sizes"] if size["fits"])
    width = round(fitting["width_mm"] * 6 / fitting["expected_smallest_name_pt"] * 1.02, 1)
    assert width < fitting["width_mm"]
    Product.objects.create(name="Poster S", price=100, width_mm=width)
    Product.objects.create(name="Retired", price=100, width_mm=width - 1, active=False)
    job_id = queued_job(names, params)

    job_run(job_id)

    error = Job.objects.get(id=job_id).error
    assert "with every name at least 6 pt at 20 × 13.33 mm" in error, error
    height = round(400 * (width / 600), 1)
    assert error.endswith(
        f"the smallest size the shop sells that would fit is Poster S ({width:g} × {height:g} mm)"
    ), error


def test_an_unexpected_error_fails_with_a_generic_sentence(queued_job, monkeypatch):
    job_id = queued_job()

    def broken(**kwargs):
        raise RuntimeError("a bug")

    monkeypatch.setattr("wordclouds.services.job_run.tiles_make", broken)

    job_run(job_id)

    job = Job.objects.get(id=job_id)
    assert (job.status, job.error) == ("failed", INTERNAL_ERROR)


def test_a_font_deleted_before_the_run_fails_the_job(queued_job, tiny_font, media_root):
    (media_root / "fonts").mkdir()
    shutil.copy(tiny_font(), media_root / "fonts" / "f.ttf")
    font = Font.objects.create(name="Tiny", filename="f.ttf", file="fonts/f.ttf")
    job_id = queued_job(font_id=font.id)
    font.delete()

    job_run(job_id)

    assert Job.objects.get(id=job_id).error == FONT_GONE


def test_moves_from_the_wrong_status_are_refused(queued_job):
    job_id = queued_job()

    with pytest.raises(Conflict):
        job_succeed(job_id=job_id, artifacts=[])
    job_fail(job_id=job_id, error="cannot start", reason="internal")
    with pytest.raises(Conflict):
        job_start(job_id=job_id, worker_pid=1)
    assert Job.objects.get(id=job_id).status == "failed"


def test_progress_is_throttled_and_never_decreases(queued_job):
    job_id = queued_job()
    job_start(job_id=job_id, worker_pid=1)
    record = ProgressRecorder(job_id, Heartbeat(job_id), StageTimer("reading_inputs"))
    started = time.monotonic()

    record("placing_words", 40, "placing")
    for placed in range(10_000):
        record("placing_words", 40 + placed / 500, f"placed {placed}")
    seconds = time.monotonic() - started
    placing = Job.objects.get(id=job_id).progress_percent
    record("rendering", 10, "rendering")

    job = Job.objects.get(id=job_id)
    logs = job.events.filter(type="log").count()
    assert logs <= 1 + seconds / PROGRESS_WRITE_SECONDS  # not one row per report
    assert [e.stage for e in job.events.filter(type="status")] == [
        "queued",
        "queued",
        "placing_words",
        "rendering",
    ]
    assert 40 <= placing <= 60 and (job.stage, job.progress_percent) == ("rendering", placing)


def test_a_worker_stops_when_its_job_was_failed_meanwhile(queued_job):
    job_id = queued_job()
    job_start(job_id=job_id, worker_pid=1)
    record = ProgressRecorder(job_id, Heartbeat(job_id), StageTimer("reading_inputs"))
    job_fail(job_id=job_id, error=STALE_ERROR, reason="worker_lost")

    with pytest.raises(JobAbandoned):
        record("placing_words", 50, "placing")


def test_the_heartbeat_touches_a_running_job_and_stops_once_it_failed(queued_job):
    from wordclouds.services.jobs import job_heartbeat

    job_id = queued_job()
    job_start(job_id=job_id, worker_pid=1)
    before = Job.objects.get(id=job_id).updated_at

    assert job_heartbeat(job_id=job_id) is True
    assert Job.objects.get(id=job_id).updated_at > before
    job_fail(job_id=job_id, error=STALE_ERROR, reason="worker_lost")
    assert job_heartbeat(job_id=job_id) is False
