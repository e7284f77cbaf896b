"""The drf-spectacular side of declared inputs (core/inputs.py, which imports no Django):
an `Inputs` read from a query as the operation's query parameters."""

from drf_spectacular.utils import OpenApiParameter

from core.inputs import Inputs

# drf-spectacular writes only `x-` extensions into a parameter: this one marks the parameters
# of an `Inputs` (here, and in the lookups' hand-made schema), which document_empty_values
# turns into OpenAPI's own word.
EMPTY_IS_DEFAULT = "x-empty-is-default"


def query_parameters(inputs: Inputs) -> list[OpenApiParameter]:
    """The inputs as drf-spectacular query parameters."""
    return [
        OpenApiParameter(
            name,
            {key: value for key, value in schema.items() if key != "description"},
            description=schema["description"],
            extensions={EMPTY_IS_DEFAULT: True},
        )
        for name, schema in inputs.schemas().items()
    ]


def document_empty_values(result, generator, request, public):
    """drf-spectacular post-processing hook: a query parameter of an `Inputs` sent empty
    (`?pageSize=`) takes its default, as one left out does (Inputs.parse), so the schema says
    `allowEmptyValue: true` for it."""
    parameters = (
        parameter
        for operations in result.get("paths", {}).values()
        for operation in operations.values()
        if isinstance(operation, dict)
        for parameter in operation.get("parameters", [])
    )
    for parameter in parameters:
        if parameter.pop(EMPTY_IS_DEFAULT, False):
            parameter["allowEmptyValue"] = True
    return result
