"""The poster's zoom pyramid: made once by the worker's code, served by a public endpoint."""

import io

import pytest
from PIL import Image
from rest_framework.test import APIClient

from tests.errors import refusal

pytestmark = pytest.mark.django_db


@pytest.fixture
def client():
    return APIClient()


def _image(response) -> Image.Image:
    return Image.open(io.BytesIO(b"".join(response.streaming_content)))


def test_a_finished_job_has_a_pyramid_down_to_one_tile(client, finished_job):
    job_id = finished_job(params={"WIDTH": 600, "HEIGHT": 300, "SEED": 3})

    index = client.get(f"/api/jobs/{job_id}/tiles")
    assert index.status_code == 200
    assert index.json() == {
        "width": 600,
        "height": 300,
        "tile_size": 256,
        "levels": 3,
        "format": "jpg",
    }
    assert "immutable" in index["Cache-Control"]

    poster = Image.open(
        io.BytesIO(b"".join(client.get(f"/api/jobs/{job_id}/files/png").streaming_content))
    )
    deepest = [
        [
            _image(client.get(f"/api/jobs/{job_id}/tiles/2/{column}_{row}.jpg"))
            for column in range(3)
        ]
        for row in range(2)
    ]
    assert [tile.size for tile in deepest[1]] == [(256, 44), (256, 44), (88, 44)]
    # The deepest level is the poster's own pixels (JPEG: close, not equal).
    corner = poster.convert("RGB").crop((256, 0, 512, 256))
    difference = sum(abs(a - b) for a, b in zip(corner.tobytes(), deepest[0][1].tobytes()))
    assert difference / len(corner.tobytes()) < 6
    assert _image(client.get(f"/api/jobs/{job_id}/tiles/1/1_0.jpg")).size == (44, 150)
    assert _image(client.get(f"/api/jobs/{job_id}/tiles/0/0_0.jpg")).size == (150, 75)


def test_missing_tiles_say_what_is_missing(client, finished_job, finished_job_dir):
    job_id = finished_job(params={"WIDTH": 300, "HEIGHT": 200, "SEED": 3})
    folder_only = finished_job_dir()  # made without the worker: no pyramid

    assert refusal(client.get(f"/api/jobs/{job_id}/tiles/1/5_0.jpg")) == "tile not found"
    assert client.get(f"/api/jobs/{job_id}/tiles/9/0_0.jpg").status_code == 404
    assert refusal(client.get(f"/api/jobs/{folder_only}/tiles")) == "artifact not ready"
    assert refusal(client.get(f"/api/jobs/{'0' * 32}/tiles")) == "job not found"
