"""Input and output shapes of the commerce API (camelCase keys, money in fen, UTC times
with a `Z` suffix). Inputs reject unknown keys, so a client cannot slip in a user id or an
amount."""

import dataclasses
from collections.abc import Mapping

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from commerce.models import (
    Address,
    DesignList,
    EndUser,
    Order,
    OrderItem,
    Payment,
    PaymentEvent,
    Product,
    Refund,
)
from commerce.selectors import order_payment
from core.inputs import Field, Items, Number, Object, Text, said_alike
from core.serializers import (
    ID_WORDING,
    MAX_ID,
    StrictInput,
    UtcDateTimeField,
    id_field,
)
from exports.production import SIZE_MAX_MM, SIZE_MIN_MM

MAX_QUANTITY = 999
MAX_ORDER_LINES = 100
MAX_DESIGN_ITEMS = 200


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
        fields = [
            "id",
            "openid",
            "unionid",
            "pluginOpenpid",
            "phoneNumber",
            "purePhoneNumber",
            "countryCode",
            "createdAt",
        ]


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


def _size(source: str, help_text: str) -> serializers.FloatField:
    return serializers.FloatField(
        source=source,
        min_value=SIZE_MIN_MM,
        max_value=SIZE_MAX_MM,
        allow_null=True,
        required=False,
        help_text=help_text,
    )


class ProductIn(StrictInput):
    name = serializers.CharField(max_length=100)
    description = serializers.CharField(allow_blank=True, required=False)
    price = serializers.IntegerField(min_value=0, max_value=100_000_000, help_text="fen")
    active = serializers.BooleanField(required=False)
    kind = serializers.ChoiceField(
        choices=Product.Kind.choices, required=False, help_text="print or engrave"
    )
    widthMm = _size("width_mm", "the poster's width in production, mm; null: no files")
    heightMm = _size("height_mm", "its height, mm, when no width is set (it keeps its aspect)")


class ProductOut(serializers.ModelSerializer):
    widthMm = serializers.FloatField(source="width_mm", allow_null=True)
    heightMm = serializers.FloatField(source="height_mm", allow_null=True)

    class Meta:
        model = Product
        fields = ["id", "name", "description", "price", "active", "kind", "widthMm", "heightMm"]


class ProductionFileOut(serializers.Serializer):
    name = serializers.CharField()
    contentType = serializers.CharField()
    size = serializers.IntegerField(help_text="bytes")
    preflight = serializers.DictField(help_text="the file's check (docs/commerce.md)")
    url = serializers.CharField(help_text="a signed download link, valid as long as the token")


class PreparationOut(serializers.Serializer):
    id = serializers.IntegerField()
    productId = serializers.IntegerField(source="product_id")
    design = serializers.DictField(
        help_text="{jobId} with the approval it was ordered by (docs/proofs.md), or "
        "{projectId} with frozenSvg, the store key of its frozen copy"
    )
    kind = serializers.CharField()
    widthMm = serializers.FloatField(source="width_mm", allow_null=True)
    heightMm = serializers.FloatField(source="height_mm", allow_null=True)
    status = serializers.CharField(help_text="PENDING, READY or FAILED")
    error = serializers.CharField(help_text="a failure's sentence")
    files = ProductionFileOut(many=True, source="downloads")
    drawnFrom = serializers.DictField(
        source="drawn_from",
        child=serializers.CharField(),
        help_text="a job's: the SHA-256 of the wordcloud.svg and positions.db drawn from",
    )
    preparedAt = UtcDateTimeField(source="prepared_at", allow_null=True)


class AddressIn(StrictInput):
    recipient = serializers.CharField(max_length=50)
    # Not trimmed: the pattern is the whole rule (a digit at each end), as the schema says.
    phone = serializers.RegexField(
        r"^\+?[0-9][0-9 -]{1,18}[0-9]\Z",
        max_length=20,
        trim_whitespace=False,
        error_messages={"invalid": "must be a phone number"},
    )
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


