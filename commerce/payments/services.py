"""Paying an order: the attempt is committed before the platform is called, and the
platform is only ever called between transactions. What the platform answers is applied by
`commerce.payments.ledger`, the one place that changes payments and refunds."""

import json
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django_q.tasks import async_task

from commerce.auth import Caller
from commerce.models import EndUser, Order, Payment, PaymentEvent, Refund
from commerce.payments import client, crypto, ledger
from commerce.selectors import order_get
from core import metrics
from core.errors import BadGateway, Conflict, InvalidInput, ServiceError

Kind = PaymentEvent.Kind


class NotifyRefused(ServiceError):
    """A notify that does not verify or decrypt: 401 `{"code": "FAIL", "message"}`."""

    status_code = 401


def pay_window_end(order: Order):
    return order.created_at + timedelta(seconds=settings.WECHATPAY_PAY_WINDOW)


def _attempt_open(*, user: EndUser, order_id: int) -> Payment:
    """The order's open attempt, or a new one committed now (before any platform call)."""
    with transaction.atomic():
        order = order_get(caller=Caller(user=user), order_id=order_id, lock=True)
        if order.status != Order.Status.PENDING:
            raise Conflict(
                f"order cannot be paid in status {order.status}", code="order_not_payable"
            )
        if pay_window_end(order) <= timezone.now():
            raise Conflict("the pay window of this order has passed", code="pay_window_passed")
        attempt = order.payments.filter(
            kind=Payment.Kind.WECHAT, status=Payment.Status.OPEN, needs_attention=False
        ).first()
        if attempt is None:
            attempt = Payment.objects.create(
                order=order,
                out_trade_no=ledger.new_reference("P", order.pk),
                amount=order.total_amount,
                expires_at=pay_window_end(order),
            )
        return attempt


def payment_start(*, user: EndUser, order_id: int) -> tuple[Payment, dict]:
    """The open attempt of the owner's PENDING order and the payParams for
    wx.requestPayment. Calling again while the attempt is open gives the same out_trade_no;
    a prepay that failed (502) is sent again with it."""
    attempt = _attempt_open(user=user, order_id=order_id)
    if not attempt.prepay_id:
        try:
            prepay_id = client.prepay(
                out_trade_no=attempt.out_trade_no,
                amount=attempt.amount,
                description=f"Word-cloud poster order {attempt.order_id}",
                openid=user.openid,
                expires=timezone.localtime(attempt.expires_at),
            )
        except BadGateway as error:
            _log_failure(Kind.PREPAY, attempt, error)
            raise
        with transaction.atomic():
            _, attempt = ledger.lock_rows(attempt.pk, attempt.order_id)
            attempt.prepay_id = prepay_id
            attempt.answered_at = timezone.now()
            attempt.save(update_fields=["prepay_id", "answered_at", "updated_at"])
            ledger.log(
                Kind.PREPAY,
                order=attempt.order,
                payment=attempt,
                payload={"prepay_id": prepay_id},
                applied=True,
                outcome="prepay made",
            )
    return attempt, client.pay_params(attempt.prepay_id)


def _log_failure(kind: str, payment: Payment, error: ServiceError, refund=None) -> None:
    ledger.log(
        kind, order=payment.order, payment=payment, refund=refund, outcome=f"failed: {error.detail}"
    )


def payment_query_apply(payment: Payment) -> None:
    """Asks the platform about one attempt now and applies the answer (a platform that
    never heard of it: nothing to apply)."""
    record = client.query(payment.out_trade_no)
    if record is None:
        ledger.log(Kind.QUERY, order=payment.order, payment=payment, outcome="unknown to platform")
        return
    ledger.transaction_apply(record=record, kind=Kind.QUERY)


def payment_sync(*, user: EndUser, order_id: int) -> Order:
    """The owner's "I paid": the order's open attempts are queried and applied now."""
    order = order_get(caller=Caller(user=user), order_id=order_id)
    for payment in order.payments.filter(kind=Payment.Kind.WECHAT, status=Payment.Status.OPEN):
        payment_query_apply(payment)
    refunds_submit()
    return order_get(caller=Caller(user=user), order_id=order_id)


def refunds_submit(refund_ids: list[int] | None = None) -> None:
    """Sends the refunds the platform has not accepted yet (all of them by default), each
    with its own out_refund_no, so a retry never makes a second refund. A failure leaves
    the refund REQUESTED for reconciliation to send again."""
    ids = ledger.refunds_due() if refund_ids is None else refund_ids
    for refund in Refund.objects.filter(pk__in=ids, status=Refund.Status.REQUESTED).select_related(
        "payment"
    ):
        payment = refund.payment
        try:
            record = client.refund(
                out_trade_no=payment.out_trade_no,
                out_refund_no=refund.out_refund_no,
                amount=refund.amount,
                total=payment.amount,
                reason=refund.reason,
            )
        except client.PlatformError as error:
            _log_failure(Kind.REFUND, payment, error, refund)
            if error.status < 500:  # the platform will not take it as it is: staff decide
                with transaction.atomic():
                    ledger.flag(ledger.lock_rows(payment.pk, payment.order_id)[1], error.detail)
            continue
        except BadGateway as error:
            _log_failure(Kind.REFUND, payment, error, refund)
            continue
        ledger.refund_apply(record=record, kind=Kind.REFUND)


def notify_receive(headers, body: bytes) -> None:
    """Verifies a notify over its raw body, decrypts its resource and applies it.
    NotifyRefused (401) for anything that does not check out, before anything changes."""
    text = body.decode(errors="replace")
    if not settings.WECHATPAY_PUBLIC_KEY_FILE:
        raise NotifyRefused("payments are not configured", code="notify_refused")
    try:
        crypto.verify_body(
            headers,
            text,
            public_key=crypto.public_key(settings.WECHATPAY_PUBLIC_KEY_FILE),
            key_id=settings.WECHATPAY_PUBLIC_KEY_ID,
        )
    except crypto.SignatureError as error:
        metrics.notify_verifications_failed.inc()
        raise NotifyRefused(str(error), code="notify_refused") from None
    notice = _json_object(text, "notify body")
    if not isinstance(notice.get("resource"), dict):
        raise InvalidInput("notify has no resource", code="notify_invalid")
    try:
        plaintext = crypto.aead_decrypt(settings.WECHATPAY_APIV3_KEY, notice["resource"])
    except crypto.SignatureError as error:
        metrics.notify_verifications_failed.inc()
        raise NotifyRefused(str(error), code="notify_refused") from None
    record = _json_object(plaintext, "notify resource")
    event_type = str(notice.get("event_type", ""))
    if event_type == "TRANSACTION.SUCCESS":
        ledger.transaction_apply(record=record, kind=Kind.NOTIFY)
    elif event_type.startswith("REFUND."):
        ledger.refund_apply(record=record, kind=Kind.REFUND_NOTIFY)
    else:
        raise InvalidInput(f"event_type {event_type[:64]} is not handled", code="notify_invalid")
    if ledger.refunds_due():
        # The notify is answered now; the worker sends the refund (reconciliation would too).
        async_task("commerce.payments.services.refunds_submit")


def _json_object(text: str, what: str) -> dict:
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        value = None
    if not isinstance(value, dict):
        raise InvalidInput(f"{what} is not a JSON object", code="notify_invalid")
    return value
