"""Every input is declared once (core/inputs.py). For every declared field, the three things
made from its declaration agree: the OpenAPI schema the service serves, the parser the
service reads it with (probed at each bound the served schema states, and just past it) and
the committed docs table (`manage.py docs_tables`) — name, type, bounds, default and the
sentences of its refusals. The probes come from the served schema, so editing any one of the
three alone fails here."""

import io
import json
import re
from pathlib import Path

import pytest
from django.core.files.uploadedfile import UploadedFile
from drf_spectacular.generators import SchemaGenerator

from commerce.inputs import (
    ADDRESS_BODY,
    CODE_BODY,
    DESIGN_LIST_BODY,
    ORDER_BODY,
    ORDER_QUERY,
    PAYMENT_QUERY,
    PRODUCT_BODY,
)
from commerce.services.proofs import PROOF_COMMENT, PROOF_DECISION, PROOF_SEND
from core.inputs import (
    MB,
    NOT_BLANK,
    Form,
    Inputs,
    JsonText,
    Nullable,
    Object,
    Refused,
    Upload,
    docs_with_tables,
    number_shown,
)
from exports.laser.services import LASER_OPTIONS
from exports.pdf.options import PDF_OPTIONS
from wordclouds.engine import InputError, parse_params
from wordclouds.engine.params import PARAMS
from wordclouds.engine.revision.edits import EDITS
from wordclouds.services.assets import ASSET_FORM, ASSET_IMPORT_FORM
from wordclouds.services.custom_svg import CUSTOM_SVG
from wordclouds.services.fonts import FONT_FORM
from wordclouds.services.job_inputs import JOB_FORM
from wordclouds.services.jobs import JOB_LIST_QUERY
from wordclouds.services.line_spacing import LINE_SPACING
from wordclouds.services.lookup import LOOKUP_QUERY
from wordclouds.services.projects import PROJECT_FORM

DOCS = Path(__file__).resolve().parents[2] / "docs"


@pytest.fixture(scope="module")
def schema() -> dict:
    return SchemaGenerator().get_schema(request=None, public=True)


def _query(path: str):
    """The query parameters an operation serves, by name."""

    def served(schema: dict) -> dict[str, dict]:
        parameters = schema["paths"][path]["get"]["parameters"]
        return {p["name"]: p["schema"] for p in parameters if p["in"] == "query"}

    return served


def _body(component: str, inside: str = ""):
    """The properties of a request body's component (of its property `inside`, when given)."""

    def served(schema: dict) -> dict[str, dict]:
        body = schema["components"]["schemas"][component]
        body = body["properties"][inside] if inside else body
        return {name: _resolved(schema, prop) for name, prop in body["properties"].items()}

    return served


def _resolved(schema: dict, prop: dict) -> dict:
    """drf-spectacular makes a body's enums components of their own: put them back."""
    prop = dict(prop)
    for part in prop.pop("allOf", []):
        enum = schema["components"]["schemas"][part["$ref"].rsplit("/", 1)[1]]
        prop.update({k: v for k, v in enum.items() if k != "description"})
    return prop


# (declaration, what the service serves of it, how the service reads one value, its table)
def QUERY(inputs: Inputs):  # noqa: N802
    return lambda field, value: _value(inputs, field, inputs.parse({field.name: _text(value)}))


def BODY(inputs: Inputs):  # noqa: N802
    return lambda field, value: _value(inputs, field, inputs.parse({field.name: value}))


def FORM_TEXT(inputs: Inputs):  # noqa: N802
    """A JSON body's declaration read from a form's texts instead (analyze-line-spacing)."""
    parse = inputs.parse
    return lambda field, value: _value(inputs, field, parse({field.name: _text(value)}, text=True))


def FORM(form: Form):  # noqa: N802
    """A form's field read from its text (a JSON field's: the value as JSON)."""

    def read(field, value):
        text = json.dumps(value) if isinstance(field, JsonText) and value is not None else value
        return form.read(field.name, text)

    return read


def OBJECT(declaration: Object):  # noqa: N802
    """A JSON body's field, read with the body's other fields absent."""
    return lambda field, value: declaration.parse({field.name: value})[field.name]


def WITH(declaration: Object, **others):  # noqa: N802
    """A JSON body's field, read with the body's other required fields valid."""
    return lambda field, value: declaration.parse({**others, field.name: value})[field.name]


