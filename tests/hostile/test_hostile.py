"""Hostile input through HTTP against the real service (daphne + the supervised worker): every
request answers a clear 4xx `{"detail"}` with the CORS header, creates nothing, and
/api/health keeps answering quickly meanwhile; heavy requests finish within their limits."""

import json
import zipfile

import httpx
import openpyxl
import pytest

from core.errors import REQUEST_TOO_LARGE
from tests.hostile.conftest import (
    MB,
    REQUEST_BODY_MAX_BYTES,
    assert_health_fast,
    assert_refused,
    assert_unchanged,
    deep_json,
    finished_job_id,
    get,
    hostile,
    png_bytes,
    post,
    probed,
    state,
)
from tests.processes import staff_headers

# serial: /api/health must answer within 0.1 s meanwhile (conftest.py), alone on the machine.
pytestmark = [pytest.mark.e2e, pytest.mark.serial]
FAKE_JOB = "f" * 32


@pytest.fixture(scope="module")
def names_path(tmp_path_factory):
    book = openpyxl.Workbook()
    for name in ["name", "Anna", "Bruno", "Chloé", "Dmitri", "Émile", "Fay", "Gus"] * 3:
        book.active.append([name])
    path = tmp_path_factory.mktemp("names") / "names.xlsx"
    book.save(path)
    return path


@pytest.fixture(scope="module")
def job_id(service, names_path):
    return finished_job_id(service, names_path)


@pytest.fixture(scope="module")
def admin_token(service):
    response = httpx.post(f"{service.url}/api/login", json={"password": "wordcloud-admin"})
    return response.json()["token"]


@pytest.fixture(scope="module")
def template_id(service):
    return httpx.get(f"{service.url}/api/templates").json()[0]["id"]


def job_form(names_path, params: dict, **files):
    return {
        "data": {"params": json.dumps(params)},
        "files": {"name_list": ("names.xlsx", names_path.read_bytes()), **files},
    }


# Deep JSON: Python's parser runs out of recursion; every body and JSON field answers 400.


@pytest.mark.parametrize(
    "path",
    ["/api/login", "/api/exports/ai", "/api/orders", f"/api/jobs/{FAKE_JOB}/analyze-line-spacing"],
)
def test_deeply_nested_json_bodies_are_400(service, path):
    send = post(service, path, content=deep_json(), headers={"Content-Type": "application/json"})

    refusal = hostile(service, send)
    if path == "/api/orders" and refusal.response.status_code == 403:
        assert_refused(refusal, 403)  # staff's token, refused before the body is read: fine too
    else:
        assert_refused(refusal, 400, "nested too deeply")


def test_deeply_nested_params_are_400(service, names_path):
    form = job_form(names_path, {})
    form["data"]["params"] = deep_json()

    assert_refused(hostile(service, post(service, "/api/jobs", **form)), 400)


def test_deeply_nested_stickers_are_400(service, template_id):
    data = {
        "name": "p",
        "template_id": template_id,
        "background_color": "#FFFFFF",
        "stickers": deep_json(),
    }

    assert_refused(hostile(service, post(service, "/api/projects", data=data)), 400)


# Limits of the request itself, below and in Django.


def test_multipart_without_boundary_is_json_400_with_cors(service):
    for content_type in ("multipart/form-data", "multipart/form-data; boundary="):
        send = post(
            service, "/api/projects", content=b"--x\r\n\r\n", headers={"Content-Type": content_type}
        )
        assert_refused(hostile(service, send), 400)


def test_an_oversized_header_is_json_431_with_cors(service):
    send = get(service, "/api/jobs", headers={"Authorization": "Bearer " + "a" * 20_000})

    assert_refused(hostile(service, send), 431, "request headers exceed")


def test_too_many_form_fields_are_400(service):
    fields = {f"field{i}": "x" for i in range(1200)}

    assert_refused(hostile(service, post(service, "/api/projects", data=fields)), 400)


def test_too_many_file_parts_are_400(service):
    files = [("file", (f"f{i}.png", b"x")) for i in range(120)]

    assert_refused(hostile(service, post(service, "/api/assets", files=files)), 400)


def test_a_form_over_the_memory_limit_is_413(service):
    form = {"name": "x" * (31 * MB)}

    assert_refused(
        hostile(service, post(service, "/api/projects", data=form)), 413, REQUEST_TOO_LARGE
    )


