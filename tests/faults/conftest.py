import os
import signal
import sys

import httpx
import pytest

from core.processes import free_port, kill_session, session_members
from tests.processes import Service
from tests.wordclouds.conftest import names_xlsx  # noqa: F401  (a fixture)


class WholeService(Service):
    """`manage.py runall` (web, supervised worker, converter) as `make run` starts it, on its
    own port, converter port, media folder and database; it can be stopped and started
    again on the same data."""

    def __init__(self, folder, template, **environment):
        super().__init__(folder, template, CONVERTER_PORT=free_port(), **environment)

    def start(self) -> "WholeService":
        self.web = self._spawn(
            "web", [sys.executable, "manage.py", "runall", "--port", str(self.port)]
        )
        self._wait_healthy()
        return self

    def halt(self) -> None:
        """Ctrl-C, as an operator stops `make run`; whatever is left is killed."""
        self.web.send_signal(signal.SIGINT)
        try:
            self.web.wait(timeout=30)
        except Exception:
            pass
        kill_session(self.web.pid)
        self.web.wait()

    def pid_of(self, command: str) -> int:
        """The process runall started for `manage.py <command>` (in a session of its own)."""
        for pid in session_members(self.web.pid) + _children(self.web.pid):
            try:
                argv = open(f"/proc/{pid}/cmdline", "rb").read().split(b"\0")
            except OSError:
                continue
            if command.encode() in argv:
                return pid
        raise LookupError(command)

    def cluster_workers(self) -> list[int]:
        return [int(pid) for pid in _ready_workers(self.log("web"))]


def _children(parent: int) -> list[int]:
    children = []
    for entry in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{entry}/stat") as stat:
                if int(stat.read().rpartition(")")[2].split()[1]) == parent:
                    children.append(int(entry))
        except OSError:
            continue
    return children


def _ready_workers(log: str) -> list[str]:
    import re

    return re.findall(r"ready for work at (\d+)", log)


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def healthy_with_heartbeat(url: str) -> bool:
    try:
        body = httpx.get(f"{url}/api/health", timeout=5).json()
    except httpx.TransportError:
        return False
    return bool(body.get("ok") and body["worker"]["last_heartbeat"])


@pytest.fixture
def whole_service(tmp_path, database_template):
    started = []

    def start(**environment) -> WholeService:
        service = WholeService(tmp_path, database_template, **environment)
        started.append(service)
        return service.start()

    yield start
    for service in started:
        service.stop()
