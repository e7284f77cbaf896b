import json

import pytest
from django.test import Client

from tests.wordclouds.asset_factories import asset_id, png_bytes, project_create
from wordclouds.models import Asset, Template

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff(django_user_model):
    user = django_user_model.objects.create_superuser("staff", "staff@example.com", "pw")
    client = Client()
    client.force_login(user)
    return client


def test_change_lists_open(staff):
    for model in ("asset", "project", "font", "template"):
        assert staff.get(f"/admin/wordclouds/{model}/").status_code == 200


def test_asset_and_project_pages_show_a_preview(api, staff):
    the_id = asset_id(api, png_bytes())
    sticker = {"asset_id": the_id, "x": 0, "y": 0, "width": 5, "height": 5}
    project = project_create(api, stickers=json.dumps([sticker])).json()

    asset_page = staff.get(f"/admin/wordclouds/asset/{the_id}/change/")
    project_page = staff.get(f"/admin/wordclouds/project/{project['id']}/change/")

    assert f'<img src="/api/assets/{the_id}/download"' in asset_page.content.decode()
    html = project_page.content.decode()
    assert f'<img src="/api/projects/{project["id"]}/render.png"' in html
    # the sticker is a row linking to its asset, with its thumbnail and placement
    assert f'<a href="/admin/wordclouds/asset/{the_id}/change/">' in html
    assert html.count(f'<img src="/api/assets/{the_id}/download"') == 1
    assert "5 × 5" in html and '"asset_id"' not in html


def test_list_pages_show_thumbnails(api, staff):
    the_id = asset_id(api, png_bytes())
    project = project_create(api).json()

    assets = staff.get("/admin/wordclouds/asset/").content.decode()
    projects = staff.get("/admin/wordclouds/project/").content.decode()

    assert f'<img src="/api/assets/{the_id}/download"' in assets
    assert f'<img src="/api/projects/{project["id"]}/render.png"' in projects


def test_fixed_templates_cannot_be_deleted(staff):
    Template.objects.create(id="flyer", name="Flyer", width=100, height=100)
    Template.objects.create(id="banner", name="Banner", width=100, height=100)

    single = staff.get("/admin/wordclouds/template/poster_1x1/delete/")
    with_fixed = staff.post(
        "/admin/wordclouds/template/",
        {
            "action": "delete_selected",
            "_selected_action": ["poster_1x1", "flyer"],
            "post": "yes",
        },
    )
    only_custom = staff.post(
        "/admin/wordclouds/template/",
        {
            "action": "delete_selected",
            "_selected_action": ["flyer"],
            "post": "yes",
        },
    )

    assert single.status_code == 403
    assert with_fixed.status_code == 403
    assert only_custom.status_code == 302
    assert sorted(Template.objects.filter(builtin=False).values_list("id", flat=True)) == ["banner"]
    assert Template.objects.filter(builtin=True).count() == 5


def test_delete_goes_through_the_service_and_keeps_assets_in_use(
    api,
    staff,
    media_root,
    django_capture_on_commit_callbacks,
):
    used = asset_id(api, png_bytes())
    unused = asset_id(api, png_bytes())
    project_create(
        api, stickers=json.dumps([{"asset_id": used, "x": 0, "y": 0, "width": 5, "height": 5}])
    )

    refused = staff.post(
        "/admin/wordclouds/asset/",
        {
            "action": "delete_selected",
            "_selected_action": [used, unused],
            "post": "yes",
        },
    )
    with django_capture_on_commit_callbacks(execute=True):
        staff.post(
            "/admin/wordclouds/asset/",
            {
                "action": "delete_selected",
                "_selected_action": [unused],
                "post": "yes",
            },
        )

    assert "protected" in refused.content.decode()
    assert list(Asset.objects.values_list("id", flat=True)) == [used]
    assert sorted(path.name for path in (media_root / "assets").iterdir()) == [f"{used}.png"]


def test_staff_add_templates_of_a_drawable_size(staff):
    form = {"id": "banner", "name": "Banner", "position": 1000}

    refused = staff.post("/admin/wordclouds/template/add/", {**form, "width": 0, "height": 10})
    added = staff.post("/admin/wordclouds/template/add/", {**form, "width": 800, "height": 200})

    assert "must be 1–10000 px" in refused.content.decode()
    assert added.status_code == 302
    assert Template.objects.get(id="banner").width == 800
