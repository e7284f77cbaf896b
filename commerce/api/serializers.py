"""The shapes of the commerce API (camelCase keys, money in fen, UTC times with a `Z`
suffix): the request bodies' schema components, whose fields are declared in
commerce/inputs.py (unknown keys refused, so a client cannot slip in a user id or an amount),
and the answers."""

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from commerce.inputs import (
    ADDRESS_BODY,
    CODE_BODY,
    DESIGN_LIST_BODY,
    ORDER_BODY,
    PRODUCT_BODY,
)
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
from core.serializers import UtcDateTimeField, WithInputs

# ---- identity platform -------------------------------------------------------------------


class CodeIn(WithInputs):
    """A mini-program code: CODE_BODY (commerce/inputs.py), which the views read."""

    inputs = CODE_BODY


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


class ProductIn(WithInputs):
    """A product: PRODUCT_BODY (commerce/inputs.py), which the views read."""

    inputs = PRODUCT_BODY


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


class AddressIn(WithInputs):
    """An address: ADDRESS_BODY (commerce/inputs.py), which the views read."""

    inputs = ADDRESS_BODY


class AddressOut(serializers.ModelSerializer):
    isDefault = serializers.BooleanField(source="is_default")

    class Meta:
        model = Address
        fields = ["id", "recipient", "phone", "province", "city", "district", "detail", "isDefault"]


# ---- design lists ------------------------------------------------------------------------------


class DesignListIn(WithInputs):
    """A design list: DESIGN_LIST_BODY (commerce/inputs.py), which the views read."""

    inputs = DESIGN_LIST_BODY


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


class OrderCreateIn(WithInputs):
    """An order: ORDER_BODY (commerce/inputs.py), which the view reads with order_read."""

    inputs = ORDER_BODY


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


class PaymentPageOut(serializers.Serializer):
    list = PaymentOut(many=True)
    total = serializers.IntegerField()
    page = serializers.IntegerField()
    pageSize = serializers.IntegerField()
