"""Revisions of a finished poster: make one, list a poster's revisions, a proof, the words."""

from django.urls import path
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiRequest, OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.decorators import api_view, parser_classes
from rest_framework.parsers import JSONParser, MultiPartParser
from rest_framework.response import Response

from core.errors import InvalidInput
from core.identity import request_identity
from core.schema import upload_names
from core.serializers import UtcDateTimeField, WithInputs
from core.throttles import request_client
from wordclouds import storage
from wordclouds.engine.revision.edits import EDITS
from wordclouds.selectors import job_get
from wordclouds.serializers.jobs import JobCreatedSerializer
from wordclouds.services.revisions import (
    REVISION_FORM,
    job_words,
    proof_key,
    revision_chain,
    revision_create,
)


class RevisionEditsSerializer(WithInputs):
    """The JSON body: the edits, whose schema is EDITS', the declaration the service reads
    them with (docs/engine.md, "Revisions": the rules and the bounds)."""

    inputs = EDITS


class RevisionFormSerializer(WithInputs):
    """The multipart form: the edits' text and a name list, as REVISION_FORM declares them."""

    inputs = REVISION_FORM


class RevisionSerializer(serializers.Serializer):
    job_id = serializers.CharField()
    parent_job_id = serializers.CharField(allow_null=True)
    revision = serializers.IntegerField()
    status = serializers.CharField()
    created_at = UtcDateTimeField()
    changes = serializers.DictField(child=serializers.IntegerField(), help_text="counts by kind")


class WordSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    x = serializers.FloatField()
    y = serializers.FloatField()
    font_size = serializers.FloatField()
    color = serializers.CharField()
    orientation = serializers.CharField()
    box_x = serializers.IntegerField()
    box_y = serializers.IntegerField()
    box_width = serializers.IntegerField()
    box_height = serializers.IntegerField()
    group = serializers.CharField(
        allow_blank=True, help_text='the name\'s group (GROUP_COL_INDEX); "" without groups'
    )


@extend_schema(
    methods=["POST"],
    request={
        "application/json": RevisionEditsSerializer,
        "multipart/form-data": OpenApiRequest(
            RevisionFormSerializer,
            encoding={
                "edits": {"contentType": "application/json"},
                **upload_names(name_list="names.xlsx"),
            },
        ),
    },
    responses={
        201: JobCreatedSerializer,
        400: OpenApiResponse(description="a bad edit, named in detail"),
        404: OpenApiResponse(description="job not found"),
        409: OpenApiResponse(description="the job is not a finished poster"),
        413: OpenApiResponse(description="the body is over its size limit"),
    },
    description="A revision of a finished poster, by the job's owner or staff: a new job "
    "(docs/engine.md, Revisions).",
)
@extend_schema(
    methods=["GET"],
    responses={
        200: RevisionSerializer(many=True),
        404: OpenApiResponse(description="job not found"),
    },
    description="The first layout the job descends from and all its revisions, oldest first.",
)
@api_view(["GET", "POST"])
@parser_classes([JSONParser, MultiPartParser])
def revisions(request, job_id: str):
    if request.method == "GET":
        return Response(RevisionSerializer(revision_chain(job_id=job_id), many=True).data)
    if request.content_type.startswith("multipart/"):
        edits = REVISION_FORM.read("edits", request.data.get("edits"))
    else:
        edits = request.data
    job = revision_create(
        parent_id=job_id,
        edits=edits,
        caller=request_identity(request),
        name_list=request.FILES.get("name_list"),
        client=request_client(request),
    )
    return Response({"job_id": job.id}, status=status.HTTP_201_CREATED)


@extend_schema(
    parameters=[OpenApiParameter("inline", str, enum=["0", "1"], default="0")],
    responses={
        (200, "image/png"): OpenApiResponse(OpenApiTypes.BINARY, description="the proof"),
        404: OpenApiResponse(description="job not found / artifact not ready"),
    },
    description="A revision's poster with every changed word outlined in red and every "
    "displaced word in blue; a first layout's poster as it is.",
)
@api_view(["GET"])
def proof(request, job_id: str):
    inline = request.query_params.get("inline", "0")
    if inline not in ("0", "1"):
        raise InvalidInput("inline must be 0 or 1", code="inline_invalid")
    return storage.download_response(
        proof_key(job_id=job_id),
        inline=inline == "1",
        filename=f"proof-{job_id}.png",
        content_type="image/png",
    )


@extend_schema(
    responses={200: WordSerializer(many=True), 404: OpenApiResponse(description="not found")},
    description="Every word of a finished poster with its id (the w<id> path of its SVGs).",
)
@api_view(["GET"])
def words(request, job_id: str):
    job_get(job_id)
    return Response(WordSerializer(job_words(job_id=job_id), many=True).data)


urlpatterns = [
    path("jobs/<str:job_id>/revisions", revisions, name="job-revisions"),
    path("jobs/<str:job_id>/proof.png", proof, name="job-proof"),
    path("jobs/<str:job_id>/words", words, name="job-words"),
]
