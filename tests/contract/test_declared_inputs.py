"""Each input is declared once (core/inputs.py, wordclouds/engine/params.py): for every field
the served OpenAPI schema, the validator probed at each bound and the docs' table agree on the
name, the type, the bounds and the default, and the committed tables are those the
declarations write (`manage.py docs_tables`)."""

import io
import math
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.core.files.uploadedfile import UploadedFile
from drf_spectacular.generators import SchemaGenerator

from core.errors import InvalidInput, TooLarge
from core.inputs import docs_with_tables
from exports.laser.services import LASER_OPTIONS
from exports.pdf.options import PDF_OPTIONS
from wordclouds.engine import InputError, parse_params
from wordclouds.engine.params import KEYS
from wordclouds.services.custom_svg import CUSTOM_SVG
from wordclouds.services.job_inputs import JOB_FORM

DOCS = Path(__file__).resolve().parents[2] / "docs"
# The operations reading each declaration: their query parameters (or body) carry its fields.
QUERIES = [
    ("/api/jobs/{job_id}/custom.svg", CUSTOM_SVG, "lookup.md"),
    ("/api/jobs/{job_id}/files/pdf", CUSTOM_SVG, "lookup.md"),
    ("/api/jobs/{job_id}/files/pdf", PDF_OPTIONS, "exports.md"),
    ("/api/projects/{project_id}/render.pdf", PDF_OPTIONS, "exports.md"),
    ("/api/jobs/{job_id}/files/dxf", LASER_OPTIONS, "exports.md LASER_OPTIONS"),
    ("/api/jobs/{job_id}/files/laser.svg", LASER_OPTIONS, "exports.md LASER_OPTIONS"),
]


@pytest.fixture(scope="module")
def schema() -> dict:
    return SchemaGenerator().get_schema(request=None, public=True)


def _docs_rows(page: str, first_column: str) -> dict[str, dict[str, str]]:
    """The committed table of `page` whose first column is `first_column`, by that cell
    (`<page> <NAME>`: the first such table after the marker of the declaration NAME)."""
    page, _, name = page.partition(" ")
    lines = (DOCS / page).read_text().splitlines()
    after = next((i for i, line in enumerate(lines) if f".{name} (written" in line), 0)
    start = next(
        i for i, line in enumerate(lines) if i >= after and line.startswith(f"| {first_column} |")
    )
    columns = [cell.strip() for cell in lines[start].strip("|").split("|")]
    rows = {}
    for line in lines[start + 2 :]:
        if not line.startswith("|"):
            break
        cells = [cell.strip() for cell in re.split(r"(?<!\\)\|", line.strip()[1:-1])]
        rows[cells[0]] = dict(zip(columns, cells, strict=True))
    return rows


def _shown(value) -> str:
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, str):
        return f"`{value}`"
    return f"{value:g}"


def _probes(prop: dict) -> tuple[list, list]:
    """Values the schema allows and values it does not, at each bound."""
    if prop["type"] in ("number", "integer"):
        low, high = prop["minimum"], prop["maximum"]
        step = 1 if prop["type"] == "integer" else max(abs(high), 1) * 1e-9
        allowed, refused = [high], [high + step]
        if prop.get("exclusiveMinimum"):
            allowed.append(low + step)
            refused.append(low)
        else:
            allowed.append(low)
            refused.append(low - step)
        return allowed, refused
    if "enum" in prop:
        return list(prop["enum"]), ["not-one-of-them"]
    if prop["type"] == "boolean":
        return [True, False], ["maybe"]
    if prop["type"] == "string" and "pattern" in prop:
        return [], ["\u00a7 no match"]
    return [], []


@pytest.mark.parametrize(
    ("path", "inputs", "page"), QUERIES, ids=[f"{q[0]} {q[2]}" for q in QUERIES]
)
def test_a_query_declaration_the_schema_the_validator_and_the_docs_agree(
    schema, path, inputs, page
):
    operation = schema["paths"][path]["get"]
    served = {p["name"]: p for p in operation["parameters"] if p["in"] == "query"}
    rows = _docs_rows(page, "parameter")
    read = inputs.parse  # what custom_svg_options and pdf_options read with
    defaults = read({})
    for option in inputs.options:
        name = option.name
        prop = served[name]["schema"]
        # the default: what an absent value reads as, the schema's and the docs' default
        default = getattr(defaults, name)
        assert prop.get("default") == default, name
        assert rows[name]["default"] == ("—" if default is None else _shown(default)), name
        # the bounds: the validator takes each bound the schema states and refuses past it
        allowed, refused = _probes(prop)
        for value in allowed:
            assert getattr(read({name: str(value)}), name) in (value, str(value).upper()), name
        for value in refused:
            with pytest.raises(InvalidInput) as caught:
                read({name: str(value)})
            assert f"`{caught.value}`" in rows[name]["error (400)"], name
        if prop["type"] in ("number", "integer"):
            assert f"{prop['minimum']:g}" in rows[name]["accepted"], name
            assert f"{prop['maximum']:g}" in rows[name]["accepted"], name
        if "enum" in prop:
            assert rows[name]["accepted"] == ", ".join(prop["enum"]), name
    assert list(rows) == [option.name for option in inputs.options]


