"""The first rows of a name list, before a job: the studio page shows them to choose the
column (DATA_COL_INDEX) and the header rows (SKIP_ROWS) from."""

from django.urls import path
from drf_spectacular.utils import OpenApiRequest, OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.decorators import api_view, parser_classes
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.response import Response

from core.schema import upload_names
from wordclouds.services.job_inputs import PREVIEW_COLUMNS, PREVIEW_ROWS, name_list_preview


@extend_schema(
    request={
        "multipart/form-data": OpenApiRequest(
            inline_serializer("NameListPreviewRequest", {"name_list": serializers.FileField()}),
            encoding=upload_names(name_list="names.xlsx"),
        )
    },
    responses={
        200: inline_serializer(
            "NameListPreview",
            {
                "rows": serializers.ListField(
                    child=serializers.ListField(child=serializers.CharField()),
                    help_text=f"at most {PREVIEW_ROWS} rows of at most {PREVIEW_COLUMNS} cells, "
                    "cleaned as names are; empty columns at the right left out",
                ),
            },
        ),
        400: OpenApiResponse(
            description="name_list is required / must be xlsx / is not a readable xlsx file"
        ),
        413: OpenApiResponse(description="name_list exceeds 20 MB"),
    },
)
@api_view(["POST"])
@parser_classes([MultiPartParser, FormParser])
def name_list_preview_view(request):
    return Response({"rows": name_list_preview(name_list=request.FILES.get("name_list"))})


urlpatterns = [
    path("name-lists/preview", name_list_preview_view, name="name-list-preview"),
]
