"""Orders: idempotent creation and one transition function per move.

States: PENDING → PAID → SHIPPED → COMPLETED, PENDING | PAID → CANCELLED (a paid order is
refunded in full; commerce/payments). Every transition locks
the row (select_for_update; SQLite serialises writers with IMMEDIATE transactions), checks
the allowed source states, records the time; anything else is 409 and changes nothing."""

from django.db import IntegrityError, transaction

from commerce.auth import Caller
from commerce.models import EndUser, Order, OrderItem, Payment, Product
from commerce.payments.ledger import refund_open, settled_payment
from commerce.payments.services import refunds_submit
from commerce.selectors import address_get, order_get
from commerce.services.design_lists import design_list_start_processing
from commerce.services.production import preparations_plan
from core.errors import InvalidInput
from core.pipeline import move

ADDRESS_SNAPSHOT_FIELDS = ("recipient", "phone", "province", "city", "district", "detail")


def order_create(
    *,
    user: EndUser,
    address_id: int,
    items: list[dict],
    design_list_id: int | None = None,
    request_id: str | None = None,
) -> tuple[Order, bool]:
    """The order and whether it was made now (False: the caller's requestId repeats).

    `items` are `{"product_id", "quantity"}` with distinct products. A requestId is the
    caller's own: unique per user in the database, which decides between concurrent
    repeats (the loser's insert fails, and it answers the winner's order); another user's
    same requestId is another order."""
    if request_id:
        existing = Order.objects.filter(user=user, request_id=request_id).first()
        if existing is not None:
            return existing, False
    try:
        with transaction.atomic():
            return _order_insert(
                user=user,
                address_id=address_id,
                items=items,
                design_list_id=design_list_id,
                request_id=request_id,
            ), True
    except IntegrityError:
        existing = (
            Order.objects.filter(user=user, request_id=request_id).first() if request_id else None
        )
        if existing is None:
            raise
        return existing, False


def _order_insert(
    *,
    user: EndUser,
    address_id: int,
    items: list[dict],
    design_list_id: int | None,
    request_id: str | None,
) -> Order:
    address = address_get(user=user, address_id=address_id)
    # The order row comes first: it claims the requestId, so a concurrent repeat waits here
    # and then fails on the unique key instead of finding the design list already moved.
    order = Order.objects.create(
        user=user,
        request_id=request_id,
        address={field: getattr(address, field) for field in ADDRESS_SNAPSHOT_FIELDS},
    )
    ids = sorted(item["product_id"] for item in items)
    # Locked in id order (no deadlock between orders): a product cannot turn inactive or
    # change price between this check and the commit.
    products = Product.objects.select_for_update().filter(pk__in=ids).order_by("pk").in_bulk()
    lines = []
    for item in items:
        product = products.get(item["product_id"])
        if product is None:
            raise InvalidInput(f"unknown productId: {item['product_id']}", code="product_unknown")
        if not product.active:
            raise InvalidInput(f"product {product.pk} is not available", code="product_unavailable")
        lines.append(
            OrderItem(
                order=order,
                product=product,
                product_name=product.name,
                unit_price=product.price,
                quantity=item["quantity"],
                subtotal=product.price * item["quantity"],
            )
        )
    OrderItem.objects.bulk_create(lines)
    order.total_amount = sum(line.subtotal for line in lines)
    if design_list_id is not None:
        order.design_list = design_list_start_processing(user=user, design_list_id=design_list_id)
    order.save(update_fields=["total_amount", "design_list", "updated_at"])
    if order.total_amount == 0:  # nothing to pay: paid at once, no platform call
        settled_payment(order=order, kind=Payment.Kind.FREE)
        move(order, verb="paid", stamp="paid_at")
        preparations_plan(order=order)
    return order


@transaction.atomic
def order_confirm(*, user: EndUser, order_id: int) -> Order:
    """The owner confirms receipt: SHIPPED → COMPLETED."""
    order = order_get(caller=Caller(user=user), order_id=order_id, lock=True)
    return move(order, verb="confirmed", stamp="completed_at")


def order_cancel(*, caller: Caller, order_id: int) -> Order:
    """The owner or staff: PENDING or PAID → CANCELLED. Each successful payment of a PAID
    order gets a full refund, committed with the move and then sent to the platform (a
    failure there leaves it for reconciliation to send again)."""
    with transaction.atomic():
        order = order_get(caller=caller, order_id=order_id, lock=True)
        was = order.status
        move(order, verb="cancelled", stamp="cancelled_at")
        refunds = []
        if was == Order.Status.PAID:
            for payment in order.payments.select_for_update().filter(status=Payment.Status.SUCCESS):
                refunds.append(refund_open(payment=payment, reason="order cancelled"))
    refunds_submit([refund.pk for refund in refunds if refund is not None])
    return order


def _staff_order(order_id: int) -> Order:
    return order_get(caller=Caller(user=None, is_admin=True), order_id=order_id, lock=True)


@transaction.atomic
def order_mark_paid(*, order_id: int) -> Order:
    """Staff: PENDING → PAID, recorded as a `manual` payment."""
    order = move(
        _staff_order(order_id),
        verb="marked paid",
        stamp="paid_at",
    )
    settled_payment(order=order, kind=Payment.Kind.MANUAL)
    preparations_plan(order=order)
    return order


@transaction.atomic
def order_ship(*, order_id: int) -> Order:
    """Staff: PAID → SHIPPED."""
    return move(
        _staff_order(order_id),
        verb="shipped",
        stamp="shipped_at",
    )