def SENT(body: Object):  # noqa: N802
    """A request body's field, sent alone (as a PATCH may send it)."""
    return lambda field, value: body.parse({field.name: value}, partial=True)[
        field.attribute or field.name
    ]


def _params(field, value):
    # IMAGE mode leaves the font sizes unchecked against a canvas not known yet, and the
    # names' column is not the weights' column
    name = field.name
    context = {k: v for k, v in {"MODE": "IMAGE", "DATA_COL_INDEX": 1}.items() if k != name}
    return _value(PARAMS, field, parse_params({**context, name: value}))


def _value(inputs: Inputs, field, values):
    return getattr(values, inputs.attribute(field))


DECLARATIONS = [
    (CUSTOM_SVG, _query("/api/jobs/{job_id}/custom.svg"), QUERY(CUSTOM_SVG), "lookup.md"),
    (CUSTOM_SVG, _query("/api/jobs/{job_id}/files/pdf"), QUERY(CUSTOM_SVG), "lookup.md"),
    (LOOKUP_QUERY, _query("/api/jobs/{job_id}/locations"), QUERY(LOOKUP_QUERY), "lookup.md"),
    (LOOKUP_QUERY, _query("/api/jobs/{job_id}/find"), QUERY(LOOKUP_QUERY), "lookup.md"),
    (PDF_OPTIONS, _query("/api/jobs/{job_id}/files/pdf"), QUERY(PDF_OPTIONS), "exports.md"),
    (
        PDF_OPTIONS,
        _query("/api/projects/{project_id}/render.pdf"),
        QUERY(PDF_OPTIONS),
        "exports.md",
    ),
    (PDF_OPTIONS, _body("PdfExportRequestRequest"), BODY(PDF_OPTIONS), "exports.md"),
    (LASER_OPTIONS, _query("/api/jobs/{job_id}/files/dxf"), QUERY(LASER_OPTIONS), "exports.md"),
    (
        LASER_OPTIONS,
        _query("/api/jobs/{job_id}/files/laser.svg"),
        QUERY(LASER_OPTIONS),
        "exports.md",
    ),
    (PARAMS, _body("JobCreateRequest", "params"), _params, "api.md"),
    (PROJECT_FORM, _body("ProjectFormRequest"), FORM(PROJECT_FORM), "assets.md"),
    (PROJECT_FORM, _body("PatchedProjectFormRequest"), FORM(PROJECT_FORM), "assets.md"),
    (EDITS, _body("RevisionEditsRequest"), OBJECT(EDITS), "engine.md"),
    (LINE_SPACING, _body("LineSpacingRequestRequest"), BODY(LINE_SPACING), "lookup.md"),
    (LINE_SPACING, _body("LineSpacingRequestRequest"), FORM_TEXT(LINE_SPACING), "lookup.md"),
    (EDITS, _body("RevisionFormRequest", "edits"), OBJECT(EDITS), "engine.md"),
    (CODE_BODY, _body("CodeInRequest"), SENT(CODE_BODY), "commerce.md"),
    (PRODUCT_BODY, _body("ProductInRequest"), SENT(PRODUCT_BODY), "commerce.md"),
    (PRODUCT_BODY, _body("PatchedProductInRequest"), SENT(PRODUCT_BODY), "commerce.md"),
    (ADDRESS_BODY, _body("AddressInRequest"), SENT(ADDRESS_BODY), "commerce.md"),
    (ADDRESS_BODY, _body("PatchedAddressInRequest"), SENT(ADDRESS_BODY), "commerce.md"),
    (DESIGN_LIST_BODY, _body("DesignListInRequest"), SENT(DESIGN_LIST_BODY), "commerce.md"),
    (DESIGN_LIST_BODY, _body("PatchedDesignListInRequest"), SENT(DESIGN_LIST_BODY), "commerce.md"),
    (ORDER_BODY, _body("OrderCreateInRequest"), SENT(ORDER_BODY), "commerce.md"),
    (ORDER_QUERY, _query("/api/orders"), QUERY(ORDER_QUERY), "commerce.md"),
    (PAYMENT_QUERY, _query("/api/payments"), QUERY(PAYMENT_QUERY), "commerce.md"),
    (JOB_LIST_QUERY, _query("/api/jobs"), QUERY(JOB_LIST_QUERY), "api.md"),
    (PROOF_SEND, _body("ProofSendInRequest"), SENT(PROOF_SEND), "proofs.md"),
    (
        PROOF_COMMENT,
        _body("ProofCommentInRequest"),
        WITH(PROOF_COMMENT, version=1, kind="other", text="?"),
        "proofs.md",
    ),
    (
        PROOF_DECISION,
        _body("ProofDecisionInRequest"),
        WITH(PROOF_DECISION, version=1, decision="approve"),
        "proofs.md",
    ),
    (FONT_FORM, _body("FontUploadRequest"), FORM(FONT_FORM), "assets.md"),
    (ASSET_FORM, _body("AssetUploadRequest"), FORM(ASSET_FORM), "assets.md"),
    (ASSET_IMPORT_FORM, _body("AssetImportRequest"), FORM(ASSET_IMPORT_FORM), "assets.md"),
]
MARKERS = {
    CUSTOM_SVG: "wordclouds.services.custom_svg.CUSTOM_SVG",
    LOOKUP_QUERY: "wordclouds.services.lookup.LOOKUP_QUERY",
    PDF_OPTIONS: "exports.pdf.options.PDF_OPTIONS",
    LASER_OPTIONS: "exports.laser.services.LASER_OPTIONS",
    PARAMS: "wordclouds.engine.params.PARAMS",
    JOB_FORM: "wordclouds.services.job_inputs.JOB_FORM",
    PROJECT_FORM: "wordclouds.services.projects.PROJECT_FORM",
    EDITS: "wordclouds.engine.revision.edits.EDITS",
    LINE_SPACING: "wordclouds.services.line_spacing.LINE_SPACING",
    CODE_BODY: "commerce.inputs.CODE_BODY",
    PRODUCT_BODY: "commerce.inputs.PRODUCT_BODY",
    ADDRESS_BODY: "commerce.inputs.ADDRESS_BODY",
    DESIGN_LIST_BODY: "commerce.inputs.DESIGN_LIST_BODY",
    ORDER_BODY: "commerce.inputs.ORDER_BODY",
    ORDER_QUERY: "commerce.inputs.ORDER_QUERY",
    PAYMENT_QUERY: "commerce.inputs.PAYMENT_QUERY",
    JOB_LIST_QUERY: "wordclouds.services.jobs.JOB_LIST_QUERY",
    PROOF_SEND: "commerce.services.proofs.PROOF_SEND",
    PROOF_COMMENT: "commerce.services.proofs.PROOF_COMMENT",
    PROOF_DECISION: "commerce.services.proofs.PROOF_DECISION",
    FONT_FORM: "wordclouds.services.fonts.FONT_FORM",
    ASSET_FORM: "wordclouds.services.assets.ASSET_FORM",
    ASSET_IMPORT_FORM: "wordclouds.services.assets.ASSET_IMPORT_FORM",
}


