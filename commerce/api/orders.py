"""Orders. An end user sees and acts on their own orders (another user's is 403); the admin
token sees every order, cancels, marks paid and ships. No token: 401."""

from django.urls import path
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.response import Response

from commerce.api.products import NO_TOKEN
from commerce.api.serializers import (
    OrderCreateIn,
    OrderOut,
    OrderPageOut,
)
from commerce.auth import request_caller, request_user
from commerce.inputs import ORDER_QUERY, order_read
from commerce.selectors import order_get, order_list
from commerce.services.orders import (
    order_cancel,
    order_confirm,
    order_create,
    order_mark_paid,
    order_ship,
)
from core.inputs_schema import query_parameters
from core.schema import error
from core.views import JsonApiView


class OrderListView(JsonApiView):
    @extend_schema(
        parameters=query_parameters(ORDER_QUERY),
        responses={200: OrderPageOut},
        tags=["commerce"],
        summary="Orders, newest first",
        operation_id="orders_list",
    )
    def get(self, request):
        caller = request_caller(request)
        query = ORDER_QUERY.parse(request.query_params)
        orders = order_list(
            caller=caller,
            status=query.status,
            search=query.search or "",
            payment_status=query.payment_status or "",
        )
        page, size = query.page, query.page_size
        return Response(
            OrderPageOut(
                {
                    "list": orders[(page - 1) * size : page * size],
                    "total": orders.count(),
                    "page": page,
                    "pageSize": size,
                }
            ).data
        )

    @extend_schema(
        request=OrderCreateIn,
        responses={
            201: OrderOut,
            200: OrderOut,
            404: error("`address not found`, `design list not found`"),
            409: error("the design list's status; a job of it without an approved proof"),
        },
        tags=["commerce"],
        summary="Create an order (200 with the caller's first order when their requestId repeats)",
    )
    def post(self, request):
        user = request_user(request)
        order, created = order_create(user=user, **order_read(request.data))
        return Response(
            OrderOut(order).data, status=status.HTTP_201_CREATED if created else status.HTTP_200_OK
        )


class OrderDetailView(JsonApiView):
    @extend_schema(responses={200: OrderOut}, tags=["commerce"])
    def get(self, request, order_id: int):
        return Response(OrderOut(order_get(caller=request_caller(request), order_id=order_id)).data)


class OrderConfirmView(JsonApiView):
    @extend_schema(
        request=None,
        responses={200: OrderOut, 409: error("`order cannot be ... in status ...`")},
        tags=["commerce"],
        summary="SHIPPED → COMPLETED (owner)",
    )
    def patch(self, request, order_id: int):
        return Response(OrderOut(order_confirm(user=request_user(request), order_id=order_id)).data)


class OrderCancelView(JsonApiView):
    @extend_schema(
        request=None,
        responses={200: OrderOut, 409: error("`order cannot be ... in status ...`")},
        tags=["commerce"],
        summary="PENDING or PAID → CANCELLED (a paid order is refunded in full)",
    )
    def post(self, request, order_id: int):
        return Response(
            OrderOut(order_cancel(caller=request_caller(request), order_id=order_id)).data
        )


class OrderMarkPaidView(JsonApiView):
    @extend_schema(
        request=None,
        responses={200: OrderOut, 401: NO_TOKEN, 409: error("`order cannot be ... in status ...`")},
        tags=["commerce"],
        summary="PENDING → PAID (admin token)",
    )
    def post(self, request, order_id: int):
        return Response(OrderOut(order_mark_paid(order_id=order_id)).data)


class OrderShipView(JsonApiView):
    @extend_schema(
        request=None,
        responses={200: OrderOut, 401: NO_TOKEN, 409: error("`order cannot be ... in status ...`")},
        tags=["commerce"],
        summary="PAID → SHIPPED (admin token)",
    )
    def post(self, request, order_id: int):
        return Response(OrderOut(order_ship(order_id=order_id)).data)


urlpatterns = [
    path("orders", OrderListView.as_view(), name="order-list"),
    path("orders/<int:order_id>", OrderDetailView.as_view(), name="order-detail"),
    path("orders/<int:order_id>/confirm", OrderConfirmView.as_view(), name="order-confirm"),
    path("orders/<int:order_id>/cancel", OrderCancelView.as_view(), name="order-cancel"),
    path("orders/<int:order_id>/mark-paid", OrderMarkPaidView.as_view(), name="order-mark-paid"),
    path("orders/<int:order_id>/ship", OrderShipView.as_view(), name="order-ship"),
]
