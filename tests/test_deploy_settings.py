"""Production settings (docs/deploy.md): `manage.py check --deploy` refuses the built-in
SECRET_KEY, passes once SECRET_KEY and the admin password are set, and reports nothing under
the compose stack's settings (HTTPS=1)."""

import os
import re
import secrets
import subprocess
import sys

import yaml
from cryptography.hazmat.primitives.asymmetric import rsa
from cryptography.hazmat.primitives.serialization import (
    Encoding,
    NoEncryption,
    PrivateFormat,
    PublicFormat,
)

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


def compose_environment() -> dict[str, str]:
    """The web replicas' environment in compose.yaml: each `${NAME:?...}` given a value as
    deploy/check.sh gives one, each `${NAME:-default}` its default."""
    compose = yaml.safe_load((BASE_DIR / "compose.yaml").read_text())
    environment = compose["services"]["web1"]["environment"]
    required = {
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ORDERS_ADMIN_PASSWORD": "a long password",
        "PUBLIC_BASE_URL": "https://posters.example",
    }

    def value(match: re.Match) -> str:
        name, kind, rest = match.groups()
        return rest if kind == ":-" else required.get(name, "secret")

    return {
        name: re.sub(r"\$\{(\w+)(:[-?])([^}]*)\}", value, str(setting))
        for name, setting in environment.items()
    }


def test_check_deploy_reports_nothing_under_the_compose_stacks_settings(tmp_path):
    """HTTPS=1 (compose.yaml) turns on every setting check --deploy asks for behind TLS. The
    shop's WeChat Pay merchant settings, which compose.yaml leaves to the operator, are
    given, or commerce.W010 says rightly that paying would fail."""
    keys = {}
    for name in ("merchant", "platform"):
        key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        keys[name] = tmp_path / f"{name}.pem"
        pem = (
            key.private_bytes(Encoding.PEM, PrivateFormat.PKCS8, NoEncryption())
            if name == "merchant"
            else key.public_key().public_bytes(Encoding.PEM, PublicFormat.SubjectPublicKeyInfo)
        )
        keys[name].write_bytes(pem)
    environment = compose_environment()
    assert environment["HTTPS"] == "1"

    done = deploy_check(
        **environment,
        IDENTITY_APP_ID="wx0123456789",
        WECHATPAY_MCH_ID="1900000109",
        WECHATPAY_MCH_SERIAL="5157F09EFDC096DE15EBE81A47057A72",
        WECHATPAY_MCH_PRIVATE_KEY_FILE=str(keys["merchant"]),
        WECHATPAY_PUBLIC_KEY_FILE=str(keys["platform"]),
        WECHATPAY_PUBLIC_KEY_ID="PUB_KEY_ID_0000000000000000",
        WECHATPAY_APIV3_KEY="0123456789abcdef0123456789abcdef",
        WECHATPAY_NOTIFY_URL="https://shop.example/api/payments/wechat/notify",
    )

    assert done.returncode == 0, done.stderr
    assert "System check identified no issues" in done.stdout + done.stderr, done.stderr


STARTS = """
import django
django.setup()
from django.conf import settings
from core.built_in_secrets import built_in_secrets_refused
built_in_secrets_refused(process="web", hosts=["0.0.0.0"])
print(",".join(settings.ALLOWED_HOSTS), settings.PUBLIC_BASE_URL)
"""


def test_the_stacks_processes_start_on_its_secrets_and_refuse_the_built_in_ones():
    """As deploy/check.sh runs the stack (HTTPS=0, the proxy on loopback), the web replicas
    (bound to 0.0.0.0) start on the secrets compose.yaml requires, and its health checks and
    clients (loopback, PUBLIC_BASE_URL's host) are allowed hosts; without SECRET_KEY they
    would refuse."""
    environment = {
        **compose_environment(),
        "HTTPS": "0",
        "PUBLIC_BASE_URL": "http://127.0.0.1:18000",
        "DJANGO_SETTINGS_MODULE": "config.settings",
    }

    def run(env):
        return subprocess.run(
            [sys.executable, "-c", STARTS],
            cwd=BASE_DIR,
            env={**{k: v for k, v in os.environ.items() if k != "SECRET_KEY"}, **env},
            capture_output=True,
            text=True,
            timeout=120,
        )

    started = run(environment)
    assert started.returncode == 0, started.stderr
    assert started.stdout.split() == [
        "127.0.0.1,localhost,[::1],127.0.0.1",
        "http://127.0.0.1:18000",
    ]
    refused = run({key: value for key, value in environment.items() if key != "SECRET_KEY"})
    assert refused.returncode == 1
    assert "web: refusing to start (listening on 0.0.0.0): SECRET_KEY is the built-in" in (
        refused.stderr
    )
