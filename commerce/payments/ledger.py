"""The one place that changes payments and refunds from what the platform says, whether it
came in a notify, a query the owner asked for (sync) or reconciliation. Rows are locked in
one order everywhere, order, then payment, then refund, so two of these never deadlock; each
call appends what it saw, verified, to the event log."""

import secrets
from datetime import datetime

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Sum
from django.utils import timezone

from commerce.models import Order, Payment, PaymentEvent, Refund
from commerce.services.production import preparations_plan
from core import metrics
from core.pipeline import allowed, move

Status = Order.Status
PAID_STATES = {"SUCCESS", "REFUND"}  # REFUND: paid, and a refund was made since
CLOSED_STATES = {"CLOSED", "REVOKED", "PAYERROR"}
# The platform's refund statuses, by the move (Refund.pipeline) each of them makes.
REFUND_MOVES = {
    Refund.Status.PROCESSING: "accepted",
    Refund.Status.SUCCESS: "succeeded",
    Refund.Status.CLOSED: "closed",
    Refund.Status.ABNORMAL: "marked abnormal",
}


def log(
    kind: str, *, order=None, payment=None, refund=None, payload=None, applied=False, outcome=""
) -> PaymentEvent:
    return PaymentEvent.objects.create(
        kind=kind,
        order=order,
        payment=payment,
        refund=refund,
        payload=payload or {},
        applied=applied,
        outcome=outcome[:300],
    )


def new_reference(prefix: str, order_id: int) -> str:
    """An out_trade_no / out_refund_no: at most 32 of [0-9A-Za-z_-], never reused."""
    return f"{prefix}{order_id}_{secrets.token_hex(5)}"


def lock_rows(payment_id: int, order_id: int | None) -> tuple[Order | None, Payment]:
    order = Order.objects.select_for_update().get(pk=order_id) if order_id else None
    return order, Payment.objects.select_for_update().get(pk=payment_id)


def _success_time(record: dict) -> datetime:
    try:
        return datetime.fromisoformat(str(record["success_time"]))
    except (KeyError, ValueError):
        return timezone.now()


def _mismatch(record: dict, order: Order) -> str:
    """Why a paid transaction cannot be this order's payment ('' when it can)."""
    amount = record.get("amount") or {}
    if record.get("appid") != settings.IDENTITY_APP_ID:
        return f"appid {record.get('appid')} is not ours"
    if record.get("mchid") != settings.WECHATPAY_MCH_ID:
        return f"mchid {record.get('mchid')} is not ours"
    if amount.get("currency") != "CNY":
        return f"currency {amount.get('currency')} is not CNY"
    if amount.get("total") != order.total_amount:
        return f"amount {amount.get('total')} fen is not the order's total {order.total_amount}"
    return ""


def flag(payment: Payment, reason: str) -> None:
    payment.needs_attention = True
    payment.attention_reason = reason[:300]
    payment.save(update_fields=["needs_attention", "attention_reason", "updated_at"])


@transaction.atomic
def transaction_apply(*, record: dict, kind: str) -> PaymentEvent:
    """Applies the platform's (verified) transaction `record` and logs it. A paid one moves
    a PENDING order to PAID (paidAt from success_time); money for a cancelled order, or a
    second payment of a paid one, is refunded (the refund is returned by `refunds_due`); a
    transaction that does not match its order is flagged and changes nothing else."""
    out_trade_no = str(record.get("out_trade_no", ""))
    found = Payment.objects.filter(out_trade_no=out_trade_no).values("pk", "order_id").first()
    if found is None or found["order_id"] is None:
        return _orphan(record, kind)
    order, payment = lock_rows(found["pk"], found["order_id"])
    state = record.get("trade_state")
    payment.answered_at = timezone.now()
    payment.save(update_fields=["answered_at"])
    event = {"order": order, "payment": payment, "payload": record}
    if state in CLOSED_STATES and payment.status == Payment.Status.OPEN:
        move(payment, "closed")
        return log(kind, **event, applied=True, outcome=f"closed ({state})")
    if state not in PAID_STATES:
        return log(kind, **event, outcome=f"nothing to apply ({state})")
    if payment.status == Payment.Status.SUCCESS:
        if payment.transaction_id == record.get("transaction_id"):
            return log(kind, **event, outcome="already applied")
        flag(payment, f"a second transaction {record.get('transaction_id')} for one payment")
        return log(kind, **event, outcome="flagged: second transaction id")
    problem = _mismatch(record, order)
    if problem:
        flag(payment, problem)
        return log(kind, **event, outcome=f"flagged: {problem}")
    move(
        payment,
        "paid",
        transaction_id=str(record.get("transaction_id", ""))[:64],
        paid_at=_success_time(record),
    )
    _counted(payment)
    if order.status == Status.PENDING:
        move(order, "paid", paid_at=payment.paid_at)
        preparations_plan(order=order)
        return log(kind, **event, applied=True, outcome="order paid")
    reason = "order cancelled" if order.status == Status.CANCELLED else "order already paid"
    refund_open(payment=payment, reason=reason)
    return log(kind, **event, applied=True, outcome=f"paid; refunded in full: {reason}")


