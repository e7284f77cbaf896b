"""A running job whose worker went silent for JOB_STALE_SECONDS (the worker died): every read
shows it failed with a sentence at once, no read writes it, the worker's late moves are
refused, and the worker writes the failure, on its schedule and when it starts. The event
stream's side is in test_events.py; real killed workers in test_jobs_worker_e2e.py and
tests/faults/."""

import time
from datetime import timedelta

import pytest
from django.utils import timezone

from core.errors import Conflict
from wordclouds.management.commands.runcluster import Command as Supervisor
from wordclouds.models import Job
from wordclouds.services.jobs import (
    STALE_ERROR,
    job_fail,
    job_heartbeat,
    job_progress,
    job_start,
    job_succeed,
    jobs_fail_stale,
)

pytestmark = pytest.mark.django_db
FAILED = {"status": "failed", "stage": "failed", "message": "failed", "error": STALE_ERROR}


@pytest.fixture
def running_jobs(queued_job, settings):
    """(a running job whose worker went silent, a running job whose worker beats)."""

    def make() -> tuple[str, str]:
        silent, beating = queued_job(), queued_job()
        job_start(job_id=silent, worker_pid=1)
        job_start(job_id=beating, worker_pid=2)
        silent_since = timezone.now() - timedelta(seconds=settings.JOB_STALE_SECONDS + 1)
        Job.objects.filter(id=silent).update(updated_at=silent_since)
        return silent, beating

    return make


def stored(job_id: str) -> tuple:
    job = Job.objects.get(id=job_id)
    return job.status, job.error, job.updated_at, job.events.count()


def test_every_read_shows_a_silent_job_failed_and_none_writes(api, running_jobs):
    silent, beating = running_jobs()
    before = stored(silent)

    status = api.get(f"/api/jobs/{silent}").json()
    detail = api.get(f"/api/jobs/{silent}/detail").json()
    result = api.get(f"/api/jobs/{silent}/result").json()
    failed = [job["job_id"] for job in api.get("/api/jobs?status=failed").json()]
    running = [job["job_id"] for job in api.get("/api/jobs?status=running").json()]
    listed = {job["job_id"]: job["status"] for job in api.get("/api/jobs").json()}

    assert {key: status[key] for key in FAILED} == FAILED
    assert detail["status"] == status and result["status"] == "failed"
    shown = detail["recent_events"][-1]
    assert (shown["id"], shown["type"], shown["stage"], shown["message"]) == (
        before[3] + 1,
        "status",
        "failed",
        STALE_ERROR,
    )
    assert (failed, running) == ([silent], [beating])
    assert (listed[silent], listed[beating]) == ("failed", "running")
    assert api.get(f"/api/jobs/{beating}").json()["status"] == "running"
    assert stored(silent) == before  # still running in its row: no read wrote


def test_the_schedule_writes_what_the_reads_showed(api, running_jobs):
    silent, beating = running_jobs()
    shown = api.get(f"/api/jobs/{silent}/detail").json()

    assert jobs_fail_stale() == 1

    job = Job.objects.get(id=silent)
    assert (job.status, job.stage, job.message, job.error) == tuple(FAILED.values())
    assert job.finished_at is not None
    written = api.get(f"/api/jobs/{silent}/detail").json()
    keep = ("id", "type", "stage", "progress_percent", "message")
    assert [{k: e[k] for k in keep} for e in written["recent_events"]] == [
        {k: e[k] for k in keep} for e in shown["recent_events"]
    ]
    assert {k: written["status"][k] for k in FAILED} == FAILED
    assert Job.objects.get(id=beating).status == "running"
    assert jobs_fail_stale() == 0


def test_the_late_moves_of_a_silent_job_s_worker_are_refused(running_jobs):
    silent, _ = running_jobs()
    before = stored(silent)

    for late_move in (
        lambda: job_progress(
            job_id=silent, stage="rendering", percent=80, message="rendering", artifacts=[]
        ),
        lambda: job_succeed(job_id=silent, artifacts=[]),
        lambda: job_fail(job_id=silent, error="something else", reason="internal"),
    ):
        with pytest.raises(Conflict):
            late_move()

    assert job_heartbeat(job_id=silent) is False  # tells the worker to drop the job
    assert stored(silent) == before


def test_a_starting_worker_writes_the_failure(running_jobs):
    from django_q.signals import post_spawn

    silent, beating = running_jobs()

    post_spawn.send(sender="django_q", proc_name="Process-1")  # what qcluster's worker sends

    assert Job.objects.get(id=silent).error == STALE_ERROR
    assert Job.objects.get(id=beating).status == "running"


def test_the_supervisor_writes_the_failure_while_its_cluster_does_not_answer(running_jobs):
    silent, _ = running_jobs()
    supervisor = Supervisor()
    supervisor.stale_checked, supervisor.started_at, supervisor.answered = 0.0, time.time(), True

    _, stalled = supervisor._check(ping_sent=time.time())  # a ping in flight, unanswered

    assert stalled is False
    assert Job.objects.get(id=silent).error == STALE_ERROR
