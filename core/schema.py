"""The OpenAPI schema's shared parts: the `{"detail", "code"}` error body (each operation's
codes listed from core/error_codes.py), the credentials (each operation's `security` comes
from the access table: core.access.document_access), and
a hook that completes every operation's error answers, so each view declares only its own."""

from django.core.validators import ProhibitNullCharactersValidator, RegexValidator
from drf_spectacular.extensions import OpenApiSerializerExtension
from drf_spectacular.openapi import AutoSchema as SpectacularAutoSchema
from drf_spectacular.utils import OpenApiResponse
from rest_framework import serializers

from core.error_codes import codes_for
from core.inputs import NO_NUL, NOT_BLANK, Object
from core.throttles import throttled_operations

# What DRF's ProhibitNullCharactersValidator allows, as an ECMA pattern.
EMPTY_TEXT = {"type": "string", "maxLength": 0}

SECURITY_SCHEMES = {
    "adminToken": {
        "type": "http",
        "scheme": "bearer",
        "description": "Staff: the admin token from POST /api/login (valid 12 hours). "
        "docs/security.md says what each identity may call.",
    },
    "staffSession": {
        "type": "apiKey",
        "in": "cookie",
        "name": "sessionid",
        "description": "Staff: a staff member's session of the Django admin (its sign-in); an "
        "unsafe method needs the CSRF token in X-CSRFToken too. Not in front of Django "
        "(/api/health, events, locations, find).",
    },
    "userToken": {
        "type": "http",
        "scheme": "bearer",
        "description": "A customer: an end user's token from POST /api/auth/login: their jobs, "
        "projects, addresses, design lists, orders and payments.",
    },
}


class ErrorSerializer(serializers.Serializer):
    detail = serializers.CharField(help_text="one sentence naming the problem")
    code = serializers.CharField(help_text="the problem's stable name (docs/api.md)")


def error(description: str) -> OpenApiResponse:
    """An error answer: `{"detail": ..., "code": ...}` with what `detail` says in this case."""
    return OpenApiResponse(ErrorSerializer, description=description)


def upload_names(**names: str) -> dict:
    """Multipart `encoding` entries giving each file field an example file name: the service
    tells a file's type by its name's extension."""
    return {
        field: {
            "headers": {
                "Content-Disposition": {
                    "schema": {
                        "type": "string",
                        "example": f'form-data; name="{field}"; filename="{name}"',
                    }
                }
            }
        }
        for field, name in names.items()
    }


class AutoSchema(SpectacularAutoSchema):
    def get_auth(self):
        """None here: core.access.document_access writes each operation's from the table."""
        return []

    def _map_serializer_field(self, field, direction, bypass_extensions=False):
        """Text inputs say they refuse NUL characters, which DRF's text fields reject with 400
        (a field with a pattern of its own keeps that one)."""
        schema = super()._map_serializer_field(field, direction, bypass_extensions)
        checks = [type(v) for v in field.validators]
        if (
            direction == "request"
            and schema.get("type") == "string"
            and "pattern" not in schema
            and ProhibitNullCharactersValidator in checks
            and not any(issubclass(v, RegexValidator) for v in checks)
        ):
            blank_refused = field.trim_whitespace and not field.allow_blank
            schema["pattern"] = NOT_BLANK if blank_refused else NO_NUL
        return schema

    def _insert_field_validators(self, field, schema):
        super()._insert_field_validators(field, schema)
        alternatives = schema.get("oneOf", [])
        if alternatives[1:] == [EMPTY_TEXT] and alternatives[0].get("pattern") == NO_NUL:
            # drf-spectacular adds "or empty" to a blank-allowed text with a pattern; NO_NUL
            # already takes the empty text, and `oneOf` must match exactly one alternative.
            del schema["oneOf"]
            schema.update(alternatives[0])


class InputsSchema(OpenApiSerializerExtension):
    """A body with declared inputs: its serializer's fields, and the options' schemas from
    their declaration (core/inputs.py)."""

    target_class = "core.serializers.WithInputs"
    match_subclasses = True

    def map_serializer(self, auto_schema, direction):
        schema = auto_schema._map_serializer(self.target, direction, bypass_extensions=True)
        inputs = self.target.inputs
        schema.setdefault("properties", {}).update(inputs.schemas())
        if isinstance(inputs, Object):  # a JSON object of exactly its fields
            schema["additionalProperties"] = False
        if inputs.required_names() and not getattr(self.target, "partial", False):
            schema["required"] = [*schema.get("required", []), *inputs.required_names()]
        if isinstance(inputs, Object):  # a JSON object of exactly its fields
            schema["additionalProperties"] = False
        return schema


ERROR_SCHEMA = {
    "type": "object",
    "required": ["detail", "code"],
    "properties": {
        "detail": {"type": "string", "description": "one sentence naming the problem"},
        "code": {
            "type": "string",
            "description": "the problem's stable name, for a client to show its own text "
            "(docs/api.md lists each with a Chinese sentence)",
        },
    },
}


# The body of an error() answer as drf-spectacular writes it (an answer in another shape, the
# payment platform's callback's, keeps its own).
_ERROR_BODY = {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}


def _error_content(path: str, status: int) -> dict:
    """The Error body with the codes this operation may answer with this status."""
    codes = {"type": "string", "enum": codes_for(path, status)}
    schema = {"allOf": [{"$ref": "#/components/schemas/Error"}, {"properties": {"code": codes}}]}
    return {"application/json": {"schema": schema}}


def _implied_errors(path: str, method: str, operation: dict) -> dict[str, str]:
    """The errors every operation of this shape can answer, whatever its view does."""
    implied = {}
    scope = throttled_operations().get((method, path))
    if scope:
        implied["429"] = f"more {scope} requests from this client than THROTTLE_RATES allows"
    body = "requestBody" in operation
    if body or any(p["in"] == "query" for p in operation.get("parameters", [])):
        implied["400"] = "a bad request: the field or parameter is named in detail"
    if operation.get("security"):
        implied["401"] = "`authentication required` / `invalid or expired token`"
        implied["403"] = "credentials of the wrong kind (docs/security.md)"
    if "{" in path:
        implied["404"] = "not found (named in detail)"
    if body:
        implied["413"] = "`request body exceeds the size limit`, or an upload over its limit"
        implied["415"] = "a content type this operation does not accept"
    return implied


def complete_errors(result, generator, request, public):
    """drf-spectacular post-processing hook: every error status gets the Error body, its
    `code` an enum of the codes core/error_codes.py declares for the path and status; the
    statuses any request of an operation's shape can meet are added; the token schemes are
    declared."""
    components = result.setdefault("components", {})
    components.setdefault("schemas", {})["Error"] = ERROR_SCHEMA
    components["securitySchemes"] = SECURITY_SCHEMES
    for path, operations in result.get("paths", {}).items():
        for method, operation in operations.items():
            if not isinstance(operation, dict) or "responses" not in operation:
                continue
            responses = operation["responses"]
            for status, description in _implied_errors(path, method, operation).items():
                responses.setdefault(status, {"description": description})
            for status, response in responses.items():
                if int(status) >= 400 and response.get("content", _ERROR_BODY) == _ERROR_BODY:
                    response["content"] = _error_content(path, int(status))
            operation["responses"] = dict(sorted(responses.items()))
    return result


# A download kept in object storage answers with a redirect to it (wordclouds/storage.py).
STORED_FILE_REDIRECT = OpenApiResponse(
    description="with object storage (S3_BUCKET set): 302 to a short-lived presigned URL of "
    "the file, which carries the same name and type"
)
