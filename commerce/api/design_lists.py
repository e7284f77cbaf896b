"""The caller's design lists (end-user token; the admin token may read every list).
Another user's list is 403."""

from django.urls import path
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.response import Response

from commerce.api.serializers import DesignListIn, DesignListOut
from commerce.auth import Caller, request_caller, request_user
from commerce.inputs import DESIGN_LIST_BODY
from commerce.selectors import design_list_get, design_list_list
from commerce.services.design_lists import (
    design_list_create,
    design_list_delete,
    design_list_submit,
    design_list_update,
)
from core.schema import error
from core.views import JsonApiView


class DesignListListView(JsonApiView):
    @extend_schema(responses={200: DesignListOut(many=True)}, tags=["commerce"])
    def get(self, request):
        return Response(
            DesignListOut(design_list_list(caller=request_caller(request)), many=True).data
        )

    @extend_schema(request=DesignListIn, responses={201: DesignListOut}, tags=["commerce"])
    def post(self, request):
        user = request_user(request)
        fields = DESIGN_LIST_BODY.parse(request.data)
        design_list = design_list_create(
            user=user, name=fields["name"], items=list(fields.get("items", ()))
        )
        return Response(DesignListOut(design_list).data, status=status.HTTP_201_CREATED)


class DesignListDetailView(JsonApiView):
    @extend_schema(responses={200: DesignListOut}, tags=["commerce"])
    def get(self, request, design_list_id: int):
        design_list = design_list_get(caller=request_caller(request), design_list_id=design_list_id)
        return Response(DesignListOut(design_list).data)

    def _update(self, request, design_list_id: int, *, partial: bool):
        user = request_user(request)
        # another's is refused before its body is read
        design_list_get(caller=Caller(user=user), design_list_id=design_list_id)
        changes = DESIGN_LIST_BODY.parse(request.data, partial=partial)
        if "items" in changes:
            changes["items"] = list(changes["items"])
        design_list = design_list_update(user=user, design_list_id=design_list_id, changes=changes)
        return Response(DesignListOut(design_list).data)

    @extend_schema(
        request=DesignListIn,
        responses={200: DesignListOut, 409: error("`... cannot be edited/deleted in status ...`")},
        tags=["commerce"],
    )
    def put(self, request, design_list_id: int):
        return self._update(request, design_list_id, partial=False)

    @extend_schema(
        request=DesignListIn(partial=True),
        responses={200: DesignListOut, 409: error("`... cannot be edited/deleted in status ...`")},
        tags=["commerce"],
    )
    def patch(self, request, design_list_id: int):
        return self._update(request, design_list_id, partial=True)

    @extend_schema(
        responses={204: None, 409: error("`... cannot be edited/deleted in status ...`")},
        tags=["commerce"],
    )
    def delete(self, request, design_list_id: int):
        design_list_delete(user=request_user(request), design_list_id=design_list_id)
        return Response(status=status.HTTP_204_NO_CONTENT)


class DesignListSubmitView(JsonApiView):
    @extend_schema(
        request=None,
        responses={
            200: DesignListOut,
            400: error("`an empty design list cannot be submitted`"),
            409: error(
                "`design list cannot be submitted in status ...`; a job without an approved "
                "proof (docs/proofs.md)"
            ),
        },
        tags=["commerce"],
    )
    def post(self, request, design_list_id: int):
        design_list = design_list_submit(user=request_user(request), design_list_id=design_list_id)
        return Response(DesignListOut(design_list).data)


urlpatterns = [
    path("design-lists", DesignListListView.as_view(), name="design-lists"),
    path(
        "design-lists/<int:design_list_id>",
        DesignListDetailView.as_view(),
        name="design-list-detail",
    ),
    path(
        "design-lists/<int:design_list_id>/submit",
        DesignListSubmitView.as_view(),
        name="design-list-submit",
    ),
]
