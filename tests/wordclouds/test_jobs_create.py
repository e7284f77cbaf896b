"""POST /api/jobs: every validation row answers before anything exists; a good request
stores the inputs, creates a queued job and enqueues its run after commit."""

import io
import json
import re
import shutil

import openpyxl
import pytest
from django_q.conf import Conf
from PIL import Image, ImageDraw

from tests.errors import refusal
from wordclouds.models import Font, Job, JobEvent
from wordclouds.services.jobs import ENQUEUE_ERROR

pytestmark = pytest.mark.django_db
ISO_UTC = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$")


def png(size=(80, 60), drawable=True, mode="RGB", kind="PNG") -> bytes:
    image = Image.new(mode, size, "white")
    if drawable:
        ImageDraw.Draw(image).ellipse((10, 10, size[0] - 10, size[1] - 10), fill="black")
    out = io.BytesIO()
    image.save(out, format=kind)
    return out.getvalue()


def named(name: str, content: bytes) -> io.BytesIO:
    stream = io.BytesIO(content)
    stream.name = name
    return stream


@pytest.fixture
def post_job(api, names_xlsx, django_capture_on_commit_callbacks):
    """POST /api/jobs with a good name list unless `name_list` is given; returns
    (response, the on-commit callbacks captured)."""

    def post(*, params=None, name_list="default", **files):
        form = {key: value for key, value in files.items() if value is not None}
        if name_list == "default":
            name_list = named("names.xlsx", names_xlsx(["Anna", "李雷", "Bruno"]).read_bytes())
        if name_list is not None:
            form["name_list"] = name_list
        if params is not None:
            form["params"] = params if isinstance(params, str) else json.dumps(params)
        with django_capture_on_commit_callbacks() as callbacks:
            response = api.post("/api/jobs", form, format="multipart")
        return response, callbacks

    return post


def assert_nothing_created(media_root):
    assert Job.objects.count() == 0
    assert JobEvent.objects.count() == 0
    jobs = media_root / "jobs"
    assert not jobs.exists() or list(jobs.iterdir()) == []


def test_a_good_request_stores_inputs_and_runs_the_job_after_commit(
    post_job, media_root, monkeypatch
):
    monkeypatch.setattr(Conf, "SYNC", True)  # django-q2's test mode: tasks run in process
    response, callbacks = post_job(params={"SEED": 3, "WIDTH": 300, "HEIGHT": 200})

    assert response.status_code == 201
    job_id = response.json()["job_id"]
    assert re.fullmatch(r"[0-9a-f]{32}", job_id)
    job = Job.objects.get(id=job_id)
    assert (job.status, job.stage, job.progress_percent) == ("queued", "queued", 0)
    assert job.params == {"SEED": 3, "WIDTH": 300, "HEIGHT": 200}
    assert (media_root / "jobs" / job_id / "input" / job.name_list).is_file()
    assert [e.message for e in job.events.all()] == ["job queued"]

    for callback in callbacks:  # the commit
        callback()

    assert Job.objects.get(id=job_id).status == "success"


def test_the_new_job_answers_as_job_status(post_job, api):
    job_id = post_job()[0].json()["job_id"]

    body = api.get(f"/api/jobs/{job_id}").json()

    assert set(body) == {
        "job_id",
        "status",
        "stage",
        "progress_percent",
        "message",
        "created_at",
        "updated_at",
        "artifacts",
        "error",
        "parent_job_id",
        "revision",
        "queue_position",
    }
    assert body["status"] == "queued" and body["artifacts"] == {} and body["error"] == ""
    assert body["queue_position"] == 0  # the only job queued: none ahead of it
    assert (body["parent_job_id"], body["revision"]) == (None, 0)
    assert ISO_UTC.match(body["created_at"]) and ISO_UTC.match(body["updated_at"])


@pytest.mark.parametrize(
    "params, detail",
    [
        ("{not json", "params must be valid JSON"),
        ("[1, 2]", "params must be JSON object"),
        ({"COLOUR": "#000000"}, "unknown params key: COLOUR"),
        ({"SEED": "seven"}, "params.SEED must be an integer from 0 to 2^63-1"),
        ({"N_REPETITIONS": 51}, "params.N_REPETITIONS must be an integer from 1 to 50"),
        ({"MODE": "IMAGE"}, "mask_image is required when MODE=IMAGE"),
        ({"DATA_COL_INDEX": 3}, "name_list has no names in column 3"),
        ({"MASK_TEXT": ""}, "params.MASK_TEXT must not be empty"),
        ({"MASK_TEXT": "x" * 25}, "params.MASK_TEXT must be at most 24 characters"),
        ({"MASK_TEXT": "AB\n\nCD"}, "params.MASK_TEXT has an empty line"),
        ({"MODE": "TEXT"}, "params.MASK_TEXT is required when MODE=TEXT"),
        ({"MODE": "RECT", "MASK_TEXT": "AB"}, "params.MASK_TEXT needs MODE TEXT (or no MODE)"),
        (
            {"MASK_TEXT": "AB", "MASK_FONT_ID": "nope"},
            "params.MASK_FONT_ID must be an uploaded font's id or __default__",
        ),
    ],
)
def test_bad_params_are_rejected_before_anything_exists(post_job, media_root, params, detail):
    response, callbacks = post_job(params=params)

    assert (response.status_code, refusal(response)) == (400, detail)
    assert callbacks == []
    assert_nothing_created(media_root)


