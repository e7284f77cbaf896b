"""Output shapes of the job endpoints (docs/api.md: snake_case, UTC timestamps with `Z`
and milliseconds)."""

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from core.serializers import UtcDateTimeField
from wordclouds.engine.params import params_schema


class JobStatusSerializer(serializers.Serializer):
    job_id = serializers.CharField()
    status = serializers.ChoiceField(choices=["queued", "running", "success", "failed"])
    stage = serializers.CharField()
    progress_percent = serializers.IntegerField()
    message = serializers.CharField()
    created_at = UtcDateTimeField()
    updated_at = UtcDateTimeField()
    artifacts = serializers.DictField(
        child=serializers.CharField(), help_text="artifact kind -> download path"
    )
    error = serializers.CharField(help_text='"" unless failed')


class JobEventSerializer(serializers.Serializer):
    type = serializers.ChoiceField(choices=["log", "status"])
    stage = serializers.CharField()
    progress_percent = serializers.IntegerField()
    message = serializers.CharField()
    timestamp = UtcDateTimeField()


class RecentEventSerializer(JobEventSerializer):
    id = serializers.IntegerField(source="seq", help_text="the event's SSE id")


class JobDetailSerializer(serializers.Serializer):
    status = JobStatusSerializer()
    recent_events = RecentEventSerializer(many=True)


class JobCreatedSerializer(serializers.Serializer):
    job_id = serializers.CharField()


class JobResultSerializer(serializers.Serializer):
    job_id = serializers.CharField()
    status = serializers.CharField()
    image_url = serializers.CharField()
    svg_url = serializers.CharField()
    svg_stroke_url = serializers.CharField()
    db_url = serializers.CharField()
    metrics_url = serializers.CharField()


@extend_schema_field(params_schema())
class ParamsField(serializers.JSONField):
    """The job's `params`: a JSON object, sent as the text of its form field."""


class JobCreateSerializer(serializers.Serializer):
    """The multipart form of POST /api/jobs (documentation; the service checks it)."""

    name_list = serializers.FileField(help_text=".xlsx file with the names")
    mask_image = serializers.FileField(
        required=False, help_text=".png, .jpg or .jpeg; required when params.MODE is IMAGE"
    )
    font_file = serializers.FileField(
        required=False, help_text=".ttf, .ttc or .otf; wins over font_id"
    )
    font_id = serializers.CharField(
        required=False, help_text="an uploaded font's id or __default__"
    )
    params = ParamsField(required=False)


class JobListQuerySerializer(serializers.Serializer):
    status = serializers.ChoiceField(
        choices=["queued", "running", "success", "failed"],
        required=False,
        allow_blank=True,
        help_text="empty: every status",
    )
    limit = serializers.IntegerField(min_value=1, max_value=1000, default=100)
