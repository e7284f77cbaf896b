"""Schemathesis against the real service, over every operation of the live schema but the
event stream (a stream that stays open; its own tests are in tests/wordclouds): its standard
checks (no server error, documented statuses, content types and bodies, negative data
rejected, positive data accepted, ...) and every error body's code listed for its operation
(the schema's enum, core/error_codes.py), with the tokens each operation declares and real ids
of resources made through the API."""

import json
import os

import httpx
import pytest
import schemathesis
from drf_spectacular.generators import SchemaGenerator
from drf_spectacular.renderers import OpenApiJsonRenderer
from schemathesis.config import SchemathesisConfig
from schemathesis.specs.openapi.checks import positive_data_acceptance

from core.error_codes import REGISTRY
from tests.contract.conftest import SMALL_FONT, World, mask_png_bytes, names_xlsx_bytes
from wordclouds.services.fonts import DEFAULT_FONT_ID

# In the parallel step, on one worker with its service (e2e): each operation's test has a node
# id of its own (`...[GET /api/addresses][staff]`), which pytest-xdist's loadgroup needs.
pytestmark = pytest.mark.e2e

# Heavy requests answer 400 `pattern too dense` or 422 (over the time or memory limit) for
# values the schema allows: how much work they are depends on the job, not on the values.
HEAVY = ["2xx", "400", "404", "422"]
# The same examples on every run, so that a run fails for a change, not for a rare example
# drawn that day (two such finds, U+001D as a name and a query parameter given twice, were
# fixed when they came up). CONTRACT_RANDOM=1 draws new examples, to look for more.
CONFIG = SchemathesisConfig.from_dict(
    {
        "generation": {
            "max-examples": 12,
            "database": "none",
            "deterministic": os.environ.get("CONTRACT_RANDOM") != "1",
        },
        "phases": {"stateful": {"enabled": False}},
        "operations": [
            {
                "include-operation-id": operation,
                "checks": {"positive_data_acceptance": {"expected-statuses": HEAVY}},
            }
            for operation in (
                "jobs_custom.svg_retrieve",
                "jobs_analyze_line_spacing_create",
                "projects_render.png_retrieve",
                "projects_render.svg_retrieve",
                # 400 when the side from the poster's aspect would pass 5000 mm, or rgb
                # asked with x1a: rules across parameters, which a schema cannot state
                "jobs_files_pdf_retrieve",
                "projects_render.pdf_retrieve",
                "exports_pdf_create",
                # the line fill's `pattern too dense`, as custom.svg's
                "jobs_files_dxf_retrieve",
                "jobs_files_laser.svg_retrieve",
                # a revision's ids, spots and sizes must fit the poster it revises (a word
                # that exists, a spot inside its mask): rules of the poster, not the schema
                "jobs_revisions_create",
                # the regions preview needs MASK_TEXT and GROUP_COL_INDEX together, and a
                # list with a group column (the test list has none): a rule across fields
                "jobs_regions_preview_create",
            )
        ]
        + [
            # A job's params (about 60 fields): the coverage phase's positive cases, about 175
            # an operation (each bound of each field), each queue a job (which the worker then
            # draws beside the other tests) or fork the size advice's child: 24 of the 30 s
            # each operation took. tests/contract/test_declared_inputs.py accepts each of those
            # bounds through the same parser; the coverage phase's refusals (negative cases,
            # about 250 an operation) and the fuzzing phase's examples of both kinds stay here.
            {
                "include-operation-id": operation,
                "phases": {"coverage": {"generation": {"mode": "negative"}}},
            }
            for operation in ("jobs_create", "jobs_size_advice_create")
        ]
        + [
            # The admin token's absence on /find is checked in front of Django (401).
            {
                "include-operation-id": "jobs_find_retrieve",
                "checks": {"missing_required_header": {"enabled": False}},
            },
        ]
        + [
            # Form-only bodies whose fields are free text: a form sends every value as text, so a
            # number or a one-item list generated as "not a string" arrives as a valid name.
            {
                "include-operation-id": operation,
                "checks": {"negative_data_rejection": {"enabled": False}},
            }
            for operation in ("assets_create", "assets_from_job_create", "fonts_create")
        ],
    }
)
SVG = (
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">'
    '<path d="M10 10h80v80h-80z" fill="#C0392B"/></svg>'
)


