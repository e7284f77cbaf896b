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
from core.serializers import UtcDateTimeField
from core.throttles import request_client
from wordclouds import storage
from wordclouds.engine.layout import FLOOR_FONT_SIZE
from wordclouds.engine.names import MAX_NAME_LENGTH
from wordclouds.engine.params import COLOR_PATTERN
from wordclouds.selectors import job_get
from wordclouds.serializers.jobs import JobCreatedSerializer
from wordclouds.services.revisions import job_words, proof_key, revision_chain, revision_create


class _Word(serializers.Serializer):
    id = serializers.IntegerField(min_value=1)


class _Rename(_Word):
    name = serializers.CharField(max_length=MAX_NAME_LENGTH)


class _Move(_Word):
    x = serializers.FloatField()
    y = serializers.FloatField()


class _Resize(_Word):
    fontSize = serializers.FloatField(min_value=FLOOR_FONT_SIZE)  # noqa: N815 - the API's name


class _Recolor(_Word):
    color = serializers.RegexField(f"^{COLOR_PATTERN.pattern}$")


class _Shape(serializers.Serializer):
    shape = serializers.ChoiceField(choices=["rect", "ellipse"])
    x = serializers.FloatField(min_value=0)
    y = serializers.FloatField(min_value=0)
    width = serializers.FloatField(min_value=0)
    height = serializers.FloatField(min_value=0)


class RevisionEditsSerializer(serializers.Serializer):
    """The edits of a revision (docs/engine.md, "Revisions": the rules and the bounds)."""

    add = serializers.ListField(
        child=serializers.CharField(max_length=MAX_NAME_LENGTH), required=False
    )
    remove = serializers.ListField(child=serializers.IntegerField(min_value=1), required=False)
    rename = _Rename(many=True, required=False)
    move = _Move(many=True, required=False)
    resize = _Resize(many=True, required=False)
    recolor = _Recolor(many=True, required=False)
    keepOut = _Shape(many=True, required=False)  # noqa: N815 - the API's name
    seed = serializers.IntegerField(min_value=0, required=False)


class RevisionFormSerializer(serializers.Serializer):
    edits = RevisionEditsSerializer(help_text="the edits, as a JSON object's text")
    name_list = serializers.FileField(required=False, help_text=".xlsx whose names are added")


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
        if "edits" not in request.data:
            raise InvalidInput("edits is required", code="edits_invalid")
        edits = request.data["edits"]
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