def _orphan(record: dict, kind: str) -> PaymentEvent:
    """Money reported for an out_trade_no this service never made: kept and flagged."""
    reason = "the platform reported a transaction for an out_trade_no we never made"
    try:
        with transaction.atomic():
            payment, _ = Payment.objects.get_or_create(
                out_trade_no=str(record.get("out_trade_no", ""))[:32],
                defaults={
                    "order": None,
                    "amount": max(0, int((record.get("amount") or {}).get("total") or 0)),
                    "needs_attention": True,
                    "attention_reason": reason,
                    "transaction_id": str(record.get("transaction_id", ""))[:64],
                },
            )
    except IntegrityError:  # the same notify, at the same moment
        payment = Payment.objects.get(out_trade_no=str(record.get("out_trade_no", ""))[:32])
    return log(kind, payment=payment, payload=record, outcome=f"flagged: {reason}")


def refund_open(*, payment: Payment, reason: str) -> Refund | None:
    """A full refund of what is left of `payment` (locked by the caller), committed with
    the caller's transaction before the platform hears of it."""
    refunded = payment.refunds.exclude(status=Refund.Status.CLOSED).aggregate(s=Sum("amount"))
    left = payment.amount - (refunded["s"] or 0)
    if left <= 0:
        return None
    refund = Refund(
        payment=payment,
        out_refund_no=new_reference("R", payment.order_id or 0),
        amount=left,
        reason=reason,
    )
    refund.save()
    if payment.kind == Payment.Kind.MANUAL:  # paid outside the platform: staff pay it back
        move(refund, "paid back", stamp="succeeded_at")
    return refund


def refunds_due() -> list[int]:
    """Refunds the platform has not accepted yet (to be sent, with their own
    out_refund_no)."""
    return list(Refund.objects.filter(status=Refund.Status.REQUESTED).values_list("pk", flat=True))


@transaction.atomic
def refund_apply(*, record: dict, kind: str) -> PaymentEvent:
    """Applies the platform's (verified) refund `record` and logs it; an ABNORMAL or CLOSED
    refund flags its payment for staff."""
    found = (
        Refund.objects.filter(out_refund_no=str(record.get("out_refund_no", "")))
        .values("pk", "payment_id", "payment__order_id")
        .first()
    )
    if found is None:
        return log(kind, payload=record, outcome="unknown out_refund_no")
    order, payment = lock_rows(found["payment_id"], found["payment__order_id"])
    refund = Refund.objects.select_for_update().get(pk=found["pk"])
    status = record.get("refund_status") or record.get("status")
    event = {"order": order, "payment": payment, "refund": refund, "payload": record}
    if status not in REFUND_MOVES or status == refund.status:
        return log(kind, **event, outcome=f"nothing to apply ({status})")
    verb = REFUND_MOVES[status]
    if allowed(refund, verb) is None:
        return log(kind, **event, outcome=f"already final ({refund.status})")
    fields = {"refund_id": str(record.get("refund_id", ""))[:64]}
    if status == Refund.Status.SUCCESS:
        fields["succeeded_at"] = _success_time(record)
    move(refund, verb, **fields)
    if status in (Refund.Status.ABNORMAL, Refund.Status.CLOSED):
        flag(payment, f"refund {refund.out_refund_no} is {status}")
    return log(kind, **event, applied=True, outcome=f"refund {status}")


def _counted(payment: Payment) -> None:
    """A payment that became SUCCESS, counted in the metrics once that is committed."""
    kind = payment.kind
    transaction.on_commit(lambda: metrics.payments_succeeded.labels(kind).inc())


def settled_payment(*, order: Order, kind: str) -> Payment:
    """Records a payment that needs no platform (`free` for 0 fen, staff's `manual`), for
    an order the caller has locked and is moving to PAID."""
    payment = Payment.objects.create(
        order=order,
        kind=kind,
        out_trade_no=new_reference(kind[0].upper(), order.pk),
        amount=order.total_amount,
    )
    move(payment, "paid", stamp="paid_at")
    _counted(payment)
    log(kind, order=order, payment=payment, applied=True, outcome=f"{kind} payment")
    return payment
