"""The real commands refuse the built-in secrets where others reach them: `HOST=0.0.0.0 make
run` exits at once naming the setting, so do the web process bound to every address and the
worker serving its metrics; on loopback `make run` serves and says it uses development
secrets."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from core.processes import free_port, health_answered, kill_session, web_command
from tests.processes import BASE_DIR

pytestmark = pytest.mark.e2e
REAL = {"SECRET_KEY": "x7" * 32, "ORDERS_ADMIN_PASSWORD": "a long admin password"}


def environment(folder: Path, database_template, **settings) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if key not in {*REAL, "HTTPS", "HOST"}}
    return {
        **env,
        "DATABASE_URL": database_template.copy(folder).url,
        "MEDIA_ROOT": str(folder / "media"),
        "SCRATCH_ROOT": str(folder / "scratch"),
        "PORT": str(free_port()),
        "CONVERTER_PORT": str(free_port()),
        "PROMETHEUS_MULTIPROC_DIR": str(folder / "prometheus"),
        **settings,
    }


def finished(argv: list[str], env: dict, seconds: float) -> tuple[int | None, str, float]:
    """(exit status or None when still running after `seconds`, output, seconds taken); a
    process still running is killed with its whole session."""
    started = time.monotonic()
    process = subprocess.Popen(
        argv,
        cwd=BASE_DIR,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        output, _ = process.communicate(timeout=seconds)
        return process.returncode, output.decode(errors="replace"), time.monotonic() - started
    except subprocess.TimeoutExpired:
        kill_session(process.pid)
        output, _ = process.communicate()
        return None, output.decode(errors="replace"), time.monotonic() - started


@pytest.mark.parametrize("missing", ["SECRET_KEY", "ORDERS_ADMIN_PASSWORD"])
def test_make_run_on_every_address_exits_naming_the_built_in_secret(
    tmp_path, database_template, missing
):
    given = {name: value for name, value in REAL.items() if name != missing}
    env = environment(tmp_path, database_template, HOST="0.0.0.0", **given)

    status, output, seconds = finished(["make", "--no-print-directory", "run"], env, 60)

    assert status not in (None, 0), output
    assert seconds < 60
    refusal = f"runall: refusing to start (listening on 0.0.0.0): {missing} is the built-in"
    assert refusal in output, output
    assert "serving on" not in output


@pytest.mark.parametrize(
    ("process", "argv", "given"),
    [
        ("web", web_command("0.0.0.0", free_port()), {}),
        ("web", web_command("127.0.0.1", free_port()), {"HTTPS": "1"}),
        ("worker", [sys.executable, "manage.py", "runcluster"], {"HTTPS": "1"}),
        ("worker", [sys.executable, "manage.py", "runcluster"], {"METRICS_PORT": str(free_port())}),
    ],
)
def test_the_web_process_and_the_worker_refuse_where_others_reach_them(
    tmp_path, database_template, process, argv, given
):
    env = environment(tmp_path, database_template, **{"SECRET_KEY": REAL["SECRET_KEY"], **given})

    status, output, _ = finished(argv, env, 60)

    assert status not in (None, 0), output
    assert f"{process}: refusing to start" in output, output
    assert "ORDERS_ADMIN_PASSWORD is the built-in development value" in output


def test_make_run_on_loopback_serves_and_says_it_uses_development_secrets(
    tmp_path, database_template
):
    env = environment(tmp_path, database_template)
    log = tmp_path / "runall.log"
    runall = subprocess.Popen(
        ["make", "--no-print-directory", "run"],
        cwd=BASE_DIR,
        env=env,
        stdout=log.open("wb"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 120
        while "serving on" not in log.read_text() and runall.poll() is None:
            assert time.monotonic() < deadline, log.read_text()
            time.sleep(0.2)
        # 503 until the worker has answered once.
        served = health_answered(f"http://127.0.0.1:{env['PORT']}", seconds=60, statuses=(200, 503))
    finally:
        os.killpg(runall.pid, signal.SIGINT)  # Ctrl-C: to make and runall, its child
        try:
            runall.wait(timeout=30)
        except subprocess.TimeoutExpired:
            pass
        kill_session(runall.pid)
        runall.wait()

    line = next(line for line in log.read_text().splitlines() if "serving on" in line)
    assert line.startswith(f"serving on http://127.0.0.1:{env['PORT']}/api/")
    assert "development secrets (built-in SECRET_KEY and ORDERS_ADMIN_PASSWORD)" in line
    assert served
