"""custom.svg options that draw nothing are drawn as cheaply as nothing: rings whose hole
holds every word (a ring wider than the canvas) on a grid finer than a pixel. Before, the
child built every word's polygons and tested each of a million grid points against them
(189 s for this poster on a busy machine, answered 422 after the time limit); the time
limit below is far above what it costs now (bench/crowd.py measures it)."""

import pytest
from defusedxml import ElementTree

from tests.names import sample_names

pytestmark = pytest.mark.django_db
SVG = "{http://www.w3.org/2000/svg}"


@pytest.mark.parametrize(
    "rings",
    [
        {"ring_spacing": "0.99999", "ring_width": "3429", "ring_radius": "2976"},
        {"ring_spacing": "0.99999", "ring_width": "3", "ring_radius": "2000"},
    ],
)
def test_rings_wider_than_the_canvas_on_a_sub_pixel_grid_draw_nothing_in_time(
    api, finished_job_dir, settings, rings
):
    job_id = finished_job_dir(sample_names(40), {"WIDTH": 900, "HEIGHT": 700, "SEED": 1})
    settings.HEAVY_TIME_LIMIT_SECONDS = 5

    response = api.get(f"/api/jobs/{job_id}/custom.svg", {"fill": "ring", **rings})

    assert response.status_code == 200, response.content[:200]
    root = ElementTree.fromstring(response.content)
    assert root.get("viewBox") == "0 0 900 700"
    assert list(root) == []
