"""Reads of the commerce app. Ownership rules live here: another user's address is 404
(addresses are private), another user's design list or order is 403; staff (the admin
token) read every design list and order."""

from collections.abc import Iterable

from django.db.models import Prefetch, Q, QuerySet

from commerce.auth import Caller
from commerce.models import (
    Address,
    DesignList,
    EndUser,
    Order,
    Payment,
    Preparation,
    Product,
    ProofDecision,
    ProofVersion,
    Refund,
)
from core.errors import NotFound


def product_list(*, include_inactive: bool = False) -> QuerySet[Product]:
    products = Product.objects.all()
    return products if include_inactive else products.filter(active=True)


def product_get(*, product_id: int, lock: bool = False) -> Product:
    products = Product.objects.select_for_update() if lock else Product.objects.all()
    product = products.filter(pk=product_id).first()
    if product is None:
        raise NotFound("product not found", code="product_not_found")
    return product


def address_list(*, user: EndUser) -> QuerySet[Address]:
    return Address.objects.filter(user=user)


def address_get(*, user: EndUser, address_id: int) -> Address:
    address = Address.objects.filter(pk=address_id, user=user).first()
    if address is None:
        raise NotFound("address not found", code="address_not_found")
    return address


def design_list_list(*, caller: Caller) -> QuerySet[DesignList]:
    lists = DesignList.objects.all()
    return lists if caller.is_admin else lists.filter(user=caller.user)


def _visible_to(caller: Caller, records: QuerySet, pk: int):
    """The record with this pk: 404 when there is none, and the same 404 when it is another
    user's, so that a customer's ids tell nothing of others' (docs/security.md)."""
    if not caller.is_admin:
        records = records.filter(user=caller.user)
    record = records.filter(pk=pk).first()
    if record is None:
        raise NotFound(f"{records.model._meta.verbose_name} not found", code="record_not_found")
    return record


def design_list_get(*, caller: Caller, design_list_id: int, lock: bool = False) -> DesignList:
    lists = DesignList.objects.select_for_update() if lock else DesignList.objects.all()
    return _visible_to(caller, lists, design_list_id)


ORDER_PREFETCH = ("items", Prefetch("payments", Payment.objects.prefetch_related("refunds")))


def order_list(
    *, caller: Caller, status: str | None = None, search: str = "", payment_status: str = ""
) -> QuerySet[Order]:
    """Newest first. `search`: the order with that id, or orders whose requestId holds it
    (case-insensitive); `payment_status`: orders with a payment in that status."""
    orders = Order.objects.prefetch_related(*ORDER_PREFETCH).order_by("-created_at", "-id")
    if not caller.is_admin:
        orders = orders.filter(user=caller.user)
    if status:
        orders = orders.filter(status=status)
    if payment_status:
        orders = orders.filter(pk__in=Payment.objects.filter(status=payment_status).values("order"))
    if search:
        match = Q(request_id__icontains=search)
        # Up to 18 digits: always within a 64-bit id column.
        if search.isascii() and search.isdigit() and len(search) <= 18:
            match |= Q(pk=int(search))
        orders = orders.filter(match)
    return orders


def order_get(*, caller: Caller, order_id: int, lock: bool = False) -> Order:
    orders = (
        Order.objects.select_for_update()
        if lock
        else Order.objects.prefetch_related(*ORDER_PREFETCH)
    )
    return _visible_to(caller, orders, order_id)


def order_payment(order: Order) -> dict | None:
    """The order's payment as its record shows it: the successful one, else the latest
    attempt (None before any), with its latest refund and what was refunded in all."""
    payments = list(order.payments.all())  # newest first
    if not payments:
        return None
    current = next((p for p in payments if p.status == Payment.Status.SUCCESS), payments[0])
    refunds = [refund for payment in payments for refund in payment.refunds.all()]
    latest = max(current.refunds.all(), key=lambda refund: refund.pk, default=None)
    return {
        "status": current.status,
        "outTradeNo": current.out_trade_no,
        "paidAt": current.paid_at,
        "transactionId": current.transaction_id,
        "refundStatus": latest.status if latest else None,
        "refundedAmount": sum(r.amount for r in refunds if r.status == Refund.Status.SUCCESS),
    }


