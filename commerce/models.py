"""Commerce: end users from the identity platform, products, addresses, design lists, orders.

Money is integer fen everywhere. Every model with a status declares its moves in `pipeline`;
`core.pipeline.move` makes them, never a plain save of `status`.
"""

from django.db import models
from django.db.models import Q

from core.pipeline import allow


class EndUser(models.Model):
    """A mini-program user, known by the identity platform's openid (never by client input)."""

    openid = models.CharField(max_length=128, unique=True)
    unionid = models.CharField(max_length=128, blank=True, default="")
    # The platform's session key stays on the server; no endpoint returns it.
    session_key = models.CharField(max_length=128, blank=True, default="")
    plugin_openpid = models.CharField(max_length=128, blank=True, default="")
    phone_number = models.CharField(max_length=32, blank=True, default="")
    pure_phone_number = models.CharField(max_length=32, blank=True, default="")
    country_code = models.CharField(max_length=8, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    last_login_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = "end user"

    def __str__(self):
        return f"user {self.pk} ({self.openid})"


class PlatformAccessToken(models.Model):
    """The identity platform's server-side access token, shared by every web process."""

    app_id = models.CharField(max_length=128, unique=True)
    token = models.CharField(max_length=512)
    expires_at = models.DateTimeField()


class Product(models.Model):
    """What is sold. `kind` and the size say which production files a paid order's designs
    get (docs/commerce.md, "Production files"): a print PDF or laser files, the poster's
    width at `width_mm` (or its height at `height_mm` when no width is set)."""

    class Kind(models.TextChoices):
        PRINT = "print"
        ENGRAVE = "engrave"

    name = models.CharField(max_length=100)
    description = models.TextField(blank=True, default="")
    price = models.PositiveIntegerField(help_text="fen")
    active = models.BooleanField(default=True)
    kind = models.CharField(max_length=8, choices=Kind.choices, default=Kind.PRINT)
    width_mm = models.FloatField(null=True, blank=True, help_text="mm; none: no files made")
    height_mm = models.FloatField(null=True, blank=True, help_text="mm")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["id"]

    def __str__(self):
        return self.name


class Address(models.Model):
    user = models.ForeignKey(EndUser, on_delete=models.CASCADE, related_name="addresses")
    recipient = models.CharField(max_length=50)
    phone = models.CharField(max_length=20)
    province = models.CharField(max_length=50)
    city = models.CharField(max_length=50)
    district = models.CharField(max_length=50, blank=True, default="")
    detail = models.CharField(max_length=200)
    is_default = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-is_default", "-created_at", "-id"]
        verbose_name_plural = "addresses"
        constraints = [
            models.UniqueConstraint(
                fields=["user"], condition=Q(is_default=True), name="one_default_address_per_user"
            )
        ]

    def __str__(self):
        return f"{self.recipient}, {self.city} {self.detail}"


class DesignList(models.Model):
    """The designs (projects or finished jobs) a user wants printed; handed over to
    processing when an order names it."""

    class Status(models.TextChoices):
        DRAFT = "DRAFT"
        SUBMITTED = "SUBMITTED"
        PROCESSING = "PROCESSING"
        DONE = "DONE"

    # The allowed status moves, by verb; core.pipeline.move makes them.
    pipeline = {
        "submitted": allow(Status.DRAFT, to=Status.SUBMITTED),
        "ordered": allow(Status.DRAFT, Status.SUBMITTED, to=Status.PROCESSING),
        "finished": allow(Status.PROCESSING, to=Status.DONE),
    }

    user = models.ForeignKey(EndUser, on_delete=models.CASCADE, related_name="design_lists")
    name = models.CharField(max_length=100)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.DRAFT)
    # [{"projectId": "..."} or {"jobId": "..."}, plus "quantity"], validated by the services.
    items = models.JSONField(default=list, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    submitted_at = models.DateTimeField(null=True, blank=True)
    processing_at = models.DateTimeField(null=True, blank=True)
    done_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self):
        return f"{self.name} ({self.status})"


