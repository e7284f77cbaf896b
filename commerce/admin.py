"""Staff pages: products, orders (mark paid, ship, cancel through the same transition
functions as the API), design lists (mark done), end users (read-only: they come from the
identity platform's login) and addresses. Money is stored in fen and shown in yuan."""

from decimal import Decimal

from django import forms
from django.contrib import admin, messages
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from commerce.auth import Caller
from commerce.models import (
    Address,
    DesignList,
    EndUser,
    Order,
    OrderItem,
    Payment,
    PaymentEvent,
    Preparation,
    Product,
    Proof,
    ProofComment,
    ProofDecision,
    ProofVersion,
    Refund,
)
from commerce.services.design_lists import design_list_finish
from commerce.services.orders import order_cancel, order_mark_paid, order_ship
from commerce.services.production import preparation_downloads, preparation_retry
from core.admin_html import ViewOnlyAdmin, image, linked_row, table, yuan
from core.errors import ServiceError
from wordclouds.services.designs import designs_shown

STAFF = Caller(user=None, is_admin=True)
# What an action says it did, %(count)s being the rows it moved.
MARKED_PAID = _("%(count)s marked paid")
SHIPPED = _("%(count)s shipped")
CANCELLED = _("%(count)s cancelled")
MARKED_DONE = _("%(count)s marked done")


def _apply(modeladmin, request, queryset, move, done) -> None:
    """Runs one transition per selected row; a row in the wrong state is reported, not changed."""
    moved = 0
    for pk in queryset.values_list("pk", flat=True):
        try:
            move(pk)
            moved += 1
        except ServiceError as error:
            modeladmin.message_user(request, f"#{pk}: {error.detail}", messages.WARNING)
    if moved:
        modeladmin.message_user(request, done % {"count": moved}, messages.SUCCESS)


