"""Production settings (docs/deploy.md): `manage.py check --deploy` refuses the built-in
SECRET_KEY, and passes once SECRET_KEY and the admin password are set."""

import os
import subprocess
import sys

from tests.processes import BASE_DIR


def deploy_check(**environment) -> subprocess.CompletedProcess:
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in {"SECRET_KEY", "ORDERS_ADMIN_PASSWORD", "DEBUG"}
    }
    return subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy"],
        cwd=BASE_DIR,
        env={**env, **environment},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_check_deploy_fails_on_the_built_in_secret_key():
    done = deploy_check()

    assert done.returncode != 0
    assert "wordclouds.E002" in done.stderr


def test_check_deploy_passes_with_a_secret_key_and_admin_password():
    done = deploy_check(SECRET_KEY="x7" * 32, ORDERS_ADMIN_PASSWORD="a long admin password")

    assert done.returncode == 0, done.stderr
    assert "wordclouds.E002" not in done.stderr
