"""Error codes (docs/api.md, "Error codes"): every raise site of a service error names a code
declared once in core/error_codes.py with the status of the error it raises; every declared
code is listed by the schema for some operation; the handlers' own answers (unknown route,
method, body) carry detail and a listed code. The contract tests check the same for every
error the real service answers (tests/contract/test_schemathesis.py)."""

import ast
import inspect
import json
from pathlib import Path

import httpx
import pytest
from asgiref.sync import async_to_sync
from drf_spectacular.generators import SchemaGenerator
from drf_spectacular.renderers import OpenApiJsonRenderer

from core import errors
from core.error_codes import CODES, GENERIC, REGISTRY, Declared
from core.inputs import declared as declared_object

ROOT = Path(__file__).resolve().parents[1]
ROOMS = ("core", "wordclouds", "commerce", "exports")
# Calls whose `code=` is the code of the error they raise, by the status of that error.
CODED_CALLS = {"_engine_call": 400}
DECLARE = (
    "declare it in core/error_codes.py CODES (status, endpoints, an English detail, a "
    "Chinese sentence), then run `manage.py docs_tables`"
)


def _error_classes() -> dict[str, int]:
    """Every ServiceError subclass of the rooms, by name: its status."""
    statuses = {
        name: cls.status_code
        for name, cls in inspect.getmembers(errors, inspect.isclass)
        if issubclass(cls, errors.ServiceError)
    }
    for path in _sources():
        for node in ast.walk(ast.parse(path.read_bytes())):
            if isinstance(node, ast.ClassDef):
                bases = [b.id for b in node.bases if isinstance(b, ast.Name)]
                parent = next((statuses[b] for b in bases if b in statuses), None)
                if parent is not None and node.name not in statuses:
                    statuses[node.name] = _own_status(node) or parent
    return statuses


def _own_status(node: ast.ClassDef) -> int | None:
    """`status_code = 401` or `= status.HTTP_503_...` in the class's body."""
    for line in node.body:
        if isinstance(line, ast.Assign) and getattr(line.targets[0], "id", "") == "status_code":
            value = line.value
            if isinstance(value, ast.Constant):
                return value.value
            return int(value.attr.split("_")[1])
    return None


def _sources():
    for room in ROOMS:
        for path in sorted((ROOT / room).rglob("*.py")):
            if "migrations" not in path.parts:
                yield path


def _raise_sites():
    """(where, class or call name, status, the `code=` node or None) of every error made."""
    classes = _error_classes()
    named_in_init = set()  # classes whose __init__ passes the code to ServiceError's
    for path in _sources():
        for node in ast.walk(ast.parse(path.read_bytes())):
            if isinstance(node, ast.ClassDef) and node.name in classes.keys() - {"ServiceError"}:
                for call in ast.walk(node):
                    if _is_super_init(call):
                        named_in_init.add(node.name)
                        code = _code(call)
                        where = f"{path.relative_to(ROOT)}:{call.lineno}"
                        yield where, node.name, classes[node.name], code
    for path in _sources():
        for node in ast.walk(ast.parse(path.read_bytes())):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
                continue
            name = node.func.id
            status = classes.get(name, CODED_CALLS.get(name))
            if status is None or name in named_in_init:
                continue
            yield f"{path.relative_to(ROOT)}:{node.lineno}", name, status, _code(node)
        for node in ast.walk(ast.parse(path.read_bytes())):
            if isinstance(node, ast.keyword) and node.arg == "refusal_code":
                yield f"{path.relative_to(ROOT)}:{node.value.lineno}", "refusal", 400, node.value


def _is_super_init(node) -> bool:
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "__init__"
        and isinstance(node.func.value, ast.Call)
        and getattr(node.func.value.func, "id", "") == "super"
    )


def _code(call: ast.Call):
    return next((k.value for k in call.keywords if k.arg == "code"), None)


def test_every_raise_site_names_a_declared_code_of_its_status():
    problems = []
    for where, name, status, code in _raise_sites():
        if code is None:
            problems.append(f"{where}: {name}(...) names no code=; name one and {DECLARE}")
        elif isinstance(code, ast.Constant):
            declared = REGISTRY.get(code.value)
            if declared is None:
                problems.append(f"{where}: code {code.value!r} is not declared; {DECLARE}")
            elif declared.status != status:
                problems.append(
                    f"{where}: code {code.value!r} is declared with status {declared.status}, "
                    f"raised as {name} ({status})"
                )
    assert not problems, "\n".join(problems)


