"""The drf-spectacular side of declared inputs (core/inputs.py, which imports no Django):
an `Inputs` read from a query as the operation's query parameters."""

from drf_spectacular.utils import OpenApiParameter

from core.inputs import Inputs


def query_parameters(inputs: Inputs) -> list[OpenApiParameter]:
    """The inputs as drf-spectacular query parameters."""
    return [
        OpenApiParameter(
            name,
            {key: value for key, value in schema.items() if key != "description"},
            description=schema["description"],
        )
        for name, schema in inputs.schemas().items()
    ]
