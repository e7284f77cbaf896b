"""`make run` with WECHATPAY_STANDIN (and IDENTITY_STANDIN): `manage.py runall` starts the
stand-in payment platform with keys of its own and configures the service for it, so a
newcomer pays an order locally as docs/commerce.md shows, over real sockets."""

import os
import subprocess
import sys
import time
import uuid

import httpx
import pytest

from core.processes import kill_session
from tests.commerce.clients import SHENZHEN, Api
from tests.processes import BASE_DIR, free_port
from tests.waiting import wait_until

pytestmark = pytest.mark.e2e


def test_make_run_with_the_stand_in_pays_and_refunds_an_order(tmp_path, database_template):
    port, standin_port = free_port(), free_port()
    database = database_template.copy(tmp_path)
    env = {
        **os.environ,
        "DEBUG": "1",
        "PORT": str(port),
        "DATABASE_URL": database.url,
        "MEDIA_ROOT": str(tmp_path / "media"),
        "Q_NAME": f"e2e-{uuid.uuid4().hex[:8]}",
        "CONVERTER_PORT": str(free_port()),
        "IDENTITY_STANDIN": "1",
        "IDENTITY_STANDIN_PORT": str(free_port()),
        "WECHATPAY_STANDIN": "1",
        "WECHATPAY_STANDIN_PORT": str(standin_port),
        "WECHATPAY_STANDIN_DIR": str(tmp_path / "wechatpay"),
        "LOG_LEVEL": "WARNING",
    }
    log = (tmp_path / "runall.log").open("ab")
    runall = subprocess.Popen(
        [sys.executable, "manage.py", "runall"],
        cwd=BASE_DIR,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    api = f"http://127.0.0.1:{port}/api"
    try:
        assert wait_until(lambda: _answers(f"{api}/health"), timeout=120, every=0.3), (
            tmp_path / "runall.log"
        ).read_text()
        assert wait_until(lambda: _answers(f"http://127.0.0.1:{standin_port}/standin/log"))
        # The identity stand-in starts beside the service: until it listens, a login is 502.
        login = wait_until(lambda: _logged_in(f"{api}/auth/login"), timeout=30)
        assert login, (tmp_path / "runall.log").read_text()
        token = login["token"]
        alice = Api(api.removesuffix("/api"), token)
        staff = Api(
            api.removesuffix("/api"),
            httpx.post(f"{api}/login", json={"password": "wordcloud-admin"}).json()["token"],
        )
        product = staff.call("POST", "/api/products", {"name": "Poster", "price": 4900}).json()
        address = alice.call("POST", "/api/addresses", SHENZHEN).json()
        order = alice.call(
            "POST",
            "/api/orders",
            {"addressId": address["id"], "items": [{"productId": product["id"], "quantity": 1}]},
        ).json()

        pay = alice.call("POST", f"/api/orders/{order['id']}/pay")
        assert pay.status_code == 200, pay.text
        payer = httpx.post(
            f"http://127.0.0.1:{standin_port}/standin/pay", json=pay.json()["payParams"]
        )
        assert payer.status_code == 200, payer.text

        def status():
            return alice.call("GET", f"/api/orders/{order['id']}").json()

        assert wait_until(lambda: status()["status"] == "PAID")
        cancelled = alice.call("POST", f"/api/orders/{order['id']}/cancel").json()
        assert cancelled["status"] == "CANCELLED"
        assert wait_until(lambda: status()["payment"]["refundStatus"] == "SUCCESS")
        assert (tmp_path / "wechatpay" / "platform_public_key.pem").exists()
    finally:
        runall.terminate()
        try:
            runall.wait(timeout=15)
        except subprocess.TimeoutExpired:
            pass
        kill_session(runall.pid)
        runall.wait()
        log.close()
        database.drop()


def _answers(url: str) -> bool:
    try:
        return httpx.get(url, timeout=2).status_code == 200
    except httpx.TransportError:
        time.sleep(0.2)
        return False


def _logged_in(url: str) -> dict | None:
    answer = httpx.post(url, json={"code": "alice"}, timeout=10)
    if answer.status_code == 200:
        return answer.json()
    time.sleep(0.2)
    return None
