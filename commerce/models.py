"""Commerce: end users from the identity platform, products, addresses, design lists, orders.

Money is integer fen everywhere. Every model with a status declares its moves in `pipeline`;
`core.pipeline.move` makes them, never a plain save of `status`.
"""

import secrets

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from core.pipeline import allow


class EndUser(models.Model):
    """A mini-program user, known by the identity platform's openid (never by client input)."""

    openid = models.CharField(verbose_name=_("openid"), max_length=128, unique=True)
    unionid = models.CharField(verbose_name=_("unionid"), max_length=128, blank=True, default="")
    # The platform's session key stays on the server; no endpoint returns it.
    session_key = models.CharField(
        verbose_name=_("session key"), max_length=128, blank=True, default=""
    )
    plugin_openpid = models.CharField(
        verbose_name=_("plugin openpid"), max_length=128, blank=True, default=""
    )
    phone_number = models.CharField(
        verbose_name=_("phone number"), max_length=32, blank=True, default=""
    )
    pure_phone_number = models.CharField(
        verbose_name=_("pure phone number"), max_length=32, blank=True, default=""
    )
    country_code = models.CharField(
        verbose_name=_("country code"), max_length=8, blank=True, default=""
    )
    created_at = models.DateTimeField(verbose_name=_("created at"), auto_now_add=True)
    updated_at = models.DateTimeField(verbose_name=_("updated at"), auto_now=True)
    last_login_at = models.DateTimeField(verbose_name=_("last login at"), null=True, blank=True)

    class Meta:
        verbose_name = _("end user")
        verbose_name_plural = _("end users")

    def __str__(self):
        return f"user {self.pk} ({self.openid})"


class PlatformAccessToken(models.Model):
    """The identity platform's server-side access token, shared by every web process."""

    app_id = models.CharField(verbose_name=_("app id"), max_length=128, unique=True)
    token = models.CharField(verbose_name=_("token"), max_length=512)
    expires_at = models.DateTimeField(verbose_name=_("expires at"))

    class Meta:
        verbose_name = _("platform access token")
        verbose_name_plural = _("platform access tokens")


class Product(models.Model):
    """What is sold. `kind` and the size say which production files a paid order's designs
    get (docs/commerce.md, "Production files"): a print PDF or laser files, the poster's
    width at `width_mm` (or its height at `height_mm` when no width is set)."""

    class Kind(models.TextChoices):
        PRINT = "print", _("print")
        ENGRAVE = "engrave", _("engrave")

    name = models.CharField(verbose_name=_("name"), max_length=100)
    description = models.TextField(verbose_name=_("description"), blank=True, default="")
    price = models.PositiveIntegerField(verbose_name=_("price"), help_text=_("fen"))
    active = models.BooleanField(verbose_name=_("active"), default=True)
    kind = models.CharField(
        verbose_name=_("kind"), max_length=8, choices=Kind.choices, default=Kind.PRINT
    )
    width_mm = models.FloatField(
        verbose_name=_("width (mm)"), null=True, blank=True, help_text=_("mm; none: no files made")
    )
    height_mm = models.FloatField(
        verbose_name=_("height (mm)"), null=True, blank=True, help_text=_("mm")
    )
    created_at = models.DateTimeField(verbose_name=_("created at"), auto_now_add=True)
    updated_at = models.DateTimeField(verbose_name=_("updated at"), auto_now=True)

    class Meta:
        verbose_name = _("product")
        verbose_name_plural = _("products")
        ordering = ["id"]

    def __str__(self):
        return self.name


