import io
import sqlite3

import numpy as np
import pytest
from PIL import Image

from tests.errors import refusal
from tests.wordclouds.conftest import jobs_root
from wordclouds.models import Job

pytestmark = pytest.mark.django_db


def test_the_mask_is_the_canvas_with_every_word_box_white(api, finished_job_dir):
    job_id = finished_job_dir(names=["Anna", "Bruno", "李雷", "韩梅梅", "Émile"])
    with sqlite3.connect(jobs_root() / job_id / "positions.db") as connection:
        boxes = connection.execute(
            "SELECT box_x, box_y, box_width, box_height FROM words"
        ).fetchall()

    response = api.get(f"/api/jobs/{job_id}/occupancy_mask")

    assert response.status_code == 200
    assert response["Content-Type"] == "image/png"
    image = Image.open(io.BytesIO(response.content))
    assert image.size == (400, 300)
    pixels = np.asarray(image.convert("L"))
    expected = np.zeros((300, 400), dtype=bool)
    for x, y, width, height in boxes:
        expected[y : y + height, x : x + width] = True
    assert set(np.unique(pixels)) == {0, 255}
    assert np.array_equal(pixels == 255, expected)


def test_unknown_job_is_404(api):
    response = api.get(f"/api/jobs/{'0' * 32}/occupancy_mask")

    assert response.status_code == 404
    assert refusal(response) == "job not found"


def test_job_without_positions_is_404_artifact_not_ready(api):
    job = Job.objects.create(status=Job.Status.QUEUED, name_list="names.xlsx")

    response = api.get(f"/api/jobs/{job.id}/occupancy_mask")

    assert response.status_code == 404
    assert refusal(response) == "artifact not ready"
