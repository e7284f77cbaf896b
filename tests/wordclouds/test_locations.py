"""GET /api/jobs/{id}/locations as daphne serves it: in front of Django
(wordclouds/api/lookup_front.py), through the `lookup` fixture."""

import re
import sqlite3
import unicodedata

import jsonschema
import numpy as np
import openpyxl
import pytest

from core.inputs import COLOR
from tests.asgi import asgi_request
from tests.errors import refusal
from tests.wordclouds.conftest import jobs_root
from wordclouds.engine.path_data import path_segments
from wordclouds.models import Job

from .conftest import SMALL_PARAMS

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = [
    "Anna",
    "anna maria",
    "Maria 100%",
    "a_b",
    "a%b",
    "x\\y",
    "Émile",
    "李雷",
    "Ännchen",
    "Anna",
]


@pytest.fixture
def job_id(finished_job_dir):
    return finished_job_dir(names=NAMES)


def locations(lookup, job_id, **params):
    return lookup(job_id, params)


def found_names(response) -> list[str]:
    assert response.status_code == 200, response.content
    return [match["name"] for match in response.json()["matches"]]


def outline_bounds(job_id) -> dict[int, tuple[float, float, float, float]]:
    """Each word's ink bounds, read from the svg artifact (control points included)."""
    svg = (jobs_root() / job_id / "wordcloud.svg").read_text()
    paths = re.findall(r'<path id="w(\d+)"[^>]* d="([^"]*)"', svg)
    segments = path_segments([d for _, d in paths])
    points = segments.controls.ravel()
    word = np.repeat(segments.contour_path[segments.contour], 4)
    return {
        int(paths[w][0]): (
            points[word == w].real.min(),
            points[word == w].imag.min(),
            points[word == w].real.max(),
            points[word == w].imag.max(),
        )
        for w in np.unique(word)
    }


def test_every_name_is_found_exactly_with_the_box_around_its_outline(lookup, job_id):
    ink = outline_bounds(job_id)

    for name in set(NAMES):
        result = locations(lookup, job_id, name=name).json()

        assert result["total"] == NAMES.count(name) == len(result["matches"])
        for match in result["matches"]:
            assert match["name"] == name
            left, top, right, bottom = ink[match["id"]]
            assert (
                match["box_x"] <= left + 0.05
                and right - 0.05 <= match["box_x"] + match["box_width"]
            )
            assert (
                match["box_y"] <= top + 0.05
                and bottom - 0.05 <= match["box_y"] + match["box_height"]
            )
            assert match["x"] == pytest.approx(match["box_x"] + match["box_width"] / 2)
            assert match["y"] == pytest.approx(match["box_y"] + match["box_height"] / 2)
            assert match["orientation"] in ("horizontal", "vertical")
            assert re.fullmatch(COLOR, match["color"])


def test_the_result_echoes_the_query_and_gives_the_canvas(lookup, job_id):
    result = locations(lookup, job_id, name="Anna").json()

    assert {
        key: result[key] for key in ("job_id", "query", "mode", "canvas_width", "canvas_height")
    } == {
        "job_id": job_id,
        "query": "Anna",
        "mode": "exact",
        "canvas_width": 400,
        "canvas_height": 300,
    }
    assert list(result["matches"][0]) == [
        "id",
        "name",
        "x",
        "y",
        "font_size",
        "color",
        "orientation",
        "box_x",
        "box_y",
        "box_width",
        "box_height",
        "weight",
        "group",
    ]
    assert result["group"] is None and result["groups"] == []  # a job without groups
    assert {match["group"] for match in result["matches"]} == {None}


def test_matches_carry_the_names_weight(lookup, finished_job_dir, names_xlsx):
    path = names_xlsx(["Anna", "Bruno"])
    book = openpyxl.load_workbook(path)
    for row, weight in ((2, 4), (3, 2.5)):
        book.active.cell(row=row, column=2, value=weight)
    book.save(path)
    job_id = finished_job_dir(names=None, params={**SMALL_PARAMS, "WEIGHT_COL_INDEX": 1}, path=path)

    matches = locations(lookup, job_id).json()["matches"]

    assert {match["name"]: match["weight"] for match in matches} == {"Anna": 4.0, "Bruno": 2.5}


def test_a_positions_db_from_before_weights_answers_weight_1(lookup, job_id):
    db = sqlite3.connect(jobs_root() / job_id / "positions.db")
    db.execute("ALTER TABLE words DROP COLUMN weight")
    db.commit()
    db.close()

    exact = locations(lookup, job_id, name="Anna").json()["matches"]
    containing = locations(lookup, job_id, name="ann", mode="contains").json()["matches"]

    assert [match["weight"] for match in exact] == [1.0, 1.0]
    assert len(containing) == 3 and {match["weight"] for match in containing} == {1.0}


def test_exact_ignores_surrounding_space_and_unicode_composition(lookup, job_id):
    decomposed = unicodedata.normalize("NFD", "Émile")

    assert found_names(locations(lookup, job_id, name=f"  {decomposed} ")) == ["Émile"]
    assert found_names(locations(lookup, job_id, name="anna")) == []
    assert found_names(locations(lookup, job_id, name="Ann")) == []


