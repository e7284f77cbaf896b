"""Endpoints on a finished job: occupancy mask, styled SVG, line spacing. The name lookups
(locations, find) are served in front of Django: wordclouds/api/lookup_front.py."""

from django.http import HttpResponse, QueryDict
from django.urls import path
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.decorators import api_view
from rest_framework.response import Response

from core.inputs_schema import query_parameters
from wordclouds.serializers.lookup import LineSpacingRequestSerializer, LineSpacingSummarySerializer
from wordclouds.services.custom_svg import CUSTOM_SVG, custom_svg_options, custom_svg_render
from wordclouds.services.line_spacing import line_spacing_analyze, line_spacing_options
from wordclouds.services.lookup import occupancy_mask_png


@extend_schema(responses={(200, "image/png"): OpenApiTypes.BINARY})
@api_view(["GET"])
def occupancy_mask(request, job_id: str):
    """PNG of the canvas size: black, every placed word's box filled white."""
    return HttpResponse(occupancy_mask_png(job_id=job_id), content_type="image/png")


@extend_schema(
    parameters=query_parameters(CUSTOM_SVG),
    responses={
        (200, "image/svg+xml"): OpenApiTypes.STR,
        400: OpenApiResponse(description="a bad parameter (named), or `pattern too dense`"),
        404: OpenApiResponse(description="job not found / artifact not ready"),
        422: OpenApiResponse(
            description="`custom.svg takes longer than 30 s; ask for less work` "
            "(or more memory than allowed)"
        ),
    },
)
@api_view(["GET"])
def custom_svg(request, job_id: str):
    """The job's words re-drawn in an engraving fill style: real shapes cut to the glyphs,
    no patterns, clip paths, masks or opacity. See docs/lookup.md."""
    options = custom_svg_options(request.query_params)
    return HttpResponse(
        custom_svg_render(job_id=job_id, options=options), content_type="image/svg+xml"
    )


@extend_schema(
    request={
        media: LineSpacingRequestSerializer
        for media in (
            "application/json",
            "application/x-www-form-urlencoded",
            "multipart/form-data",
        )
    },
    responses={
        200: LineSpacingSummarySerializer,
        400: OpenApiResponse(description="a field out of bounds or not a number (named)"),
        404: OpenApiResponse(description="job not found / artifact not ready"),
        422: OpenApiResponse(
            description="`analyze-line-spacing takes longer than 30 s; ask "
            "for less work` (or more memory than allowed)"
        ),
    },
)
@api_view(["POST"])
def analyze_line_spacing(request, job_id: str):
    """How close distinct outlines of the job's SVG come, in px and in mm at a print size."""
    options = line_spacing_options(request.data, form=isinstance(request.data, QueryDict))
    return Response(line_spacing_analyze(job_id=job_id, options=options))


urlpatterns = [
    path("jobs/<str:job_id>/occupancy_mask", occupancy_mask, name="job-occupancy-mask"),
    path("jobs/<str:job_id>/custom.svg", custom_svg, name="job-custom-svg"),
    path(
        "jobs/<str:job_id>/analyze-line-spacing",
        analyze_line_spacing,
        name="job-analyze-line-spacing",
    ),
]
