"""Print PDF endpoints: GET /api/jobs/{id}/files/pdf, GET /api/projects/{id}/render.pdf and
POST /api/exports/pdf."""

from django.http import HttpResponse, JsonResponse
from django.urls import path
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
)
from rest_framework import serializers
from rest_framework.decorators import api_view
from rest_framework.parsers import JSONParser
from rest_framework.views import APIView

from core.errors import TooLarge, Unprocessable
from core.identity import request_identity
from core.serializers import WithInputs
from exports.pdf.images import TRANSPARENCY
from exports.pdf.options import PDF_OPTIONS, pdf_options
from exports.pdf.services import (
    PDF_CONTENT_TYPE,
    PdfFile,
    job_pdf,
    names_preflight,
    names_too_small,
    project_pdf,
    upload_pdf,
)
from exports.services import SVG_TOO_LARGE, request_too_large
from exports.views import JsonBodyAnyAccept, content_disposition
from wordclouds.services.designs import CUSTOM_SVG


class PdfExportRequestSerializer(WithInputs):
    """The upload and its name, with the print options as fields (their schema from
    PDF_OPTIONS)."""

    inputs = PDF_OPTIONS
    svg = serializers.CharField(help_text="the SVG document, at most 25 MB")
    filename = serializers.CharField(
        required=False, help_text="download stem; sanitised, size and standard added"
    )


PDF_RESPONSES = {
    (200, PDF_CONTENT_TYPE): OpenApiResponse(
        OpenApiTypes.BINARY,
        description="the PDF as an attachment named with its size and standard, e.g. "
        "wordcloud-<job_id>-420x297mm-PDFX-1a.pdf",
    ),
    400: OpenApiResponse(description="a bad parameter, named in detail"),
    422: OpenApiResponse(description="the work is over the heavy-request limits"),
    503: OpenApiResponse(description="the print profiles are not installed"),
}


TRANSPARENCY_HEADER = "X-PDF-Transparency"


def pdf_response(exported: PdfFile) -> HttpResponse:
    response = HttpResponse(exported.content, content_type=PDF_CONTENT_TYPE)
    response["Content-Disposition"] = content_disposition(exported.filename)
    response[TRANSPARENCY_HEADER] = exported.transparency
    return response


@extend_schema(
    parameters=PDF_OPTIONS.parameters() + CUSTOM_SVG.parameters(),
    responses={
        **PDF_RESPONSES,
        (200, "application/json"): OpenApiResponse(
            OpenApiTypes.OBJECT,
            description="preflight=1: the names at this size (docs/exports.md, Preflight)",
        ),
        404: OpenApiResponse(description="job not found / artifact not ready"),
        422: OpenApiResponse(
            description="strict=1 and names under min_name_pt, or over the heavy limits"
        ),
    },
    description="The job's poster as a print-ready PDF/X (docs/exports.md, Print PDF). "
    "Any custom.svg parameter draws that custom.svg instead of wordcloud.svg.",
)
@api_view(["GET"])
def job_file_pdf(request, job_id: str):
    query = request.query_params
    options = pdf_options(query)
    if options.preflight or options.strict:
        report = names_preflight(job_id=job_id, query=query)
        if options.preflight:
            return JsonResponse(report)
        problem = names_too_small(report)
        if problem:
            raise Unprocessable(problem, code="names_too_small")
    return pdf_response(job_pdf(job_id=job_id, query=query))


@extend_schema(
    parameters=[
        *PDF_OPTIONS.parameters(),
        OpenApiParameter(
            TRANSPARENCY_HEADER,
            OpenApiTypes.STR,
            OpenApiParameter.HEADER,
            enum=list(TRANSPARENCY),
            response=[200],
            description="how the image stickers' alpha was kept (the most involved of them): "
            "none, mask (1-bit /Mask), soft-mask (/SMask, not in x1a) or flattened (x1a: over "
            "the background colour)",
        ),
    ],
    responses={
        **PDF_RESPONSES,
        (200, PDF_CONTENT_TYPE): OpenApiResponse(
            OpenApiTypes.BINARY,
            description="the PDF as an attachment, e.g. project-<id>-420x297mm-PDFX-1a.pdf",
        ),
        404: OpenApiResponse(description="project not found"),
        422: OpenApiResponse(
            description="a sticker cannot be drawn or uses unsupported content, or the work "
            "is over the heavy-request limits"
        ),
    },
    description="The project's poster as a print-ready PDF/X with the job PDF's options "
    "(docs/exports.md, Print PDF): SVG stickers as vector outlines, image stickers as CMYK "
    "images through their ICC profile.",
)
@api_view(["GET"])
def project_render_pdf(request, project_id: str):
    caller = request_identity(request)
    return pdf_response(
        project_pdf(project_id=project_id, query=request.query_params, caller=caller)
    )


class PdfExportView(APIView):
    content_negotiation_class = JsonBodyAnyAccept
    parser_classes = [JSONParser]

    @extend_schema(
        request=PdfExportRequestSerializer,
        responses={
            **PDF_RESPONSES,
            413: OpenApiResponse(description="`svg exceeds 25 MB`"),
            422: OpenApiResponse(
                description="names the unsupported content found (as the .ai export), or the "
                "work is over the heavy-request limits"
            ),
        },
        description="An uploaded SVG as a print-ready PDF/X, with the options of the job "
        "PDF (as JSON fields); `cut` outlines every filled shape but the background.",
    )
    def post(self, request):
        if request_too_large(int(request.META.get("CONTENT_LENGTH") or 0)):
            raise TooLarge(SVG_TOO_LARGE, code="svg_too_large")
        body = request.data if isinstance(request.data, dict) else {}
        return pdf_response(upload_pdf(body=body))


urlpatterns = [
    path("jobs/<str:job_id>/files/pdf", job_file_pdf, name="job-file-pdf"),
    path("projects/<str:project_id>/render.pdf", project_render_pdf, name="project-render-pdf"),
    path("exports/pdf", PdfExportView.as_view(), name="exports-pdf"),
]