def test_contains_is_a_case_insensitive_substring(lookup, job_id):
    assert sorted(found_names(locations(lookup, job_id, name="ANN", mode="contains"))) == [
        "Anna",
        "Anna",
        "anna maria",
    ]
    assert found_names(locations(lookup, job_id, name="änn", mode="contains")) == ["Ännchen"]
    assert sorted(found_names(locations(lookup, job_id, name="maria", mode="contains"))) == [
        "Maria 100%",
        "anna maria",
    ]


@pytest.mark.parametrize(
    "query, expected",
    [
        ("%", ["Maria 100%", "a%b"]),
        ("_", ["a_b"]),
        ("a_b", ["a_b"]),
        ("a%", ["a%b"]),
        ("\\", ["x\\y"]),
    ],
)
def test_contains_takes_wildcard_characters_literally(lookup, job_id, query, expected):
    assert sorted(found_names(locations(lookup, job_id, name=query, mode="contains"))) == expected


def test_matches_are_ordered_by_id(lookup, job_id):
    matches = locations(lookup, job_id, name="a", mode="contains").json()["matches"]

    ids = [match["id"] for match in matches]
    assert len(ids) > 3 and ids == sorted(ids)


@pytest.mark.parametrize("mode", ["exact", "contains"])
def test_an_empty_name_gives_every_placement(lookup, job_id, mode):
    with sqlite3.connect(jobs_root() / job_id / "positions.db") as connection:
        ids = [row[0] for row in connection.execute("SELECT id FROM words ORDER BY id")]

    result = locations(lookup, job_id, name="  ", mode=mode).json()

    assert result["total"] == len(ids) == len(NAMES)
    assert [match["id"] for match in result["matches"]] == ids


def test_a_bad_mode_is_400(lookup, job_id):
    response = locations(lookup, job_id, name="Anna", mode="fuzzy")

    assert response.status_code == 400
    assert refusal(response) == "mode must be exact or contains"


@pytest.mark.parametrize("job", ["0" * 32, "not-a-job"])
def test_unknown_job_is_404(lookup, job):
    response = locations(lookup, job, name="Anna")

    assert response.status_code == 404
    assert refusal(response) == "job not found"


def test_job_without_positions_is_404_artifact_not_ready(lookup):
    job = Job.objects.create(status=Job.Status.RUNNING, name_list="names.xlsx")

    response = locations(lookup, job.id, name="Anna")

    assert response.status_code == 404
    assert refusal(response) == "artifact not ready"


@pytest.mark.parametrize("name", ["An\x00na", "\x00"])
@pytest.mark.parametrize("mode", ["exact", "contains"])
def test_a_name_holding_nul_finds_nothing(lookup, job_id, name, mode):
    result = locations(lookup, job_id, name=name, mode=mode).json()

    assert result["total"] == 0 and result["matches"] == []
    assert result["query"] == name


def test_the_answer_is_json_open_to_every_origin(lookup, job_id):
    response = locations(lookup, job_id, name="Anna")

    assert response.headers["content-type"] == "application/json"
    assert response.headers["access-control-allow-origin"] == "*"


def test_a_job_id_with_an_escaped_nul_is_404(lookup):
    response = lookup("%00" * 32, {"name": "Anna"})

    assert response.status_code == 404
    assert refusal(response) == "job not found"


def test_another_method_is_405_and_head_has_no_body(job_id):
    posted = asgi_request("POST", f"/api/jobs/{job_id}/locations")
    head = asgi_request("HEAD", f"/api/jobs/{job_id}/locations?name=Anna")

    assert posted.status_code == 405 and posted.headers["allow"] == "GET, HEAD"
    assert head.status_code == 200 and head.content == b""


def test_the_openapi_schema_describes_the_answers_served(api, lookup, job_id):
    # given the schema the service serves, which drf-spectacular cannot make for endpoints
    # in front of Django (wordclouds/api/lookup_front.py writes their part)
    schema = api.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    components = schema["components"]["schemas"]

    # when a lookup is answered
    answer = locations(lookup, job_id, name="a", mode="contains").json()

    # then the answer has the shape the schema gives both lookups, every key declared
    for endpoint in ("locations", "find"):
        operation = schema["paths"][f"/api/jobs/{{job_id}}/{endpoint}"]["get"]
        ok = operation["responses"]["200"]["content"]["application/json"]["schema"]
        whole = _json_schema({**ok, "components": schema["components"]})
        jsonschema.validate(answer, whole)
    assert list(answer) == list(components["LocationResult"]["properties"])
    assert list(answer["matches"][0]) == list(components["LocationMatch"]["properties"])
    assert schema["paths"]["/api/jobs/{job_id}/locations"]["get"]["security"] == []
    assert schema["paths"]["/api/jobs/{job_id}/find"]["get"]["security"] == [{"adminToken": []}]


def _json_schema(schema):
    """OpenAPI 3.0's `nullable` as JSON Schema writes it (a type that may be null), which
    jsonschema reads."""
    if isinstance(schema, list):
        return [_json_schema(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    converted = {key: _json_schema(value) for key, value in schema.items() if key != "nullable"}
    if schema.get("nullable") and "type" in schema:
        converted["type"] = [schema["type"], "null"]
    return converted
