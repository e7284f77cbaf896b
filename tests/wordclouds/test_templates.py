import pytest

from wordclouds.models import Template

pytestmark = pytest.mark.django_db

FIXED = [
    {"id": "poster_1x2", "name": "Portrait phone poster", "width": 1080, "height": 2160},
    {"id": "poster_4x5", "name": "Social-media image", "width": 1080, "height": 1350},
    {"id": "poster_1x1", "name": "Square cover", "width": 1080, "height": 1080},
    {"id": "poster_3x4", "name": "Portrait advertisement", "width": 1080, "height": 1440},
    {"id": "poster_16x9", "name": "Landscape shop banner", "width": 1920, "height": 1080},
]


def test_lists_the_five_fixed_templates_in_spec_order(api):
    response = api.get("/api/templates")

    assert response.status_code == 200
    assert response.json() == FIXED


def test_staff_templates_come_after_the_fixed_ones(api):
    Template.objects.create(id="a4_flyer", name="A4 flyer", width=2480, height=3508, position=0)

    response = api.get("/api/templates")

    assert response.json()[:5] == FIXED
    assert response.json()[5] == {
        "id": "a4_flyer",
        "name": "A4 flyer",
        "width": 2480,
        "height": 3508,
    }
