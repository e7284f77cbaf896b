"""Laser file endpoints: GET /api/jobs/{id}/files/dxf and /api/jobs/{id}/files/laser.svg."""

from django.http import HttpResponse
from django.urls import path
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.decorators import api_view

from core.inputs_schema import query_parameters
from exports.laser.services import KINDS, LASER_OPTIONS, LINE_OPTIONS, LaserFile, job_laser
from exports.views import content_disposition
from wordclouds.services.designs import CUSTOM_SVG

# The minimum-detail check, and the piece's size, in the response headers.
HEADERS = {
    "X-Laser-Names": ("names", "names drawn"),
    "X-Laser-Thin-Names": ("thin_names", "names whose mean stroke is thinner than the beam"),
    "X-Laser-Beam-Mm": ("beam_mm", "the beam width checked against, mm"),
    "X-Laser-Size-Mm": (None, "the piece's width x height, mm"),
}


def laser_response(exported: LaserFile) -> HttpResponse:
    response = HttpResponse(exported.content, content_type=exported.content_type)
    response["Content-Disposition"] = content_disposition(exported.filename)
    for header, (field, _) in HEADERS.items():
        response[header] = (
            f"{getattr(exported, field):g}"
            if field
            else f"{exported.width_mm:.3f}x{exported.height_mm:.3f}"
        )
    return response


def _schema(kind: str, description: str):
    return extend_schema(
        parameters=[
            *query_parameters(LASER_OPTIONS),
            *(p for p in query_parameters(CUSTOM_SVG) if p.name in LINE_OPTIONS),
            *(
                OpenApiParameter(
                    header,
                    OpenApiTypes.STR,
                    OpenApiParameter.HEADER,
                    response=[200],
                    description=text,
                )
                for header, (_, text) in HEADERS.items()
            ),
        ],
        responses={
            (200, KINDS[kind][0]): OpenApiResponse(
                OpenApiTypes.BINARY,
                description=f"the file as an attachment, e.g. "
                f"wordcloud-<job_id>-420x297mm.{KINDS[kind][1]}",
            ),
            400: OpenApiResponse(description="a bad parameter, named in detail, with a code"),
            404: OpenApiResponse(description="job not found / artifact not ready"),
            422: OpenApiResponse(description="the work is over the heavy-request limits"),
        },
        description=description,
    )


@_schema(
    "dxf",
    "The job's names as closed LWPOLYLINE outlines on layer ENGRAVE and the cut outline on "
    "layer CUT (red), R2010 DXF in millimetres at the asked width (docs/exports.md, Laser "
    "files). custom.svg's fill=line draws the line fill's strips instead of the glyphs.",
)
@api_view(["GET"])
def job_file_dxf(request, job_id: str):
    return laser_response(job_laser(job_id=job_id, kinds=("dxf",), query=request.query_params)[0])


@_schema(
    "laser.svg",
    "The job's names as black filled paths (or hairlines) and the cut outline as a red "
    "hairline, in an SVG whose width and height are in millimetres (docs/exports.md, Laser "
    "files).",
)
@api_view(["GET"])
def job_file_laser_svg(request, job_id: str):
    return laser_response(
        job_laser(job_id=job_id, kinds=("laser.svg",), query=request.query_params)[0]
    )


urlpatterns = [
    path("jobs/<str:job_id>/files/dxf", job_file_dxf, name="job-file-dxf"),
    path("jobs/<str:job_id>/files/laser.svg", job_file_laser_svg, name="job-file-laser-svg"),
]