class Address(models.Model):
    user = models.ForeignKey(
        EndUser, verbose_name=_("user"), on_delete=models.CASCADE, related_name="addresses"
    )
    recipient = models.CharField(verbose_name=_("recipient"), max_length=50)
    phone = models.CharField(verbose_name=_("phone"), max_length=20)
    province = models.CharField(verbose_name=_("province"), max_length=50)
    city = models.CharField(verbose_name=_("city"), max_length=50)
    district = models.CharField(verbose_name=_("district"), max_length=50, blank=True, default="")
    detail = models.CharField(verbose_name=_("detail"), max_length=200)
    is_default = models.BooleanField(verbose_name=_("is default"), default=False)
    created_at = models.DateTimeField(verbose_name=_("created at"), auto_now_add=True)
    updated_at = models.DateTimeField(verbose_name=_("updated at"), auto_now=True)

    class Meta:
        verbose_name = _("address")
        verbose_name_plural = _("addresses")
        ordering = ["-is_default", "-created_at", "-id"]
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
        DRAFT = "DRAFT", _("draft")
        SUBMITTED = "SUBMITTED", _("submitted")
        PROCESSING = "PROCESSING", _("processing")
        DONE = "DONE", _("done")

    # The allowed status moves, by verb; core.pipeline.move makes them.
    pipeline = {
        "submitted": allow(Status.DRAFT, to=Status.SUBMITTED),
        "ordered": allow(Status.DRAFT, Status.SUBMITTED, to=Status.PROCESSING),
        "finished": allow(Status.PROCESSING, to=Status.DONE),
    }

    user = models.ForeignKey(
        EndUser, verbose_name=_("user"), on_delete=models.CASCADE, related_name="design_lists"
    )
    name = models.CharField(verbose_name=_("name"), max_length=100)
    status = models.CharField(
        verbose_name=_("status"), max_length=16, choices=Status.choices, default=Status.DRAFT
    )
    # [{"projectId": "..."} or {"jobId": "..."}, plus "quantity"], validated by the services.
    items = models.JSONField(verbose_name=_("items"), default=list, blank=True)
    # The copies of its projects made when it left DRAFT, {projectId: store key of the
    # render.svg}: a paid order's production files come from them, whatever is edited later.
    frozen = models.JSONField(verbose_name=_("frozen projects"), default=dict, blank=True)
    created_at = models.DateTimeField(verbose_name=_("created at"), auto_now_add=True)
    updated_at = models.DateTimeField(verbose_name=_("updated at"), auto_now=True)
    submitted_at = models.DateTimeField(verbose_name=_("submitted at"), null=True, blank=True)
    processing_at = models.DateTimeField(verbose_name=_("processing at"), null=True, blank=True)
    done_at = models.DateTimeField(verbose_name=_("done at"), null=True, blank=True)

    class Meta:
        verbose_name = _("design list")
        verbose_name_plural = _("design lists")
        ordering = ["-created_at", "-id"]

    def __str__(self):
        return f"{self.name} ({self.status})"


class Order(models.Model):
    class Status(models.TextChoices):
        PENDING = "PENDING", _("pending")
        PAID = "PAID", _("paid")
        SHIPPED = "SHIPPED", _("shipped")
        COMPLETED = "COMPLETED", _("completed")
        CANCELLED = "CANCELLED", _("cancelled")

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

    user = models.ForeignKey(
        EndUser, verbose_name=_("user"), on_delete=models.PROTECT, related_name="orders"
    )
    status = models.CharField(
        verbose_name=_("status"), max_length=16, choices=Status.choices, default=Status.PENDING
    )
    total_amount = models.PositiveBigIntegerField(
        verbose_name=_("total amount"), default=0, help_text=_("fen")
    )
    address = models.JSONField(
        verbose_name=_("address"), help_text=_("snapshot of the address when the order was made")
    )
    design_list = models.ForeignKey(
        DesignList,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="orders",
        verbose_name=_("design list"),
    )
    # The idempotency key: the database, not Python, guarantees one order per key.
    # The client's idempotency key: one order per user and key (another user's same key is
    # another order, and says nothing of theirs).
    request_id = models.CharField(
        verbose_name=_("request id"), max_length=64, null=True, blank=True
    )
    created_at = models.DateTimeField(
        verbose_name=_("created at"), auto_now_add=True, db_index=True
    )
    updated_at = models.DateTimeField(verbose_name=_("updated at"), auto_now=True)
    paid_at = models.DateTimeField(verbose_name=_("paid at"), null=True, blank=True)
    shipped_at = models.DateTimeField(verbose_name=_("shipped at"), null=True, blank=True)
    completed_at = models.DateTimeField(verbose_name=_("completed at"), null=True, blank=True)
    cancelled_at = models.DateTimeField(verbose_name=_("cancelled at"), null=True, blank=True)

    class Meta:
        verbose_name = _("order")
        verbose_name_plural = _("orders")
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["user", "request_id"], name="one_order_per_request_id")
        ]

    def __str__(self):
        return f"order {self.pk} ({self.status})"