class ProductForm(forms.ModelForm):
    """Staff type prices in yuan; the row keeps fen."""

    price_yuan = forms.DecimalField(
        label=_("price (¥)"), min_value=0, max_digits=12, decimal_places=2
    )

    class Meta:
        model = Product
        fields = ["name", "description", "active", "kind", "width_mm", "height_mm"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if self.instance.pk is not None:
            self.initial["price_yuan"] = Decimal(self.instance.price) / 100

    def save(self, commit=True):
        self.instance.price = int(self.cleaned_data["price_yuan"] * 100)
        return super().save(commit)


@admin.register(Product)
class ProductAdmin(admin.ModelAdmin):
    form = ProductForm
    fields = ["name", "description", "price_yuan", "active", "kind", "width_mm", "height_mm"]
    list_display = ["id", "name", "price_display", "kind", "width_mm", "height_mm", "active"]
    list_filter = ["active", "kind"]
    search_fields = ["name", "description"]

    @admin.display(description=_("price"), ordering="price")
    def price_display(self, product: Product):
        return yuan(product.price)


class OrderItemInline(admin.TabularInline):
    model = OrderItem
    extra = 0
    can_delete = False
    fields = ["product", "product_name", "unit_price_display", "quantity", "subtotal_display"]
    readonly_fields = fields

    def has_add_permission(self, request, obj=None):
        return False

    @admin.display(description=_("unit price"))
    def unit_price_display(self, item: OrderItem):
        return yuan(item.unit_price)

    @admin.display(description=_("subtotal"))
    def subtotal_display(self, item: OrderItem):
        return yuan(item.subtotal)


class ReadOnlyInline(admin.TabularInline):
    """Rows staff look at, never change: payments are changed by commerce.payments only."""

    extra = 0
    can_delete = False
    show_change_link = True

    def get_readonly_fields(self, request, obj=None):
        return self.fields

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False


class PaymentInline(ReadOnlyInline):
    model = Payment
    fields = [
        "kind",
        "status",
        "out_trade_no",
        "amount",
        "transaction_id",
        "paid_at",
        "needs_attention",
        "attention_reason",
    ]


class PaymentEventInline(ReadOnlyInline):
    model = PaymentEvent
    fields = ["created_at", "kind", "payment", "refund", "applied", "outcome", "payload"]
    show_change_link = False


class RefundInline(ReadOnlyInline):
    model = Refund
    fields = ["out_refund_no", "amount", "reason", "status", "refund_id", "succeeded_at"]
    show_change_link = False


class ProofVersionInline(ReadOnlyInline):
    model = ProofVersion
    fields = ["version", "job_id", "created_at", "changes"]


class ProofCommentInline(ReadOnlyInline):
    model = ProofComment
    fields = ["kind", "word_id", "x", "y", "text", "spelling", "created_at"]
    show_change_link = False


class ProofDecisionInline(ReadOnlyInline):
    model = ProofDecision
    fields = ["decision", "name", "role", "terms", "client_address", "svg_sha256", "db_sha256",
              "created_at"]  # fmt: skip
    show_change_link = False


class PreparationInline(ReadOnlyInline):
    """A paid order's production files: each with its download link and preflight, or the
    failure's sentence (retried by the order's action)."""

    model = Preparation
    fields = ["design_key", "product", "kind", "width_mm", "height_mm", "status", "error",
              "drawn_from", "links"]  # fmt: skip
    show_change_link = False

    @admin.display(description=_("files and preflight"))
    def links(self, preparation: Preparation):
        return (
            format_html_join(
                "",
                '<p><a href="{}" download>{}</a> {}</p>',
                (
                    (file.url, file.name, ", ".join(f"{k} {v}" for k, v in file.preflight.items()))
                    for file in preparation_downloads(preparation)
                ),
            )
            or "-"
        )


@admin.register(Payment)
class PaymentAdmin(ViewOnlyAdmin):
    """Payments, their refunds and events: read-only (the platform and the order moves
    change them)."""

    list_display = ["id", "order", "kind", "status", "amount", "needs_attention", "created_at"]
    list_filter = ["needs_attention", "kind", "status"]
    search_fields = ["out_trade_no", "transaction_id", "order__id"]
    inlines = [RefundInline, PaymentEventInline]


@admin.register(Order)
class OrderAdmin(admin.ModelAdmin):
    list_display = ["id", "user", "status", "total_display", "created_at", "request_id"]
    list_filter = ["status"]
    search_fields = ["id", "request_id", "user__openid", "design_list__name"]
    inlines = [OrderItemInline, PreparationInline, PaymentInline, PaymentEventInline]
    actions = ["mark_paid", "ship", "cancel", "retry_production"]
    fields = [
        "id",
        "user",
        "status",
        "total_display",
        "address_lines",
        "design_list",
        "request_id",
        "created_at",
        "updated_at",
        "paid_at",
        "shipped_at",
        "completed_at",
        "cancelled_at",
    ]
    readonly_fields = fields

    @admin.display(description=_("total"), ordering="total_amount")
    def total_display(self, order: Order):
        return yuan(order.total_amount)

    @admin.display(description=_("address"))
    def address_lines(self, order: Order):
        return table(None, list(order.address.items()))

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    @admin.action(description=_("Mark paid (PENDING → PAID)"))
    def mark_paid(self, request, queryset):
        _apply(self, request, queryset, lambda pk: order_mark_paid(order_id=pk), MARKED_PAID)

    @admin.action(description=_("Ship (PAID → SHIPPED)"))
    def ship(self, request, queryset):
        _apply(self, request, queryset, lambda pk: order_ship(order_id=pk), SHIPPED)

    @admin.action(description=_("Make failed production files again"))
    def retry_production(self, request, queryset):
        failed = list(
            Preparation.objects.filter(
                order__in=queryset, status=Preparation.Status.FAILED
            ).values_list("order_id", "pk")
        )
        for order_id, pk in failed:
            preparation_retry(order_id=order_id, preparation_id=pk)
        self.message_user(
            request, gettext("%d preparations handed to the worker again") % len(failed)
        )

    @admin.action(description=_("Cancel (PENDING or PAID → CANCELLED, refunded)"))
    def cancel(self, request, queryset):
        _apply(
            self, request, queryset, lambda pk: order_cancel(caller=STAFF, order_id=pk), CANCELLED
        )


@admin.register(DesignList)
class DesignListAdmin(admin.ModelAdmin):
    list_display = ["id", "name", "user", "status", "updated_at"]
    list_display_links = ["id", "name"]
    list_filter = ["status"]
    search_fields = ["name", "user__openid"]
    fields = [
        "name",
        "user",
        "status",
        "item_rows",
        "created_at",
        "updated_at",
        "submitted_at",
        "processing_at",
        "done_at",
    ]
    readonly_fields = [
        "user",
        "status",
        "item_rows",
        "created_at",
        "updated_at",
        "submitted_at",
        "processing_at",
        "done_at",
    ]
    actions = ["finish"]

    def has_add_permission(self, request):
        return False  # an end user makes their lists through the API

    @admin.display(description=_("items"))
    def item_rows(self, design_list: DesignList):
        items = design_list.items
        rows = [
            (
                image(design.image_url, design.image_alt) if design.image_url else "-",
                (
                    format_html(
                        gettext("project {}"), linked_row(design.model, design.key, design.record)
                    )
                    if design.kind == "project"
                    else linked_row(design.model, design.key, design.record)
                ),
                item.get("quantity", 1),
            )
            for item, design in zip(items, designs_shown(items))
        ]
        return table(["", gettext("design"), gettext("quantity")], rows)

    @admin.action(description=_("Mark done (PROCESSING → DONE)"))
    def finish(self, request, queryset):
        _apply(
            self, request, queryset, lambda pk: design_list_finish(design_list_id=pk), MARKED_DONE
        )


@admin.register(Proof)
class ProofAdmin(ViewOnlyAdmin):
    """Proofs, their versions, comments and decisions: a read-only history (docs/proofs.md);
    the customer writes them through the link, staff revoke a link through the API."""

    list_display = ["id", "job_id", "owner", "approvals_needed", "created_at", "revoked_at"]
    list_filter = ["revoked_at", "approvals_needed"]
    search_fields = ["job_id", "versions__job_id"]
    exclude = ["token"]  # the link's key: whoever reads it may decide
    inlines = [ProofVersionInline]


@admin.register(ProofVersion)
class ProofVersionAdmin(ViewOnlyAdmin):
    list_display = ["id", "proof", "version", "job_id", "created_at"]
    search_fields = ["job_id", "proof__job_id"]
    inlines = [ProofCommentInline, ProofDecisionInline]


@admin.register(ProofComment)
class ProofCommentAdmin(ViewOnlyAdmin):
    list_display = ["id", "version", "kind", "word_id", "text", "created_at"]
    list_filter = ["kind"]


@admin.register(ProofDecision)
class ProofDecisionAdmin(ViewOnlyAdmin):
    list_display = ["id", "version", "decision", "name", "role", "client_address", "created_at"]
    list_filter = ["decision"]


@admin.register(EndUser)
class EndUserAdmin(ViewOnlyAdmin):
    """End users exist through the identity platform's login only (a blank user would have no
    openid to log in with)."""

    list_display = ["id", "openid", "phone_number", "created_at", "last_login_at"]
    list_filter = ["created_at", "last_login_at"]
    search_fields = ["openid", "unionid", "phone_number"]
    exclude = ["session_key"]
    readonly_fields = [
        "openid",
        "unionid",
        "plugin_openpid",
        "phone_number",
        "pure_phone_number",
        "country_code",
        "created_at",
        "updated_at",
        "last_login_at",
    ]


@admin.register(Address)
class AddressAdmin(admin.ModelAdmin):
    list_display = ["id", "user", "recipient", "city", "is_default"]
    list_filter = ["is_default", "province"]
    search_fields = ["recipient", "phone", "city", "user__openid"]
    raw_id_fields = ["user"]
