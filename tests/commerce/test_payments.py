"""Payments without the platform: the settings' system checks, a 0-fen order paid at once
(`free`), staff's mark-paid recorded as a `manual` payment and cancelled with a manual refund,
the event log refusing changes, the staff list and the admin showing it all."""

import pytest
from django.core.management import call_command
from django.core.management.base import SystemCheckError

from commerce.models import Order, Payment, PaymentEvent
from commerce.payments.ledger import transaction_apply
from tests.commerce.factories import make_address, make_order, make_product
from tests.errors import refusal

pytestmark = pytest.mark.django_db


def test_the_payment_stand_in_is_refused_when_debug_is_off(settings):
    settings.WECHATPAY_STANDIN, settings.DEBUG = True, False

    with pytest.raises(SystemCheckError, match="commerce.E002"):
        call_command("check")


def test_once_a_merchant_id_is_set_each_missing_or_malformed_setting_is_named(settings, tmp_path):
    not_a_key = tmp_path / "key.pem"
    not_a_key.write_text("not a key")
    settings.WECHATPAY_MCH_ID = "12ab"
    settings.WECHATPAY_APIV3_KEY = "short"
    settings.WECHATPAY_PUBLIC_KEY_ID = "KEY_1"
    settings.WECHATPAY_MCH_PRIVATE_KEY_FILE = str(not_a_key)
    settings.WECHATPAY_NOTIFY_URL = ""

    with pytest.raises(SystemCheckError) as raised:
        call_command("check")

    text = str(raised.value)
    for problem in (
        "WECHATPAY_MCH_ID must be the merchant id's digits",
        "WECHATPAY_APIV3_KEY must be 32 characters",
        "WECHATPAY_PUBLIC_KEY_ID must start with PUB_KEY_ID_",
        "WECHATPAY_MCH_PRIVATE_KEY_FILE is not a readable RSA key in PEM",
        "WECHATPAY_NOTIFY_URL is not set",
    ):
        assert problem in text
    assert "commerce.E010" in text


def test_payments_unset_pass_the_checks(settings):
    settings.WECHATPAY_MCH_ID = ""
    call_command("check")


def test_an_order_of_zero_fen_is_paid_at_once_with_a_free_payment(alice):
    free = make_product("Sample", 0)
    address = make_address(alice.user)

    response = alice.post(
        "/api/orders",
        {"addressId": address.pk, "items": [{"productId": free.pk, "quantity": 2}]},
        format="json",
    )

    assert response.status_code == 201
    order = response.json()
    assert order["status"] == "PAID" and order["paidAt"]
    assert order["payment"]["status"] == "SUCCESS" and order["payment"]["refundedAmount"] == 0
    assert Payment.objects.get(order_id=order["id"]).kind == "free"


def test_mark_paid_records_a_manual_payment_and_cancel_a_manual_refund(alice, staff):
    order = make_order(alice.user)

    staff.post(f"/api/orders/{order.pk}/mark-paid")
    cancelled = staff.post(f"/api/orders/{order.pk}/cancel").json()

    assert cancelled["status"] == "CANCELLED"
    assert cancelled["payment"]["status"] == "SUCCESS"
    assert cancelled["payment"]["refundStatus"] == "SUCCESS"
    assert cancelled["payment"]["refundedAmount"] == order.total_amount
    listed = staff.get(f"/api/payments?orderId={order.pk}").json()["list"]
    assert [p["kind"] for p in listed] == ["manual"]
    assert [e["kind"] for e in listed[0]["events"]] == ["manual"]


def test_payment_status_filters_the_order_list(alice, staff):
    paid, _ = make_order(alice.user), make_order(alice.user)
    staff.post(f"/api/orders/{paid.pk}/mark-paid")

    listed = alice.get("/api/orders?paymentStatus=SUCCESS").json()["list"]
    wrong = alice.get("/api/orders?paymentStatus=PAID")

    assert [o["id"] for o in listed] == [paid.pk]
    assert alice.get("/api/orders?paymentStatus=").json()["total"] == 2
    assert wrong.status_code == 400
    assert refusal(wrong) == "paymentStatus must be one of OPEN, SUCCESS, CLOSED"


def test_the_event_log_is_append_only(alice, staff):
    order = make_order(alice.user)
    staff.post(f"/api/orders/{order.pk}/mark-paid")
    event = PaymentEvent.objects.get(order=order)

    event.outcome = "rewritten"
    with pytest.raises(ValueError, match="append-only"):
        event.save()
    with pytest.raises(ValueError, match="append-only"):
        event.delete()


def test_only_staff_list_payments(alice, staff):
    assert alice.get("/api/payments").status_code == 403
    assert staff.get("/api/payments?needsAttention=true").json()["total"] == 0


@pytest.fixture
def fast_password_hashing(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def test_the_admin_shows_an_orders_payments_and_events_read_only(
    fast_password_hashing, admin_client, alice, staff
):
    order = make_order(alice.user)
    staff.post(f"/api/orders/{order.pk}/mark-paid")
    payment = Payment.objects.get(order=order)

    page = admin_client.get(f"/admin/commerce/order/{order.pk}/change/").content.decode()
    payment_page = admin_client.get(f"/admin/commerce/payment/{payment.pk}/change/")

    assert payment.out_trade_no in page and "manual payment" in page
    assert payment_page.status_code == 200
    assert 'name="_save"' not in payment_page.content.decode()
    assert Order.objects.get(pk=order.pk).status == "PAID"


@pytest.mark.django_db(transaction=True)
def test_money_for_an_out_trade_no_we_never_made_is_flagged_once(settings, staff):
    settings.IDENTITY_APP_ID, settings.WECHATPAY_MCH_ID = "wx-test-app", "1900000109"
    record = {
        "appid": "wx-test-app",
        "mchid": "1900000109",
        "out_trade_no": "P999_unknown00",
        "transaction_id": "4200000001",
        "trade_state": "SUCCESS",
        "amount": {"total": 4900, "currency": "CNY"},
    }

    for _ in range(2):  # the platform's retry finds the same flagged row
        transaction_apply(record=record, kind=PaymentEvent.Kind.NOTIFY)

    flagged = staff.get("/api/payments?needsAttention=true").json()["list"]
    assert [(p["outTradeNo"], p["orderId"]) for p in flagged] == [("P999_unknown00", None)]
    assert "never made" in flagged[0]["attentionReason"]
    assert len(flagged[0]["events"]) == 2
