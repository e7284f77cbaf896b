"""Faults with real processes (`manage.py runall`: daphne, the supervised django-q2 cluster,
the converter): a worker process killed idle or busy, the converter killed, the whole
service restarted with jobs queued and running. Nothing needs a manual step."""

import os
import signal
import time

import httpx
import pytest

from tests.errors import refusal
from tests.faults.conftest import alive, healthy_with_heartbeat
from tests.names import sample_names
from tests.waiting import wait_until
from wordclouds.services.jobs import STALE_ERROR

pytestmark = [pytest.mark.e2e, pytest.mark.backend]
SMALL = {"SEED": 1, "WIDTH": 300, "HEIGHT": 200}
BIG = {"WIDTH": 3000, "HEIGHT": 3000, "SEED": 5, "N_REPETITIONS": 3}
FAST_STALE = {"JOB_HEARTBEAT_SECONDS": 0.5, "JOB_STALE_SECONDS": 4}
SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="5" height="5"/></svg>'


def done(job: dict) -> bool:
    return job["status"] in ("success", "failed")


def test_a_killed_idle_worker_does_not_stall_later_jobs(whole_service, names_xlsx):
    service = whole_service()  # the default WORKER_* settings
    assert wait_until(lambda: healthy_with_heartbeat(service.url), 30)
    idle = service.cluster_workers()[-1]

    os.kill(idle, signal.SIGKILL)
    wait_until(lambda: not alive(idle), 5)
    submitted = time.monotonic()
    job_id = service.submit(names_xlsx(["Anna", "Bruno", "Chloé"]), SMALL)

    job = service.wait_for(job_id, done, timeout=60)
    assert job["status"] == "success", job
    assert time.monotonic() - submitted < 60
    assert httpx.get(f"{service.url}/api/health", timeout=5).status_code == 200


def test_a_killed_busy_worker_fails_its_job_with_a_sentence_and_the_next_runs(
    whole_service, names_xlsx
):
    service = whole_service(**FAST_STALE)
    busy_job = service.submit(names_xlsx(sample_names(20000)), BIG)
    running = service.wait_for(busy_job, lambda job: job["status"] != "queued", timeout=60)
    assert running["status"] == "running", running

    os.kill(service.cluster_workers()[-1], signal.SIGKILL)

    failed = service.wait_for(busy_job, done, timeout=60)
    assert (failed["status"], failed["error"]) == ("failed", STALE_ERROR)
    next_job = service.submit(names_xlsx(["Anna", "Bruno"]), SMALL)
    assert service.wait_for(next_job, done, timeout=60)["status"] == "success"


def test_a_killed_converter_answers_502_then_works_again(whole_service):
    service = whole_service()

    def export() -> httpx.Response:
        return httpx.post(f"{service.url}/api/exports/ai", json={"svg": SVG}, timeout=60)

    assert wait_until(lambda: export().status_code == 200, 30)
    os.kill(service.pid_of("runconverter"), signal.SIGKILL)

    meanwhile = export()
    assert meanwhile.status_code == 502
    assert refusal(meanwhile) == "converter unavailable"
    assert wait_until(lambda: export().status_code == 200, 30, every=0.5)


def test_a_restart_runs_queued_jobs_and_fails_running_ones(whole_service, names_xlsx):
    service = whole_service(**FAST_STALE)
    running_job = service.submit(names_xlsx(sample_names(20000)), BIG)
    assert (
        service.wait_for(running_job, lambda job: job["status"] != "queued", timeout=60)["status"]
        == "running"
    )
    queued = [service.submit(names_xlsx([f"Name {i}", "Anna"]), SMALL) for i in range(3)]
    assert all(service.job(job_id)["status"] == "queued" for job_id in queued)

    service.halt()
    service.start()
    restarted = time.monotonic()

    for job_id in queued:
        job = service.wait_for(job_id, done, timeout=max(1, 60 - (time.monotonic() - restarted)))
        assert job["status"] == "success", job
    assert time.monotonic() - restarted < 60
    failed = service.wait_for(running_job, done, timeout=30)
    assert (failed["status"], failed["error"]) == ("failed", STALE_ERROR)