def test_a_chunked_body_over_the_request_limit_is_413(service):
    parts = (b"x" * MB for _ in range(REQUEST_BODY_MAX_BYTES // MB + 1))  # no Content-Length
    send = post(service, "/api/login", content=parts, headers={"Content-Type": "application/json"})

    assert_refused(hostile(service, send), 413, REQUEST_TOO_LARGE)


def test_an_export_body_over_the_memory_limit_is_413_naming_the_svg(service):
    body = {"svg": " " * (31 * MB)}  # refused by its Content-Length, before it is parsed

    assert_refused(
        hostile(service, post(service, "/api/exports/ai", json=body)), 413, "svg exceeds 25 MB"
    )


def test_a_multipart_body_over_the_request_limit_is_413(service):
    upload = {"file": ("big.ttf", bytes(REQUEST_BODY_MAX_BYTES))}

    assert_refused(
        hostile(service, post(service, "/api/fonts", files=upload)), 413, REQUEST_TOO_LARGE
    )


def test_a_file_over_its_own_limit_reaches_django_and_is_413(service):
    upload = {"file": ("big.ttf", bytes(51 * MB))}  # fonts: at most 50 MB

    assert_refused(
        hostile(service, post(service, "/api/fonts", files=upload)), 413, "file exceeds 50 MB"
    )


def test_a_product_id_beyond_64_bits_is_4xx(service):
    refusal = hostile(service, get(service, f"/api/products/{2**63}"))

    assert refusal.response.status_code in (400, 404)
    assert_refused(refusal, refusal.response.status_code)


def test_a_page_beyond_64_bits_is_4xx(service, admin_token):
    send = get(
        service, f"/api/orders?page={10**19}", headers={"Authorization": f"Bearer {admin_token}"}
    )

    refusal = hostile(service, send)
    assert refusal.response.status_code in (400, 404), refusal.response.text
    assert_refused(refusal, refusal.response.status_code)


# Job inputs.


def test_a_mask_of_gif_bytes_named_png_is_400(service, names_path):
    form = job_form(
        names_path, {"MODE": "IMAGE"}, mask_image=("mask.png", png_bytes(64, 64, "GIF"))
    )

    detail = assert_refused(hostile(service, post(service, "/api/jobs", **form)), 400)
    assert detail == "mask_image must be png/jpg/jpeg"


def test_a_one_pixel_mask_is_400(service, names_path):
    form = job_form(names_path, {"MODE": "IMAGE"}, mask_image=("mask.png", png_bytes(1, 1)))

    assert_refused(hostile(service, post(service, "/api/jobs", **form)), 400, "at least")


def test_a_very_wide_mask_never_makes_a_canvas_over_10000_px(service, names_path):
    form = job_form(
        names_path, {"MODE": "IMAGE"}, mask_image=("mask.png", png_bytes(40_000, 1_000))
    )

    response = post(service, "/api/jobs", **form)()

    if response.status_code != 201:  # refused: that is an answer too
        assert response.status_code == 400 and len(response.json()["detail"]) <= 200
        return
    job_id = response.json()["job_id"]
    job = service.wait_for(job_id, lambda job: job["status"] in ("success", "failed"), 180)
    assert job["status"] == "success", job
    found = httpx.get(f"{service.url}/api/jobs/{job_id}/locations", timeout=30).json()
    assert found["canvas_width"] <= 10_000 and found["canvas_height"] <= 10_000


def test_a_font_whose_glyphs_are_noise_is_400(service, tiny_font, names_path):
    font = bytearray(tiny_font().read_bytes())
    glyf = font.find(b"glyf")
    offset, length = (int.from_bytes(font[glyf + i : glyf + i + 4], "big") for i in (8, 12))
    font[offset : offset + length] = bytes((i * 97 + 13) % 256 for i in range(length))

    upload = post(service, "/api/fonts", files={"file": ("noise.ttf", bytes(font))})
    assert_refused(hostile(service, upload), 400, "not a valid font")
    job = post(service, "/api/jobs", **job_form(names_path, {}, font_file=("f.ttf", bytes(font))))
    assert_refused(hostile(service, job), 400, "not a valid font")


def test_a_name_list_of_endless_empty_rows_is_refused_quickly(service, tmp_path):
    rows = "".join(
        f'<row r="{n}"><c r="A{n}" t="inlineStr"><is><t></t></is></c></row>'
        for n in range(1, 250_001)
    )
    path = tmp_path / "bomb.xlsx"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, text in _minimal_xlsx(rows).items():
            archive.writestr(name, text)
    assert path.stat().st_size < 2_000_000
    form = {"files": {"name_list": ("names.xlsx", path.read_bytes())}}

    refusal = hostile(service, post(service, "/api/jobs", **form))
    # Stopped at the row limit, or at the time limit on a slow machine: bounded either way.
    detail = assert_refused(refusal, refusal.response.status_code)
    assert (refusal.response.status_code, "rows" in detail) in ((400, True), (422, False)), detail


@pytest.mark.parametrize(
    "params",
    [
        {"MARGIN": 1e7},
        {"MARGIN": 1e12},
        {"MARGIN": 1e300},
        {"MIN_FONT_SIZE": 1e300},
        {"MAX_FONT_SIZE": 1e300},
        {"k" * 10_000_000: 1},
    ],
)
def test_params_out_of_their_range_are_400_with_a_short_detail(service, names_path, params):
    detail = assert_refused(
        hostile(service, post(service, "/api/jobs", **job_form(names_path, params))), 400
    )

    assert len(detail) <= 100


# Heavy requests: bounded, and the web process keeps answering meanwhile.


@pytest.mark.parametrize(
    "query",
    [
        "spacing=1e-9&fill=dot",
        "radius=1.7e308&fill=dot",
        "ring_spacing=1e-9&fill=ring",
        "line_width=1e308&fill=line",
    ],
)
def test_custom_svg_numbers_out_of_range_are_400(service, job_id, query):
    assert_refused(hostile(service, get(service, f"/api/jobs/{job_id}/custom.svg?{query}")), 400)


def test_line_spacing_at_its_finest_stays_bounded(service, job_id):
    send = post(
        service,
        f"/api/jobs/{job_id}/analyze-line-spacing",
        json={"sampleStep": 0.25, "percentile": 100},
    )

    refusal = hostile(service, send)
    assert refusal.response.status_code in (200, 400, 422), refusal.response.text
    assert_health_fast(refusal)


def test_a_heavy_svg_filter_sticker_does_not_stall_the_web_process(service, template_id):
    svg = (
        '<svg xmlns="http://www.w3.org/2000/svg" width="300" height="300">'
        '<filter id="f"><feMorphology radius="20"/></filter>'
        '<rect width="300" height="300" filter="url(#f)"/></svg>'
    )
    refusal = _render_with(service, template_id, ("heavy.svg", svg.encode()), box=4000)

    assert refusal.response.status_code in (200, 422), refusal.response.text
    assert_health_fast(refusal)


def test_an_svg_sticker_nested_3000_deep_is_4xx(service, template_id):
    svg = (
        '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">'
        + "<g>" * 3000
        + '<rect width="5" height="5"/>'
        + "</g>" * 3000
        + "</svg>"
    )
    refusal = _render_with(service, template_id, ("deep.svg", svg.encode()), box=100)

    assert_refused(refusal, refusal.response.status_code)
    assert 400 <= refusal.response.status_code < 500


def test_many_stickers_of_a_huge_png_are_422(service, template_id):
    refusal = _render_with(
        service, template_id, ("huge.png", png_bytes(7000, 7000)), box=5000, count=40
    )

    assert_refused(refusal, 422, "megapixels")


def test_no_traceback_in_the_service_logs(service):
    for name in ("web", "worker"):
        assert "Traceback" not in service.log(name), service.log(name)[-3000:]


def _render_with(service, template_id: str, upload, *, box: float, count: int = 1):
    before = state(service)
    uploaded = probed(service, post(service, "/api/assets", files={"file": upload}))
    asset = uploaded.response
    if asset.status_code != 201:  # refused at upload: that is the answer
        assert_unchanged(service, before)
        return uploaded
    sticker = {"asset_id": asset.json()["id"], "x": 0, "y": 0, "width": box, "height": box}
    project = httpx.post(
        f"{service.url}/api/projects",
        headers=staff_headers(),
        timeout=60,
        data={
            "name": "hostile",
            "template_id": template_id,
            "background_color": "#FFFFFF",
            "stickers": json.dumps([sticker] * count),
        },
    )
    assert project.status_code == 201, project.text
    return hostile(service, get(service, f"/api/projects/{project.json()['id']}/render.png"))


def _minimal_xlsx(sheet_rows: str) -> dict[str, str]:
    main = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
    rel = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
    package = "http://schemas.openxmlformats.org/package/2006/relationships"
    return {
        "[Content_Types].xml": (
            '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
            '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
            '<Default Extension="xml" ContentType="application/xml"/>'
            '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>'
            '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>'
            "</Types>"
        ),
        "_rels/.rels": (
            f'<?xml version="1.0"?><Relationships xmlns="{package}">'
            f'<Relationship Id="rId1" Type="{rel}/officeDocument" Target="xl/workbook.xml"/></Relationships>'
        ),
        "xl/workbook.xml": (
            f'<?xml version="1.0"?><workbook xmlns="{main}" xmlns:r="{rel}">'
            '<sheets><sheet name="S" sheetId="1" r:id="rId1"/></sheets></workbook>'
        ),
        "xl/_rels/workbook.xml.rels": (
            f'<?xml version="1.0"?><Relationships xmlns="{package}">'
            f'<Relationship Id="rId1" Type="{rel}/worksheet" Target="worksheets/sheet1.xml"/></Relationships>'
        ),
        "xl/worksheets/sheet1.xml": (
            f'<?xml version="1.0"?><worksheet xmlns="{main}"><sheetData>{sheet_rows}</sheetData></worksheet>'
        ),
    }
