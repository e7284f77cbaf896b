"""Reconciliation, run by the worker on its django-q2 schedule (every minute; migration
0003 makes the schedule): the platform is asked about whatever it may have told us and we
did not hear.

- an open attempt with no answer for WECHATPAY_QUERY_AFTER seconds (or whose order is no
  longer PENDING) is queried and the answer applied;
- an attempt past its order's pay window is queried once more (a late success wins), then
  closed on the platform, and the order, if still PENDING with nothing open, is cancelled;
- refunds the platform has not accepted are sent again with the same out_refund_no, and
  refunds still PROCESSING are queried."""

import logging
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from commerce.models import Order, Payment, PaymentEvent, Refund
from commerce.payments import client, ledger
from commerce.payments.services import payment_query_apply, refunds_submit
from core.errors import BadGateway
from core.pipeline import move

logger = logging.getLogger(__name__)
Kind = PaymentEvent.Kind


def payments_reconcile() -> dict:
    """One round; answers how many of each it handled (the task's result)."""
    now = timezone.now()
    quiet = now - timedelta(seconds=settings.WECHATPAY_QUERY_AFTER)
    open_attempts = Payment.objects.filter(
        kind=Payment.Kind.WECHAT, status=Payment.Status.OPEN, needs_attention=False
    ).select_related("order")
    counts = {"queried": 0, "closed": 0, "refunds": 0}
    for payment in open_attempts.filter(
        Q(answered_at__isnull=True, created_at__lt=quiet)
        | Q(answered_at__lt=quiet)
        | Q(expires_at__lte=now)
        | ~Q(order__status=Order.Status.PENDING)
    ):
        counts["queried"] += 1
        try:
            payment_query_apply(payment)
            payment.refresh_from_db()
            if payment.status == Payment.Status.OPEN and (
                payment.expires_at <= now or payment.order.status != Order.Status.PENDING
            ):
                _close(payment)
                counts["closed"] += 1
        except BadGateway as error:
            logger.warning("reconciling %s: %s", payment.out_trade_no, error.detail)
    counts["refunds"] = len(ledger.refunds_due())
    refunds_submit()
    for refund in Refund.objects.filter(status=Refund.Status.PROCESSING).select_related("payment"):
        try:
            record = client.refund_query(refund.out_refund_no)
        except BadGateway as error:
            logger.warning("reconciling %s: %s", refund.out_refund_no, error.detail)
            continue
        if record is not None:
            ledger.refund_apply(record=record, kind=Kind.REFUND_QUERY)
    return counts


def _close(payment: Payment) -> None:
    """Closes an attempt nobody paid (the platform refuses when it was paid meanwhile: then
    the next query applies the payment), and cancels its order when nothing is left open."""
    try:
        client.close(payment.out_trade_no)
    except client.PlatformError as error:
        ledger.log(Kind.CLOSE, order=payment.order, payment=payment, outcome=error.detail)
        if error.platform_code == "ORDERPAID":
            payment_query_apply(payment)
        if error.platform_code != "ORDER_NOT_EXIST":  # never prepaid: nothing to close there
            return
    with transaction.atomic():
        order, payment = ledger.lock_rows(payment.pk, payment.order_id)
        if payment.status != Payment.Status.OPEN:
            return
        move(payment, "closed")
        ledger.log(Kind.CLOSE, order=order, payment=payment, applied=True, outcome="closed")
        nothing_open = not order.payments.filter(status=Payment.Status.OPEN).exists()
        if order.status == Order.Status.PENDING and nothing_open:
            move(order, "cancelled", stamp="cancelled_at")
            ledger.log(
                Kind.CLOSE,
                order=order,
                payment=payment,
                applied=True,
                outcome="pay window passed: order cancelled",
            )
