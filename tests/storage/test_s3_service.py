"""The service on the S3 backend against a real Swift, with real web and worker processes:
downloads are presigned SigV4 redirects the store checks, and the store's faults (down,
hung, a worker killed while it stores) cost neither a job nor a lie (docs/architecture.md,
"Files")."""

import sqlite3
import subprocess
import sys
import time
from urllib.parse import urlsplit

import httpx
import pytest

from tests.errors import refusal
from tests.processes import BASE_DIR, Service, staff_headers
from tests.storage.conftest import NAMES, redirected
from tests.waiting import wait_until
from wordclouds.storage import FOREVER

# Not `backend`: its subject, the store, is a Swift of its own in both passes, so the SQLite
# pass proves it (CONTRIBUTING.md, "CI and the backend mark").
pytestmark = pytest.mark.e2e


def finished(service: Service, job_id: str, timeout: float = 120) -> dict:
    job = service.wait_for(job_id, lambda job: job["status"] in ("success", "failed"), timeout)
    assert job["status"] == "success", job
    return job


def test_downloads_redirect_to_sigv4_urls_the_store_checks(service, swift, submit, tmp_path):
    job_id = submit(service.url)
    job = finished(service, job_id)
    assert set(job["artifacts"]) == {"png", "svg", "svg_stroke", "db", "metrics"}

    answer = redirected(f"{service.url}/api/jobs/{job_id}/files/png")
    assert answer.status_code == 302
    url = answer.headers["location"]
    assert url.startswith(f"{swift.url}/wordclouds/jobs/{job_id}/wordcloud.png?")
    assert "X-Amz-Algorithm=AWS4-HMAC-SHA256" in url and "X-Amz-Signature=" in url
    stored = swift.client().get_object(Bucket="wordclouds", Key=f"jobs/{job_id}/wordcloud.png")
    fetched = httpx.get(url, timeout=10)
    assert fetched.status_code == 200
    assert fetched.content == stored["Body"].read() and fetched.content[:4] == b"\x89PNG"
    assert fetched.headers["content-type"] == "image/png"
    assert f'filename="wordcloud-{job_id}.png"' in fetched.headers["content-disposition"]
    signature = url.rsplit("X-Amz-Signature=", 1)[1]
    tampered = url.replace(signature, ("0" if signature[0] != "0" else "1") + signature[1:])
    assert httpx.get(tampered, timeout=10).status_code == 403
    other_key = url.replace("wordcloud.png", "wordcloud.svg")
    assert httpx.get(other_key, timeout=10).status_code == 403

    # Tiles: the lookup page's zoom pyramid, a byte range of one answered by the store.
    index = httpx.get(f"{service.url}/api/jobs/{job_id}/tiles", timeout=10).json()
    tile = redirected(f"{service.url}/api/jobs/{job_id}/tiles/{index['levels'] - 1}/0_0.jpg")
    assert tile.status_code == 302
    whole = httpx.get(tile.headers["location"], timeout=10)
    assert whole.headers["cache-control"] == FOREVER and whole.content[:2] == b"\xff\xd8"
    part = httpx.get(tile.headers["location"], headers={"Range": "bytes=0-99"}, timeout=10)
    assert part.status_code == 206 and part.content == whole.content[:100]
    assert redirected(f"{service.url}/api/jobs/{job_id}/tiles/0/5_5.jpg").status_code == 404

    # Reads that need the stored files in the web process: custom.svg, lookups, the db.
    custom = httpx.get(f"{service.url}/api/jobs/{job_id}/custom.svg", timeout=60)
    assert custom.status_code == 200 and custom.text.count('<g id="w') == len(NAMES)
    found = httpx.get(f"{service.url}/api/jobs/{job_id}/locations?name=Name A1", timeout=10).json()
    assert found["total"] == 1
    db = httpx.get(f"{service.url}/api/jobs/{job_id}/files/db", timeout=10, follow_redirects=True)
    (tmp_path / "positions.db").write_bytes(db.content)
    with sqlite3.connect(tmp_path / "positions.db") as connection:
        assert connection.execute("SELECT count(*) FROM words").fetchone()[0] == len(NAMES)

    time.sleep(4.5)  # S3_URL_SECONDS
    assert httpx.get(url, timeout=10).status_code == 403  # expired
    assert not list((tmp_path / "media").rglob("*"))  # every file is in the bucket