def _text(value) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def _docs_rows(page: str, declaration) -> dict[str, dict[str, str]]:
    """The committed table of `page` written from `declaration`, by its first cell."""
    lines = (DOCS / page).read_text().splitlines()
    marker = f"<!-- table: {MARKERS[declaration]} "
    start = next(i for i, line in enumerate(lines) if line.startswith(marker)) + 1
    columns = [cell.strip() for cell in lines[start].strip("|").split("|")]
    rows = {}
    for line in lines[start + 2 :]:
        if not line.startswith("|"):
            break
        cells = [c.strip().replace("\\|", "|") for c in re.split(r"(?<!\\)\|", line.strip()[1:-1])]
        rows[cells[0]] = dict(zip(columns, cells, strict=True))
    return rows


def _shown(value) -> str:
    """A default as a docs table writes it."""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, str):
        return f"`{value}`"
    if isinstance(value, list):
        return ", ".join(f"`{item}`" for item in value)
    return number_shown(value)


def _allowed(prop: dict) -> list:
    """Values the served schema allows, at each of its bounds."""
    kind = prop.get("type")
    if "oneOf" in prop:
        return [value for alternative in prop["oneOf"] for value in _allowed(alternative)]
    if "enum" in prop:
        return list(prop["enum"])
    if kind in ("number", "integer"):
        low, high = prop["minimum"], prop["maximum"]
        return [_above(prop) if prop.get("exclusiveMinimum") else low, high]
    if kind == "boolean":
        return [True, False]
    if kind == "string":
        longest = ["x" * prop["maxLength"]] if "maxLength" in prop else []
        texts = [prop.get("default", "#A0B1C2"), "a text", *longest]
        return [text for text in texts if _matches(prop, text)][:2]
    if kind == "array":
        item = _allowed(prop["items"])[:1] or [_example(prop["items"])]
        return [item * prop.get("minItems", 0) or [], item * prop["maxItems"]]
    if kind == "object" and isinstance(
        prop.get("additionalProperties"), dict
    ):  # free keys: at each count
        values = _allowed(prop["additionalProperties"])
        return [
            {key: values[n % len(values)] for n, key in enumerate(_keys(prop, count))}
            for count in (prop.get("minProperties", 0), prop["maxProperties"])
        ]
    if kind == "object":
        return [_example(prop)]
    return []