class OrderItem(models.Model):
    """One line of an order; name and price are copied so later product edits change nothing."""

    order = models.ForeignKey(
        Order, verbose_name=_("order"), on_delete=models.CASCADE, related_name="items"
    )
    product = models.ForeignKey(
        Product, verbose_name=_("product"), on_delete=models.PROTECT, related_name="+"
    )
    product_name = models.CharField(verbose_name=_("product name"), max_length=100)
    unit_price = models.PositiveIntegerField(verbose_name=_("unit price"), help_text=_("fen"))
    quantity = models.PositiveSmallIntegerField(verbose_name=_("quantity"))
    subtotal = models.PositiveBigIntegerField(verbose_name=_("subtotal"), help_text=_("fen"))

    class Meta:
        verbose_name = _("order item")
        verbose_name_plural = _("order items")
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

    order = models.ForeignKey(
        Order, verbose_name=_("order"), on_delete=models.CASCADE, related_name="preparations"
    )
    product = models.ForeignKey(
        Product, verbose_name=_("product"), on_delete=models.PROTECT, related_name="+"
    )
    # The design list's item: {"jobId": ...} or {"projectId": ...}
    design = models.JSONField(verbose_name=_("design"))
    design_key = models.CharField(
        verbose_name=_("design key"), max_length=80, help_text=_("job:<id> or project:<id>")
    )
    kind = models.CharField(verbose_name=_("kind"), max_length=8, choices=Product.Kind.choices)
    width_mm = models.FloatField(verbose_name=_("width (mm)"), null=True, blank=True)
    height_mm = models.FloatField(verbose_name=_("height (mm)"), null=True, blank=True)
    status = models.CharField(
        verbose_name=_("status"), max_length=8, choices=Status.choices, default=Status.PENDING
    )
    error = models.CharField(verbose_name=_("error"), max_length=300, blank=True, default="")
    # [{"name", "key", "contentType", "size", "preflight"}]: the files in the store
    files = models.JSONField(verbose_name=_("files"), default=list, blank=True)
    # {"svgSha256", "dbSha256"}: what a job's files were drawn from, checked against its
    # approval before any was written ({}: a project, or made before proofs)
    drawn_from = models.JSONField(verbose_name=_("drawn from"), default=dict, blank=True)
    created_at = models.DateTimeField(verbose_name=_("created at"), auto_now_add=True)
    updated_at = models.DateTimeField(verbose_name=_("updated at"), auto_now=True)
    prepared_at = models.DateTimeField(verbose_name=_("prepared at"), null=True, blank=True)

    class Meta:
        verbose_name = _("production files")
        verbose_name_plural = _("production files")
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
        WECHAT = "wechat", _("WeChat Pay")
        FREE = "free", _("free")
        MANUAL = "manual", _("manual")

    class Status(models.TextChoices):
        OPEN = "OPEN", _("open")  # waiting for the payer (or for the platform's answer)
        SUCCESS = "SUCCESS", _("success")  # the money arrived
        CLOSED = "CLOSED", _("closed")  # closed on the platform, nothing paid

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
        Order,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="payments",
        verbose_name=_("order"),
    )
    kind = models.CharField(
        verbose_name=_("kind"), max_length=8, choices=Kind.choices, default=Kind.WECHAT
    )
    status = models.CharField(
        verbose_name=_("status"), max_length=8, choices=Status.choices, default=Status.OPEN
    )
    out_trade_no = models.CharField(verbose_name=_("out trade no"), max_length=32, unique=True)
    amount = models.PositiveBigIntegerField(verbose_name=_("amount"), help_text=_("fen"))
    prepay_id = models.CharField(verbose_name=_("prepay id"), max_length=64, blank=True, default="")
    transaction_id = models.CharField(
        verbose_name=_("transaction id"), max_length=64, blank=True, default=""
    )
    paid_at = models.DateTimeField(verbose_name=_("paid at"), null=True, blank=True)
    expires_at = models.DateTimeField(verbose_name=_("expires at"), null=True, blank=True)
    needs_attention = models.BooleanField(
        verbose_name=_("needs attention"), default=False, db_index=True
    )
    attention_reason = models.CharField(
        verbose_name=_("attention reason"), max_length=300, blank=True, default=""
    )
    created_at = models.DateTimeField(verbose_name=_("created at"), auto_now_add=True)
    updated_at = models.DateTimeField(verbose_name=_("updated at"), auto_now=True)
    # When the platform last said something about it (prepay, notify, query, close).
    answered_at = models.DateTimeField(verbose_name=_("answered at"), null=True, blank=True)

    class Meta:
        verbose_name = _("payment")
        verbose_name_plural = _("payments")
        ordering = ["-created_at", "-id"]

    def __str__(self):
        return f"payment {self.out_trade_no} ({self.kind} {self.status})"


