import json
import struct
import zlib
from urllib.parse import urlencode

import pytest

from tests.errors import refusal
from tests.wordclouds.asset_factories import asset_id, png_bytes, project_create, svg_bytes
from wordclouds.models import Project, ProjectAsset

pytestmark = pytest.mark.django_db


def sticker(the_asset_id, **geometry):
    return {"asset_id": the_asset_id, "x": 10, "y": 20, "width": 30, "height": 40, **geometry}


@pytest.fixture
def png_asset(api):
    return asset_id(api, png_bytes())


@pytest.fixture
def svg_asset(api):
    return asset_id(api, svg_bytes('<rect width="10" height="10"/>'), "shape.svg")


def test_create_answers_201_with_the_full_record(api, png_asset, svg_asset):
    stickers = [sticker(png_asset), sticker(svg_asset, rotation=45.5)]

    response = project_create(
        api,
        name="Summer",
        template_id="poster_16x9",
        background_color="#12AbEf",
        stickers=json.dumps(stickers),
    )

    assert response.status_code == 201
    record = response.json()
    assert record == {
        "id": record["id"],
        "name": "Summer",
        "template_id": "poster_16x9",
        "template": {
            "id": "poster_16x9",
            "name": "Landscape shop banner",
            "width": 1920,
            "height": 1080,
        },
        "background_color": "#12AbEf",
        "stickers": [{**stickers[0], "rotation": 0}, stickers[1]],
        "created_at": record["created_at"],
        "updated_at": record["updated_at"],
    }
    assert api.get(f"/api/projects/{record['id']}").json() == record
    links = ProjectAsset.objects.filter(project_id=record["id"]).values_list("asset_id", flat=True)
    assert sorted(links) == sorted([png_asset, svg_asset])


def test_stickers_are_optional(api):
    response = project_create(api)

    assert response.status_code == 201
    assert response.json()["stickers"] == []


def test_list_gives_summaries_newest_first(api, png_asset):
    project_create(api, name="Old")
    project_create(api, name="New", stickers=json.dumps([sticker(png_asset)] * 3))

    response = api.get("/api/projects")

    assert response.status_code == 200
    summaries = response.json()
    assert [summary["name"] for summary in summaries] == ["New", "Old"]
    assert set(summaries[0]) == {
        "id",
        "name",
        "template_id",
        "background_color",
        "sticker_count",
        "created_at",
        "updated_at",
    }
    assert summaries[0]["sticker_count"] == 3


@pytest.mark.parametrize(
    "fields, detail",
    [
        ({"name": ""}, "name is required"),
        ({"name": "x" * 201}, "name must be at most 200 characters"),
        ({"template_id": ""}, "template_id is required"),
        ({"template_id": "poster_9x9"}, "template_id is not a known template"),
        ({"background_color": ""}, "background_color is required"),
        ({"background_color": "red"}, "background_color must be #RRGGBB"),
        ({"background_color": "#FFF"}, "background_color must be #RRGGBB"),
        ({"stickers": "[{"}, "stickers must be valid JSON"),
        ({"stickers": '{"asset_id": "a"}'}, "stickers must be a JSON array"),
        ({"stickers": "[1]"}, "stickers[0] must be an object"),
        ({"stickers": '[{"x": 1}]'}, "stickers[0].asset_id is required"),
    ],
)
def test_bad_fields_are_400_naming_the_field(api, fields, detail):
    response = project_create(api, **fields)

    assert response.status_code == 400
    assert refusal(response) == detail
    assert not Project.objects.exists()


@pytest.mark.parametrize(
    "change, detail",
    [
        ({"asset_id": "missing"}, "stickers[0].asset_id is not an existing asset"),
        ({"x": "10"}, "stickers[0].x must be a finite number"),
        ({"y": None}, "stickers[0].y must be a finite number"),
        ({"width": True}, "stickers[0].width must be a finite number"),
        ({"width": 0}, "stickers[0].width must be greater than 0"),
        ({"height": -1}, "stickers[0].height must be greater than 0"),
        ({"rotation": "45deg"}, "stickers[0].rotation must be a finite number"),
        ({"x": 1e9}, "stickers[0].x must be between -1000000 and 1000000"),
        ({"y": 10**400}, "stickers[0].y must be between -1000000 and 1000000"),
        ({"asset_id": 7}, "stickers[0].asset_id must be a string"),
        ({"z": 1}, "stickers[0] has an unknown key: z"),
    ],
)
def test_bad_stickers_are_400_naming_the_sticker_field(api, png_asset, change, detail):
    stickers = [sticker(png_asset, **change)]

    response = project_create(api, stickers=json.dumps(stickers))

    assert response.status_code == 400
    assert refusal(response) == detail
    assert not Project.objects.exists()


