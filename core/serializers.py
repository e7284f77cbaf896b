"""Serializer pieces every app's API shares."""

from datetime import UTC, datetime

from rest_framework import serializers


def iso_utc(moment: datetime) -> str:
    """The API's timestamp form: ISO 8601, UTC, milliseconds, `Z` (`2026-11-22T04:07:00.123Z`)."""
    return moment.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


class UtcDateTimeField(serializers.DateTimeField):
    def to_representation(self, value):
        return None if value is None else iso_utc(value)


class WithInputs(serializers.Serializer):
    """A request body whose fields are partly declared inputs (core/inputs.py): the
    serializer's own fields, and `inputs`' options, whose schema comes from their declaration
    (core/schema.py, InputsSchema). The view reads the options with `inputs.parse`."""

    inputs = None  # an Inputs, or a declaration with the same schemas() and required_names()