# The items of a design list and the lines of an order, declared once (core/inputs.py): the
# check in validate() and the schema of the field come from the same declaration.
def _quantity(code: str = "invalid_field") -> Number:
    sentence = f"{{name}} must be an integer from 1 to {MAX_QUANTITY}"
    return Number(
        "quantity",
        "",
        code=code,
        low=1,
        high=MAX_QUANTITY,
        integer=True,
        **said_alike(sentence),
    )


def _design_entry(design: str) -> Object:
    return Object(
        "item",
        "",
        code="invalid_field",
        fields=(
            Text(
                design,
                "",
                code="invalid_field",
                empty="{name} must be a non-empty string",
                not_text="{name} must be a non-empty string",
            ),  # fmt: skip
            _quantity(),
        ),
        refusal="{name} must be an object",
        unknown="{name} has an unknown field: {key}",
        # the design's key is there (DesignItem); only the quantity can be missing
        missing_key=f"{{name}}.{{key}} must be an integer from 1 to {MAX_QUANTITY}",
    )


@dataclasses.dataclass(frozen=True)
class DesignItem(Field):
    """A design list's item: an existing project's or job's id (exactly one), a quantity."""

    refusal: str = "{name} must be an object"
    one_design: str = "{name} needs exactly one of projectId or jobId"

    def parse(self, value, where=None):
        if not isinstance(value, Mapping):
            raise self._refused(self.refusal, where)
        designs = [key for key in DESIGNS if key in value]
        if len(designs) != 1:
            raise self._refused(self.one_design, where)
        return DESIGNS[designs[0]].parse(dict(value), where)

    def schema(self) -> dict:
        return {"oneOf": [entry.schema() for entry in DESIGNS.values()]}

    def accepted(self) -> str:
        return "{projectId or jobId, quantity}"

    def _templates(self):
        return (self.refusal, self.one_design)

    def refusals(self, where=None):
        inner = (s for entry in DESIGNS.values() for s in entry.refusals(where))
        return tuple(dict.fromkeys((*super().refusals(where), *inner)))


DESIGNS = {design: _design_entry(design) for design in ("projectId", "jobId")}
DESIGN_ITEMS = Items(
    "items",
    "designs by an existing projectId or jobId, each with a quantity",
    code="invalid_field",
    item=DesignItem("item", "", code="invalid_field"),
    high=MAX_DESIGN_ITEMS,
    refusal=f"{{name}} must be an array of at most {MAX_DESIGN_ITEMS} items",
)
ORDER_LINES = Items(
    "items",
    "order lines: each existing, active productId once, with a quantity",
    code="invalid_field",
    item=Object(
        "line",
        "",
        code="invalid_field",
        fields=(
            Number(
                "productId",
                "",
                code="invalid_field",
                low=1,
                high=MAX_ID,
                integer=True,
                **said_alike(f"{{name}} {ID_WORDING}"),
            ),
            _quantity(),
        ),
        refusal="{name} must be an object with productId and quantity",
        words="{productId, quantity}",
    ),
    low=1,
    high=MAX_ORDER_LINES,
    refusal="{name} must be a non-empty array",
    too_many=f"{{name}} must hold at most {MAX_ORDER_LINES} lines",
)


@extend_schema_field({**DESIGN_ITEMS.schema(), "description": DESIGN_ITEMS.description})
class DesignItemsField(serializers.JSONField):
    pass


class DesignListIn(StrictInput):
    name = serializers.CharField(max_length=100)
    items = DesignItemsField(required=False)

    # Item errors are raised from validate() so their text reads whole: `items[2].quantity ...`.
    def validate(self, attrs):
        if "items" in attrs:
            attrs["items"] = list(DESIGN_ITEMS.parse(attrs["items"]))
        return attrs