def _keys(prop: dict, count: int) -> list[str]:
    """`count` keys the free-keyed object's key bounds (`x-propertyNames`) allow, the first
    at their longest."""
    names = prop["x-propertyNames"]
    texts = ["k" * names.get("maxLength", 1), *(f"k{n}" for n in range(count))]
    return [text for text in texts if _matches(names, text)][:count]


def _example(prop: dict):
    """One value the schema allows."""
    if prop.get("type") == "object" and isinstance(prop.get("additionalProperties"), dict):
        return _allowed(prop)[-1]
    if prop.get("type") == "object":
        return {name: _allowed(p)[0] for name, p in prop["properties"].items()}
    return _allowed(prop)[0]


def _above(prop: dict):
    low = prop["minimum"]
    return low + 1 if prop["type"] == "integer" else low + max(abs(prop["maximum"]), 1) * 1e-9


def _refused(prop: dict) -> list:
    """Values the served schema refuses: just past each bound, of another type."""
    kind = prop.get("type")
    if "oneOf" in prop:  # each alternative's, but of another alternative's JSON type
        types = [
            {"integer": "number"}.get(alternative.get("type"), alternative.get("type"))
            for alternative in prop["oneOf"]
        ]
        return [
            value
            for k, alternative in enumerate(prop["oneOf"])
            for value in _refused(alternative)
            if _json_type(value) not in types[:k] + types[k + 1 :]
        ]
    if "enum" in prop:
        return ["not-one-of-them", 7]
    if kind in ("number", "integer"):
        low, high = prop["minimum"], prop["maximum"]
        step = 1 if kind == "integer" else max(abs(high), 1) * 1e-9
        below = low if prop.get("exclusiveMinimum") else low - step
        return [below, high + step, "seven"] + ([low + 0.5] if kind == "integer" else [])
    if kind == "boolean":
        return ["maybe"]
    if kind == "string":
        texts = ["\u00a7 no match", "a\x00b", 7]
        # blank: a query's empty value is its default; a form's text may refuse it
        texts += [" "] if prop.get("pattern") == NOT_BLANK else []
        texts += ["x" * (prop["maxLength"] + 1)] if "maxLength" in prop else []
        texts += [""] if prop.get("minLength") else []
        return [text for text in texts if not _matches(prop, str(text))]
    if kind == "array":
        item = _example(prop["items"])
        few = [[]] if prop.get("minItems") else []
        wrong = [[bad] for bad in _refused(prop["items"])]
        return [*few, [item] * (prop["maxItems"] + 1), "not an array", *wrong]
    if kind == "object" and isinstance(prop.get("additionalProperties"), dict):
        key, value = _keys(prop, 1)[0], _allowed(prop["additionalProperties"])[0]
        few = [{}] if prop.get("minProperties") else []
        many = {k: value for k in _keys(prop, prop["maxProperties"] + 1)}
        bad_keys = [k for k in _refused(prop["x-propertyNames"]) if isinstance(k, str)]
        return [
            *few,
            many,
            "not an object",
            [value],
            *({bad: value} for bad in bad_keys),
            *({key: bad} for bad in _refused(prop["additionalProperties"])),
        ]
    if kind == "object":
        whole = _example(prop)
        missing = {k: v for k, v in list(whole.items())[1:]}
        return [missing, {**whole, "extra": 1}, "not an object"] + [
            {**whole, name: bad} for name, p in prop["properties"].items() for bad in _refused(p)
        ]
    return []


