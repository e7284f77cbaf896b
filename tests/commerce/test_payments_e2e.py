"""Paying orders end to end: the real service (daphne + worker), the stand-in payment
platform in its own process, HTTP only. After every test the ledger must square: for each
order, successful payments minus successful refunds is its total when PAID (or later) and 0
otherwise, once reconciliation has run; and every flagged payment is listed for staff."""

import json
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
from wechatpayv3 import utils as wechatpay

from core.admin_token import admin_token_issue
from tests.commerce.clients import SHENZHEN, Api, new_customer
from tests.commerce.payments_world import (
    MCH_ID,
    PAY_WINDOW,
    Standin,
    ledger_squares,
    notify_post,
    notify_signed,
    platform_transaction,
    reconcile,
    start_service,
    wait_until,
)
from tests.commerce.proofs_world import approved_over_http
from tests.errors import refusal
from tests.names import sample_names, write_names

pytestmark = [pytest.mark.e2e, pytest.mark.backend]
RACES = 50


@pytest.fixture(scope="module")
def world(tmp_path_factory, database_template, identity_platform_server):
    folder = tmp_path_factory.mktemp("payments-e2e")
    standin = Standin(folder)
    try:
        service = start_service(folder, database_template, standin, identity_platform_server.url)
    except BaseException:
        standin.stop()
        raise
    try:
        staff = Api(service.url, admin_token_issue())
        product = staff.call("POST", "/api/products", {"name": "Poster", "price": 4900}).json()
        yield service, standin, staff, product["id"]
    finally:
        service.stop()
        standin.stop()


class Shop:
    def __init__(self, world, identity_platform):
        self.service, self.standin, self.staff, self.product_id = world
        self.customer = new_customer(self.service.url, identity_platform)
        self.address_id = self.customer.call("POST", "/api/addresses", SHENZHEN).json()["id"]

    def order(self) -> int:
        body = {
            "addressId": self.address_id,
            "items": [{"productId": self.product_id, "quantity": 1}],
        }
        return self.customer.call("POST", "/api/orders", body).json()["id"]

    def pay(self, order_id: int) -> dict:
        response = self.customer.call("POST", f"/api/orders/{order_id}/pay")
        assert response.status_code == 200, response.text
        return response.json()

    def order_record(self, order_id: int) -> dict:
        return self.staff.call("GET", f"/api/orders/{order_id}").json()

    def payments(self, order_id: int) -> list[dict]:
        return self.staff.call("GET", f"/api/payments?orderId={order_id}&pageSize=100").json()[
            "list"
        ]

    def wait_status(self, order_id: int, status: str) -> dict:
        wait_until(lambda: self.order_record(order_id)["status"] == status)
        return self.order_record(order_id)


@pytest.fixture
def shop(world, identity_platform_server):
    world[1].control("reset", {})
    yield Shop(world, identity_platform_server)
    world[1].control("reset", {})
    ledger_squares(world[0], world[2])


def test_pay_then_notify_makes_the_order_paid(shop):
    order_id = shop.order()

    first = shop.pay(order_id)
    again = shop.pay(order_id)
    paid = shop.standin.control("pay", first["payParams"])

    assert again["outTradeNo"] == first["outTradeNo"]
    assert first["payParams"]["package"].startswith("prepay_id=")
    assert paid.status_code == 200, paid.text
    order = shop.wait_status(order_id, "PAID")
    assert order["payment"]["status"] == "SUCCESS"
    assert order["payment"]["outTradeNo"] == first["outTradeNo"]
    assert order["payment"]["transactionId"] == paid.json()["transaction_id"]
    assert order["paidAt"] == order["payment"]["paidAt"]
    listed = shop.customer.call("GET", "/api/orders?paymentStatus=SUCCESS").json()["list"]
    assert [o["id"] for o in listed] == [order_id]


