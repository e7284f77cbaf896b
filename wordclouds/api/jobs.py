"""Job endpoints: create, list, status, delete, detail, result, downloads."""

from django.urls import path
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiRequest, OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.decorators import api_view, parser_classes
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.response import Response

from core.errors import InvalidInput, NotFound
from core.identity import request_identity
from core.inputs_schema import query_parameters
from core.schema import STORED_FILE_REDIRECT, upload_names
from core.throttles import request_client
from wordclouds import storage
from wordclouds.selectors import ARTIFACTS, artifact_key, job_get, job_list, job_recent_events
from wordclouds.serializers.jobs import (
    JobCreatedSerializer,
    JobCreateSerializer,
    JobDetailSerializer,
    JobReadSerializer,
    JobResultSerializer,
    JobStatusSerializer,
)
from wordclouds.services.job_erasure import job_delete
from wordclouds.services.job_inputs import job_uploads
from wordclouds.services.jobs import JOB_LIST_QUERY, job_create
from wordclouds.services.region_preview import regions_preview
from wordclouds.services.size_advice import size_advice

NOT_FOUND = OpenApiResponse(description='{"detail": "job not found"}')
# A job's multipart inputs: creating one, and asking on which sheet its names fit.
JOB_INPUTS = {
    "multipart/form-data": OpenApiRequest(
        JobCreateSerializer,
        encoding={
            "params": {"contentType": "application/json"},
            **upload_names(name_list="names.xlsx", mask_image="mask.png", font_file="font.ttf"),
        },
    )
}


@extend_schema(
    methods=["GET"],
    parameters=query_parameters(JOB_LIST_QUERY),
    responses=JobStatusSerializer(many=True),
    description="A customer's own jobs newest first; staff see every job, and finished job "
    "folders without a record.",
)
@extend_schema(
    methods=["POST"],
    request=JOB_INPUTS,
    responses={
        201: JobCreatedSerializer,
        400: OpenApiResponse(description="a bad input, named in detail"),
        413: OpenApiResponse(description="an upload over its size limit"),
    },
    description="A job made with a customer's token is theirs (docs/security.md).",
)
@api_view(["GET", "POST"])
@parser_classes([MultiPartParser, FormParser])
def jobs(request):
    if request.method == "POST":
        job = job_create(
            **job_uploads(request.data, request.FILES),
            owner=request_identity(request).owner_key,
            client=request_client(request),
        )
        return Response({"job_id": job.id}, status=status.HTTP_201_CREATED)
    query = JOB_LIST_QUERY.parse(request.query_params)
    caller = request_identity(request)
    views = job_list(
        owner=None if caller.is_staff else caller.owner_key,
        status=query.status,
        limit=query.limit,
    )
    return Response(JobStatusSerializer(views, many=True).data)


@extend_schema(methods=["GET"], responses={200: JobReadSerializer, 404: NOT_FOUND})
@extend_schema(
    methods=["DELETE"],
    responses={
        204: None,
        403: OpenApiResponse(description="not the job's owner (a job made without a token: staff)"),
        404: NOT_FOUND,
        409: OpenApiResponse(
            description="the job or a revision is unfinished, or an order needs it"
        ),
    },
    description="Erases the job, its revisions and all their files: its owner or staff.",
)
@api_view(["GET", "DELETE"])
def job_status(request, job_id: str):
    if request.method == "DELETE":
        job_delete(job_id=job_id, caller=request_identity(request))
        return Response(status=status.HTTP_204_NO_CONTENT)
    return Response(JobReadSerializer(job_get(job_id)).data)


@extend_schema(
    responses={200: JobDetailSerializer, 404: NOT_FOUND},
    description="The status and the last 50 events, oldest first.",
)
@api_view(["GET"])
def job_detail(request, job_id: str):
    view = job_get(job_id)
    detail = {"status": view, "recent_events": job_recent_events(view)}
    return Response(JobDetailSerializer(detail).data)


@extend_schema(responses={200: JobResultSerializer, 404: NOT_FOUND})
@api_view(["GET"])
def job_result(request, job_id: str):
    view = job_get(job_id)
    names = {
        "png": "image_url",
        "svg": "svg_url",
        "svg_stroke": "svg_stroke_url",
        "db": "db_url",
        "metrics": "metrics_url",
    }
    result = {"job_id": view.job_id, "status": view.status}
    result |= {field: f"/api/jobs/{view.job_id}/files/{kind}" for kind, field in names.items()}
    return Response(JobResultSerializer(result).data)


