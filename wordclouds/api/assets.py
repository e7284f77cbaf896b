"""Assets: uploaded files and imported job artifacts."""

from django.urls import path
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.decorators import api_view, parser_classes
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.response import Response

from core.schema import STORED_FILE_REDIRECT
from wordclouds import storage
from wordclouds.selectors import asset_get, asset_list
from wordclouds.serializers.assets import (
    AssetImportSerializer,
    AssetSerializer,
    AssetUploadSerializer,
)
from wordclouds.services.assets import (
    asset_create,
    asset_delete,
    asset_import_from_job,
)
from wordclouds.services.stored_files import SNIFFED_CONTENT_TYPES

NOT_FOUND = OpenApiResponse(description="asset not found")


@extend_schema(
    methods=["GET"],
    responses=AssetSerializer(many=True),
    parameters=[OpenApiParameter("type", str), OpenApiParameter("job_id", str)],
    description="Newest first; `type` and `job_id` filter together.",
)
@extend_schema(
    methods=["POST"],
    request={"multipart/form-data": AssetUploadSerializer},
    responses={
        201: AssetSerializer,
        400: OpenApiResponse(description="file is required"),
        413: OpenApiResponse(description="file exceeds 50 MB"),
    },
)
@api_view(["GET", "POST"])
@parser_classes([MultiPartParser, FormParser])
def assets(request):
    if request.method == "GET":
        found = asset_list(
            type=request.query_params.get("type", ""),
            job_id=request.query_params.get("job_id", ""),
        )
        return Response(AssetSerializer(found, many=True).data)
    asset = asset_create(
        upload=request.FILES.get("file"),
        name=request.data.get("name", ""),
        type=request.data.get("type", ""),
    )
    return Response(AssetSerializer(asset).data, status=status.HTTP_201_CREATED)


@extend_schema(
    request={
        media: AssetImportSerializer
        for media in ("multipart/form-data", "application/x-www-form-urlencoded")
    },
    responses={
        201: AssetSerializer,
        404: OpenApiResponse(
            description="job not found / unknown artifact kind / artifact not ready"
        ),
    },
)
@api_view(["POST"])
@parser_classes([MultiPartParser, FormParser])
def asset_from_job(request, job_id: str):
    asset = asset_import_from_job(
        job_id=job_id,
        kind=request.data.get("kind", ""),
        name=request.data.get("name", ""),
        type=request.data.get("type", ""),
    )
    return Response(AssetSerializer(asset).data, status=status.HTTP_201_CREATED)


@extend_schema(methods=["GET"], responses={200: AssetSerializer, 404: NOT_FOUND})
@extend_schema(
    methods=["DELETE"],
    responses={
        204: None,
        404: NOT_FOUND,
        409: OpenApiResponse(description="used by projects (named)"),
    },
)
@api_view(["GET", "DELETE"])
def asset_detail(request, asset_id: str):
    if request.method == "DELETE":
        asset_delete(asset_id=asset_id)
        return Response(status=status.HTTP_204_NO_CONTENT)
    return Response(AssetSerializer(asset_get(asset_id)).data)


@extend_schema(
    responses={
        **{
            (200, content_type): OpenApiResponse(
                OpenApiTypes.BINARY, description="the file, as an attachment, in its sniffed type"
            )
            for content_type in SNIFFED_CONTENT_TYPES
        },
        302: STORED_FILE_REDIRECT,
        404: NOT_FOUND,
    }
)
@api_view(["GET"])
def asset_download(request, asset_id: str):
    asset = asset_get(asset_id)
    return storage.download_response(
        asset.file, filename=asset.filename, content_type=asset.content_type
    )


urlpatterns = [
    path("assets", assets, name="assets"),
    path("assets/from-job/<str:job_id>", asset_from_job, name="asset-from-job"),
    path("assets/<str:asset_id>", asset_detail, name="asset-detail"),
    path("assets/<str:asset_id>/download", asset_download, name="asset-download"),
]