class Refund(models.Model):
    """Money sent back for a payment; its out_refund_no is committed before the platform hears
    of it and sent again unchanged on every retry."""

    class Status(models.TextChoices):
        REQUESTED = (
            "REQUESTED",
            _("requested"),
        )  # committed; the platform has not (knowingly) accepted it
        PROCESSING = "PROCESSING", _("processing")
        SUCCESS = "SUCCESS", _("success")
        CLOSED = "CLOSED", _("closed")
        ABNORMAL = "ABNORMAL", _("abnormal")

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

    payment = models.ForeignKey(
        Payment, verbose_name=_("payment"), on_delete=models.PROTECT, related_name="refunds"
    )
    out_refund_no = models.CharField(verbose_name=_("out refund no"), max_length=64, unique=True)
    amount = models.PositiveBigIntegerField(verbose_name=_("amount"), help_text=_("fen"))
    reason = models.CharField(verbose_name=_("reason"), max_length=80)
    status = models.CharField(
        verbose_name=_("status"), max_length=12, choices=Status.choices, default=Status.REQUESTED
    )
    refund_id = models.CharField(verbose_name=_("refund id"), max_length=64, blank=True, default="")
    succeeded_at = models.DateTimeField(verbose_name=_("succeeded at"), null=True, blank=True)
    created_at = models.DateTimeField(verbose_name=_("created at"), auto_now_add=True)
    updated_at = models.DateTimeField(verbose_name=_("updated at"), auto_now=True)

    class Meta:
        verbose_name = _("refund")
        verbose_name_plural = _("refunds")
        ordering = ["id"]

    def __str__(self):
        return f"refund {self.out_refund_no} ({self.status})"


class AppendOnly:
    """A model whose rows are written once, never updated or deleted (ValueError)."""

    def save(self, *args, **kwargs):
        if self.pk is not None:
            raise ValueError(f"{self._meta.verbose_name_plural} are append-only")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise ValueError(f"{self._meta.verbose_name_plural} are append-only")


class PaymentEvent(AppendOnly, models.Model):
    """The append-only log: every prepay, notify, query, close and refund call with the
    verified payload, and what it changed. Rows are never updated or deleted."""

    class Kind(models.TextChoices):
        PREPAY = "prepay", _("prepay")
        NOTIFY = "notify", _("notify")
        QUERY = "query", _("query")
        CLOSE = "close", _("close")
        REFUND = "refund", _("refund")
        REFUND_QUERY = "refund-query", _("refund query")
        REFUND_NOTIFY = "refund-notify", _("refund notify")
        FREE = "free", _("free")
        MANUAL = "manual", _("manual")

    order = models.ForeignKey(
        Order,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="payment_events",
        verbose_name=_("order"),
    )
    payment = models.ForeignKey(
        Payment,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="events",
        verbose_name=_("payment"),
    )
    refund = models.ForeignKey(
        Refund,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="events",
        verbose_name=_("refund"),
    )
    kind = models.CharField(verbose_name=_("kind"), max_length=16, choices=Kind.choices)
    payload = models.JSONField(verbose_name=_("payload"), default=dict, blank=True)
    # True when this event changed a payment, a refund or the order.
    applied = models.BooleanField(verbose_name=_("applied"), default=False)
    outcome = models.CharField(verbose_name=_("outcome"), max_length=300, blank=True, default="")
    created_at = models.DateTimeField(
        verbose_name=_("created at"), auto_now_add=True, db_index=True
    )

    class Meta:
        verbose_name = _("payment event")
        verbose_name_plural = _("payment events")
        ordering = ["id"]

    def __str__(self):
        return f"{self.kind} event {self.pk}"


# ---- proofs (docs/proofs.md) ---------------------------------------------------------------

PROOF_TOKEN_BYTES = 24  # 192 random bits (at least 128: docs/proofs.md)
MAX_COMMENT_LENGTH = 1000  # a comment's text: a paragraph, never a pasted list


def proof_token() -> str:
    return secrets.token_urlsafe(PROOF_TOKEN_BYTES)