@extend_schema(
    parameters=[
        OpenApiParameter("kind", str, OpenApiParameter.PATH, enum=list(ARTIFACTS)),
        OpenApiParameter(
            "inline",
            str,
            enum=["0", "1"],
            default="0",
            description="1: Content-Disposition inline, for a browser to show the PNG or SVG",
        ),
    ],
    responses={
        **{
            (200, content_type): OpenApiResponse(
                OpenApiTypes.OBJECT if content_type == "application/json" else OpenApiTypes.BINARY,
                description="the artifact as an attachment (or inline) wordcloud-<job_id>.<ext>: "
                "png image/png, svg and svg_stroke image/svg+xml, db "
                "application/vnd.sqlite3, metrics application/json",
            )
            for content_type in dict.fromkeys(entry[1] for entry in ARTIFACTS.values())
        },
        302: STORED_FILE_REDIRECT,
        400: OpenApiResponse(description="inline must be 0 or 1"),
        404: OpenApiResponse(
            description="job not found / unknown artifact kind / artifact not ready"
        ),
    },
)
@api_view(["GET"])
def job_file(request, job_id: str, kind: str):
    inline = request.query_params.get("inline", "0")
    if inline not in ("0", "1"):
        raise InvalidInput("inline must be 0 or 1", code="inline_invalid")
    view = job_get(job_id)
    if kind in ARTIFACTS and view.record is not None and kind not in view.artifacts:
        raise NotFound(
            "artifact not ready", code="artifact_not_ready"
        )  # on disk, but the engine may still write it
    key = artifact_key(job_id, kind)
    _, content_type, extension = ARTIFACTS[kind]
    response = storage.download_response(
        key,
        inline=inline == "1",
        filename=f"wordcloud-{job_id}.{extension}",
        content_type=content_type,
    )
    # An SVG shown inline is a document of this origin: it may draw, never run anything.
    response["Content-Security-Policy"] = "default-src 'none'; style-src 'unsafe-inline'"
    return response


class _SheetSerializer(serializers.Serializer):
    name = serializers.CharField()
    width_mm = serializers.FloatField()
    height_mm = serializers.FloatField()
    shop = serializers.BooleanField(help_text="one of the shop's product sizes (else an A size)")


class _PrintedAdviceSerializer(serializers.Serializer):
    width_mm = serializers.FloatField()
    height_mm = serializers.FloatField()
    fits = serializers.BooleanField()
    expected_smallest_name_pt = serializers.FloatField()


class _SheetAdviceSerializer(_SheetSerializer, _PrintedAdviceSerializer):
    pass


class SizeAdviceSerializer(serializers.Serializer):
    smallest = _SheetSerializer(
        allow_null=True, help_text="null: no A size up to 4A0 and no product size fits"
    )
    sizes = _SheetAdviceSerializer(many=True)
    printed = _PrintedAdviceSerializer(
        allow_null=True,
        help_text="the same at PRINT_WIDTH_MM / PRINT_HEIGHT_MM; null without a printed size",
    )


@extend_schema(
    request=JOB_INPUTS,
    responses={
        200: SizeAdviceSerializer,
        400: OpenApiResponse(description="a bad input, named in detail (as for a job)"),
        413: OpenApiResponse(description="an upload over its size limit"),
    },
    description="On which A size every name would fit at MIN_NAME_PT (params, default 6 pt), "
    "without laying out: the same inputs as a job (docs/engine.md, Printed size).",
)
@api_view(["POST"])
@parser_classes([MultiPartParser, FormParser])
def job_size_advice(request):
    advice = size_advice(**job_uploads(request.data, request.FILES))
    return Response(SizeAdviceSerializer(advice).data)


class _LetterSerializer(serializers.Serializer):
    text = serializers.CharField(help_text="the letter's characters (a cluster)")
    contours = serializers.ListField(
        child=serializers.ListField(
            child=serializers.ListField(child=serializers.FloatField(), min_length=2, max_length=2)
        ),
        help_text="closed contours in canvas px, [x, y] points; even-odd (a counter is a hole)",
    )


class _GroupRegionSerializer(serializers.Serializer):
    group = serializers.CharField()
    names = serializers.IntegerField(help_text="the group's names in the list")
    letters = serializers.ListField(
        child=serializers.IntegerField(), help_text="its letters' indexes, in reading order"
    )
    color = serializers.CharField(help_text="#rrggbb, the colour its names will have")


class RegionsPreviewSerializer(serializers.Serializer):
    width = serializers.IntegerField(help_text="the canvas, px")
    height = serializers.IntegerField()
    letters = _LetterSerializer(many=True, help_text="MASK_TEXT's letters in reading order")
    groups = _GroupRegionSerializer(many=True, help_text="the groups in spreadsheet order")


@extend_schema(
    request=JOB_INPUTS,
    responses={
        200: RegionsPreviewSerializer,
        400: OpenApiResponse(description="a bad input, named in detail (as for a job)"),
        413: OpenApiResponse(description="an upload over its size limit"),
    },
    description="Which letters of MASK_TEXT each group of the list will fill, and in which "
    "colour, without laying out: the same inputs as a job, with MASK_TEXT and "
    "GROUP_COL_INDEX (docs/engine.md, Groups). Staff only: the answer names the groups.",
)
@api_view(["POST"])
@parser_classes([MultiPartParser, FormParser])
def job_regions_preview(request):
    preview = regions_preview(**job_uploads(request.data, request.FILES))
    return Response(RegionsPreviewSerializer(preview).data)


urlpatterns = [
    path("jobs", jobs, name="jobs"),
    # before `jobs/<job_id>`, which would take "size-advice" for a job id
    path("jobs/size-advice", job_size_advice, name="job-size-advice"),
    path("jobs/regions-preview", job_regions_preview, name="job-regions-preview"),
    path("jobs/<str:job_id>", job_status, name="job-status"),
    path("jobs/<str:job_id>/detail", job_detail, name="job-detail"),
    path("jobs/<str:job_id>/result", job_result, name="job-result"),
    path("jobs/<str:job_id>/files/<str:kind>", job_file, name="job-file"),
]
