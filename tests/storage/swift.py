"""A real S3 server for tests: OpenStack Swift with its s3api middleware, started on loopback
by deploy/swift/run.sh in a folder of its own, as one process group that a test may stop,
start again on the same folder (its objects kept), or hang (SIGSTOP)."""

import os
import signal
import subprocess
import time
from pathlib import Path

import httpx

from core.processes import kill_session
from tests.processes import BASE_DIR, free_port

ACCESS_KEY = "wordclouds:store"
SECRET_KEY = "wordclouds-secret"
BUCKET = "wordclouds"
START_SECONDS = 180


class Swift:
    def __init__(self, folder: Path):
        self.folder = folder
        # The proxy's port and the three after it (object, container, account servers).
        while True:
            self.port = free_port()
            if self.port < 65000 and all(_free(self.port + n) for n in (1, 2, 3)):
                break
        self.url = f"http://127.0.0.1:{self.port}"
        self.process = None

    def environment(self, **overrides) -> dict[str, str]:
        """The service's settings for this store."""
        return {
            "S3_ENDPOINT_URL": self.url,
            "S3_BUCKET": BUCKET,
            "S3_ACCESS_KEY_ID": ACCESS_KEY,
            "S3_SECRET_ACCESS_KEY": SECRET_KEY,
            **overrides,
        }

    def start(self) -> "Swift":
        log = (self.folder / "swift.log").open("ab")
        self.process = subprocess.Popen(
            [BASE_DIR / "deploy" / "swift" / "run.sh", self.folder / "store", str(self.port)],
            env={**os.environ, "S3_ACCESS_KEY_ID": ACCESS_KEY, "S3_SECRET_ACCESS_KEY": SECRET_KEY},
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        self._wait_answering()
        return self

    def stop(self) -> None:
        """Every server stopped at once (SIGKILL), as a machine that dies."""
        if self.process is not None:
            self.resume()
            for pid in self._servers():
                _signal(pid, signal.SIGKILL)
            kill_session(self.process.pid)
            self.process.wait(timeout=10)
            self.process = None

    def pause(self) -> None:
        """Every server hung (SIGSTOP): connections are accepted, nothing answers."""
        for pid in self._servers():
            _signal(pid, signal.SIGSTOP)

    def resume(self) -> None:
        for pid in self._servers():
            _signal(pid, signal.SIGCONT)

    def client(self):
        import boto3
        from botocore.config import Config

        return boto3.client(
            "s3",
            endpoint_url=self.url,
            aws_access_key_id=ACCESS_KEY,
            aws_secret_access_key=SECRET_KEY,
            region_name="us-east-1",
            config=Config(signature_version="s3v4", s3={"addressing_style": "path"}),
        )

    def _servers(self) -> list[int]:
        """The run script and the servers it started (each server makes its own session)."""
        if self.process is None:
            return []
        found = subprocess.run(
            ["pgrep", "-P", str(self.process.pid)], capture_output=True, text=True
        ).stdout.split()
        return [self.process.pid, *(int(pid) for pid in found)]

    def _wait_answering(self) -> None:
        # Building the rings and starting four Python servers took 60-90 s on a machine
        # shared by several test runs.
        deadline = time.monotonic() + START_SECONDS
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError((self.folder / "swift.log").read_text(errors="replace"))
            try:
                if httpx.get(f"{self.url}/healthcheck", timeout=2).status_code == 200:
                    client = self.client()
                    if BUCKET not in [b["Name"] for b in client.list_buckets()["Buckets"]]:
                        client.create_bucket(Bucket=BUCKET)
                    return
            except Exception:
                pass
            time.sleep(0.2)
        raise RuntimeError(f"swift did not answer within {START_SECONDS} s")


def _free(port: int) -> bool:
    import socket

    with socket.socket() as sock:
        try:
            sock.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def _signal(pid: int, number: int) -> None:
    try:
        os.kill(pid, number)
    except ProcessLookupError:
        pass
