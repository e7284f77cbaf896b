"""Payments: the owner pays (`pay`) and asks for the result (`payment/sync`); the platform
notifies (`payments/wechat/notify`); staff list payments (`needsAttention=true`: the ones a
person must look at)."""

from django.urls import path
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.response import Response
from rest_framework.views import APIView

from commerce.api.products import NO_TOKEN
from commerce.api.serializers import (
    OrderOut,
    PaymentPageOut,
    PayOut,
)
from commerce.auth import request_user
from commerce.inputs import PAYMENT_QUERY
from commerce.payments.services import notify_receive, payment_start, payment_sync
from commerce.selectors import payment_list
from core.errors import ServiceError, client_error
from core.inputs_schema import query_parameters
from core.schema import error
from core.views import JsonApiView

# A notify is a few kilobytes; anything much larger is not one.
NOTIFY_MAX_BYTES = 64 * 1024


class PayView(JsonApiView):
    @extend_schema(
        request=None,
        responses={
            200: PayOut,
            409: error(
                "`order cannot be paid in status X`, `the pay window of this order has passed`"
            ),
            502: error("the payment platform failed (`payment platform timed out`, ...)"),
        },
        tags=["commerce"],
        summary="Start (or resume) paying a PENDING order with WeChat Pay (owner)",
    )
    def post(self, request, order_id: int):
        attempt, params = payment_start(user=request_user(request), order_id=order_id)
        return Response(PayOut({"outTradeNo": attempt.out_trade_no, "payParams": params}).data)


class PaymentSyncView(JsonApiView):
    @extend_schema(
        request=None,
        responses={200: OrderOut, 502: error("the payment platform failed")},
        tags=["commerce"],
        summary="Ask the platform about the order's payment now and apply it (owner)",
    )
    def post(self, request, order_id: int):
        return Response(OrderOut(payment_sync(user=request_user(request), order_id=order_id)).data)


_NOTIFY_FAIL_SCHEMA = {
    "type": "object",
    "required": ["code", "message"],
    "properties": {"code": {"type": "string", "enum": ["FAIL"]}, "message": {"type": "string"}},
}


def _notify_fail(description: str) -> OpenApiResponse:
    return OpenApiResponse(response=_NOTIFY_FAIL_SCHEMA, description=description)


class NotifyView(APIView):
    """The platform's callback. Its answers are the platform's shape, `{"code", "message"}`,
    not `{"detail"}`: the platform reads them (and retries anything but 2xx)."""

    parser_classes = []

    @extend_schema(
        request={"application/json": {"type": "object"}},
        responses={
            204: None,
            400: _notify_fail("the body or its resource is not a JSON object; unknown event_type"),
            401: _notify_fail(
                "the signature, timestamp, serial or resource does not check out; nothing changed"
            ),
            # Over the service's own body limit the HTTP layer answers `{"detail"}` instead.
            413: OpenApiResponse(
                response={"oneOf": [_NOTIFY_FAIL_SCHEMA, {"$ref": "#/components/schemas/Error"}]},
                description="notify body exceeds 64 KB",
            ),
        },
        tags=["commerce"],
        summary="WeChat Pay notify (signed by the platform, resource encrypted)",
    )
    def post(self, request):
        try:
            body = request.body
            if len(body) > NOTIFY_MAX_BYTES:
                return _fail(413, f"notify body exceeds {NOTIFY_MAX_BYTES // 1024} KB")
            notify_receive(request.headers, body)
        except ServiceError as refused:
            return _fail(refused.status_code, refused.detail)
        except Exception as exc:
            known = client_error(exc)
            if known is None:
                raise  # the database is down: 500, and the platform retries
            return _fail(known.status_code, known.detail)
        return Response(status=status.HTTP_204_NO_CONTENT)


def _fail(code: int, message: str) -> Response:
    return Response({"code": "FAIL", "message": message}, status=code)


class PaymentListView(JsonApiView):
    @extend_schema(
        parameters=query_parameters(PAYMENT_QUERY),
        responses={200: PaymentPageOut, 401: NO_TOKEN},
        tags=["commerce"],
        summary="Payments with their refunds and events, newest first (admin token)",
        operation_id="payments_list",
    )
    def get(self, request):
        query = PAYMENT_QUERY.parse(request.query_params)
        payments = payment_list(needs_attention=query.needs_attention, order_id=query.order_id)
        page, size = query.page, query.page_size
        return Response(
            PaymentPageOut(
                {
                    "list": payments[(page - 1) * size : page * size],
                    "total": payments.count(),
                    "page": page,
                    "pageSize": size,
                }
            ).data
        )


urlpatterns = [
    path("orders/<int:order_id>/pay", PayView.as_view(), name="order-pay"),
    path(
        "orders/<int:order_id>/payment/sync", PaymentSyncView.as_view(), name="order-payment-sync"
    ),
    path("payments/wechat/notify", NotifyView.as_view(), name="payment-notify"),
    path("payments", PaymentListView.as_view(), name="payment-list"),
]
