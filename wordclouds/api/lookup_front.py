"""GET /api/jobs/{id}/locations and /find, served in front of Django only (core/endpoints.py
says why), so a crowd on a large job's public lookup page costs one hand-off per request, not
a dozen. The answer is `locations_find`'s; its database work (the throttle's count first, when
the cache is the database's) runs on LOOKUP_DB_READERS threads of their own, each keeping its
connection between requests. `document_lookups` describes both
in the OpenAPI schema, which drf-spectacular cannot see here."""

import asyncio
import inspect
from concurrent.futures import ThreadPoolExecutor

from django.conf import settings
from django.http import QueryDict

from core.endpoints import answer
from core.inputs_schema import EMPTY_IS_DEFAULT
from core.throttles import front_throttle
from wordclouds.api.kept_connection import on_kept_connection
from wordclouds.services.lookup import LOOKUP_QUERY, MODES, locations_find

readers = ThreadPoolExecutor(settings.LOOKUP_DB_READERS, thread_name_prefix="lookup")


async def locations(scope, receive, send, job_id: str) -> None:
    """Where names are on the finished cloud."""
    query = QueryDict(scope["query_string"])
    result = await asyncio.get_running_loop().run_in_executor(
        readers,
        on_kept_connection,
        _found,
        scope,
        job_id,
        query.get("name", ""),
        query.get("mode", "exact"),
        query,
    )
    await answer(send, 200, result)


async def find(scope, receive, send, job_id: str) -> None:
    """The same as locations, for the staff lookup page: the access table (config/access.py)
    lets only the admin token in, checked before the job is looked up (core/endpoints.py)."""
    await locations(scope, receive, send, job_id)


def _found(scope: dict, job_id: str, name: str, mode: str, query: QueryDict) -> dict:
    """The lookup's answer, the request counted first (its throttle scope, config/urls.py)."""
    front_throttle(scope)
    declared = LOOKUP_QUERY.parse(query)
    return locations_find(job_id=job_id, name=name, mode=mode, group=declared.group)


def document_lookups(result, generator, request, public):
    """drf-spectacular post-processing hook: adds these endpoints and the shape of their
    answer to the OpenAPI schema (core.schema.complete_errors, after it, gives each error
    the `{"detail"}` body)."""
    number = {"type": "number", "format": "double"}
    match = {
        "id": {"type": "integer"},
        "name": {"type": "string"},
        "x": number,
        "y": number,
        "font_size": number,
        "color": {"type": "string", "description": "#RRGGBB"},
        "orientation": {"$ref": "#/components/schemas/OrientationEnum"},
        "box_x": number,
        "box_y": number,
        "box_width": number,
        "box_height": number,
        "weight": {**number, "description": "the name's weight (1 without a weight column)"},
        "group": {
            "type": "string",
            "nullable": True,
            "description": "the name's group (GROUP_COL_INDEX); null in a job without groups",
        },
    }
    answer = {
        "job_id": {"type": "string"},
        "query": {"type": "string"},
        "mode": {"$ref": "#/components/schemas/ModeEnum"},
        "group": {
            "type": "string",
            "nullable": True,
            "description": "the group parameter; null when none was given",
        },
        "groups": {
            "type": "array",
            "items": {"type": "string"},
            "description": "the job's groups in spreadsheet order; [] without groups",
        },
        "total": {"type": "integer"},
        "canvas_width": number,
        "canvas_height": number,
        "matches": {"type": "array", "items": {"$ref": "#/components/schemas/LocationMatch"}},
    }
    result.setdefault("components", {}).setdefault("schemas", {}).update(
        {
            "LocationMatch": _object(match),
            "LocationResult": _object(answer),
            "ModeEnum": _enum(MODES),
            "OrientationEnum": _enum(("horizontal", "vertical")),
        }
    )
    paths = result.setdefault("paths", {})
    for endpoint in (locations, find):  # their `security`: core.access.document_access
        operation = {
            "operationId": f"jobs_{endpoint.__name__}_retrieve",
            "description": inspect.cleandoc(endpoint.__doc__),
            "parameters": LOOKUP_PARAMETERS,
            "tags": ["jobs"],
            "responses": {
                "200": {
                    "content": {
                        "application/json": {
                            "schema": {"$ref": "#/components/schemas/LocationResult"}
                        }
                    },
                    "description": "",
                },
                "400": {"description": "mode must be exact or contains"},
                "404": {
                    "description": 'job not found / artifact not ready / group "X" is not a '
                    "group of this poster"
                },
            },
        }
        paths[f"/api/jobs/{{job_id}}/{endpoint.__name__}"] = {"get": operation}
    return result


LOOKUP_PARAMETERS = [
    {"in": "path", "name": "job_id", "schema": {"type": "string"}, "required": True},
    {
        "in": "query",
        "name": "mode",
        "schema": {"type": "string", "enum": sorted(MODES), "default": "exact"},
        "description": "exact: the whole name (both trimmed, NFC); contains: case-insensitive "
        "substring, with % _ \\ as plain characters",
    },
    {
        "in": "query",
        "name": "name",
        "schema": {"type": "string"},
        "description": "empty: every placement",
    },
    *(
        {
            "in": "query",
            "name": name,
            "schema": schema,
            "description": schema["description"],
            EMPTY_IS_DEFAULT: True,
        }
        for name, schema in LOOKUP_QUERY.schemas().items()
    ),
]


def _object(properties: dict) -> dict:
    return {"type": "object", "properties": properties, "required": sorted(properties)}


def _enum(values) -> dict:
    """An enum component as drf-spectacular writes a serializer's choices."""
    return {
        "enum": list(values),
        "type": "string",
        "description": "\n".join(f"* `{value}` - {value}" for value in values),
    }
