"""The stand-in identity platform for local development: refused without DEBUG, and when
started as `make run` starts it, a newcomer logs in with any code over real sockets."""

import os
import subprocess
import sys
import time

import httpx
import pytest
from django.core.management import call_command
from django.core.management.base import SystemCheckError
from rest_framework.test import APIClient

from core.processes import free_port
from tests.processes import BASE_DIR


def test_the_stand_in_is_refused_when_debug_is_off(settings):
    settings.IDENTITY_STANDIN, settings.DEBUG = True, False

    with pytest.raises(SystemCheckError, match="commerce.E001"):
        call_command("check")


def test_the_stand_in_is_accepted_in_development_and_off_by_default(settings):
    call_command("check")  # off: nothing to say
    settings.IDENTITY_STANDIN, settings.DEBUG = True, True
    call_command("check")


@pytest.mark.e2e
@pytest.mark.django_db(transaction=True)
def test_any_code_logs_in_through_the_running_stand_in(settings, tmp_path):
    port = free_port()
    env = {
        **os.environ,
        "DEBUG": "1",
        "IDENTITY_STANDIN": "1",
        "IDENTITY_STANDIN_PORT": str(port),
        "IDENTITY_APP_ID": settings.IDENTITY_APP_ID,
        "IDENTITY_APP_SECRET": settings.IDENTITY_APP_SECRET,
    }
    # Its output goes to a file: read from a pipe while it still runs, the failure message
    # of a slow start would wait for it to end (a hang, not a failure).
    log = tmp_path / "identity_standin.log"
    process = subprocess.Popen(
        [sys.executable, "manage.py", "identity_standin"],
        cwd=BASE_DIR,
        env=env,
        stdout=log.open("wb"),
        stderr=subprocess.STDOUT,
    )
    try:
        settings.IDENTITY_PLATFORM_URL = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 60
        while True:
            try:
                httpx.get(settings.IDENTITY_PLATFORM_URL, timeout=1)
                break
            except httpx.TransportError:
                assert time.monotonic() < deadline and process.poll() is None, log.read_text()
                time.sleep(0.1)
        first = APIClient().post("/api/auth/login", {"code": "alice"}, format="json")
        again = APIClient().post("/api/auth/login", {"code": "alice"}, format="json")
    finally:
        process.terminate()
        process.wait(timeout=10)

    assert first.status_code == 200, first.json()
    assert first.json()["user"]["openid"] == "dev-alice"
    assert again.json()["user"]["id"] == first.json()["user"]["id"]
