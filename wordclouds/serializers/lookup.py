"""Shapes of the line-spacing endpoint, for the OpenAPI schema (the lookups' are described by
wordclouds/api/lookup_front.py, which serves them); its request's comes from the declaration
the service reads it with (LINE_SPACING, core/inputs.py)."""

from rest_framework import serializers

from core.serializers import WithInputs
from wordclouds.services.line_spacing import LINE_SPACING


class LineSpacingRequestSerializer(WithInputs):
    """The body: its schema is LINE_SPACING's, the declaration the service reads it with."""

    inputs = LINE_SPACING


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