def test_the_mini_programs_flow_as_a_customer(shop, tmp_path):
    # a customer logged in (the Shop's) makes a job: it is theirs, listed to them alone
    names = write_names(tmp_path / "names.xlsx", sample_names(8))
    params = {"WIDTH": 300, "HEIGHT": 200, "SEED": 1}
    job_id = shop.service.submit(names, params, headers=shop.customer.headers)
    assert shop.service.finished(job_id)["status"] == "success"
    assert [job["job_id"] for job in shop.customer.call("GET", "/api/jobs").json()] == [job_id]

    # then sent as a proof and approved (docs/proofs.md), a design list naming it, an order
    # of it, paid
    approved_over_http(shop.service.url, job_id, shop.customer.headers)
    items = [{"jobId": job_id, "quantity": 1}]
    design_list = shop.customer.call("POST", "/api/design-lists", {"name": "Class", "items": items})
    assert design_list.status_code == 201, design_list.text
    body = {
        "addressId": shop.address_id,
        "items": [{"productId": shop.product_id, "quantity": 1}],
        "designListId": design_list.json()["id"],
    }
    order_id = shop.customer.call("POST", "/api/orders", body).json()["id"]
    paid = shop.standin.control("pay", shop.pay(order_id)["payParams"])
    assert paid.status_code == 200, paid.text
    assert shop.wait_status(order_id, "PAID")["status"] == "PAID"

    # and the job the order needs cannot be deleted, not even by its owner
    refused = shop.customer.call("DELETE", f"/api/jobs/{job_id}")
    assert (refused.status_code, refused.json()["code"]) == (409, "job_in_order")


def test_the_crypto_checks_out_with_an_independent_implementation(shop):
    order_id = shop.order()
    params = shop.pay(order_id)["payParams"]
    shop.standin.control("pay", params)
    shop.wait_status(order_id, "PAID")
    merchant = wechatpay.load_private_key(shop.standin.keys.merchant_private.read_text())
    merchant_public = merchant.public_key()
    platform_public = wechatpay.load_public_key(shop.standin.keys.platform_public.read_text())
    log = shop.standin.log()

    # paySign: PKCS#1 v1.5 is deterministic, so the same signature from the same lines.
    lines = ["wx-test-app", params["timeStamp"], params["nonceStr"], params["package"]]
    assert params["paySign"] == wechatpay.rsa_sign(merchant, "\n".join(lines) + "\n")
    requests = [entry for entry in log if entry["kind"] == "request"]
    assert requests
    for request in requests:
        scheme, _, fields = request["authorization"].partition(" ")
        parts = dict(part.split("=", 1) for part in fields.split(","))
        parts = {key: value.strip('"') for key, value in parts.items()}
        assert scheme == "WECHATPAY2-SHA256-RSA2048" and parts["mchid"] == MCH_ID
        # rsa_verify signs "a\nb\nc\n"; the request's lines are METHOD, URL, time, nonce, body.
        assert wechatpay.rsa_verify(
            f"{request['method']}\n{request['url']}\n{parts['timestamp']}",
            parts["nonce_str"],
            request["body"],
            parts["signature"],
            merchant_public,
        )
    notifies = [entry for entry in log if entry["kind"] == "notify"]
    assert notifies
    for notify in notifies:
        headers = notify["headers"]
        assert wechatpay.rsa_verify(
            headers["Wechatpay-Timestamp"],
            headers["Wechatpay-Nonce"],
            notify["body"],
            headers["Wechatpay-Signature"],
            platform_public,
        )
        resource = json.loads(notify["body"])["resource"]
        record = json.loads(
            wechatpay.aes_decrypt(
                resource["nonce"],
                resource["ciphertext"],
                resource["associated_data"],
                shop.standin.keys.apiv3_key,
            )
        )
        assert record["trade_state"] == "SUCCESS" and record["amount"]["total"] == 4900


def test_the_same_notify_twenty_times_at_once_applies_once(shop):
    shop.standin.switches(duplicate_notify=20)
    order_id = shop.order()

    shop.standin.control("pay", shop.pay(order_id)["payParams"])

    shop.wait_status(order_id, "PAID")
    wait_until(
        lambda: len([e for e in shop.payments(order_id)[0]["events"] if e["kind"] == "notify"])
        >= 20
    )
    events = shop.payments(order_id)[0]["events"]
    notifies = [e for e in events if e["kind"] == "notify"]
    assert len(notifies) >= 20
    assert [e["applied"] for e in notifies].count(True) == 1