def _schema() -> dict:
    """The schema the service serves at /api/schema/, made by the same generator here: the
    tests are built when pytest collects them, before any service runs."""
    generated = SchemaGenerator().get_schema(request=None, public=True)
    return json.loads(OpenApiJsonRenderer().render(generated))


SCHEMA = _schema()
schema = schemathesis.openapi.from_dict(SCHEMA, config=CONFIG).exclude(
    path="/api/jobs/{job_id}/events"
)


def test_the_schema_tested_is_the_one_served(world: World):
    served = httpx.get(f"{world.url}/api/schema/?format=json", timeout=30).json()
    assert served == SCHEMA


# Path parameter -> the World attribute holding a real id of that kind.
REAL_IDS = {
    "job_id": "job_id",
    "asset_id": "asset_id",
    "font_id": "font_id",
    "project_id": "project_id",
    "product_id": "product_id",
    "address_id": "address_id",
    "design_list_id": "design_list_id",
    "order_id": "order_id",
}


def _token(case, world: World, identity: str) -> str | None:
    """The token `identity` sends: none for anyone; for staff the admin token wherever the
    operation takes it, the end user's where only a customer may call it (addresses, paying:
    staff get 403 there)."""
    names = _token_names(case)
    if identity == "anyone" or not names:
        return None
    return world.admin_token if "adminToken" in names else world.user_token


def _token_names(case) -> set[str]:
    """The tokens the operation's `security` names (none where anyone calls it tokenless)."""
    options = case.operation.definition.raw.get("security") or []
    return {name for option in options for name in option}


def _real(case, world: World) -> None:
    """Make a positive case mean what its schema says: real ids and real files, which a
    schema can only name (an id that exists, bytes that are an .xlsx)."""
    for name in case.path_parameters or {}:
        if name in REAL_IDS:
            case.path_parameters[name] = getattr(world, REAL_IDS[name])
    body = case.body if isinstance(case.body, dict) else None
    if body is None:
        return
    files = {
        "name_list": names_xlsx_bytes,
        "mask_image": mask_png_bytes,
        "font_file": SMALL_FONT.read_bytes,
    }
    for field, make in files.items():
        if field in body:
            body[field] = make()
    if isinstance(body.get("params"), dict):
        _within_the_canvas(body)
    if case.operation.path == "/api/fonts" and "file" in body:
        body["file"] = SMALL_FONT.read_bytes()
    if "font_id" in body:
        body["font_id"] = DEFAULT_FONT_ID  # the bundled font: other cases delete uploads
    if "template_id" in body:
        body["template_id"] = world.template_id
    if "stickers" in body:
        body["stickers"] = json.dumps(
            [{"asset_id": world.asset_id, "x": 0, "y": 0, "width": 50, "height": 50}]
        )
    if "svg" in body:
        body["svg"] = SVG
    if "addressId" in body:
        body["addressId"] = world.address_id
    if "designListId" in body and body["designListId"] is not None:
        body["designListId"] = world.design_list_id
    designs = {"jobId": world.job_id, "projectId": world.project_id, "productId": world.product_id}
    for item in body.get("items") or []:
        for key in designs.keys() & item.keys():
            item[key] = designs[key]
    if case.operation.path == "/api/orders" and body.get("items"):
        body["items"] = body["items"][:1]  # each product once; there is one
    if case.operation.path == "/api/jobs/{job_id}/proofs" and (
        body.get("roles") or body.get("approvals_needed") == 2
    ):
        # one different role label per approval needed: a rule across fields
        body["roles"] = [f"role {k}" for k in range(body.get("approvals_needed") or 1)]