def test_the_upload_pdf_body_has_the_print_options(schema):
    body = schema["components"]["schemas"]["PdfExportRequestRequest"]["properties"]
    query = {
        p["name"]: p["schema"]
        for p in schema["paths"]["/api/jobs/{job_id}/files/pdf"]["get"]["parameters"]
    }
    components = schema["components"]["schemas"]
    for name in PDF_OPTIONS.names:
        described = {key: value for key, value in body[name].items() if key != "description"}
        # drf-spectacular makes a body's enums components of their own
        for part in described.pop("allOf", []):
            enum = components[part["$ref"].rsplit("/", 1)[1]]
            described.update({k: v for k, v in enum.items() if k != "description"})
        assert described == query[name], name


def test_the_job_params_the_schema_the_validator_and_the_docs_agree(schema):
    served = schema["components"]["schemas"]["JobCreateRequest"]["properties"]["params"]
    rows = _docs_rows("api.md", "key")
    defaults = parse_params({})
    assert list(served["properties"]) == list(rows) == [key.name for key in KEYS]
    for key in KEYS:
        prop = served["properties"][key.name]
        default = getattr(defaults, key.attribute)
        expected = list(default) if isinstance(default, tuple) else default
        assert prop.get("default") == expected, key.name
        if default is not None and not isinstance(default, tuple):
            assert rows[key.name]["default"] == _shown(default), key.name
        # IMAGE mode leaves the font sizes unchecked against a canvas not known yet, and the
        # names' column is not the weights' column
        context = {k: v for k, v in {"MODE": "IMAGE", "DATA_COL_INDEX": 1}.items() if k != key.name}
        allowed, refused = _probes(prop)
        for value in allowed:
            parsed = getattr(parse_params({**context, key.name: value}), key.attribute)
            assert parsed == value, key.name
        for value in refused:
            with pytest.raises(InputError) as caught:
                parse_params({**context, key.name: value})
            accepted = rows[key.name]["accepted"].replace("`", "")
            assert str(caught.value) == f"params.{key.name} must be {accepted}", key.name
        if prop["type"] in ("number", "integer"):
            assert math.isfinite(prop["minimum"]) and math.isfinite(prop["maximum"]), key.name


def test_the_committed_docs_tables_are_those_the_declarations_write():
    written = docs_with_tables(DOCS)
    sources = {
        source for text in written.values() for source in re.findall(r"<!-- table: (\S+) ", text)
    }
    assert sources == {
        "wordclouds.engine.params.params_rows",
        "wordclouds.services.custom_svg.CUSTOM_SVG",
        "exports.pdf.options.PDF_OPTIONS",
        "exports.laser.services.LASER_OPTIONS",
        "wordclouds.services.job_inputs.JOB_FORM",
        "core.error_codes.rows",  # docs/api.md's error codes (tests/test_error_codes.py)
        "core.access.rows",  # docs/security.md: who may call what (tests/test_access.py)
    }
    for path, text in written.items():
        assert path.read_text() == text, f"{path.name}: run manage.py docs_tables"


def _upload(name: str, size: int) -> UploadedFile:
    """An upload of that name and size (its bytes are never read by the checks)."""
    return UploadedFile(io.BytesIO(), name=name, size=size)


def test_the_job_form_the_schema_the_checks_and_the_docs_agree(schema):
    served = schema["components"]["schemas"]["JobCreateRequest"]
    rows = _docs_rows("api.md", "field")
    assert list(served["properties"]) == list(rows) == [f.name for f in JOB_FORM.fields]
    assert served["required"] == [name for name, row in rows.items() if row["required"] == "yes"]
    for field in JOB_FORM.fields:
        prop = served["properties"][field.name]
        if not field.extensions:
            continue
        # a file: the docs name each extension and the size limit the check holds to
        assert prop == {"type": "string", "format": "binary", "description": prop["description"]}
        limit = getattr(settings, field.limit)
        assert f"at most {limit // (1024 * 1024)} MB" in rows[field.name]["accepted"]
        for extension in field.extensions:
            assert f"`{extension}`" in rows[field.name]["accepted"]
            field.check(_upload(f"a{extension.upper()}", limit))
        with pytest.raises(InvalidInput) as caught:
            field.check(_upload("a.txt", 1))
        assert str(caught.value) == field.refusal
        with pytest.raises(TooLarge) as caught:
            field.check(_upload(f"a{field.extensions[0]}", limit + 1))
        assert str(caught.value) == f"{field.name} exceeds {limit // (1024 * 1024)} MB"
