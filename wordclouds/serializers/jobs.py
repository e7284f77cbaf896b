"""Output shapes of the job endpoints (docs/api.md: snake_case, UTC timestamps with `Z`
and milliseconds)."""

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from core.serializers import UtcDateTimeField, WithInputs
from wordclouds.selectors import job_queue_position
from wordclouds.services.job_inputs import JOB_FORM


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
    parent_job_id = serializers.CharField(
        allow_null=True, help_text="the job this one revises; null for a first layout"
    )
    revision = serializers.IntegerField(help_text="0 for a first layout, then 1, 2, …")


class JobReadSerializer(JobStatusSerializer):
    """One job read by its id: its status and, while it waits, its place in the queue."""

    queue_position = serializers.SerializerMethodField()

    @extend_schema_field(
        serializers.IntegerField(
            allow_null=True,
            help_text="while queued, how many queued jobs (anyone's) wait ahead of it; "
            "null otherwise",
        )
    )
    def get_queue_position(self, view) -> int | None:
        return job_queue_position(view)


class JobEventSerializer(serializers.Serializer):
    type = serializers.ChoiceField(choices=["log", "status"])
    stage = serializers.CharField()
    progress_percent = serializers.IntegerField()
    message = serializers.CharField()
    timestamp = UtcDateTimeField()


class RecentEventSerializer(JobEventSerializer):
    id = serializers.IntegerField(source="seq", help_text="the event's SSE id")


class JobDetailSerializer(serializers.Serializer):
    status = JobReadSerializer()
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


class JobCreateSerializer(WithInputs):
    """The multipart form of POST /api/jobs: its schema is JOB_FORM's, the declaration the
    service checks the form with."""

    inputs = JOB_FORM