class Order(models.Model):
    class Status(models.TextChoices):
        PENDING = "PENDING"
        PAID = "PAID"
        SHIPPED = "SHIPPED"
        COMPLETED = "COMPLETED"
        CANCELLED = "CANCELLED"

    # The allowed status moves, by verb; core.pipeline.move makes them.
    pipeline = {
        "marked paid": allow(Status.PENDING, to=Status.PAID),
        # By the payment platform's word (commerce/payments/ledger.py), or a 0-fen order.
        "paid": allow(Status.PENDING, to=Status.PAID),
        "shipped": allow(Status.PAID, to=Status.SHIPPED),
        "confirmed": allow(Status.SHIPPED, to=Status.COMPLETED),
        # A PAID order is refunded in full (commerce/services/orders.py, order_cancel).
        "cancelled": allow(Status.PENDING, Status.PAID, to=Status.CANCELLED),
    }

    user = models.ForeignKey(EndUser, on_delete=models.PROTECT, related_name="orders")
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PENDING)
    total_amount = models.PositiveBigIntegerField(default=0, help_text="fen")
    address = models.JSONField(help_text="snapshot of the address when the order was made")
    design_list = models.ForeignKey(
        DesignList, on_delete=models.PROTECT, null=True, blank=True, related_name="orders"
    )
    # The idempotency key: the database, not Python, guarantees one order per key.
    request_id = models.CharField(max_length=64, unique=True, null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    updated_at = models.DateTimeField(auto_now=True)
    paid_at = models.DateTimeField(null=True, blank=True)
    shipped_at = models.DateTimeField(null=True, blank=True)
    completed_at = models.DateTimeField(null=True, blank=True)
    cancelled_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self):
        return f"order {self.pk} ({self.status})"


class OrderItem(models.Model):
    """One line of an order; name and price are copied so later product edits change nothing."""

    order = models.ForeignKey(Order, on_delete=models.CASCADE, related_name="items")
    product = models.ForeignKey(Product, on_delete=models.PROTECT, related_name="+")
    product_name = models.CharField(max_length=100)
    unit_price = models.PositiveIntegerField(help_text="fen")
    quantity = models.PositiveSmallIntegerField()
    subtotal = models.PositiveBigIntegerField(help_text="fen")

    class Meta:
        ordering = ["id"]
        constraints = [
            models.UniqueConstraint(fields=["order", "product"], name="one_line_per_product"),
            models.CheckConstraint(
                condition=Q(quantity__gte=1) & Q(quantity__lte=999), name="quantity_1_to_999"
            ),
        ]

    def __str__(self):
        return f"{self.quantity} × {self.product_name}"


class Preparation(models.Model):
    """The production files of one design of a paid order at one product's size and kind
    (commerce/services/production.py): made once by the worker; a failure keeps its
    sentence until staff retry it."""

    class Status(models.TextChoices):
        PENDING = "PENDING"
        READY = "READY"
        FAILED = "FAILED"

    # The allowed status moves, by verb; core.pipeline.move makes them.
    pipeline = {
        "prepared": allow(Status.PENDING, to=Status.READY),
        "failed": allow(Status.PENDING, to=Status.FAILED),
        "retried": allow(Status.FAILED, to=Status.PENDING),
    }

    order = models.ForeignKey(Order, on_delete=models.CASCADE, related_name="preparations")
    product = models.ForeignKey(Product, on_delete=models.PROTECT, related_name="+")
    # The design list's item: {"jobId": ...} or {"projectId": ...}
    design = models.JSONField()
    design_key = models.CharField(max_length=80, help_text="job:<id> or project:<id>")
    kind = models.CharField(max_length=8, choices=Product.Kind.choices)
    width_mm = models.FloatField(null=True, blank=True)
    height_mm = models.FloatField(null=True, blank=True)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PENDING)
    error = models.CharField(max_length=300, blank=True, default="")
    # [{"name", "key", "contentType", "size", "preflight"}]: the files in the store
    files = models.JSONField(default=list, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    prepared_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["id"]
        constraints = [
            models.UniqueConstraint(
                fields=["order", "product", "design_key"], name="one_preparation_per_design"
            )
        ]

    def __str__(self):
        return f"{self.kind} files of {self.design_key} for order {self.order_id} ({self.status})"


class Payment(models.Model):
    """One way money was to reach an order: a WeChat Pay attempt (its out_trade_no is ours,
    committed before the platform hears of it), a `free` payment of a 0-fen order, or staff's
    `manual` mark-paid. Changed only by `commerce.payments`."""

    class Kind(models.TextChoices):
        WECHAT = "wechat"
        FREE = "free"
        MANUAL = "manual"

    class Status(models.TextChoices):
        OPEN = "OPEN"  # waiting for the payer (or for the platform's answer)
        SUCCESS = "SUCCESS"  # the money arrived
        CLOSED = "CLOSED"  # closed on the platform, nothing paid

    # The allowed status moves, by verb; core.pipeline.move makes them (commerce/payments/).
    pipeline = {
        # The money arrived (the platform's word; a `free` or `manual` payment at once). The
        # platform's word wins over ours: a success reported for an attempt we closed is
        # recorded, and refunded when its order is no longer waiting for it.
        "paid": allow(Status.OPEN, Status.CLOSED, to=Status.SUCCESS),
        "closed": allow(Status.OPEN, to=Status.CLOSED),
    }

    # Null only for money the platform reported for an out_trade_no we never made (flagged).
    order = models.ForeignKey(
        Order, on_delete=models.PROTECT, null=True, blank=True, related_name="payments"
    )
    kind = models.CharField(max_length=8, choices=Kind.choices, default=Kind.WECHAT)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.OPEN)
    out_trade_no = models.CharField(max_length=32, unique=True)
    amount = models.PositiveBigIntegerField(help_text="fen")
    prepay_id = models.CharField(max_length=64, blank=True, default="")
    transaction_id = models.CharField(max_length=64, blank=True, default="")
    paid_at = models.DateTimeField(null=True, blank=True)
    expires_at = models.DateTimeField(null=True, blank=True)
    needs_attention = models.BooleanField(default=False, db_index=True)
    attention_reason = models.CharField(max_length=300, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    # When the platform last said something about it (prepay, notify, query, close).
    answered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self):
        return f"payment {self.out_trade_no} ({self.kind} {self.status})"