def test_sticker_without_geometry_is_400(api, png_asset):
    response = project_create(api, stickers=json.dumps([{"asset_id": png_asset, "x": 1}]))

    assert response.status_code == 400
    assert refusal(response) == "stickers[0].y is required"


def test_non_finite_numbers_are_refused(api, png_asset):
    text = json.dumps([sticker(png_asset)]).replace('"x": 10', '"x": NaN')

    response = project_create(api, stickers=text)

    assert response.status_code == 400
    assert refusal(response) == "stickers must be valid JSON"


def test_sticker_must_be_an_image_or_svg_asset(api):
    data_asset = asset_id(api, b'{"not": "an image"}', "data.json")

    response = project_create(api, stickers=json.dumps([sticker(data_asset)]))

    assert response.status_code == 400
    assert refusal(response) == "stickers[0].asset_id must be an image or SVG asset"


def test_sticker_image_that_does_not_decode_is_refused(api):
    broken_png = asset_id(api, png_bytes()[:40], "broken.png")

    response = project_create(api, stickers=json.dumps([sticker(broken_png)]))

    assert response.status_code == 400
    assert refusal(response) == "stickers[0].asset_id is not a readable image"


def png_header_claiming(width: int, height: int) -> bytes:
    """A PNG whose header claims a size its data does not hold (a decompression bomb)."""
    content = bytearray(png_bytes((1, 1)))
    content[16:24] = struct.pack(">II", width, height)
    content[29:33] = struct.pack(">I", zlib.crc32(bytes(content[12:29])))
    return bytes(content)


@pytest.mark.parametrize("width, height", [(8000, 8000), (20000, 20000)])
def test_sticker_image_over_50_megapixels_is_refused(api, width, height):
    bomb = asset_id(api, png_header_claiming(width, height), "bomb.png")

    response = project_create(api, stickers=json.dumps([sticker(bomb)]))

    assert response.status_code == 400
    assert refusal(response) == "stickers[0].asset_id has more than 50 megapixels"


def test_patch_changes_only_the_fields_sent(api, png_asset):
    created = project_create(api, name="Draft", stickers=json.dumps([sticker(png_asset)])).json()

    response = api.patch(
        f"/api/projects/{created['id']}",
        {"background_color": "#000000"},
        format="multipart",
    )

    assert response.status_code == 200
    record = response.json()
    assert record["background_color"] == "#000000"
    assert {key: record[key] for key in ("name", "template_id", "stickers", "created_at")} == {
        key: created[key] for key in ("name", "template_id", "stickers", "created_at")
    }
    assert record["updated_at"] >= created["updated_at"]


def test_patch_of_stickers_moves_the_asset_links(api, png_asset, svg_asset):
    created = project_create(api, stickers=json.dumps([sticker(png_asset)])).json()

    response = api.patch(
        f"/api/projects/{created['id']}",
        {"stickers": json.dumps([sticker(svg_asset)]), "template_id": "poster_1x2"},
        format="multipart",
    )

    assert response.status_code == 200
    assert response.json()["template"]["height"] == 2160
    assert api.delete(f"/api/assets/{png_asset}").status_code == 204
    assert api.delete(f"/api/assets/{svg_asset}").status_code == 409


def test_bad_patch_changes_nothing(api, png_asset):
    created = project_create(api, stickers=json.dumps([sticker(png_asset)])).json()

    response = api.patch(
        f"/api/projects/{created['id']}",
        {"name": "Renamed", "stickers": json.dumps([sticker("gone")])},
        format="multipart",
    )

    assert response.status_code == 400
    assert refusal(response) == "stickers[0].asset_id is not an existing asset"
    assert api.get(f"/api/projects/{created['id']}").json() == created


def test_delete_frees_its_assets(api, png_asset):
    created = project_create(api, stickers=json.dumps([sticker(png_asset)])).json()

    response = api.delete(f"/api/projects/{created['id']}")

    assert response.status_code == 204
    assert response.content == b""
    assert api.get(f"/api/projects/{created['id']}").status_code == 404
    assert api.delete(f"/api/assets/{png_asset}").status_code == 204


def test_unknown_project_is_404_everywhere(api):
    for response in (
        api.get("/api/projects/nope"),
        api.patch("/api/projects/nope", {"name": "x"}, format="multipart"),
        api.delete("/api/projects/nope"),
        api.get("/api/projects/nope/render.png"),
        api.get("/api/projects/nope/render.svg"),
    ):
        assert response.status_code == 404
        assert refusal(response) == "project not found"


def test_a_url_encoded_form_works_too(api):
    body = urlencode({"name": "Plain", "template_id": "poster_4x5", "background_color": "#ABCDEF"})

    response = api.post("/api/projects", body, content_type="application/x-www-form-urlencoded")

    assert response.status_code == 201
    assert response.json()["template"]["height"] == 1350