def test_codes_are_snake_case_and_the_generic_ones_declared():
    for entry in CODES:
        assert entry.code.isidentifier() and entry.code == entry.code.lower(), entry.code
        assert entry.chinese and entry.detail, entry.code
    for status, code in GENERIC.items():
        assert REGISTRY[code].status == status


def test_a_declared_inputs_example_is_its_refusal_with_that_code():
    # the example of a code a declared field refuses with is read from the field, which
    # must refuse with that very code (its sentence cannot drift from what the check says)
    declared = [entry for entry in CODES if isinstance(entry.example, Declared)]
    assert len(declared) >= 8
    for entry in declared:
        field = declared_object(entry.example.path)[entry.example.field]
        assert entry.detail in [*field.refusals(), *declared_refusals(entry, field)], entry.code
    with pytest.raises(KeyError):
        Declared("wordclouds.engine.params.PARAMS", "WIDTH").sentence("font_id_unknown")


def declared_refusals(entry, field) -> list[str]:
    """The sentences `field` answers with `entry`'s code beyond its own refusals (an
    upload's size, a form text's JSON), named as its declaration names it."""
    holder = declared_object(entry.example.path)
    return [holder.refused_with(field.name, entry.code)]


@pytest.fixture(scope="module")
def schema() -> dict:
    generated = SchemaGenerator().get_schema(request=None, public=True)
    return json.loads(OpenApiJsonRenderer().render(generated))


def _listed(schema: dict, path: str, method: str, status: int) -> list[str]:
    response = schema["paths"][path][method]["responses"][str(status)]
    body = response["content"]["application/json"]["schema"]
    return body["allOf"][1]["properties"]["code"]["enum"] if "allOf" in body else []


def test_every_declared_code_is_listed_for_some_operation(schema):
    """A code no operation lists has a status or endpoints that do not match its raisers'
    (statuses no operation documents, 405, 500..., are any endpoint's: docs/api.md)."""
    listed, documented = set(), set()
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            for status in operation.get("responses", {}):
                if int(status) >= 400:
                    documented.add(int(status))
                    listed.update(_listed(schema, path, method, int(status)))
    unlisted = {entry.code for entry in CODES if entry.status in documented} - listed
    assert not unlisted, f"codes no operation lists (wrong status or endpoints?): {unlisted}"


# The handlers' own answers: (method, path, its operation in the schema, body, status, detail).
HANDLED = [
    ("GET", "/api/no-such-route", None, None, 404, "not found"),
    ("DELETE", "/api/templates", None, None, 405, 'Method "DELETE" not allowed.'),
    ("POST", "/api/health", None, None, 405, "method POST not allowed"),
    (
        "POST",
        "/api/login",
        "/api/login",
        b"{not json",
        400,
        "JSON parse error - Expecting property name enclosed in double quotes: line 1 column 2 "
        "(char 1)",
    ),
]


# django_db: the ASGI app's request signals close old connections, which touches the
# database once an earlier test in this process used it.
@pytest.mark.django_db
@pytest.mark.parametrize(("method", "path", "documented", "body", "status", "detail"), HANDLED)
def test_the_handlers_answers_carry_a_listed_code(
    schema, method, path, documented, body, status, detail
):
    from config.asgi import application

    async def ask():
        transport = httpx.ASGITransport(app=application)
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as http:
            headers = {"Content-Type": "application/json"} if body else {}
            return await http.request(method, path, content=body, headers=headers)

    response = async_to_sync(ask)()
    assert response.status_code == status
    answer = response.json()
    assert answer["detail"] == detail
    operation = schema["paths"].get(documented, {}).get(method.lower(), {})
    if str(status) in operation.get("responses", {}):
        assert answer["code"] in _listed(schema, documented, method.lower(), status)
    else:
        assert REGISTRY[answer["code"]].status == status and not REGISTRY[answer["code"]].paths