class Refund(models.Model):
    """Money sent back for a payment; its out_refund_no is committed before the platform hears
    of it and sent again unchanged on every retry."""

    class Status(models.TextChoices):
        REQUESTED = "REQUESTED"  # committed; the platform has not (knowingly) accepted it
        PROCESSING = "PROCESSING"
        SUCCESS = "SUCCESS"
        CLOSED = "CLOSED"
        ABNORMAL = "ABNORMAL"

    # The allowed status moves, by verb; core.pipeline.move makes them (commerce/payments/).
    # The platform's answers move a refund until it is SUCCESS or CLOSED (final).
    pipeline = {
        "accepted": allow(Status.REQUESTED, Status.ABNORMAL, to=Status.PROCESSING),
        "succeeded": allow(Status.REQUESTED, Status.PROCESSING, Status.ABNORMAL, to=Status.SUCCESS),
        "closed": allow(Status.REQUESTED, Status.PROCESSING, Status.ABNORMAL, to=Status.CLOSED),
        "marked abnormal": allow(Status.REQUESTED, Status.PROCESSING, to=Status.ABNORMAL),
        # A `manual` payment is paid back by staff, outside the platform.
        "paid back": allow(Status.REQUESTED, to=Status.SUCCESS),
    }

    payment = models.ForeignKey(Payment, on_delete=models.PROTECT, related_name="refunds")
    out_refund_no = models.CharField(max_length=64, unique=True)
    amount = models.PositiveBigIntegerField(help_text="fen")
    reason = models.CharField(max_length=80)
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.REQUESTED)
    refund_id = models.CharField(max_length=64, blank=True, default="")
    succeeded_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["id"]

    def __str__(self):
        return f"refund {self.out_refund_no} ({self.status})"


class PaymentEvent(models.Model):
    """The append-only log: every prepay, notify, query, close and refund call with the
    verified payload, and what it changed. Rows are never updated or deleted."""

    class Kind(models.TextChoices):
        PREPAY = "prepay"
        NOTIFY = "notify"
        QUERY = "query"
        CLOSE = "close"
        REFUND = "refund"
        REFUND_QUERY = "refund-query"
        REFUND_NOTIFY = "refund-notify"
        FREE = "free"
        MANUAL = "manual"

    order = models.ForeignKey(
        Order, on_delete=models.PROTECT, null=True, blank=True, related_name="payment_events"
    )
    payment = models.ForeignKey(
        Payment, on_delete=models.PROTECT, null=True, blank=True, related_name="events"
    )
    refund = models.ForeignKey(
        Refund, on_delete=models.PROTECT, null=True, blank=True, related_name="events"
    )
    kind = models.CharField(max_length=16, choices=Kind.choices)
    payload = models.JSONField(default=dict, blank=True)
    # True when this event changed a payment, a refund or the order.
    applied = models.BooleanField(default=False)
    outcome = models.CharField(max_length=300, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["id"]

    def save(self, *args, **kwargs):
        if self.pk is not None:
            raise ValueError("payment events are append-only")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise ValueError("payment events are append-only")

    def __str__(self):
        return f"{self.kind} event {self.pk}"