class Proof(models.Model):
    """A finished poster sent to its customer for approval: one link (`token`, revocable)
    whose versions are the job first sent and the revisions of it sent after."""

    token = models.CharField(
        verbose_name=_("token"), max_length=64, unique=True, default=proof_token
    )
    job_id = models.CharField(verbose_name=_("first job"), max_length=32, db_index=True)
    # the job's owner key (core.identity.Identity.owner_key): '' for a job made without a token
    owner = models.CharField(verbose_name=_("owner"), max_length=32, blank=True, default="")
    approvals_needed = models.PositiveSmallIntegerField(
        verbose_name=_("approvals needed"), default=1
    )
    # one label per approval needed ("class teacher", "committee")
    roles = models.JSONField(verbose_name=_("roles"), default=list, blank=True)
    note = models.TextField(verbose_name=_("note"), blank=True, default="")
    created_at = models.DateTimeField(verbose_name=_("created at"), auto_now_add=True)
    revoked_at = models.DateTimeField(verbose_name=_("revoked at"), null=True, blank=True)

    class Meta:
        verbose_name = _("proof")
        verbose_name_plural = _("proofs")
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(approvals_needed__gte=1) & Q(approvals_needed__lte=2),
                name="proof_approvals_1_or_2",
            )
        ]

    def __str__(self):
        return f"proof {self.pk} of job {self.job_id}"


class ProofVersion(models.Model):
    """One job shown by a proof: version 1 the job first sent, each next a revision of it."""

    proof = models.ForeignKey(
        Proof, verbose_name=_("proof"), on_delete=models.CASCADE, related_name="versions"
    )
    version = models.PositiveSmallIntegerField(verbose_name=_("version"))
    job_id = models.CharField(verbose_name=_("job"), max_length=32, db_index=True)
    # what the revision changed since its parent, by name (wordclouds' revision_changes)
    changes = models.JSONField(verbose_name=_("changes"), default=dict, blank=True)
    created_at = models.DateTimeField(verbose_name=_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("proof version")
        verbose_name_plural = _("proof versions")
        ordering = ["proof", "version"]
        constraints = [
            models.UniqueConstraint(fields=["proof", "version"], name="one_number_per_version"),
            models.UniqueConstraint(fields=["proof", "job_id"], name="one_version_per_job"),
        ]

    def __str__(self):
        return f"version {self.version} of proof {self.proof_id}"


class ProofComment(models.Model):
    """The customer's word on a version, pinned to a name (`word_id`) or a point (x, y)."""

    class Kind(models.TextChoices):
        MISSPELT = "misspelt", _("misspelt")
        MISSING = "missing", _("missing name")
        REMOVE = "remove", _("remove")
        OTHER = "other", _("other")

    version = models.ForeignKey(
        ProofVersion, verbose_name=_("version"), on_delete=models.CASCADE, related_name="comments"
    )
    word_id = models.BigIntegerField(verbose_name=_("word id"), null=True, blank=True)
    x = models.FloatField(verbose_name=_("x"), null=True, blank=True)
    y = models.FloatField(verbose_name=_("y"), null=True, blank=True)
    kind = models.CharField(verbose_name=_("kind"), max_length=10, choices=Kind.choices)
    text = models.TextField(verbose_name=_("text"), max_length=MAX_COMMENT_LENGTH)
    # misspelt: the right spelling; missing: the names to add, one a line
    spelling = models.CharField(verbose_name=_("right spelling"), max_length=1000, blank=True)
    created_at = models.DateTimeField(verbose_name=_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("proof comment")
        verbose_name_plural = _("proof comments")
        ordering = ["id"]

    def __str__(self):
        return f"{self.kind} comment on {self.version}"


class ProofDecision(AppendOnly, models.Model):
    """An approval or a request for changes of one version: who, when, the terms they
    ticked in the words shown, their address and the SHA-256 of the files approved. Rows are
    never updated or deleted."""

    class Decision(models.TextChoices):
        APPROVE = "approve", _("approve")
        CHANGES = "changes", _("changes")

    version = models.ForeignKey(
        ProofVersion,
        verbose_name=_("version"),
        on_delete=models.PROTECT,
        related_name="decisions",
    )
    decision = models.CharField(verbose_name=_("decision"), max_length=8, choices=Decision.choices)
    name = models.CharField(verbose_name=_("name"), max_length=100)
    role = models.CharField(verbose_name=_("role"), max_length=60, blank=True, default="")
    terms = models.TextField(verbose_name=_("terms"), blank=True, default="")
    client_address = models.CharField(
        verbose_name=_("client address"), max_length=64, blank=True, default=""
    )
    svg_sha256 = models.CharField(verbose_name=_("wordcloud.svg SHA-256"), max_length=64)
    db_sha256 = models.CharField(verbose_name=_("positions.db SHA-256"), max_length=64)
    created_at = models.DateTimeField(verbose_name=_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("proof decision")
        verbose_name_plural = _("proof decisions")
        ordering = ["id"]

    def __str__(self):
        return f"{self.decision} of {self.version} by {self.name}"
