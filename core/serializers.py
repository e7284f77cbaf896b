"""Serializer pieces every app's API shares."""

from collections.abc import Mapping
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


# Ids are the database's signed 64-bit integers: a larger one names no record, and is refused
# naming its field before it reaches the database (which would overflow).
MAX_ID = 2**63 - 1
ID_WORDING = "must be an integer from 1 to 2^63-1"


def id_field(**kwargs) -> serializers.IntegerField:
    """An input id: an integer from 1 to MAX_ID, every error in one sentence."""
    return serializers.IntegerField(
        min_value=1,
        max_value=MAX_ID,
        error_messages={key: ID_WORDING for key in ("invalid", "min_value", "max_value")},
        **kwargs,
    )


class StrictInput(serializers.Serializer):
    """An input whose unknown keys are an error (`unknown field: X`), not silently ignored."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for field in self.fields.values():
            field.error_messages.update(
                required="is required", null="is required", blank="must not be empty"
            )

    def to_internal_value(self, data):
        if isinstance(data, Mapping):
            unknown = sorted(set(data) - set(self.fields))
            if unknown:
                raise serializers.ValidationError(
                    {"non_field_errors": [f"unknown field: {unknown[0]}"]}
                )
            for name, field in self.fields.items():
                wrong = _json_type_error(field, data.get(name))
                if wrong:
                    raise serializers.ValidationError({name: [wrong]})
        return super().to_internal_value(data)


def _json_type_error(field, value) -> str:
    """What is wrong with a JSON value's type for `field` ('' when nothing): DRF itself would
    take 0 for false and 12 for "12", which the schema does not allow."""
    if value is None:
        return ""
    if isinstance(field, serializers.BooleanField) and not isinstance(value, bool):
        return "must be true or false"
    if isinstance(field, serializers.CharField) and not isinstance(value, str):
        return "must be a string"
    if isinstance(field, serializers.CharField) and field.max_length is not None:
        # as sent, not after DRF trims white space: the schema's maxLength counts it all
        if len(value) > field.max_length:
            return field.error_messages["max_length"].format(max_length=field.max_length)
    if isinstance(field, serializers.IntegerField) and not is_json_integer(value):
        return "must be an integer"
    return ""


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


def is_json_integer(value) -> bool:
    """A JSON integer: an int that is not a bool (Python's True is 1)."""
    return isinstance(value, int) and not isinstance(value, bool)
