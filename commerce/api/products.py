"""The catalogue: anyone reads active products; staff (admin token) create and change them
and also see inactive ones in the list."""

from django.urls import path
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.response import Response

from commerce.api.serializers import ProductIn, ProductOut
from commerce.inputs import PRODUCT_BODY
from commerce.selectors import product_get, product_list
from commerce.services.catalog import product_create, product_update
from core.identity import request_identity
from core.schema import error
from core.views import JsonApiView

NO_TOKEN = error("`authentication required` / `invalid or expired token`")


class ProductListView(JsonApiView):
    @extend_schema(
        responses={200: ProductOut(many=True)},
        tags=["commerce"],
        description="Active products; with the admin token, inactive ones too.",
    )
    def get(self, request):
        products = product_list(include_inactive=request_identity(request).is_staff)
        return Response(ProductOut(products, many=True).data)

    @extend_schema(
        request=ProductIn,
        responses={201: ProductOut, 401: NO_TOKEN},
        tags=["commerce"],
    )
    def post(self, request):
        product = product_create(**PRODUCT_BODY.parse(request.data))
        return Response(ProductOut(product).data, status=status.HTTP_201_CREATED)


class ProductDetailView(JsonApiView):
    @extend_schema(responses={200: ProductOut}, tags=["commerce"])
    def get(self, request, product_id: int):
        return Response(ProductOut(product_get(product_id=product_id)).data)

    @extend_schema(
        request=ProductIn(partial=True),
        responses={200: ProductOut, 401: NO_TOKEN},
        tags=["commerce"],
    )
    def patch(self, request, product_id: int):
        changes = PRODUCT_BODY.parse(request.data, partial=True)
        return Response(ProductOut(product_update(product_id=product_id, changes=changes)).data)


urlpatterns = [
    path("products", ProductListView.as_view(), name="products"),
    path("products/<int:product_id>", ProductDetailView.as_view(), name="product-detail"),
]
