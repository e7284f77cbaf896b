"""Shapes of the line-spacing endpoint, for the OpenAPI schema (the lookups' are described by
wordclouds/api/lookup_front.py, which serves them)."""

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers


@extend_schema_field({"type": "number", "minimum": 0, "exclusiveMinimum": True, "nullable": True})
class MillimetresField(serializers.FloatField):
    """A size in millimetres: above 0, or null for the default."""


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
