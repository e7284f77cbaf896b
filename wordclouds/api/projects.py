"""Projects: poster compositions of stickers on a template, and their renderings."""

from django.http import HttpResponse
from django.urls import path
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.decorators import api_view, parser_classes
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.response import Response

from core.identity import request_identity
from wordclouds.selectors import project_get, project_list
from wordclouds.serializers.assets import (
    ProjectInputSerializer,
    ProjectSerializer,
    ProjectSummarySerializer,
)
from wordclouds.services.projects import (
    UNSET,
    project_create,
    project_delete,
    project_render,
    project_update,
)

NOT_FOUND = OpenApiResponse(description="project not found")
BAD_INPUT = OpenApiResponse(description="bad name, template_id, background_color or stickers")
FIELDS = ("name", "template_id", "background_color", "stickers")
FORMS = ("multipart/form-data", "application/x-www-form-urlencoded")


@extend_schema(methods=["GET"], responses=ProjectSummarySerializer(many=True))
@extend_schema(
    methods=["POST"],
    request={media: ProjectInputSerializer for media in FORMS},
    responses={201: ProjectSerializer, 400: BAD_INPUT},
)
@api_view(["GET", "POST"])
@parser_classes([MultiPartParser, FormParser])
def projects(request):
    caller = request_identity(request)
    if request.method == "GET":
        owned = project_list(owner=None if caller.is_staff else caller.owner_key)
        return Response(ProjectSummarySerializer(owned, many=True).data)
    project = project_create(
        **{field: request.data.get(field) for field in FIELDS}, owner=caller.owner_key
    )
    return Response(ProjectSerializer(project).data, status=status.HTTP_201_CREATED)


@extend_schema(methods=["GET"], responses={200: ProjectSerializer, 404: NOT_FOUND})
@extend_schema(
    methods=["PATCH"],
    request={media: ProjectInputSerializer(partial=True) for media in FORMS},
    responses={200: ProjectSerializer, 400: BAD_INPUT, 404: NOT_FOUND},
    description="Changes only the form fields that are sent.",
)
@extend_schema(methods=["DELETE"], responses={204: None, 404: NOT_FOUND})
@api_view(["GET", "PATCH", "DELETE"])
@parser_classes([MultiPartParser, FormParser])
def project_detail(request, project_id: str):
    caller = request_identity(request)
    project_get(project_id, caller=caller)  # 404 for another customer's
    if request.method == "DELETE":
        project_delete(project_id=project_id)
        return Response(status=status.HTTP_204_NO_CONTENT)
    if request.method == "PATCH":
        sent = {field: request.data.get(field, UNSET) for field in FIELDS}
        project_update(project_id=project_id, **sent)
    return Response(ProjectSerializer(project_get(project_id, caller=caller)).data)


# The SVG poster holds uploaded SVG; cleaned (wordclouds/drawing/sticker_svg.py), and opened on its
# own it may still load nothing but its embedded images and run nothing.
POSTER_CSP = "default-src 'none'; img-src data:; style-src 'unsafe-inline'"


def _poster(project, body: bytes, content_type: str, extension: str) -> HttpResponse:
    response = HttpResponse(body, content_type=content_type)
    response["Content-Disposition"] = f'inline; filename="project-{project.id}.{extension}"'
    response["Content-Security-Policy"] = POSTER_CSP
    return response


CANNOT_DRAW = OpenApiResponse(description="a sticker's asset cannot be drawn")


@extend_schema(
    responses={(200, "image/png"): OpenApiTypes.BINARY, 404: NOT_FOUND, 422: CANNOT_DRAW}
)
@api_view(["GET"])
def project_render_png(request, project_id: str):
    project = project_get(project_id, caller=request_identity(request))
    return _poster(project, project_render(project, "png"), "image/png", "png")


@extend_schema(
    responses={(200, "image/svg+xml"): OpenApiTypes.BINARY, 404: NOT_FOUND, 422: CANNOT_DRAW}
)
@api_view(["GET"])
def project_render_svg(request, project_id: str):
    project = project_get(project_id, caller=request_identity(request))
    return _poster(project, project_render(project, "svg"), "image/svg+xml", "svg")


urlpatterns = [
    path("projects", projects, name="projects"),
    path("projects/<str:project_id>", project_detail, name="project-detail"),
    path("projects/<str:project_id>/render.png", project_render_png, name="project-render-png"),
    path("projects/<str:project_id>/render.svg", project_render_svg, name="project-render-svg"),
]