def test_name_list_is_required(post_job, media_root):
    response, _ = post_job(name_list=None)

    assert (response.status_code, refusal(response)) == (400, "name_list is required")
    assert_nothing_created(media_root)


@pytest.mark.parametrize(
    "filename, content, detail",
    [
        ("names.xls", b"whatever", "name_list must be xlsx"),
        ("names.csv", b"Anna\nBruno\n", "name_list must be xlsx"),
        ("names.xlsx", b"PK\x03\x04 not really a zip", "name_list is not a readable xlsx file"),
        ("names.xlsx", b"<html>renamed</html>", "name_list is not a readable xlsx file"),
    ],
)
def test_a_bad_name_list_is_rejected(post_job, media_root, filename, content, detail):
    response, _ = post_job(name_list=named(filename, content))

    assert (response.status_code, refusal(response)) == (400, detail)
    assert_nothing_created(media_root)


def test_a_text_cell_in_the_weight_column_is_400_naming_its_row(post_job, media_root, tmp_path):
    book = openpyxl.Workbook()
    for row in (["name", "weight"], ["Anna", 3], ["Bruno", "gold"], ["Chloé", 1]):
        book.active.append(row)
    book.save(tmp_path / "weighted.xlsx")

    response, _ = post_job(
        params={"WEIGHT_COL_INDEX": 1},
        name_list=named("weighted.xlsx", (tmp_path / "weighted.xlsx").read_bytes()),
    )

    assert response.status_code == 400
    assert refusal(response) == (
        'name_list row 3 has a weight that is not a number of at least 0: "gold"'
    )
    assert_nothing_created(media_root)


@pytest.mark.parametrize(
    "filename, content, detail",
    [
        ("mask.gif", png(), "mask_image must be png/jpg/jpeg"),
        ("mask.png", png(kind="GIF"), "mask_image must be png/jpg/jpeg"),
        ("mask.png", b"\x89PNG broken", "mask_image is not a readable image"),
        ("mask.jpg", png(drawable=False), "mask_image has no drawable area"),
    ],
)
def test_a_bad_mask_is_rejected(post_job, media_root, filename, content, detail):
    response, _ = post_job(params={"MODE": "IMAGE"}, mask_image=named(filename, content))

    assert (response.status_code, refusal(response)) == (400, detail)
    assert_nothing_created(media_root)


def test_an_image_job_with_a_mask_is_created(post_job, media_root):
    response, _ = post_job(params={"MODE": "IMAGE"}, mask_image=named("Shape.PNG", png()))

    assert response.status_code == 201
    job = Job.objects.get(id=response.json()["job_id"])
    assert job.mask_image == "mask.png"
    assert (media_root / "jobs" / job.id / "input" / "mask.png").read_bytes() == png()


@pytest.mark.parametrize(
    "filename, content, detail",
    [
        ("font.woff", b"wOFF", "font_file must be .ttf, .ttc or .otf"),
        ("font.ttf", b"\x00\x01\x00\x00 garbage", "font_file is not a valid font"),
    ],
)
def test_a_bad_font_file_is_rejected(post_job, media_root, filename, content, detail):
    response, _ = post_job(font_file=named(filename, content))

    assert (response.status_code, refusal(response)) == (400, detail)
    assert_nothing_created(media_root)


def test_an_unknown_font_id_is_rejected(post_job, media_root):
    response, _ = post_job(font_id="0123456789abcdef0123456789abcdef")

    assert (response.status_code, refusal(response)) == (400, "unknown font_id")
    assert_nothing_created(media_root)


def test_font_file_wins_over_font_id(post_job, tiny_font):
    font = tiny_font()

    response, _ = post_job(font_file=named("mine.ttf", font.read_bytes()), font_id="nope")

    assert response.status_code == 201
    job = Job.objects.get(id=response.json()["job_id"])
    assert (job.font_file, job.font_id) == ("font.ttf", "")


def test_font_id_may_name_the_default_or_an_uploaded_font(post_job, tiny_font, media_root):
    (media_root / "fonts").mkdir()
    shutil.copy(tiny_font(), media_root / "fonts" / "f.ttf")
    uploaded = Font.objects.create(name="Tiny", filename="f.ttf", file="fonts/f.ttf")

    for font_id in ("__default__", uploaded.id):
        response, _ = post_job(font_id=font_id)

        assert response.status_code == 201
        assert Job.objects.get(id=response.json()["job_id"]).font_id == font_id


def grouped_list(groups: list[str]) -> io.BytesIO:
    workbook = openpyxl.Workbook()
    workbook.active.append(["name", "class"])
    for k, group in enumerate(groups):
        workbook.active.append([f"Name {k}", group])
    content = io.BytesIO()
    workbook.save(content)
    return named("names.xlsx", content.getvalue())