def _json_type(value) -> str:
    """A value's JSON type, integers and numbers as one ("number")."""
    kinds = {dict: "object", list: "array", str: "string", bool: "boolean"}
    return kinds.get(type(value), "number")


def _matches(prop: dict, text) -> bool:
    fits = isinstance(text, str) and prop.get("minLength", 0) <= len(text)
    fits = fits and len(text) <= prop.get("maxLength", len(text))
    return fits and re.search(prop.get("pattern", ""), text) is not None


def _listed(sentence: str, cell: str) -> bool:
    """Is the sentence one the table's cell lists (an item's place written [k], a key KEY)?"""
    for listed in re.findall(r"`([^`]*)`", cell):
        pattern = re.escape(listed).replace(r"\[k\]", r"\[\d+\]").replace("KEY", r"\w+")
        pattern = re.sub(r"\bN\b", r"\\d+", pattern)
        if re.fullmatch(pattern, sentence):
            return True
    return False


@pytest.mark.parametrize(
    ("declaration", "served", "read", "page"),
    DECLARATIONS,
    ids=[f"{MARKERS[d[0]].rsplit('.', 1)[1]} {i}" for i, d in enumerate(DECLARATIONS)],
)
def test_the_schema_the_parser_and_the_docs_agree_on_every_field(
    schema, declaration: Inputs, served, read, page
):
    properties = served(schema)
    rows = _docs_rows(page, declaration)
    fields = declaration.fields
    names = [field.name for field in fields]
    # every field is served (drf-spectacular sorts query parameters) and in the table, in the
    # declared order
    assert set(names) <= set(properties) and names == list(rows)
    # a form's files: test_a_form_s_uploads_the_schema_the_checks_and_the_docs_agree
    for field in (f for f in fields if not isinstance(f, Upload)):
        name, prop, row = field.name, properties[field.name], rows[field.name]
        # the default: what an absent value reads as, the schema's and the docs' default
        if isinstance(declaration, Inputs):
            default = _value(declaration, field, declaration.values())
            expected = list(default) if isinstance(default, tuple) else default
            assert prop.get("default") == expected, name
            shown = "—" if default is None else _shown(expected)
            assert row["default"] == (field.absent or shown), name  # or what absent means
        elif isinstance(declaration, Object) and name not in dict(declaration.optional):
            assert "default" not in prop and row["default"] == "required", name
        elif isinstance(declaration, Object):  # absent, its optional value
            optional = dict(declaration.optional)
            expected = list(optional[name]) if isinstance(optional[name], tuple) else optional[name]
            assert prop.get("default") == expected, name
            assert row["default"] == ("—" if expected is None else _shown(expected) or "none")
        else:  # a form's field: absent, it is None, or refused when required
            assert "default" not in prop and row["required"] in ("yes", "no"), name
            if row["required"] == "no":
                assert read(field, None) is None, name
        # null, where the schema allows it, is read as null (none of the field)
        if prop.get("nullable"):
            assert isinstance(field, Nullable) and read(field, None) is None, name
        # the bounds and the type: each value the served schema allows is read as it is
        for value in _allowed(prop):
            parsed = read(field, value)
            assert _same(parsed, value), (name, value, parsed)
        # ... and each it refuses is refused with a sentence of the table
        refused = _refused(prop) + ([None] if row.get("required") == "yes" else [])
        for value in refused:
            with pytest.raises((Refused, InputError)) as caught:
                read(field, value)
            assert _listed(str(caught.value), row["error (400)"]), (name, value, caught.value)
            # a refusal that is not a 400 says its status in the table (an unknown kind's 404)
            status = getattr(caught.value, "status", 400)
            assert status == 400 or f"` ({status})" in row["error (400)"], (name, value)
        # a form's blank text: refused exactly when the schema says so
        if isinstance(declaration, Form) and prop.get("type") == "string":
            try:
                read(field, " ")
                refused = False
            except Refused:
                refused = True
            assert refused == (not _matches(prop, " ")), name
        # the table states the bounds and choices the schema serves
        accepted = row["accepted"]
        if prop.get("type") in ("number", "integer"):
            assert number_shown(prop["minimum"]) in accepted, name
            high = "2^63-1" if prop["maximum"] == 2**63 - 1 else number_shown(prop["maximum"])
            assert high in accepted, name
            assert ("integer" in accepted) == (prop["type"] == "integer"), name
        for choice in prop.get("enum", []):
            assert choice in accepted, name
        if prop.get("type") == "array":
            assert str(prop["maxItems"]) in accepted, name
        if isinstance(
            prop.get("additionalProperties"), dict
        ):  # a free-keyed object: its count and keys' bounds
            assert f"{prop['maxProperties']} entries" in accepted, name
            assert str(prop["x-propertyNames"]["maxLength"]) in accepted, name