def _within_the_canvas(body: dict) -> None:
    """The params rules a schema cannot state: WIDTH×HEIGHT at most 50 MP, font sizes within
    the canvas's smaller side (at least 48 px with the test mask), a mask for IMAGE, and the
    names where the test file has them (column 0 after one header row), any weight column
    beside them (empty there: every weight 1), no groups (the list has no group column) and
    a text mask the bundled font draws."""
    params = body["params"]
    # Keep-out shapes must lie on the canvas, which depends on the mask: none in the examples.
    params.pop("KEEP_OUT", None)
    if "DATA_COL_INDEX" in params:
        params["DATA_COL_INDEX"] = 0
    if "WEIGHT_COL_INDEX" in params:
        params["WEIGHT_COL_INDEX"] = 1
    if "SKIP_ROWS" in params:
        params["SKIP_ROWS"] = min(params["SKIP_ROWS"], 1)
    if params.get("WIDTH") and params.get("HEIGHT"):
        params["HEIGHT"] = min(params["HEIGHT"], 50_000_000 // params["WIDTH"])
    for key in ("MIN_FONT_SIZE", "MAX_FONT_SIZE"):
        if key in params:
            params[key] = min(params[key], 48)
    if "MIN_FONT_SIZE" in params and "MAX_FONT_SIZE" in params:
        params["MIN_FONT_SIZE"] = min(params["MIN_FONT_SIZE"], params["MAX_FONT_SIZE"])
    if params.get("MODE") == "IMAGE":
        body["mask_image"] = mask_png_bytes()
    # The test list has no group column; a text mask is one the bundled font draws.
    for key in ("GROUP_COL_INDEX", "GROUP_COLORS", "GROUP_REGIONS"):
        params.pop(key, None)
    if params.get("MODE", "TEXT" if "MASK_TEXT" in params else None) == "TEXT":
        params.update(MASK_TEXT="AB", MASK_FONT_ID=DEFAULT_FONT_ID)  # not the uploaded font
    else:
        params.pop("MASK_TEXT", None)
    if "MASK_FONT_ID" in params:
        params["MASK_FONT_ID"] = DEFAULT_FONT_ID


# Every operation is called twice: with staff's token (so every positive case reaches the
# service's work) and with none (so every refusal for want of a token is a documented 4xx);
# once where its security names no token at all, since staff then send none either.
@pytest.mark.parametrize("identity", ["staff", "anyone"])
@schema.parametrize()
def test_every_operation_keeps_its_contract(case, world: World, identity: str):
    if identity == "anyone" and not _token_names(case):
        pytest.skip("open to anyone, and staff's run sends no token either: the same calls")
    if case.meta and case.meta.generation.mode.is_positive:
        _real(case, world)
    token = _token(case, world, identity)
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    # Without a token an operation that needs one refuses even a valid body (401): that it
    # does so with a documented {detail, code} is what the checks below still prove.
    options = case.operation.definition.raw.get("security") or []
    needs_token = identity == "anyone" and options and all(options)
    excluded = [positive_data_acceptance] if needs_token else []
    response = case.call_and_validate(
        base_url=world.url, headers=headers, timeout=60, excluded_checks=excluded
    )
    _error_code_listed(case, response)


def _error_code_listed(case, response) -> None:
    """Every error answer is `{"detail", "code"}` with a code the schema lists for this
    operation and status (docs/api.md, "Error codes"); the schema check above compares it
    with the enum too, this says what to do."""
    if response.status_code < 400:
        return
    body = response.json()
    if "code" in body and "message" in body:
        return  # the payment platform's callback answers in the platform's shape
    assert set(body) == {"detail", "code"}, body
    documented = case.operation.definition.raw["responses"].get(str(response.status_code))
    if documented is None:  # a method the path does not have (405): any endpoint's code
        assert not REGISTRY[body["code"]].paths, body
        assert REGISTRY[body["code"]].status == response.status_code, body
        return
    schema = documented["content"]["application/json"]["schema"]
    listed = schema["allOf"][1]["properties"]["code"]
    assert body["code"] in listed["enum"], (
        f"{case.operation.label} answered {response.status_code} {body}: declare the code for "
        "this endpoint in core/error_codes.py"
    )
