"""End to end: a job whose worker process is killed mid-job is shown failed, never left
running, while no worker is alive, and written failed by the next worker that starts; an
idle stream is kept alive with comments. Real daphne and qcluster processes."""

import subprocess
import sys
import time

import httpx
import pytest

from tests.names import sample_names
from tests.processes import BASE_DIR, Service
from wordclouds.services.jobs import STALE_ERROR

pytestmark = [pytest.mark.e2e, pytest.mark.backend]
BIG = {"WIDTH": 3000, "HEIGHT": 3000, "SEED": 5, "N_REPETITIONS": 3}


@pytest.fixture(scope="module")
def service(tmp_path_factory, database_template):
    """Web only; a test that needs a worker starts (and kills) its own."""
    started = Service(
        tmp_path_factory.mktemp("service"),
        database_template,
        EVENTS_KEEPALIVE_SECONDS=1,
        JOB_HEARTBEAT_SECONDS=0.5,
        JOB_STALE_SECONDS=3,
    )
    try:
        yield started.start(worker=False)
    finally:
        started.stop()


def test_an_idle_stream_gets_keep_alive_comments(service, names_xlsx):
    job_id = service.submit(names_xlsx(["Anna", "Bruno"]), {"SEED": 1})  # no worker: waits

    lines = []
    # Silent for longer than the read timeout would fail the test; keep-alives come every 1 s.
    with httpx.stream("GET", f"{service.url}/api/jobs/{job_id}/events", timeout=10) as response:
        for line in response.iter_lines():
            lines.append(line)
            if line == ": keep-alive":
                break
    assert "id: 1" in lines and "event: status" in lines
    assert service.job(job_id)["status"] == "queued"


def test_a_job_whose_worker_is_killed_becomes_failed(service, names_xlsx):
    job_id = service.submit(names_xlsx(sample_names(20000)), BIG)
    service.start_worker()
    running = service.wait_for(job_id, lambda job: job["status"] != "queued", timeout=60)
    assert running["status"] == "running", running

    service.kill_worker()

    failed = service.wait_for(job_id, lambda job: job["status"] != "running", timeout=20)
    assert (failed["status"], failed["error"]) == ("failed", STALE_ERROR)
    assert failed["progress_percent"] < 100
    events = httpx.get(f"{service.url}/api/jobs/{job_id}/events", timeout=10).text
    assert events.rstrip().endswith('event: end\ndata: {"status": "failed"}')
    # No worker is alive: every read above showed the failure, none wrote it.
    assert stored_status(service, job_id) == "running"

    service.start_worker()  # its supervisor writes the failure when it starts

    deadline = time.monotonic() + 60
    while stored_status(service, job_id) != "failed" and time.monotonic() < deadline:
        time.sleep(1)
    assert stored_status(service, job_id) == "failed"
    assert httpx.get(f"{service.url}/api/jobs/{job_id}/events", timeout=10).text == events


def stored_status(service: Service, job_id: str) -> str:
    """The job's status as its row stores it, read by a process of the service's own."""
    code = f"from wordclouds.models import Job; print(Job.objects.get(id='{job_id}').status)"
    return subprocess.run(
        [sys.executable, "manage.py", "shell", "--no-imports", "-c", code],
        cwd=BASE_DIR,
        env=service.env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
