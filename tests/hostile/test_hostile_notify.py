"""Hostile payment notifies against the real service: each answered in the platform's shape
`{"code": "FAIL", "message"}` with a clear status, nothing written, no 5xx, /api/health quick
meanwhile."""

import time

import pytest

from commerce.payments import crypto
from commerce.payments.standin import PaymentPlatform
from tests.hostile.conftest import DETAIL_MAX, MB, assert_health_fast, deep_json, hostile, post

# serial: /api/health must answer within 0.1 s meanwhile (conftest.py), alone on the machine.
pytestmark = [pytest.mark.e2e, pytest.mark.serial]
NOTIFY = "/api/payments/wechat/notify"
RECORD = {
    "appid": "wx-hostile-app",
    "mchid": "1900000109",
    "out_trade_no": "P1_0123456789",
    "transaction_id": "4200000000000000001",
    "trade_state": "SUCCESS",
    "success_time": "2026-11-25T10:00:00+08:00",
    "amount": {"total": 4900, "payer_total": 4900, "currency": "CNY"},
}


@pytest.fixture(scope="module")
def platform(payment_keys):
    return PaymentPlatform(
        keys=payment_keys, app_id="wx-hostile-app", mch_id="1900000109", mch_serial="5157F09E"
    )


def signed(platform: PaymentPlatform, body: str, *, age: int = 0) -> dict:
    timestamp, nonce = str(int(time.time()) - age), crypto.nonce()
    return {
        **crypto.SignedHeaders(
            timestamp,
            nonce,
            crypto.sign(platform.platform_key, timestamp, nonce, body),
            platform.keys.key_id,
        ).as_dict(),
        "Content-Type": "application/json",
    }


def assert_failed(refusal, status: int, message: str) -> None:
    response = refusal.response
    assert response.status_code == status, response.text[:300]
    body = response.json()
    assert body["code"] == "FAIL" and set(body) == {"code", "message"}, body
    assert message in body["message"] and len(body["message"]) <= DETAIL_MAX, body
    assert response.headers.get("access-control-allow-origin") == "*"
    assert_health_fast(refusal)


def test_a_notify_without_its_headers_is_401(service, platform):
    body = platform.notification("TRANSACTION.SUCCESS", "transaction", RECORD)
    send = post(service, NOTIFY, content=body, headers={"Content-Type": "application/json"})

    assert_failed(hostile(service, send), 401, "signature headers are missing")


def test_a_10_mb_notify_is_413(service, platform):
    body = '{"resource": "' + "x" * (10 * MB) + '"}'
    send = post(service, NOTIFY, content=body, headers=signed(platform, body))

    assert_failed(hostile(service, send), 413, "notify body exceeds 64 KB")


def test_a_deeply_nested_signed_notify_is_400(service, platform):
    body = deep_json(20_000)
    send = post(service, NOTIFY, content=body, headers=signed(platform, body))

    assert_failed(hostile(service, send), 400, "notify body is not a JSON object")


def test_a_signed_notify_of_another_event_type_is_400(service, platform):
    body = platform.notification("MARKETING.COUPON", "transaction", RECORD)
    send = post(service, NOTIFY, content=body, headers=signed(platform, body))

    assert_failed(hostile(service, send), 400, "event_type MARKETING.COUPON is not handled")


def test_a_replayed_old_notify_is_401(service, platform):
    body = platform.notification("TRANSACTION.SUCCESS", "transaction", RECORD)
    send = post(service, NOTIFY, content=body, headers=signed(platform, body, age=600))

    assert_failed(hostile(service, send), 401, "more than 5 minutes away")
