"""Fixtures of the storage tests: a real Swift (tests/storage/swift.py), jobs with a mask and
a font, and reading the service's answers without following redirects."""

import io
import json

import httpx
import pytest
from PIL import Image, ImageDraw

from tests.processes import Service
from tests.storage.swift import Swift
from tests.wordclouds.conftest import names_xlsx, tiny_font  # noqa: F401 (fixtures)

NAMES = [f"Name {letter}{number}" for letter in "ABCDEFGH" for number in range(6)]
PARAMS = {"WIDTH": 400, "HEIGHT": 300, "SEED": 7, "MODE": "IMAGE"}


@pytest.fixture(scope="module")
def swift(tmp_path_factory):
    """One Swift for the module's tests (starting one takes 10-40 s on a busy machine)."""
    store = Swift(tmp_path_factory.mktemp("swift")).start()
    yield store
    store.stop()


def mask_png() -> bytes:
    image = Image.new("RGB", (120, 90), "white")
    ImageDraw.Draw(image).ellipse((5, 5, 115, 85), fill="black")
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


@pytest.fixture
def service(tmp_path, database_template, swift):
    """Web and worker on the S3 backend of `swift`; the store is resumed afterwards."""
    started = Service(
        tmp_path,
        database_template,
        **swift.environment(S3_URL_SECONDS="4", STORAGE_BACKOFF_MAX_SECONDS="4"),
        JOB_STALE_SECONDS=5,
        JOB_HEARTBEAT_SECONDS=1,
    ).start()
    yield started
    started.stop()
    swift.resume()


def job_files(names: bytes, font: bytes) -> dict:
    """POST /api/jobs's files: the name list, a mask and a font."""
    return {
        "name_list": ("names.xlsx", names),
        "mask_image": ("mask.png", mask_png()),
        "font_file": ("font.ttf", font),
    }


@pytest.fixture
def submit(names_xlsx, tiny_font):  # noqa: F811
    """A factory: POST /api/jobs with a name list, a mask and an uploaded font to `url`."""
    names = names_xlsx(NAMES).read_bytes()
    font = tiny_font().read_bytes()

    def post(url: str) -> str:
        response = httpx.post(
            f"{url}/api/jobs",
            files=job_files(names, font),
            data={"params": json.dumps(PARAMS)},
            timeout=60,
        )
        assert response.status_code == 201, response.text
        return response.json()["job_id"]

    return post


def redirected(url: str, **headers) -> httpx.Response:
    """The service's answer (a 302 on S3), not followed."""
    return httpx.get(url, headers=headers, timeout=30, follow_redirects=False)