@pytest.mark.parametrize("forgery", ["signature", "stale", "serial", "apiv3-key", "probe"])
def test_a_notify_that_does_not_check_out_is_401_and_changes_nothing(shop, forgery):
    order_id = shop.order()
    out_trade_no = shop.pay(order_id)["outTradeNo"]
    # What a forger claims: the platform's record of the unpaid attempt, marked paid.
    record = {
        **platform_transaction(shop.standin, out_trade_no),
        "trade_state": "SUCCESS",
        "transaction_id": "4200000000000000000",
        "success_time": "2026-11-25T10:00:00+08:00",
    }
    kwargs = {
        "stale": {"timestamp": int(time.time()) - 400},
        "serial": {"serial": "PUB_KEY_ID_0000SOMEONEELSE"},
        "apiv3-key": {"apiv3_key": "another-apiv3-key-of-32-chars-00"},
    }.get(forgery, {})
    headers, body = notify_signed(shop.standin, record, **kwargs)
    if forgery == "signature":
        headers["Wechatpay-Signature"] = wechatpay.rsa_sign(
            wechatpay.load_private_key(shop.standin.keys.merchant_private.read_text()),
            f"{headers['Wechatpay-Timestamp']}\nN1\n{body}\n",
        )
    if forgery == "probe":
        headers["Wechatpay-Signature"] = "WECHATPAY/SIGNTEST/" + headers["Wechatpay-Signature"]

    response = notify_post(shop.service, headers, body)

    assert response.status_code == 401
    assert response.json()["code"] == "FAIL" and response.json()["message"]
    # (The worker's scheduled reconciliation may query the attempt meanwhile: it is unpaid.)
    [payment] = shop.payments(order_id)
    assert payment["status"] == "OPEN" and payment["transactionId"] == ""
    assert not [event for event in payment["events"] if event["kind"] == "notify"]
    assert shop.order_record(order_id)["status"] == "PENDING"


def test_the_platforms_own_probe_is_refused_before_the_real_notify(shop):
    shop.standin.switches(probe=True)
    order_id = shop.order()

    shop.standin.control("pay", shop.pay(order_id)["payParams"])

    shop.wait_status(order_id, "PAID")
    statuses = [e["status"] for e in shop.standin.log() if e["kind"] == "notify"]
    assert statuses[0] == 401 and 204 in statuses


def test_an_amount_that_does_not_match_is_flagged_and_the_order_stays_pending(shop):
    shop.standin.switches(tamper_amount=1)
    order_id = shop.order()

    shop.standin.control("pay", shop.pay(order_id)["payParams"])

    flagged = wait_until(
        lambda: shop.staff.call(
            "GET", f"/api/payments?needsAttention=true&orderId={order_id}"
        ).json()["list"]
    )
    assert flagged and "4901" in flagged[0]["attentionReason"]
    assert shop.order_record(order_id)["status"] == "PENDING"


def test_a_prepay_timeout_is_502_and_the_retry_keeps_the_out_trade_no(shop):
    shop.standin.switches(delay={"jsapi": 1.5})
    order_id = shop.order()

    timed_out = shop.customer.call("POST", f"/api/orders/{order_id}/pay")
    shop.standin.switches(delay={})
    retried = shop.pay(order_id)

    assert timed_out.status_code == 502
    assert refusal(timed_out) == "payment platform timed out"
    attempts = shop.payments(order_id)
    assert [a["outTradeNo"] for a in attempts] == [retried["outTradeNo"]]
    shop.standin.control("pay", retried["payParams"])
    shop.wait_status(order_id, "PAID")


def test_a_notify_before_the_prepay_answer_is_applied(shop):
    shop.standin.switches(notify_before_prepay=True)
    order_id = shop.order()

    shop.pay(order_id)

    assert shop.wait_status(order_id, "PAID")["payment"]["status"] == "SUCCESS"


