"""Fonts: the bundled default (`__default__`) and uploaded ones."""

from django.urls import path
from drf_spectacular.utils import OpenApiRequest, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.decorators import api_view, parser_classes
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.response import Response

from core.schema import upload_names
from wordclouds.serializers.assets import FontSerializer, FontUploadSerializer
from wordclouds.services.fonts import (
    DEFAULT_FONT_ID,
    font_create,
    font_delete,
    font_entry,
    font_list,
)


@extend_schema(
    methods=["GET"],
    responses=FontSerializer(many=True),
    description=f"The default entry `{DEFAULT_FONT_ID}` (bundled CJK font) first, then uploads.",
)
@extend_schema(
    methods=["POST"],
    request={
        "multipart/form-data": OpenApiRequest(
            FontUploadSerializer, encoding=upload_names(file="font.ttf")
        )
    },
    responses={
        201: FontSerializer,
        400: OpenApiResponse(description="bad extension or not a valid font"),
        413: OpenApiResponse(description="file exceeds 50 MB"),
    },
)
@api_view(["GET", "POST"])
@parser_classes([MultiPartParser, FormParser])
def fonts(request):
    if request.method == "GET":
        return Response(FontSerializer(font_list(), many=True).data)
    font = font_create(upload=request.FILES.get("file"), name=request.data.get("name", ""))
    return Response(FontSerializer(font_entry(font)).data, status=status.HTTP_201_CREATED)


@extend_schema(
    responses={
        204: None,
        400: OpenApiResponse(description="the default font"),
        404: OpenApiResponse(description="font not found"),
        409: OpenApiResponse(description="a queued, running or ordered job uses it (named)"),
    }
)
@api_view(["DELETE"])
def font_detail(request, font_id: str):
    font_delete(font_id=font_id)
    return Response(status=status.HTTP_204_NO_CONTENT)


urlpatterns = [
    path("fonts", fonts, name="fonts"),
    path("fonts/<str:font_id>", font_detail, name="font-detail"),
]
