"""Input and output shapes of the commerce API (camelCase keys, money in fen, UTC times
with a `Z` suffix). Inputs reject unknown keys, so a client cannot slip in a user id or an
amount."""
from collections.abc import Mapping

from rest_framework import serializers

from commerce.models import Address, DesignList, EndUser, Order, OrderItem, Product
from config.errors import InvalidInput
from config.serializers import UtcDateTimeField

MAX_QUANTITY = 999
MAX_ORDER_LINES = 100
MAX_DESIGN_ITEMS = 200


class StrictInput(serializers.Serializer):
    """An input whose unknown keys are an error (`unknown field: X`), not silently ignored."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for field in self.fields.values():
            field.error_messages.update(required="is required", null="is required", blank="must not be empty")

    def to_internal_value(self, data):
        if isinstance(data, Mapping):
            unknown = sorted(set(data) - set(self.fields))
            if unknown:
                raise serializers.ValidationError({"non_field_errors": [f"unknown field: {unknown[0]}"]})
        return super().to_internal_value(data)


def valid_input(serializer_class, data, *, partial: bool = False) -> dict:
    """The validated data; 400 with one sentence naming the first problem otherwise
    (`code is required`, `pageSize must be an integer from 1 to 100`)."""
    serializer = serializer_class(data=data, partial=partial)
    if not serializer.is_valid():
        field, messages = next(iter(serializer.errors.items()))
        message = str(messages[0] if isinstance(messages, list) else messages)
        if field != "non_field_errors":
            message = f"{field} {message}" if message[:1].islower() else f"{field}: {message}"
        raise InvalidInput(message)
    return dict(serializer.validated_data)


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _quantity_ok(item: Mapping) -> bool:
    return _is_int(item.get("quantity")) and 1 <= item["quantity"] <= MAX_QUANTITY


# ---- identity platform -------------------------------------------------------------------

class CodeIn(StrictInput):
    code = serializers.CharField(max_length=256)


class UserOut(serializers.ModelSerializer):
    pluginOpenpid = serializers.CharField(source="plugin_openpid")
    phoneNumber = serializers.CharField(source="phone_number")
    purePhoneNumber = serializers.CharField(source="pure_phone_number")
    countryCode = serializers.CharField(source="country_code")
    createdAt = UtcDateTimeField(source="created_at")

    class Meta:
        model = EndUser
        fields = ["id", "openid", "unionid", "pluginOpenpid", "phoneNumber", "purePhoneNumber",
                  "countryCode", "createdAt"]


class LoginOut(serializers.Serializer):
    token = serializers.CharField()
    user = UserOut()


class OpenpidOut(serializers.Serializer):
    openpid = serializers.CharField(source="plugin_openpid")


class PhoneOut(serializers.Serializer):
    phoneNumber = serializers.CharField(source="phone_number")
    purePhoneNumber = serializers.CharField(source="pure_phone_number")
    countryCode = serializers.CharField(source="country_code")


# ---- products and addresses ----------------------------------------------------------------

class ProductIn(StrictInput):
    name = serializers.CharField(max_length=100)
    description = serializers.CharField(allow_blank=True, required=False)
    price = serializers.IntegerField(min_value=0, max_value=100_000_000, help_text="fen")
    active = serializers.BooleanField(required=False)


class ProductOut(serializers.ModelSerializer):
    class Meta:
        model = Product
        fields = ["id", "name", "description", "price", "active"]


class AddressIn(StrictInput):
    recipient = serializers.CharField(max_length=50)
    phone = serializers.RegexField(r"^\+?[0-9][0-9 -]{2,19}$", max_length=20,
                                   error_messages={"invalid": "must be a phone number"})
    province = serializers.CharField(max_length=50)
    city = serializers.CharField(max_length=50)
    district = serializers.CharField(max_length=50, allow_blank=True, required=False)
    detail = serializers.CharField(max_length=200)
    isDefault = serializers.BooleanField(source="is_default", required=False)


class AddressOut(serializers.ModelSerializer):
    isDefault = serializers.BooleanField(source="is_default")

    class Meta:
        model = Address
        fields = ["id", "recipient", "phone", "province", "city", "district", "detail", "isDefault"]


# ---- design lists ------------------------------------------------------------------------------

def _design_item(index: int, item) -> dict:
    where = f"items[{index}]"
    if not isinstance(item, Mapping):
        raise serializers.ValidationError(f"{where} must be an object")
    designs = [key for key in ("projectId", "jobId") if key in item]
    if len(designs) != 1:
        raise serializers.ValidationError(f"{where} needs exactly one of projectId or jobId")
    unknown = sorted(set(item) - {"projectId", "jobId", "quantity"})
    if unknown:
        raise serializers.ValidationError(f"{where} has an unknown field: {unknown[0]}")
    design = designs[0]
    if not isinstance(item[design], str) or not item[design]:
        raise serializers.ValidationError(f"{where}.{design} must be a non-empty string")
    if not _quantity_ok(item):
        raise serializers.ValidationError(f"{where}.quantity must be an integer from 1 to {MAX_QUANTITY}")
    return {design: item[design], "quantity": item["quantity"]}


class DesignListIn(StrictInput):
    name = serializers.CharField(max_length=100)
    items = serializers.JSONField(required=False)

    # Item errors are raised from validate() so their text reads whole: `items[2].quantity ...`.
    def validate(self, attrs):
        if "items" in attrs:
            items = attrs["items"]
            if not isinstance(items, list) or len(items) > MAX_DESIGN_ITEMS:
                raise serializers.ValidationError(f"items must be an array of at most {MAX_DESIGN_ITEMS} items")
            attrs["items"] = [_design_item(index, item) for index, item in enumerate(items)]
        return attrs


class DesignListOut(serializers.ModelSerializer):
    createdAt = UtcDateTimeField(source="created_at")
    updatedAt = UtcDateTimeField(source="updated_at")
    submittedAt = UtcDateTimeField(source="submitted_at")
    processingAt = UtcDateTimeField(source="processing_at")
    doneAt = UtcDateTimeField(source="done_at")

    class Meta:
        model = DesignList
        fields = ["id", "name", "status", "items", "createdAt", "updatedAt", "submittedAt",
                  "processingAt", "doneAt"]


# ---- orders ------------------------------------------------------------------------------------

def _order_line(index: int, item) -> dict:
    where = f"items[{index}]"
    if not isinstance(item, Mapping) or set(item) != {"productId", "quantity"}:
        raise serializers.ValidationError(f"{where} must be an object with productId and quantity")
    if not _is_int(item["productId"]) or item["productId"] < 1:
        raise serializers.ValidationError(f"{where}.productId must be a positive integer")
    if not _quantity_ok(item):
        raise serializers.ValidationError(f"{where}.quantity must be an integer from 1 to {MAX_QUANTITY}")
    return {"product_id": item["productId"], "quantity": item["quantity"]}


class OrderCreateIn(StrictInput):
    addressId = serializers.IntegerField(min_value=1)
    items = serializers.JSONField()
    designListId = serializers.IntegerField(min_value=1, required=False, allow_null=True)
    requestId = serializers.CharField(max_length=64, required=False, allow_null=True)

    def to_internal_value(self, data):
        if isinstance(data, Mapping) and "totalAmount" in data:
            raise serializers.ValidationError({"non_field_errors": ["totalAmount is computed by the server"]})
        return super().to_internal_value(data)

    def validate(self, attrs):
        items = attrs["items"]
        if not isinstance(items, list) or not items:
            raise serializers.ValidationError("items must be a non-empty array")
        if len(items) > MAX_ORDER_LINES:
            raise serializers.ValidationError(f"items must hold at most {MAX_ORDER_LINES} lines")
        lines = [_order_line(index, item) for index, item in enumerate(items)]
        if len({line["product_id"] for line in lines}) != len(lines):
            raise serializers.ValidationError("items must name each productId once")
        attrs["items"] = lines
        return attrs


class OrderListQuery(serializers.Serializer):
    # `status=` (empty) means every status, as when the parameter is absent.
    status = serializers.ChoiceField(choices=Order.Status.choices, required=False, allow_blank=True, error_messages={
        "invalid_choice": "must be one of " + ", ".join(Order.Status.values)})
    page = serializers.IntegerField(min_value=1, default=1, error_messages={
        "invalid": "must be an integer of at least 1", "min_value": "must be an integer of at least 1"})
    pageSize = serializers.IntegerField(min_value=1, max_value=100, default=20, error_messages={
        key: "must be an integer from 1 to 100" for key in ("invalid", "min_value", "max_value")})


class OrderItemOut(serializers.ModelSerializer):
    productId = serializers.IntegerField(source="product_id")
    productName = serializers.CharField(source="product_name")
    unitPrice = serializers.IntegerField(source="unit_price")

    class Meta:
        model = OrderItem
        fields = ["productId", "productName", "unitPrice", "quantity", "subtotal"]


class OrderOut(serializers.ModelSerializer):
    items = OrderItemOut(many=True)
    totalAmount = serializers.IntegerField(source="total_amount")
    designListId = serializers.IntegerField(source="design_list_id", allow_null=True)
    requestId = serializers.CharField(source="request_id", allow_null=True)
    userId = serializers.IntegerField(source="user_id")
    createdAt = UtcDateTimeField(source="created_at")
    updatedAt = UtcDateTimeField(source="updated_at")
    paidAt = UtcDateTimeField(source="paid_at")
    shippedAt = UtcDateTimeField(source="shipped_at")
    completedAt = UtcDateTimeField(source="completed_at")
    cancelledAt = UtcDateTimeField(source="cancelled_at")

    class Meta:
        model = Order
        fields = ["id", "status", "items", "totalAmount", "address", "designListId", "requestId",
                  "userId", "createdAt", "updatedAt", "paidAt", "shippedAt", "completedAt",
                  "cancelledAt"]


class OrderPageOut(serializers.Serializer):
    list = OrderOut(many=True)
    total = serializers.IntegerField()
    page = serializers.IntegerField()
    pageSize = serializers.IntegerField()
