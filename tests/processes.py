"""Real processes for end-to-end tests and benchmarks: the daphne web server and the
django-q2 worker on loopback, each service on a database of its own."""

import hashlib
import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

from core.processes import free_port, health_answered, kill_session, web_command

BASE_DIR = Path(__file__).resolve().parent.parent
# Tests of several processes sharing a database and a queue: they need the PostgreSQL and
# Redis of CI's second pass (DATABASE_URL=postgres://..., REDIS_URL).
needs_postgres_and_redis = pytest.mark.skipif(
    not (os.environ.get("DATABASE_URL", "").startswith("postgres") and os.environ.get("REDIS_URL")),
    reason="needs PostgreSQL (DATABASE_URL) and Redis (REDIS_URL)",
)


# Rates and caps no test meets unless it gives its own (the suite's clients are all
# 127.0.0.1): every Service has them, and every test in the test process (tests/conftest.py).
GENEROUS_RATES = "jobs=100000/hour,exports=100000/hour,login=100000/minute,lookups=100000/minute"
GENEROUS_QUEUE = 100_000

# The files the engine writes for a finished job (GET /api/jobs/{id}/files/{kind}).
ARTIFACT_KINDS = ("png", "svg", "svg_stroke", "db", "metrics")


def staff_headers() -> dict:
    """`Authorization` with the admin token (the services sign with this process's
    SECRET_KEY): staff, who may call every route (docs/security.md)."""
    from core.admin_token import admin_token_issue

    return {"Authorization": f"Bearer {admin_token_issue()}"}