class DesignListOut(serializers.ModelSerializer):
    createdAt = UtcDateTimeField(source="created_at")
    updatedAt = UtcDateTimeField(source="updated_at")
    submittedAt = UtcDateTimeField(source="submitted_at", allow_null=True)
    processingAt = UtcDateTimeField(source="processing_at", allow_null=True)
    doneAt = UtcDateTimeField(source="done_at", allow_null=True)

    class Meta:
        model = DesignList
        fields = [
            "id",
            "name",
            "status",
            "items",
            "createdAt",
            "updatedAt",
            "submittedAt",
            "processingAt",
            "doneAt",
        ]


# ---- orders ------------------------------------------------------------------------------------


@extend_schema_field({**ORDER_LINES.schema(), "description": ORDER_LINES.description})
class OrderLinesField(serializers.JSONField):
    pass


class OrderCreateIn(StrictInput):
    addressId = id_field()
    items = OrderLinesField()
    designListId = id_field(required=False, allow_null=True)
    requestId = serializers.CharField(max_length=64, required=False, allow_null=True)

    def to_internal_value(self, data):
        if isinstance(data, Mapping) and "totalAmount" in data:
            raise serializers.ValidationError(
                {"non_field_errors": ["totalAmount is computed by the server"]}
            )
        return super().to_internal_value(data)

    def validate(self, attrs):
        lines = [
            {"product_id": line["productId"], "quantity": line["quantity"]}
            for line in ORDER_LINES.parse(attrs["items"])
        ]
        if len({line["product_id"] for line in lines}) != len(lines):
            raise serializers.ValidationError("items must name each productId once")
        attrs["items"] = lines
        return attrs


class PageQuery(serializers.Serializer):
    # The upper bound keeps the offset within the database's 64-bit integers.
    page = serializers.IntegerField(
        min_value=1,
        max_value=10**9,
        default=1,
        error_messages={
            "invalid": "must be an integer of at least 1",
            "min_value": "must be an integer of at least 1",
            "max_value": "must be at most 1000000000",
        },
    )
    pageSize = serializers.IntegerField(
        min_value=1,
        max_value=100,
        default=20,
        error_messages={
            key: "must be an integer from 1 to 100" for key in ("invalid", "min_value", "max_value")
        },
    )


def _choices(values, **kwargs) -> serializers.ChoiceField:
    """An optional filter; empty means every value, as when the parameter is absent."""
    return serializers.ChoiceField(
        choices=values,
        required=False,
        allow_blank=True,
        error_messages={"invalid_choice": "must be one of " + ", ".join(values)},
        **kwargs,
    )


class OrderListQuery(PageQuery):
    status = _choices(Order.Status.values)
    paymentStatus = _choices(
        Payment.Status.values, help_text="orders with a payment in this status"
    )
    # The staff page's search box: an order id, or part of a requestId.
    search = serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=64,
        trim_whitespace=True,
        error_messages={"max_length": "must be at most 64 characters"},
    )


class OrderItemOut(serializers.ModelSerializer):
    productId = serializers.IntegerField(source="product_id")
    productName = serializers.CharField(source="product_name")
    unitPrice = serializers.IntegerField(source="unit_price")

    class Meta:
        model = OrderItem
        fields = ["productId", "productName", "unitPrice", "quantity", "subtotal"]


class OrderPaymentOut(serializers.Serializer):
    status = serializers.ChoiceField(choices=Payment.Status.values)
    outTradeNo = serializers.CharField()
    paidAt = UtcDateTimeField(allow_null=True)
    transactionId = serializers.CharField()
    refundStatus = serializers.ChoiceField(choices=Refund.Status.values, allow_null=True)
    refundedAmount = serializers.IntegerField(help_text="fen, refunds that succeeded")


