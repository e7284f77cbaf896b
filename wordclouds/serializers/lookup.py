"""Shapes of the lookup and line-spacing endpoints, for the OpenAPI schema. The services
build these dictionaries themselves (100,000 matches need no per-row pass)."""

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers


@extend_schema_field({"type": "number", "minimum": 0, "exclusiveMinimum": True, "nullable": True})
class MillimetresField(serializers.FloatField):
    """A size in millimetres: above 0, or null for the default."""


class LocationMatchSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    x = serializers.FloatField()
    y = serializers.FloatField()
    font_size = serializers.FloatField()
    color = serializers.CharField(help_text="#RRGGBB")
    orientation = serializers.ChoiceField(choices=["horizontal", "vertical"])
    box_x = serializers.FloatField()
    box_y = serializers.FloatField()
    box_width = serializers.FloatField()
    box_height = serializers.FloatField()
    weight = serializers.FloatField(help_text="the name's weight (1 without a weight column)")


class LocationResultSerializer(serializers.Serializer):
    job_id = serializers.CharField()
    query = serializers.CharField(allow_blank=True)
    mode = serializers.ChoiceField(choices=["exact", "contains"])
    total = serializers.IntegerField()
    canvas_width = serializers.FloatField()
    canvas_height = serializers.FloatField()
    matches = LocationMatchSerializer(many=True)


class LineSpacingRequestSerializer(serializers.Serializer):
    percentile = serializers.FloatField(
        required=False, min_value=0, max_value=100, default=5, allow_null=True
    )
    sampleStep = serializers.FloatField(
        required=False, min_value=0.25, max_value=100, default=2, allow_null=True
    )
    elementWidth = MillimetresField(
        required=False, help_text="millimetres, > 0; default: the SVG width at 96 dpi"
    )
    elementHeight = MillimetresField(
        required=False, help_text="millimetres, > 0; default: the SVG height at 96 dpi"
    )


class LineSpacingSummarySerializer(serializers.Serializer):
    percentile = serializers.FloatField()
    spacingPx = serializers.FloatField()
    spacingMm = serializers.FloatField()
    minSpacingPx = serializers.FloatField()
    minSpacingMm = serializers.FloatField()
    curveCount = serializers.IntegerField()
    segmentCount = serializers.IntegerField()
    sourceWidth = serializers.FloatField()
    sourceHeight = serializers.FloatField()
    elementWidth = serializers.FloatField()
    elementHeight = serializers.FloatField()
