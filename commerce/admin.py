"""Staff pages: products, orders (mark paid, ship, cancel through the same transition
functions as the API), design lists (mark done), end users and addresses."""
from django.contrib import admin, messages

from config.errors import ServiceError
from commerce.auth import Caller
from commerce.models import Address, DesignList, EndUser, Order, OrderItem, Product
from commerce.services.design_lists import design_list_finish
from commerce.services.orders import order_cancel, order_mark_paid, order_ship

STAFF = Caller(user=None, is_admin=True)


def _apply(modeladmin, request, queryset, move, done: str) -> None:
    """Runs one transition per selected row; a row in the wrong state is reported, not changed."""
    moved = 0
    for pk in queryset.values_list("pk", flat=True):
        try:
            move(pk)
            moved += 1
        except ServiceError as error:
            modeladmin.message_user(request, f"#{pk}: {error.detail}", messages.WARNING)
    if moved:
        modeladmin.message_user(request, f"{moved} {done}", messages.SUCCESS)


@admin.register(Product)
class ProductAdmin(admin.ModelAdmin):
    list_display = ["id", "name", "price", "active", "updated_at"]
    list_filter = ["active"]
    search_fields = ["name"]


class OrderItemInline(admin.TabularInline):
    model = OrderItem
    extra = 0
    can_delete = False
    readonly_fields = ["product", "product_name", "unit_price", "quantity", "subtotal"]

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Order)
class OrderAdmin(admin.ModelAdmin):
    list_display = ["id", "user", "status", "total_amount", "created_at", "request_id"]
    list_filter = ["status"]
    search_fields = ["id", "request_id", "user__openid"]
    inlines = [OrderItemInline]
    actions = ["mark_paid", "ship", "cancel"]
    readonly_fields = [field.name for field in Order._meta.fields]

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    @admin.action(description="Mark paid (PENDING → PAID)")
    def mark_paid(self, request, queryset):
        _apply(self, request, queryset, lambda pk: order_mark_paid(order_id=pk), "marked paid")

    @admin.action(description="Ship (PAID → SHIPPED)")
    def ship(self, request, queryset):
        _apply(self, request, queryset, lambda pk: order_ship(order_id=pk), "shipped")

    @admin.action(description="Cancel (PENDING → CANCELLED)")
    def cancel(self, request, queryset):
        _apply(self, request, queryset, lambda pk: order_cancel(caller=STAFF, order_id=pk), "cancelled")


@admin.register(DesignList)
class DesignListAdmin(admin.ModelAdmin):
    list_display = ["id", "name", "user", "status", "updated_at"]
    list_filter = ["status"]
    search_fields = ["name", "user__openid"]
    readonly_fields = ["user", "status", "items", "created_at", "updated_at", "submitted_at",
                       "processing_at", "done_at"]
    actions = ["finish"]

    @admin.action(description="Mark done (PROCESSING → DONE)")
    def finish(self, request, queryset):
        _apply(self, request, queryset, lambda pk: design_list_finish(design_list_id=pk), "marked done")


@admin.register(EndUser)
class EndUserAdmin(admin.ModelAdmin):
    list_display = ["id", "openid", "phone_number", "created_at", "last_login_at"]
    search_fields = ["openid", "unionid", "phone_number"]
    exclude = ["session_key"]
    readonly_fields = ["openid", "unionid", "plugin_openpid", "phone_number", "pure_phone_number",
                       "country_code", "created_at", "updated_at", "last_login_at"]


@admin.register(Address)
class AddressAdmin(admin.ModelAdmin):
    list_display = ["id", "user", "recipient", "city", "is_default"]
    search_fields = ["recipient", "phone", "user__openid"]
    raw_id_fields = ["user"]
