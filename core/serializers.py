"""Serializer pieces every app's API shares."""

from datetime import UTC, datetime

from rest_framework import serializers

from core.errors import InvalidInput


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


def valid_input(serializer_class, data, *, partial: bool = False) -> dict:
    """The validated data; 400 with one sentence naming the first problem otherwise
    (`code is required`, `pageSize must be an integer from 1 to 100`)."""
    serializer = serializer_class(data=data, partial=partial)
    if hasattr(data, "getlist"):  # a query string: each parameter at most once
        repeated = [name for name in serializer.fields if len(data.getlist(name)) > 1]
        if repeated:
            raise InvalidInput(f"{repeated[0]} must be given once", code="parameter_repeated")
    if not serializer.is_valid():
        field, messages = next(iter(serializer.errors.items()))
        message = str(messages[0] if isinstance(messages, list) else messages)
        if field != "non_field_errors":
            message = f"{field} {message}" if message[:1].islower() else f"{field}: {message}"
        raise InvalidInput(message, code="invalid_field")
    return dict(serializer.validated_data)
