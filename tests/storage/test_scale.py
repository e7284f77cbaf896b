"""Several machines sharing PostgreSQL, Redis and the S3 store only (docs/deploy.md): two
web and two worker processes, each in a folder of its own, no shared file system. Needs the
PostgreSQL and Redis of the CI's second pass (DATABASE_URL=postgres://..., REDIS_URL)."""

import json
import uuid
from concurrent.futures import ThreadPoolExecutor

import httpx
import psycopg
import pytest

from tests.processes import Service, needs_postgres_and_redis, staff_headers
from tests.storage.conftest import NAMES, mask_png, redirected

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.backend,
    needs_postgres_and_redis,
]
JOBS = 20
KINDS = ("png", "svg", "svg_stroke", "db", "metrics")


@pytest.fixture
def machines(tmp_path, database_template, swift):
    """Two 'machines': web + worker (+ converter) each, sharing the database, the queue and
    the store."""
    environment = {**swift.environment(), "Q_NAME": f"scale-{uuid.uuid4().hex[:8]}"}
    first_folder, second_folder = tmp_path / "a", tmp_path / "b"
    first_folder.mkdir()
    second_folder.mkdir()
    first = Service(first_folder, database_template, **environment)
    second = Service(second_folder, database_template, database=first.database, **environment)
    started = []
    try:
        for machine in (first, second):
            started.append(machine.start(converter=True))
        yield first, second
    finally:
        for machine in reversed(started):
            machine.stop()
        if first not in started:
            first.database.drop()


def test_two_machines_share_only_the_database_redis_and_the_store(machines, submit, tiny_font):
    first, second = machines
    with ThreadPoolExecutor(4) as pool:
        ids = list(pool.map(lambda n: submit(machines[n % 2].url), range(JOBS)))
    for n, job_id in enumerate(ids):
        job = machines[n % 2].wait_for(
            job_id, lambda job: job["status"] in ("success", "failed"), 300
        )
        assert job["status"] == "success", job

    # Both workers ran jobs: the pids that ran them are of both clusters.
    with psycopg.connect(first.database.url) as connection:
        pids = {
            row[0]
            for row in connection.execute(
                "SELECT worker_pid FROM wordclouds_job WHERE id = ANY(%s)", (ids,)
            )
        }
    assert pids & set(first.cluster_workers()) and pids & set(second.cluster_workers()), pids

    # Both web processes serve every artifact, lookups, custom.svg and both exports (.ai, PDF).
    for machine in machines:
        for job_id in ids[:4]:
            for kind in KINDS:
                answer = redirected(f"{machine.url}/api/jobs/{job_id}/files/{kind}")
                assert answer.status_code == 302, (kind, answer.text)
                assert httpx.get(answer.headers["location"], timeout=10).status_code == 200
            found = httpx.get(f"{machine.url}/api/jobs/{job_id}/locations", timeout=10).json()
            assert found["total"] == len(NAMES)
            custom = httpx.get(f"{machine.url}/api/jobs/{job_id}/custom.svg", timeout=60)
            assert custom.status_code == 200
        svg = httpx.get(
            f"{machine.url}/api/jobs/{ids[0]}/files/svg", timeout=10, follow_redirects=True
        ).text
        exported = httpx.post(
            f"{machine.url}/api/exports/ai", json={"svg": svg, "filename": "p.ai"}, timeout=60
        )
        assert exported.status_code == 200, exported.text
        printed = httpx.get(f"{machine.url}/api/jobs/{ids[0]}/files/pdf", timeout=120)
        assert printed.status_code == 200, printed.text
        assert printed.content.startswith(b"%PDF")

    # A project made on one machine from an asset uploaded on the other renders on both.
    asset = httpx.post(
        f"{first.url}/api/assets",
        files={"file": ("mask.png", mask_png())},
        headers=staff_headers(),
        timeout=30,
    ).json()
    sticker = {"asset_id": asset["id"], "x": 10, "y": 10, "width": 200, "height": 150}
    project = httpx.post(
        f"{second.url}/api/projects",
        data={
            "name": "p",
            "template_id": "poster_1x1",
            "background_color": "#ffffff",
            "stickers": json.dumps([sticker]),
        },
        headers=staff_headers(),
        timeout=30,
    ).json()
    for machine in machines:
        for kind in ("png", "svg"):
            render = httpx.get(
                f"{machine.url}/api/projects/{project['id']}/render.{kind}",
                headers=staff_headers(),
                timeout=60,
            )
            assert render.status_code == 200, render.text
        assert redirected(f"{machine.url}/api/assets/{asset['id']}/download").status_code == 302

    # Nothing was written outside each process's scratch folder (besides its logs).
    for machine in machines:
        written = [
            path.relative_to(machine.folder)
            for path in machine.folder.rglob("*")
            if path.is_file() and path.suffix != ".log"
        ]
        assert all(path.parts[0] == "scratch" for path in written), written