class OrderOut(serializers.ModelSerializer):
    items = OrderItemOut(many=True)
    payment = serializers.SerializerMethodField()
    totalAmount = serializers.IntegerField(source="total_amount")
    designListId = serializers.IntegerField(source="design_list_id", allow_null=True)
    requestId = serializers.CharField(source="request_id", allow_null=True)
    userId = serializers.IntegerField(source="user_id")
    createdAt = UtcDateTimeField(source="created_at")
    updatedAt = UtcDateTimeField(source="updated_at")
    paidAt = UtcDateTimeField(source="paid_at", allow_null=True)
    shippedAt = UtcDateTimeField(source="shipped_at", allow_null=True)
    completedAt = UtcDateTimeField(source="completed_at", allow_null=True)
    cancelledAt = UtcDateTimeField(source="cancelled_at", allow_null=True)

    class Meta:
        model = Order
        fields = [
            "id",
            "status",
            "items",
            "totalAmount",
            "address",
            "designListId",
            "requestId",
            "userId",
            "createdAt",
            "updatedAt",
            "paidAt",
            "shippedAt",
            "completedAt",
            "cancelledAt",
            "payment",
        ]

    @extend_schema_field(OrderPaymentOut(allow_null=True))
    def get_payment(self, order: Order):
        summary = order_payment(order)
        return OrderPaymentOut(summary).data if summary else None


class OrderPageOut(serializers.Serializer):
    list = OrderOut(many=True)
    total = serializers.IntegerField()
    page = serializers.IntegerField()
    pageSize = serializers.IntegerField()


# ---- payments ----------------------------------------------------------------------------------


class PayOut(serializers.Serializer):
    class PayParams(serializers.Serializer):
        timeStamp = serializers.CharField()
        nonceStr = serializers.CharField()
        package = serializers.CharField(help_text="prepay_id=...")
        signType = serializers.ChoiceField(choices=["RSA"])
        paySign = serializers.CharField()

    outTradeNo = serializers.CharField()
    payParams = PayParams(help_text="what wx.requestPayment takes")


class RefundOut(serializers.ModelSerializer):
    outRefundNo = serializers.CharField(source="out_refund_no")
    refundId = serializers.CharField(source="refund_id")
    succeededAt = UtcDateTimeField(source="succeeded_at", allow_null=True)
    createdAt = UtcDateTimeField(source="created_at")

    class Meta:
        model = Refund
        fields = [
            "outRefundNo",
            "amount",
            "reason",
            "status",
            "refundId",
            "succeededAt",
            "createdAt",
        ]


class PaymentEventOut(serializers.ModelSerializer):
    refundId = serializers.IntegerField(source="refund_id", allow_null=True)
    createdAt = UtcDateTimeField(source="created_at")

    class Meta:
        model = PaymentEvent
        fields = ["id", "kind", "applied", "outcome", "payload", "refundId", "createdAt"]


class PaymentOut(serializers.ModelSerializer):
    orderId = serializers.IntegerField(source="order_id", allow_null=True)
    outTradeNo = serializers.CharField(source="out_trade_no")
    transactionId = serializers.CharField(source="transaction_id")
    paidAt = UtcDateTimeField(source="paid_at", allow_null=True)
    expiresAt = UtcDateTimeField(source="expires_at", allow_null=True)
    needsAttention = serializers.BooleanField(source="needs_attention")
    attentionReason = serializers.CharField(source="attention_reason")
    createdAt = UtcDateTimeField(source="created_at")
    refunds = RefundOut(many=True)
    events = PaymentEventOut(many=True)

    class Meta:
        model = Payment
        fields = [
            "id",
            "orderId",
            "kind",
            "status",
            "outTradeNo",
            "amount",
            "transactionId",
            "paidAt",
            "expiresAt",
            "needsAttention",
            "attentionReason",
            "createdAt",
            "refunds",
            "events",
        ]


class PaymentListQuery(PageQuery):
    needsAttention = serializers.BooleanField(required=False, allow_null=True, default=None)
    orderId = serializers.IntegerField(required=False, min_value=1, max_value=2**63 - 1)


class PaymentPageOut(serializers.Serializer):
    list = PaymentOut(many=True)
    total = serializers.IntegerField()
    page = serializers.IntegerField()
    pageSize = serializers.IntegerField()