def _same(parsed, value) -> bool:
    """A value read back as sent (colours are written upper-case, arrays become tuples)."""
    if isinstance(value, list):
        return len(parsed) == len(value) and all(map(_same, parsed, value))
    if isinstance(value, dict):
        return parsed.keys() == value.keys() and all(_same(parsed[k], value[k]) for k in value)
    if isinstance(value, str):
        return parsed in (value, value.upper())
    return parsed == value and type(parsed) is not bool or parsed is value


def _upload(name: str, size: int) -> UploadedFile:
    """An upload of that name and size (its bytes are never read by the checks)."""
    return UploadedFile(io.BytesIO(), name=name, size=size)


FORMS = [
    (JOB_FORM, "JobCreateRequest", "api.md"),
    (FONT_FORM, "FontUploadRequest", "assets.md"),
    (ASSET_FORM, "AssetUploadRequest", "assets.md"),
    (ASSET_IMPORT_FORM, "AssetImportRequest", "assets.md"),
]


@pytest.mark.parametrize(
    ("form", "component", "page"), FORMS, ids=[component for _, component, _ in FORMS]
)
def test_a_form_s_uploads_the_schema_the_checks_and_the_docs_agree(schema, form, component, page):
    served = schema["components"]["schemas"][component]
    rows = _docs_rows(page, form)
    assert isinstance(form, Form)
    assert list(served["properties"]) == list(rows) == [f.name for f in form.fields]
    required = [name for name, row in rows.items() if row["required"] == "yes"]
    assert served.get("required", []) == required
    for field in form.fields:
        prop, row = served["properties"][field.name], rows[field.name]
        assert prop["description"].endswith(f"(required: {row['required']})")
        if not isinstance(field, Upload):
            continue
        # a file: the docs name each extension and the size limit the check holds to
        assert prop == {"type": "string", "format": "binary", "description": prop["description"]}
        limit = field.limit()
        assert f"at most {limit // MB} MB" in row["accepted"]
        for extension in field.extensions:
            assert f"`{extension}`" in row["accepted"]
            field.parse(_upload(f"a{extension.upper()}", limit))
        if field.extensions:
            with pytest.raises(Refused) as caught:
                field.parse(_upload("a.txt", 1))
            assert f"`{caught.value}`" in row["error (400)"]
        else:  # any name
            assert field.parse(_upload("a.txt", limit)).name == "a.txt"
        with pytest.raises(Refused) as caught:
            field.parse(_upload(f"a{(*field.extensions, '.bin')[0]}", limit + 1))
        assert (str(caught.value), caught.value.status) == (
            f"{field.name} exceeds {limit // MB} MB",
            413,
        )
        if row["required"] == "yes":  # not sent: its sentence of the table
            with pytest.raises(Refused) as caught:
                form.read(field.name, None)
            assert f"`{caught.value}`" in row["error (400)"]


def test_the_job_form_s_texts_are_refused_as_the_docs_say():
    rows = _docs_rows("api.md", JOB_FORM)
    # font_id: blank is no font's id; the params' text: JSON, an object
    for name, value in (("font_id", " "), ("params", "{"), ("params", "[1]")):
        with pytest.raises(Refused) as caught:
            JOB_FORM[name].parse(value)
        assert f"`{caught.value}`" in rows[name]["error (400)"], name


def test_the_committed_docs_tables_are_those_the_declarations_write():
    written = docs_with_tables(DOCS)
    sources = {
        source for text in written.values() for source in re.findall(r"<!-- table: (\S+) ", text)
    }
    # besides the inputs: docs/api.md's error codes (tests/test_error_codes.py) and
    # docs/security.md, who may call what (tests/test_access.py)
    assert sources == {*MARKERS.values(), "core.error_codes.rows", "core.access.rows"}
    for path, text in written.items():
        assert path.read_text() == text, f"{path.name}: run manage.py docs_tables"
