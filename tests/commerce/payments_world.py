"""The payment end-to-end world: the stand-in payment platform as its own process
(`manage.py wechatpay_standin`, notify retries compressed 100 times), the service (daphne and
the supervised worker) configured for it, and clients for a customer, staff and the payer."""

import os
import subprocess
import sys
import time

import httpx

from commerce.payments.standin import keys_ensure
from tests.commerce.conftest import APP_ID, APP_SECRET
from tests.processes import BASE_DIR, Service, free_port

MCH_ID = "1900000109"
MCH_SERIAL = "5157F09EFDC096DE15EBE81A47057A72"
PAY_WINDOW = 15  # seconds; the window test waits it out


class Standin:
    """The stand-in platform's process and its control endpoints (`/standin/...`)."""

    def __init__(self, folder):
        self.keys = keys_ensure(folder / "keys")
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        env = {
            **os.environ,
            "WECHATPAY_STANDIN_DIR": str(self.keys.folder),
            "WECHATPAY_STANDIN_PORT": str(self.port),
            "WECHATPAY_PUBLIC_KEY_ID": self.keys.key_id,
            "WECHATPAY_APIV3_KEY": self.keys.apiv3_key,
            "WECHATPAY_MCH_ID": MCH_ID,
            "WECHATPAY_MCH_SERIAL": MCH_SERIAL,
            "IDENTITY_APP_ID": APP_ID,
        }
        self.log_file = (folder / "standin.log").open("ab")
        self.process = subprocess.Popen(
            [sys.executable, "manage.py", "wechatpay_standin", "--time-scale", "0.01"],
            cwd=BASE_DIR,
            env=env,
            stdout=self.log_file,
            stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + 30
        while True:
            try:
                httpx.get(f"{self.url}/standin/log", timeout=1)
                return
            except httpx.TransportError:
                assert time.monotonic() < deadline and self.process.poll() is None
                time.sleep(0.1)

    def control(self, path: str, body: dict | None = None) -> httpx.Response:
        method = "GET" if body is None else "POST"
        return httpx.request(method, f"{self.url}/standin/{path}", json=body, timeout=10)

    def switches(self, **switches) -> None:
        self.control("switches", switches)

    def log(self) -> list[dict]:
        return self.control("log").json()["log"]

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=10)
        self.log_file.close()

    def service_env(self) -> dict:
        return {
            "WECHATPAY_BASE_URL": self.url,
            "WECHATPAY_MCH_ID": MCH_ID,
            "WECHATPAY_MCH_SERIAL": MCH_SERIAL,
            "WECHATPAY_MCH_PRIVATE_KEY_FILE": str(self.keys.merchant_private),
            "WECHATPAY_PUBLIC_KEY_FILE": str(self.keys.platform_public),
            "WECHATPAY_PUBLIC_KEY_ID": self.keys.key_id,
            "WECHATPAY_APIV3_KEY": self.keys.apiv3_key,
            "WECHATPAY_TIMEOUT": "1",
            "WECHATPAY_PAY_WINDOW": str(PAY_WINDOW),
            "WECHATPAY_QUERY_AFTER": "1",
        }


def start_service(folder, template, standin: Standin, identity_url: str, **env) -> Service:
    """The real service paying through the stand-in; `env`: more of its settings."""
    service = Service(
        folder,
        template,
        IDENTITY_PLATFORM_URL=identity_url,
        IDENTITY_APP_ID=APP_ID,
        IDENTITY_APP_SECRET=APP_SECRET,
        LOG_LEVEL="WARNING",
        **standin.service_env(),
        **env,
    )
    service.env["WECHATPAY_NOTIFY_URL"] = f"{service.url}/api/payments/wechat/notify"
    return service.start()


def reconcile(service: Service) -> str:
    """One reconciliation round in a process of its own, on the service's database."""
    done = subprocess.run(
        [sys.executable, "manage.py", "reconcile_payments"],
        cwd=BASE_DIR,
        env=service.env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def wait_until(condition, timeout: float = 15, every: float = 0.1):
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value or time.monotonic() > deadline:
            return value
        time.sleep(every)
