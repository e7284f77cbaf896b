"""A paid order's production files, for staff: GET /api/orders/{id}/production (admin token)
lists each design's preparation with its files' signed links and preflight; POST
.../production/{pid}/retry makes a failed one again; GET /api/production-files/{token} is
the signed link's download."""

from django.urls import path
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.response import Response

from commerce.api.products import NO_TOKEN
from commerce.api.serializers import PreparationOut
from commerce.selectors import order_preparations
from commerce.services.production import (
    preparation_downloads,
    preparation_retry,
    production_file_download,
)
from core.schema import error
from core.views import JsonApiView


def _shown(preparation):
    preparation.downloads = preparation_downloads(preparation)
    return PreparationOut(preparation).data


class ProductionView(JsonApiView):
    @extend_schema(
        responses={200: PreparationOut(many=True), 401: NO_TOKEN, 404: error("`order not found`")},
        tags=["commerce"],
        summary="The order's production files, per product and design (admin token)",
    )
    def get(self, request, order_id: int):
        return Response([_shown(p) for p in order_preparations(order_id=order_id)])


class ProductionRetryView(JsonApiView):
    @extend_schema(
        request=None,
        responses={
            200: PreparationOut,
            401: NO_TOKEN,
            404: error("`preparation not found`"),
            409: error("`preparation cannot be retried in status X`"),
        },
        tags=["commerce"],
        summary="FAILED → PENDING: the worker makes the files again (admin token)",
    )
    def post(self, request, order_id: int, preparation_id: int):
        return Response(_shown(preparation_retry(order_id=order_id, preparation_id=preparation_id)))


class ProductionFileView(JsonApiView):
    @extend_schema(
        responses={
            (200, "application/octet-stream"): OpenApiResponse(OpenApiTypes.BINARY),
            404: error("`file not found`"),
        },
        tags=["commerce"],
        summary="A production file by its signed link",
    )
    def get(self, request, token: str):
        return production_file_download(token=token)


urlpatterns = [
    path("orders/<int:order_id>/production", ProductionView.as_view(), name="order-production"),
    path(
        "orders/<int:order_id>/production/<int:preparation_id>/retry",
        ProductionRetryView.as_view(),
        name="order-production-retry",
    ),
    path("production-files/<str:token>", ProductionFileView.as_view(), name="production-file"),
]