@pytest.mark.parametrize(
    "params, groups, detail",
    [
        ({"GROUP_COL_INDEX": 1}, None, "name_list row 2 has no group in column 1"),
        (
            {"GROUP_COL_INDEX": 1, "GROUP_COLORS": {"9班": "#112233"}},
            ["1班", "2班"],
            'params.GROUP_COLORS names a group the list does not have: "9班"',
        ),
        (
            {"GROUP_COL_INDEX": 1, "MASK_TEXT": "AB"},
            ["1班", "2班", "3班"],
            "name_list has 3 groups but MASK_TEXT has only 2 letters to put them in; give "
            "fewer groups or a longer text",
        ),
        (
            {
                "GROUP_COL_INDEX": 1,
                "MASK_TEXT": "AB",
                "GROUP_REGIONS": {"1班": [0], "7班": [1]},
            },
            ["1班", "2班"],
            'params.GROUP_REGIONS names a group the list does not have: "7班"',
        ),
        (
            {"GROUP_COLORS": {"1班": "#112233"}},
            ["1班"],
            "params.GROUP_COLORS needs GROUP_COL_INDEX",
        ),
        (
            {"GROUP_COL_INDEX": 1, "GROUP_REGIONS": {"1班": [0]}},
            ["1班"],
            "params.GROUP_REGIONS needs MASK_TEXT or a mask image (its letters or flat colours "
            "are the regions)",
        ),
    ],
)
def test_bad_groups_are_400_naming_the_problem(post_job, media_root, params, groups, detail):
    name_list = grouped_list(groups) if groups else "default"
    response, callbacks = post_job(params=params, name_list=name_list)

    assert (response.status_code, refusal(response)) == (400, detail)
    assert callbacks == []
    assert_nothing_created(media_root)


def test_a_text_mask_in_an_uploaded_font_is_checked_against_that_font(
    post_job, tiny_font, media_root
):
    (media_root / "fonts").mkdir()
    shutil.copy(tiny_font(), media_root / "fonts" / "f.ttf")
    uploaded = Font.objects.create(name="Tiny", filename="f.ttf", file="fonts/f.ttf")

    response, _ = post_job(params={"MASK_TEXT": "2026 毕业", "MASK_FONT_ID": uploaded.id})
    assert (response.status_code, response.json()["code"]) == (400, "params_invalid")
    assert "cannot draw: 毕 (U+6BD5), 业 (U+4E1A)" in refusal(response)
    assert_nothing_created(media_root)

    response, _ = post_job(params={"MASK_TEXT": "2026", "MASK_FONT_ID": uploaded.id})
    assert response.status_code == 201


@pytest.mark.parametrize(
    "setting, field, files",
    [
        ("NAME_LIST_MAX_BYTES", "name_list", {}),
        ("MASK_IMAGE_MAX_BYTES", "mask_image", {"mask_image": named("m.png", png())}),
        ("FONT_MAX_BYTES", "font_file", {"font_file": named("f.ttf", b"x" * 200)}),
    ],
)
def test_an_upload_over_its_limit_is_413_naming_the_field(
    post_job, media_root, settings, setting, field, files
):
    setattr(settings, setting, 100)

    response, _ = post_job(**files)

    assert response.status_code == 413
    assert response.json()["detail"].startswith(f"{field} exceeds")
    assert_nothing_created(media_root)


def test_a_mask_over_the_pixel_limit_is_413(post_job, media_root, settings):
    settings.MASK_IMAGE_MAX_PIXELS = 1000

    response, _ = post_job(params={"MODE": "IMAGE"}, mask_image=named("m.png", png()))

    assert response.status_code == 413
    assert response.json()["detail"].startswith("mask_image exceeds")
    assert_nothing_created(media_root)


def test_a_job_that_cannot_be_handed_to_the_broker_fails(post_job, monkeypatch):
    monkeypatch.setattr(Conf, "ORM", "no-such-database")  # the ORM broker's database
    monkeypatch.setattr(Conf, "REDIS", "redis://127.0.0.1:1/0")  # or Redis, unreachable
    response, callbacks = post_job()

    for callback in callbacks:  # the commit
        callback()

    job = Job.objects.get(id=response.json()["job_id"])
    assert (job.status, job.error) == ("failed", ENQUEUE_ERROR)


def test_a_name_no_font_can_draw_is_refused_with_its_row_and_code_point(
    post_job, names_xlsx, media_root
):
    # Given a name list whose third name holds a private-use character
    names = named("names.xlsx", names_xlsx(["Anna", "Łukasz", "Bo\ue000b"]).read_bytes())
    # When the job is submitted
    response, callbacks = post_job(name_list=names)
    # Then it is refused, naming the row, the name and the code point, and nothing exists
    assert response.status_code == 400
    assert response.json()["detail"].startswith(
        'name_list row 4: "Bo\ue000b" has characters no font can draw (U+E000)'
    )
    assert callbacks == []
    assert_nothing_created(media_root)
