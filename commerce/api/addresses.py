"""The caller's own addresses (end-user token); another user's address is 404."""

from django.urls import path
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.response import Response

from commerce.api.serializers import AddressIn, AddressOut
from commerce.auth import request_user
from commerce.inputs import ADDRESS_BODY
from commerce.selectors import address_get, address_list
from commerce.services.catalog import address_create, address_delete, address_update
from core.views import JsonApiView


class AddressListView(JsonApiView):
    @extend_schema(responses={200: AddressOut(many=True)}, tags=["commerce"])
    def get(self, request):
        return Response(AddressOut(address_list(user=request_user(request)), many=True).data)

    @extend_schema(request=AddressIn, responses={201: AddressOut}, tags=["commerce"])
    def post(self, request):
        user = request_user(request)
        address = address_create(user=user, fields=ADDRESS_BODY.parse(request.data))
        return Response(AddressOut(address).data, status=status.HTTP_201_CREATED)


class AddressDetailView(JsonApiView):
    @extend_schema(responses={200: AddressOut}, tags=["commerce"])
    def get(self, request, address_id: int):
        return Response(
            AddressOut(address_get(user=request_user(request), address_id=address_id)).data
        )

    def _update(self, request, address_id: int, *, partial: bool):
        user = request_user(request)
        address_get(user=user, address_id=address_id)  # another's is 404 before its body's 400
        changes = ADDRESS_BODY.parse(request.data, partial=partial)
        return Response(
            AddressOut(address_update(user=user, address_id=address_id, changes=changes)).data
        )

    @extend_schema(request=AddressIn, responses={200: AddressOut}, tags=["commerce"])
    def put(self, request, address_id: int):
        return self._update(request, address_id, partial=False)

    @extend_schema(
        request=AddressIn(partial=True),
        responses={200: AddressOut},
        tags=["commerce"],
    )
    def patch(self, request, address_id: int):
        return self._update(request, address_id, partial=True)

    @extend_schema(responses={204: None}, tags=["commerce"])
    def delete(self, request, address_id: int):
        address_delete(user=request_user(request), address_id=address_id)
        return Response(status=status.HTTP_204_NO_CONTENT)


urlpatterns = [
    path("addresses", AddressListView.as_view(), name="addresses"),
    path("addresses/<int:address_id>", AddressDetailView.as_view(), name="address-detail"),
]
