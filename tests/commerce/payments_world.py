"""The payment end-to-end world: the stand-in payment platform as its own process
(`manage.py wechatpay_standin`, notify retries compressed 100 times), the service (daphne and
the supervised worker) configured for it, and clients for a customer, staff and the payer;
notifies signed by an independent implementation, and the ledger's invariant."""

import base64
import json
import os
import subprocess
import sys
import time

import httpx
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from wechatpayv3 import utils as wechatpay

from commerce.payments.standin import keys_ensure
from tests.commerce.clients import Api
from tests.commerce.conftest import APP_ID, APP_SECRET
from tests.processes import BASE_DIR, Service, free_port
from tests.waiting import wait_until

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
    """The real service paying through the stand-in, started; `env`: more of its settings."""
    return paying_service(folder, template, standin, identity_url, **env).start()


def paying_service(folder, template, standin: Standin, identity_url: str, **env) -> Service:
    """The real service paying through the stand-in, not started yet (its database and store
    can be prepared first); `env`: more of its settings."""
    service = Service(
        folder,
        template,
        IDENTITY_PLATFORM_URL=identity_url,
        IDENTITY_APP_ID=APP_ID,
        IDENTITY_APP_SECRET=APP_SECRET,
        LOG_LEVEL="WARNING",
        **{**standin.service_env(), **env},
    )
    service.env["WECHATPAY_NOTIFY_URL"] = f"{service.url}/api/payments/wechat/notify"
    return service


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


def listed_all(staff: Api, path: str) -> list[dict]:
    """Every item of a paged staff list, page by page."""
    items, page = [], 1
    while True:
        answer = staff.call("GET", f"{path}{'&' if '?' in path else '?'}page={page}&pageSize=100")
        items += answer.json()["list"]
        if len(items) >= answer.json()["total"]:
            return items
        page += 1


def ledger_problems(staff: Api) -> list[str]:
    """What breaks the ledger's invariant, read through the staff API (none: it holds): for
    each order, its successful payments minus their successful refunds are its total when it
    is PAID, SHIPPED or COMPLETED and 0 otherwise; and every flagged payment is listed for
    staff."""
    payments = listed_all(staff, "/api/payments")
    net: dict[int, int] = {}
    for payment in payments:
        if payment["orderId"] is None:
            continue
        paid = payment["amount"] if payment["status"] == "SUCCESS" else 0
        refunded = sum(r["amount"] for r in payment["refunds"] if r["status"] == "SUCCESS")
        net[payment["orderId"]] = net.get(payment["orderId"], 0) + paid - refunded
    problems = []
    for order in listed_all(staff, "/api/orders"):
        owed = order["totalAmount"] if order["status"] in ("PAID", "SHIPPED", "COMPLETED") else 0
        if net.get(order["id"], 0) != owed:
            problems.append(f"order {order['id']} {order['status']}: {net.get(order['id'])}")
    flagged = {p["id"] for p in payments if p["needsAttention"]}
    listed = {p["id"] for p in listed_all(staff, "/api/payments?needsAttention=true")}
    if flagged != listed:
        problems.append(f"flagged {flagged} but listed {listed}")
    return problems


def ledger_squares(service, staff: Api) -> None:
    """The ledger squares, at once or once a reconciliation round has run (a round in a
    process of its own costs seconds: only when the ledger does not square without it)."""
    if wait_until(lambda: not ledger_problems(staff), timeout=2, every=0.3):
        return
    reconcile(service)
    assert wait_until(lambda: not ledger_problems(staff), timeout=10), ledger_problems(staff)


def notify_signed(
    standin: Standin,
    record: dict,
    *,
    timestamp: int | None = None,
    serial: str | None = None,
    apiv3_key: str | None = None,
) -> tuple[dict, str]:
    """A notify signed with the platform's key by the independent implementation."""
    key = (apiv3_key or standin.keys.apiv3_key).encode()
    nonce = "0123456789ab"
    ciphertext = AESGCM(key).encrypt(nonce.encode(), json.dumps(record).encode(), b"transaction")
    body = json.dumps(
        {
            "id": "EV-1",
            "create_time": "2026-11-25T10:00:00+08:00",
            "resource_type": "encrypt-resource",
            "event_type": "TRANSACTION.SUCCESS",
            "summary": "paid",
            "resource": {
                "original_type": "transaction",
                "algorithm": "AEAD_AES_256_GCM",
                "ciphertext": base64.b64encode(ciphertext).decode(),
                "associated_data": "transaction",
                "nonce": nonce,
            },
        }
    )
    stamp = str(timestamp or int(time.time()))
    private = wechatpay.load_private_key(standin.keys.platform_private.read_text())
    headers = {
        "Wechatpay-Timestamp": stamp,
        "Wechatpay-Nonce": "N1",
        "Wechatpay-Signature": wechatpay.rsa_sign(private, f"{stamp}\nN1\n{body}\n"),
        "Wechatpay-Serial": serial or standin.keys.key_id,
        "Wechatpay-Signature-Type": "WECHATPAY2-SHA256-RSA2048",
        "Content-Type": "application/json",
    }
    return headers, body


def platform_transaction(standin: Standin, out_trade_no: str) -> dict:
    """The platform's record, asked by a request the independent implementation signs; its
    answer's signature checked by it too."""
    path = f"/v3/pay/transactions/out-trade-no/{out_trade_no}?mchid={MCH_ID}"
    private = wechatpay.load_private_key(standin.keys.merchant_private.read_text())
    authorization = wechatpay.build_authorization(path, "GET", MCH_ID, MCH_SERIAL, private)
    answer = httpx.get(standin.url + path, headers={"Authorization": authorization}, timeout=10)
    public = wechatpay.load_public_key(standin.keys.platform_public.read_text())
    assert answer.status_code == 200, answer.text
    assert wechatpay.rsa_verify(
        answer.headers["Wechatpay-Timestamp"],
        answer.headers["Wechatpay-Nonce"],
        answer.text,
        answer.headers["Wechatpay-Signature"],
        public,
    )
    return answer.json()


def notify_post(service, headers: dict, body: str) -> httpx.Response:
    """The notify delivered to the service, as the platform would."""
    return httpx.post(
        f"{service.url}/api/payments/wechat/notify", content=body, headers=headers, timeout=30
    )
