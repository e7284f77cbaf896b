"""POST /api/exports/ai: JSON {svg, filename} in, the legacy Illustrator file out."""

from urllib.parse import quote

from django.http import HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.parsers import JSONParser
from rest_framework.views import APIView

from core.errors import TooLarge
from core.negotiation import AnyAccept
from exports.services import (
    AI_CONTENT_TYPE,
    SVG_TOO_LARGE,
    ai_export,
    request_too_large,
)


class JsonBodyAnyAccept(AnyAccept):
    """Any Accept is served (the file is not rendered by DRF); the body is read as JSON
    whatever its content type says."""

    def select_parser(self, request, parsers):
        return parsers[0]


class AiExportView(APIView):
    content_negotiation_class = JsonBodyAnyAccept
    parser_classes = [JSONParser]

    @extend_schema(
        request=inline_serializer(
            "AiExportRequest",
            {
                "svg": serializers.CharField(help_text="the SVG document, at most 25 MB"),
                "filename": serializers.CharField(
                    required=False, help_text="download name; sanitised, `.ai` added when missing"
                ),
            },
        ),
        responses={
            (200, AI_CONTENT_TYPE): OpenApiTypes.BINARY,
            400: OpenApiResponse(description="`svg is required` / `svg is not valid SVG`"),
            413: OpenApiResponse(description="`svg exceeds 25 MB` (never forwarded)"),
            422: OpenApiResponse(description="names the unsupported content found"),
            502: OpenApiResponse(description="`converter unavailable`"),
        },
    )
    def post(self, request):
        if request_too_large(int(request.META.get("CONTENT_LENGTH") or 0)):
            raise TooLarge(SVG_TOO_LARGE, code="svg_too_large")
        body = request.data if isinstance(request.data, dict) else {}
        exported = ai_export(svg=body.get("svg"), filename=body.get("filename"))
        response = HttpResponse(exported.content, content_type=AI_CONTENT_TYPE)
        response["Content-Disposition"] = content_disposition(exported.filename)
        return response


def content_disposition(filename: str) -> str:
    """`attachment; filename="..."`, with an RFC 6266 UTF-8 form when the name is not ASCII."""
    ascii_name = filename.encode("ascii", "replace").decode().replace("?", "_")
    header = f'attachment; filename="{ascii_name}"'
    if ascii_name != filename:
        header += f"; filename*=UTF-8''{quote(filename)}"
    return header