def test_cancel_of_a_paid_order_refunds_it_with_one_out_refund_no_through_a_500(shop):
    order_id = shop.order()
    shop.standin.control("pay", shop.pay(order_id)["payParams"])
    shop.wait_status(order_id, "PAID")
    shop.standin.switches(fail={"refund": 1})

    cancelled = shop.customer.call("POST", f"/api/orders/{order_id}/cancel")
    assert cancelled.status_code == 200 and cancelled.json()["status"] == "CANCELLED"
    assert cancelled.json()["payment"]["refundStatus"] == "REQUESTED"
    reconcile(shop.service)

    order = wait_until(
        lambda: (o := shop.order_record(order_id))["payment"]["refundStatus"] == "SUCCESS" and o
    )
    assert order["payment"]["refundedAmount"] == 4900
    sent = [
        json.loads(e["body"])["out_refund_no"]
        for e in shop.standin.log()
        if e["kind"] == "request" and e["url"] == "/v3/refund/domestic/refunds"
    ]
    assert len(sent) >= 2 and len(set(sent)) == 1  # sent again, never a second refund


def test_the_pay_window_closes_unpaid_attempts_and_a_late_success_wins(shop):
    unpaid, late, never_prepaid = shop.order(), shop.order(), shop.order()
    shop.pay(unpaid)
    shop.standin.switches(fail={"jsapi": 1})  # an attempt the platform never heard of
    assert shop.customer.call("POST", f"/api/orders/{never_prepaid}/pay").status_code == 502
    shop.standin.switches(suppress_notify=True)
    shop.standin.control("pay", shop.pay(late)["payParams"])

    time.sleep(PAY_WINDOW + 1)
    reconcile(shop.service)

    for order_id in (unpaid, never_prepaid):  # closing one it never heard of: ORDER_NOT_EXIST
        assert shop.order_record(order_id)["status"] == "CANCELLED"
        assert shop.payments(order_id)[0]["status"] == "CLOSED"
    assert shop.order_record(late)["status"] == "PAID"
    assert shop.customer.call("POST", f"/api/orders/{unpaid}/pay").status_code == 409


def test_a_suppressed_notify_is_made_good_by_the_scheduled_reconciliation(shop):
    shop.standin.switches(suppress_notify=True)
    order_id = shop.order()

    shop.standin.control("pay", shop.pay(order_id)["payParams"])

    # No reconcile() here: the worker's django-q2 schedule runs it (every 30-60 s).
    order = wait_until(lambda: shop.order_record(order_id)["status"] == "PAID", timeout=90, every=1)
    assert order
    assert any(e["kind"] == "query" and e["applied"] for e in shop.payments(order_id)[0]["events"])


def test_cancel_racing_a_notify_always_ends_square(shop):
    shop.standin.switches(suppress_notify=True)

    def paid_on_the_platform(_):
        order_id = shop.order()
        out_trade_no = shop.pay(order_id)["outTradeNo"]
        shop.standin.control("pay", shop.pay(order_id)["payParams"])
        return order_id, notify_signed(
            shop.standin, platform_transaction(shop.standin, out_trade_no)
        )

    def race(order_id, notify):
        with ThreadPoolExecutor(2) as pool:
            cancel = pool.submit(shop.customer.call, "POST", f"/api/orders/{order_id}/cancel")
            delivered = pool.submit(notify_post, shop.service, *notify)
            return cancel.result().status_code, delivered.result().status_code

    # Several races at once against the one running service (each its own order).
    with ThreadPoolExecutor(4) as pool:
        races = list(pool.map(paid_on_the_platform, range(RACES)))
        results = list(pool.map(race, *zip(*races, strict=True)))

    assert set(results) <= {(200, 204)}
    reconcile(shop.service)

    def square(order_id):
        order = shop.order_record(order_id)
        return order["status"] == "CANCELLED" and order["payment"]["refundedAmount"] == 4900

    assert wait_until(lambda: all(square(order_id) for order_id, _ in races), timeout=30)