class Service:
    """The real daphne web server, django-q2 worker and (on request) export converter on
    loopback, with their own media folder and database (see DatabaseTemplate; REDIS_URL
    passes through unless given). Tests talk to it over HTTP only."""

    def __init__(
        self,
        folder: Path,
        template: "DatabaseTemplate",
        *,
        database: "_Database | None" = None,
        **environment,
    ):
        """`database`: another service's, shared (it is dropped by its owner only)."""
        self.folder = folder
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.owns_database = database is None
        self.database = database or template.copy(folder)
        self.env = {
            **os.environ,
            "DATABASE_URL": self.database.url,
            "MEDIA_ROOT": str(folder / "media"),
            "SCRATCH_ROOT": str(folder / "scratch"),
            "Q_NAME": f"e2e-{uuid.uuid4().hex[:8]}",
            "PYTHONUNBUFFERED": "1",
            "CONVERTER_PORT": str(free_port()),
            "THROTTLE_RATES": GENEROUS_RATES,
            "MAX_QUEUED_PER_CLIENT": str(GENEROUS_QUEUE),
            **{key: str(value) for key, value in environment.items()},
        }
        self.web = self.worker = self.converter = None

    def start(self, *, worker: bool = True, converter: bool = False) -> "Service":
        self.web = self._spawn("web", web_command("127.0.0.1", self.port))
        if worker:
            self.start_worker()
        if converter:
            self.converter = self._spawn("converter", [sys.executable, "manage.py", "runconverter"])
        self._wait_healthy()
        return self

    def start_worker(self) -> None:
        """The supervised cluster (`runcluster`), as `make run` starts it."""
        self.worker = self._spawn("worker", [sys.executable, "manage.py", "runcluster"])

    def kill_worker(self) -> None:
        """SIGKILL every process of the worker: the supervisor, the cluster and its task
        processes."""
        kill_session(self.worker.pid)
        self.worker.wait(timeout=10)

    def cluster_workers(self) -> list[int]:
        """Pids of the cluster's task processes that have said they are ready, newest last."""
        return [int(pid) for pid in re.findall(r"ready for work at (\d+)", self.log("worker"))]

    def __enter__(self) -> "Service":
        """``with Service(...) as started: yield started.start()``: stopped however it ends."""
        return self

    def __exit__(self, *exc_info) -> None:
        self.stop()

    def stop(self) -> None:
        for process in (self.converter, self.worker, self.web):
            if process is None:
                continue
            # SIGTERM to the leader only: qcluster stops its own processes, while SIGTERM to
            # its whole group can kill one holding a shared lock and hang the leader.
            if process.poll() is None:
                process.terminate()
                try:
                    process.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    pass
            kill_session(process.pid)  # whatever is left of it
            process.wait()
        if self.owns_database:
            self.database.drop()

    def submit(self, names_path: Path, params: dict, headers: dict | None = None) -> str:
        """A new job's id; with `headers` carrying a customer's token, theirs."""
        with names_path.open("rb") as names:
            response = httpx.post(
                f"{self.url}/api/jobs",
                files={"name_list": names},
                data={"params": json.dumps(params)},
                headers=headers,
                timeout=60,
            )
        assert response.status_code == 201, response.text
        return response.json()["job_id"]

    def job(self, job_id: str) -> dict:
        return httpx.get(f"{self.url}/api/jobs/{job_id}", timeout=10).json()

    def finished(self, job_id: str, timeout: float = 120) -> dict:
        """The job once it has succeeded (the test fails with its status otherwise)."""
        job = self.wait_for(job_id, lambda job: job["status"] in ("success", "failed"), timeout)
        assert job["status"] == "success", job
        return job

    def words(self, job_id: str) -> dict[int, tuple]:
        """The rows of the job's positions.db by id, downloaded."""
        # With a store behind it the file answers with a redirect to the store.
        data = httpx.get(
            f"{self.url}/api/jobs/{job_id}/files/db", timeout=30, follow_redirects=True
        ).content
        with sqlite3.connect(":memory:") as connection:
            connection.deserialize(data)
            return {row[0]: row for row in connection.execute("SELECT * FROM words")}

    def sha256(self, path: str) -> str:
        """The SHA-256 of what GET `path` answers (through the store's redirect, if any)."""
        answer = httpx.get(f"{self.url}{path}", timeout=60, follow_redirects=True)
        assert answer.status_code == 200, (path, answer.status_code)
        return hashlib.sha256(answer.content).hexdigest()

    def digests(self, job_id: str) -> dict[str, str]:
        """The SHA-256 of each file the engine wrote for the job, by kind."""
        return {kind: self.sha256(f"/api/jobs/{job_id}/files/{kind}") for kind in ARTIFACT_KINDS}

    def stored_files(self) -> set[str]:
        """The stored files: the keys of the S3 bucket when the service has one, else the
        files of its media folder."""
        if self.env.get("S3_BUCKET"):
            import boto3

            client = boto3.client(
                "s3",
                endpoint_url=self.env["S3_ENDPOINT_URL"],
                aws_access_key_id=self.env["S3_ACCESS_KEY_ID"],
                aws_secret_access_key=self.env["S3_SECRET_ACCESS_KEY"],
                region_name=self.env.get("S3_REGION", "us-east-1"),
            )
            pages = client.get_paginator("list_objects_v2").paginate(Bucket=self.env["S3_BUCKET"])
            return {item["Key"] for page in pages for item in page.get("Contents", [])}
        root = self.folder / "media"
        return {str(path.relative_to(root)) for path in root.rglob("*") if path.is_file()}

    def wait_for(self, job_id: str, condition, timeout: float) -> dict:
        deadline = time.monotonic() + timeout
        while True:
            job = self.job(job_id)
            if condition(job) or time.monotonic() > deadline:
                return job
            time.sleep(0.1)

    def log(self, name: str) -> str:
        return (self.folder / f"{name}.log").read_text(errors="replace")

    def _spawn(self, name: str, argv) -> subprocess.Popen:
        log = (self.folder / f"{name}.log").open("ab")
        return subprocess.Popen(
            argv,
            cwd=BASE_DIR,
            env=self.env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def _wait_healthy(self) -> None:
        if not health_answered(self.url, seconds=30, web=self.web):
            state = "exited" if self.web.poll() is not None else "did not answer"
            raise RuntimeError(f"web server {state}:\n{self.log('web')}")


# Asks for a URL every 0.1 s until its standard input closes, then prints [[seconds, status]].
_PROBE = """
import json, sys, threading, time
import httpx
stop = threading.Event()
threading.Thread(target=lambda: (sys.stdin.read(), stop.set()), daemon=True).start()
probes = []
with httpx.Client(timeout=60) as client:
    while not stop.is_set():
        started = time.monotonic()
        status = client.get(sys.argv[1]).status_code
        probes.append((time.monotonic() - started, status))
        stop.wait(0.1)
print(json.dumps(probes))
"""


class HealthProbe:
    """`/api/health` asked every 0.1 s, for as long as the `with` block lasts, from a process
    of its own: the latencies are the server's, not the waits of a busy client process.
    `probes` is then a list of (seconds, status)."""

    def __init__(self, base_url: str):
        self.url = f"{base_url}/api/health"
        self.probes: list[tuple[float, int]] = []

    def __enter__(self) -> "HealthProbe":
        self.process = subprocess.Popen(
            [sys.executable, "-c", _PROBE, self.url],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        return self

    def __exit__(self, *exc_info) -> None:
        output, _ = self.process.communicate(timeout=120)
        self.probes = [tuple(probe) for probe in json.loads(output or "[]")]


class DatabaseTemplate:
    """A database migrated once per test session, copied for each service: a SQLite file,
    or with DATABASE_URL=postgres://... a PostgreSQL database used as CREATE DATABASE's
    template. The processes need databases of their own: pytest-django's test database is
    not one they could see."""

    def __init__(self, folder: Path):
        self.server = os.environ.get("DATABASE_URL", "")
        self.postgres = self.server.startswith("postgres")
        if self.postgres:
            self.name = self._create_postgres(f"e2e_template_{uuid.uuid4().hex[:8]}")
            url = self._postgres_url(self.name)
        else:
            self.file = folder / "template.sqlite3"
            url = f"sqlite:///{self.file}"
        subprocess.run(
            [sys.executable, "manage.py", "migrate", "--noinput"],
            cwd=BASE_DIR,
            env={**os.environ, "DATABASE_URL": url},
            check=True,
            capture_output=True,
        )

    def copy(self, folder: Path) -> "_Database":
        if self.postgres:
            name = self._create_postgres(f"e2e_{uuid.uuid4().hex[:12]}", template=self.name)
            return _Database(self._postgres_url(name), drop=lambda: self._drop_postgres(name))
        shutil.copy(self.file, folder / "db.sqlite3")
        return _Database(f"sqlite:///{folder / 'db.sqlite3'}", drop=lambda: None)

    def drop(self) -> None:
        if self.postgres:
            self._drop_postgres(self.name)

    def _postgres_url(self, name: str) -> str:
        return self.server.rsplit("/", 1)[0] + f"/{name}"

    def _create_postgres(self, name: str, template: str | None = None) -> str:
        import psycopg

        with psycopg.connect(self.server, autocommit=True) as connection:
            suffix = f' TEMPLATE "{template}"' if template else ""
            connection.execute(f'CREATE DATABASE "{name}"{suffix}')
        return name

    def _drop_postgres(self, name: str) -> None:
        import psycopg

        with psycopg.connect(self.server, autocommit=True) as connection:
            connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@dataclass
class _Database:
    url: str
    drop: Callable[[], None]
