"""A design list's projects are frozen when it leaves DRAFT (docs/commerce.md, "Frozen
projects"): from then on the project answers 409 to a change or a deletion, naming the list
and its orders, and a paid order's print file is drawn from the copy made at submission,
whatever is edited later — here a change that goes round the services, as a database edit
would."""

import numpy as np
import pytest
from django.core.files.storage import default_storage

from commerce.models import DesignList, Preparation, Product
from commerce.services.production import preparation_run
from tests.commerce.factories import make_address
from tests.errors import refusal
from tests.exports.pdf.readers import render_with_poppler
from tests.wordclouds.asset_factories import asset_id, png_bytes, project_create
from wordclouds.models import Project

RED, BLUE = "#FF0000", "#0000FF"


def centre_colour(pdf: bytes) -> np.ndarray:
    pixels = render_with_poppler(pdf, 20, 20)
    return pixels[10, 10, :3].astype(int)


def ordered(customer, design_list: int) -> int:
    """The id of the customer's new order of a 100 mm print poster naming the design list."""
    poster = Product.objects.create(name="Poster", price=4900, kind="print", width_mm=100)
    answer = customer.post(
        "/api/orders",
        {
            "addressId": make_address(customer.user).pk,
            "items": [{"productId": poster.pk, "quantity": 1}],
            "designListId": design_list,
        },
        format="json",
    )
    assert answer.status_code == 201, answer.json()
    return answer.json()["id"]


@pytest.fixture
def submitted(alice, staff):
    """A red project with a sticker, on alice's submitted design list."""
    sticker = asset_id(staff, png_bytes((8, 8), (0, 255, 0, 255)))
    stickers = f'[{{"asset_id": "{sticker}", "x": 0, "y": 0, "width": 50, "height": 50}}]'
    project = project_create(alice, background_color=RED, stickers=stickers).json()["id"]
    made = alice.post(
        "/api/design-lists",
        {"name": "Class of 2026", "items": [{"projectId": project, "quantity": 1}]},
        format="json",
    )
    assert made.status_code == 201, made.json()
    design_list = made.json()["id"]
    submitted = alice.post(f"/api/design-lists/{design_list}/submit")
    assert submitted.status_code == 200, submitted.json()
    return project, design_list


def test_submitting_keeps_a_copy_of_each_project_in_the_store(submitted):
    project, design_list = submitted

    frozen = DesignList.objects.get(pk=design_list).frozen

    assert list(frozen) == [project]
    with default_storage.open(frozen[project]) as copy:
        svg = copy.read()
    assert f'fill="{RED}"'.encode() in svg and b"data:image/png;base64," in svg


def test_a_submitted_project_is_neither_changed_nor_deleted(alice, submitted):
    project, design_list = submitted

    changed = alice.patch(
        f"/api/projects/{project}", {"background_color": BLUE}, format="multipart"
    )
    deleted = alice.delete(f"/api/projects/{project}")

    for answer, action in ((changed, "changed"), (deleted, "deleted")):
        assert answer.status_code == 409
        assert answer.json()["code"] == "project_in_use"
        assert refusal(answer) == (
            f"project cannot be {action}: it is used by design list {design_list} (SUBMITTED)"
        )
    assert Project.objects.get(pk=project).background_color == RED


def test_a_draft_lists_project_may_still_change(alice, staff):
    project = project_create(alice, background_color=RED).json()["id"]
    alice.post(
        "/api/design-lists",
        {"name": "Draft", "items": [{"projectId": project, "quantity": 1}]},
        format="json",
    )

    changed = alice.patch(
        f"/api/projects/{project}", {"background_color": BLUE}, format="multipart"
    )

    assert changed.status_code == 200


def test_a_paid_orders_print_file_is_drawn_from_the_copy_whatever_is_edited_later(
    alice, staff, submitted
):
    project, design_list = submitted
    order = ordered(alice, design_list)
    deleted = alice.delete(f"/api/projects/{project}")
    assert refusal(deleted).endswith(f"design list {design_list} (PROCESSING), order {order}")
    # Changed round the services (a database edit, the admin of tomorrow): the live
    # project is blue now, its frozen copy red.
    Project.objects.filter(pk=project).update(background_color=BLUE)
    assert staff.post(f"/api/orders/{order}/mark-paid").status_code == 200

    preparation = Preparation.objects.get(order_id=order)
    preparation_run(preparation.pk)
    preparation.refresh_from_db()
    assert preparation.status == "READY", preparation.error
    listed = staff.get(f"/api/orders/{order}/production").json()
    printed = b"".join(staff.get(listed[0]["files"][0]["url"]).streaming_content)
    live = staff.get(f"/api/projects/{project}/render.pdf?width_mm=100&standard=x1a")
    assert live.status_code == 200

    red, green, blue = centre_colour(printed)
    assert red > 200 and blue < 80, (red, green, blue)
    red, green, blue = centre_colour(live.content)
    assert blue > 120 and red < 80, (red, green, blue)


def test_a_draft_list_ordered_at_once_is_frozen_by_the_order(alice):
    project = project_create(alice, background_color=RED).json()["id"]
    design_list = alice.post(
        "/api/design-lists",
        {"name": "Straight to the till", "items": [{"projectId": project, "quantity": 1}]},
        format="json",
    ).json()["id"]

    ordered(alice, design_list)

    frozen = DesignList.objects.get(pk=design_list).frozen
    assert list(frozen) == [project] and default_storage.exists(frozen[project])
    changed = alice.patch(f"/api/projects/{project}", {"name": "Renamed"}, format="multipart")
    assert changed.json()["code"] == "project_in_use"