def payment_list(
    *, needs_attention: bool | None = None, order_id: int | None = None
) -> QuerySet[Payment]:
    """Staff: payments newest first, with their refunds and events."""
    payments = Payment.objects.prefetch_related("refunds", "events").order_by("-created_at", "-id")
    if needs_attention is not None:
        payments = payments.filter(needs_attention=needs_attention)
    if order_id is not None:
        payments = payments.filter(order_id=order_id)
    return payments


def order_preparations(*, order_id: int) -> QuerySet[Preparation]:
    """Staff: an order's production preparations; 404 `order not found`."""
    order_get(caller=Caller(user=None, is_admin=True), order_id=order_id)
    return Preparation.objects.filter(order_id=order_id).order_by("id")


def order_needing_jobs(job_ids: Iterable[str]) -> str:
    """The first order (not cancelled) whose design list names one of the jobs, as "order 12";
    '' when none does: such a job is not deleted (wordclouds' job_delete asks here)."""
    wanted = set(job_ids)
    orders = Order.objects.exclude(status=Order.Status.CANCELLED).exclude(design_list=None)
    for order_id, items in orders.order_by("id").values_list("id", "design_list__items"):
        if any(isinstance(item, dict) and item.get("jobId") in wanted for item in items or []):
            return f"order {order_id}"
    return ""


def design_list_job_ids() -> set[str]:
    """Every job a design list names (and so every job an order or its production files
    print): retention never deletes them."""
    ids = set()
    for items in DesignList.objects.values_list("items", flat=True):
        ids |= {
            item["jobId"] for item in items or [] if isinstance(item, dict) and item.get("jobId")
        }
    ids |= {
        design["jobId"]
        for design in Preparation.objects.values_list("design", flat=True)
        if isinstance(design, dict) and design.get("jobId")
    }
    return ids


def _approved_versions(job_ids: Iterable[str] | None = None) -> QuerySet:
    """The versions of proofs not revoked that someone approved (one approval is enough: the
    customer signed for those files)."""
    versions = ProofVersion.objects.filter(
        proof__revoked_at=None, decisions__decision=ProofDecision.Decision.APPROVE
    )
    if job_ids is not None:
        versions = versions.filter(job_id__in=list(job_ids))
    return versions.distinct()


def proof_needing_jobs(job_ids: Iterable[str]) -> str:
    """The first approved version of a proof not revoked that shows one of the jobs, as
    "the approved version 2 of proof 7"; '' when none does: such a job is not deleted
    (wordclouds' job_delete asks here) until the proof is revoked."""
    version = _approved_versions(job_ids).order_by("proof_id", "version").first()
    return f"the approved version {version.version} of proof {version.proof_id}" if version else ""


def proof_approved_job_ids() -> set[str]:
    """Every job an approved version of a proof not revoked shows: retention never deletes
    them."""
    return set(_approved_versions().values_list("job_id", flat=True))


def design_list_project_uses(project_id: str) -> list[str]:
    """The design lists past DRAFT that name the project, and their orders: what needs the
    project as it was submitted (wordclouds then neither changes nor deletes it)."""
    uses = []
    submitted = DesignList.objects.exclude(status=DesignList.Status.DRAFT).order_by("id")
    for design_list in submitted.prefetch_related("orders"):
        if any(item.get("projectId") == project_id for item in design_list.items or []):
            uses.append(f"design list {design_list.pk} ({design_list.status})")
            uses += [f"order {order.pk}" for order in design_list.orders.all()]
    return uses


def product_sizes() -> list[tuple]:
    """(name, width mm or None, height mm or None) of every active product with a size:
    the shop's own sizes, which wordclouds' size advice weighs beside the A sizes."""
    sized = Product.objects.filter(active=True).filter(
        Q(width_mm__isnull=False) | Q(height_mm__isnull=False)
    )
    return [(p.name, p.width_mm, p.height_mm) for p in sized.order_by("id")]
