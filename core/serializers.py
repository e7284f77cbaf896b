"""Serializer pieces every app's API shares."""

from datetime import UTC, datetime

from rest_framework import serializers


def iso_utc(moment: datetime) -> str:
    """The API's timestamp form: ISO 8601, UTC, milliseconds, `Z` (`2026-11-22T04:07:00.123Z`)."""
    return moment.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


class UtcDateTimeField(serializers.DateTimeField):
    def to_representation(self, value):
        return None if value is None else iso_utc(value)