def test_a_hung_store_answers_503_soon_while_status_and_lookups_go_on(service, swift, submit):
    job_id = submit(service.url)
    finished(service, job_id)
    lookup = f"{service.url}/api/jobs/{job_id}/locations?name=Name B2"
    assert httpx.get(lookup, timeout=10).status_code == 200  # its positions fetched once

    swift.pause()
    started = time.monotonic()
    refused = httpx.post(
        f"{service.url}/api/assets",
        files={"file": ("a.png", b"\x89PNG\r\n\x1a\n")},
        headers=staff_headers(),
        timeout=30,
    )
    seconds = time.monotonic() - started
    assert refused.status_code == 503 and seconds <= 5, (refused.status_code, seconds)
    assert refusal(refused) == "file storage unavailable"
    assert int(refused.headers["retry-after"]) > 0
    answers = [httpx.get(lookup, timeout=10).status_code for _ in range(100)]
    assert answers.count(200) >= 99
    assert httpx.get(f"{service.url}/api/jobs/{job_id}", timeout=10).status_code == 200
    deadline = time.monotonic() + 15
    while (health := httpx.get(f"{service.url}/api/health", timeout=10).json())["store"]["ok"]:
        assert time.monotonic() < deadline, health
        time.sleep(0.5)
    assert health["store"]["backend"] == "s3"


def test_jobs_wait_for_a_stopped_store_and_finish_when_it_is_back(service, swift, submit):
    jobs = [submit(service.url) for _ in range(3)]
    swift.stop()
    # The store stays away until a job has met it gone and waits, and a while longer (pauses
    # grow 1, 2, 4... s: it tries again meanwhile), not a fixed half minute.
    assert wait_until(lambda: _waiting(service, jobs), 60), _all_stages(service, jobs)
    time.sleep(8)
    swift.start()
    back = time.monotonic()
    for job_id in jobs:
        finished(service, job_id, timeout=60 - (time.monotonic() - back))
    for job_id in jobs:
        db = httpx.get(
            f"{service.url}/api/jobs/{job_id}/files/db", timeout=10, follow_redirects=True
        )
        path = service.folder / f"{job_id}.db"
        path.write_bytes(db.content)
        with sqlite3.connect(path) as connection:
            assert connection.execute("SELECT count(*) FROM words").fetchone()[0] == len(NAMES)


def _stages(service: Service, job_id: str) -> set[str]:
    detail = httpx.get(f"{service.url}/api/jobs/{job_id}/detail", timeout=10).json()
    return {event["stage"] for event in detail["recent_events"]}


def _all_stages(service: Service, jobs: list[str]) -> set[str]:
    return set().union(*(_stages(service, job_id) for job_id in jobs))


def _waiting(service: Service, jobs: list[str]) -> set[str]:
    """The jobs that have reported waiting for the store."""
    return {job_id for job_id in jobs if "waiting_for_storage" in _stages(service, job_id)}


def test_a_worker_killed_while_it_stores_never_leaves_a_success(service, swift, submit):
    job_id = submit(service.url)
    # The inputs are fetched once the engine reports its first stage; then the store hangs,
    # so the results cannot be stored, and the worker is killed while it tries.
    service.wait_for(job_id, lambda job: job["stage"] not in ("queued",), 60)
    swift.pause()
    service.wait_for(job_id, lambda job: job["progress_percent"] >= 90, 60)
    time.sleep(2)
    assert service.job(job_id)["status"] == "running"
    service.kill_worker()
    swift.resume()

    job = service.wait_for(job_id, lambda job: job["status"] != "running", 30)
    assert job["status"] == "failed" and job["artifacts"] == {}, job
    assert redirected(f"{service.url}/api/jobs/{job_id}/files/png").status_code == 404
    assert urlsplit(service.url).hostname == "127.0.0.1"


def test_a_media_folder_is_copied_into_the_bucket_and_its_jobs_recorded(
    tmp_path, database_template, swift, names_xlsx
):
    from wordclouds import engine

    media = tmp_path / "old-media"
    job_id = "c0" * 16
    engine.generate(
        names_path=names_xlsx(NAMES), out_dir=media / "jobs" / job_id, params={"SEED": 3}
    )
    (media / "jobs" / ".incoming-x").mkdir()
    (media / "jobs" / ".incoming-x" / "names.xlsx").write_bytes(b"half")
    (tmp_path / "service").mkdir()
    service = Service(tmp_path / "service", database_template, **swift.environment())
    copy = subprocess.run(
        [sys.executable, "manage.py", "media_to_store", str(media)],
        cwd=BASE_DIR,
        env=service.env,
        capture_output=True,
        text=True,
    )
    assert copy.returncode == 0, copy.stderr
    assert "1 record-less job(s) recorded" in copy.stdout
    try:
        service.start(worker=False)
        listed = httpx.get(f"{service.url}/api/jobs", headers=staff_headers(), timeout=10).json()
        assert [job["job_id"] for job in listed] == [job_id]
        png = httpx.get(
            f"{service.url}/api/jobs/{job_id}/files/png", timeout=10, follow_redirects=True
        )
        assert png.content == (media / "jobs" / job_id / "wordcloud.png").read_bytes()
    finally:
        service.stop()
    stored = swift.client().list_objects_v2(Bucket="wordclouds", Prefix="jobs/.incoming")
    assert stored["KeyCount"] == 0
