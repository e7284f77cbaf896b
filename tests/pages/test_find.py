"""The lookup page, used as a person at the event would: type a name, pick it, see the poster
zoom to it; on a desktop and on a phone with touch. The highlight is checked against the box
that the job's positions.db holds, scaled the way the poster is on screen."""

import re
import sqlite3
import time

import httpx
import openpyxl
import pytest
import segno
from playwright.sync_api import expect

pytestmark = pytest.mark.e2e

NAMES = [
    "Anna Berg",
    "Bruno Costa",
    "Chloé Dubois",
    "Li Wei",
    "Dmitri Egorov",
    "Li Wei",
    "Emil Fischer",
    "Farah Ghani",
    "Greta Holm",
    "Hugo Ito",
    "Ines Jaeger",
    "Jonas Kim",
]


@pytest.fixture(scope="module")
def job(service, tmp_path_factory):
    """A finished job of known names (Li Wei twice), made by the real worker."""
    path = tmp_path_factory.mktemp("find") / "names.xlsx"
    book = openpyxl.Workbook()
    book.active.append(["name"])
    for name in NAMES:
        book.active.append([name])
    book.save(path)
    job_id = service.submit(path, {"WIDTH": 900, "HEIGHT": 600, "SEED": 5})
    assert (
        service.wait_for(job_id, lambda job: job["status"] in ("success", "failed"), 120)["status"]
        == "success"
    )
    return job_id


def positions_db(service, job_id: str):
    """The job's positions.db as its download gives it (from the store on S3)."""
    database = service.folder / f"positions-{job_id}.db"
    if not database.is_file():
        answer = httpx.get(
            f"{service.url}/api/jobs/{job_id}/files/db", timeout=30, follow_redirects=True
        )
        answer.raise_for_status()
        database.write_bytes(answer.content)
    return database


def boxes(service, job_id: str, name: str) -> list[dict]:
    """The boxes of `name` as positions.db holds them, in id order."""
    database = positions_db(service, job_id)
    with sqlite3.connect(database) as connection:
        rows = connection.execute(
            "SELECT box_x, box_y, box_width, box_height FROM words WHERE name = ? ORDER BY id",
            (name,),
        )
        return [dict(zip(("x", "y", "width", "height"), row)) for row in rows]


def canvas_width(service, job_id: str) -> float:
    database = positions_db(service, job_id)
    with sqlite3.connect(database) as connection:
        return float(
            connection.execute("SELECT value FROM meta WHERE key = 'canvas_width'").fetchone()[0]
        )


def assert_highlight_over(page, box: dict, width: float) -> None:
    """The highlight's rectangle on screen is the box, scaled and moved as the poster is."""
    highlight = page.locator("#poster-highlight")
    expect(highlight).to_be_visible()
    poster = page.locator("#poster-stage").bounding_box()
    scale = poster["width"] / width
    shown = highlight.bounding_box()
    expected = {
        "x": poster["x"] + box["x"] * scale,
        "y": poster["y"] + box["y"] * scale,
        "width": box["width"] * scale,
        "height": box["height"] * scale,
    }
    for key, value in expected.items():
        assert shown[key] == pytest.approx(value, abs=0.5), (key, shown, expected)
    viewer = page.locator("#poster-viewer").bounding_box()
    assert (
        viewer["x"] <= shown["x"] and shown["x"] + shown["width"] <= viewer["x"] + viewer["width"]
    )


def test_a_suggested_name_is_shown_with_its_box_highlighted(page, service, job):
    page.goto(f"/jobs/{job}/find")
    page.get_by_label("Find your name").fill("bru")

    page.get_by_role("option", name="Bruno Costa").click()

    assert_highlight_over(page, boxes(service, job, "Bruno Costa")[0], canvas_width(service, job))
    expect(page.get_by_role("status")).to_have_text("Here you are.")
    assert "name=Bruno+Costa" in page.url or "name=Bruno%20Costa" in page.url


def test_arrow_keys_and_enter_pick_a_suggestion(page, service, job):
    page.goto(f"/jobs/{job}/find")
    field = page.get_by_label("Find your name")
    field.fill("holm")
    expect(page.get_by_role("option", name="Greta Holm")).to_be_visible()

    field.press("ArrowDown")
    field.press("Enter")

    assert_highlight_over(page, boxes(service, job, "Greta Holm")[0], canvas_width(service, job))
    expect(field).to_have_value("Greta Holm")


def test_a_name_placed_twice_steps_to_the_second_and_the_link_restores_it(
    page, service, job, browser
):
    page.goto(f"/jobs/{job}/find")
    page.get_by_label("Find your name").fill("Li Wei")
    page.get_by_label("Find your name").press("Enter")
    first, second = boxes(service, job, "Li Wei")
    width = canvas_width(service, job)

    expect(page.locator("#find-position")).to_have_text("1 of 2")
    assert_highlight_over(page, first, width)
    page.get_by_role("button", name="Next").click()
    expect(page.locator("#find-position")).to_have_text("2 of 2")
    assert_highlight_over(page, second, width)

    shared = page.url
    other = browser.new_context(
        base_url=service.url, viewport={"width": 1000, "height": 800}
    ).new_page()
    other.goto(shared)
    expect(other.locator("#find-position")).to_have_text("2 of 2")
    assert_highlight_over(other, second, width)
    expect(other.get_by_label("Find your name")).to_have_value("Li Wei")
    other.context.close()


def test_an_unknown_name_is_said_to_be_missing(page, job):
    page.goto(f"/jobs/{job}/find")
    page.get_by_label("Find your name").fill("Nobody Here")
    page.get_by_role("button", name="Find", exact=True).click()

    expect(page.get_by_role("status")).to_contain_text("“Nobody Here” is not on this poster")
    expect(page.locator("#poster-highlight")).to_be_hidden()


def test_an_unknown_job_says_so(page):
    page.goto(f"/jobs/{'0' * 32}/find")

    expect(page.get_by_role("status")).to_have_text("job not found")


def touch(cdp, kind: str, *points) -> None:
    cdp.send(
        "Input.dispatchTouchEvent",
        {
            "type": kind,
            "touchPoints": [{"x": x, "y": y, "id": number} for number, (x, y) in enumerate(points)],
        },
    )


def stage_transform(page) -> tuple[float, float, float]:
    box = page.locator("#poster-stage").bounding_box()
    return box["x"], box["y"], box["width"]


def test_on_a_phone_touch_moves_and_pinch_zooms_the_poster(browser, service, job):
    context = browser.new_context(
        base_url=service.url,
        viewport={"width": 390, "height": 844},
        device_scale_factor=2,
        is_mobile=True,
        has_touch=True,
    )
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    page.goto(f"/jobs/{job}/find?name=Greta+Holm")
    assert_highlight_over(page, boxes(service, job, "Greta Holm")[0], canvas_width(service, job))
    page.get_by_role("button", name="Whole poster").tap()
    viewer = page.locator("#poster-viewer").bounding_box()
    middle = (viewer["x"] + viewer["width"] / 2, viewer["y"] + viewer["height"] / 2)
    x, y, width = stage_transform(page)

    # one finger drags the poster 60 px left and 40 px up
    touch(cdp, "touchStart", middle)
    for step in range(1, 7):
        touch(cdp, "touchMove", (middle[0] - 10 * step, middle[1] - 40 * step / 6))
    touch(cdp, "touchEnd")
    moved_x, moved_y, moved_width = stage_transform(page)
    assert (moved_x - x, moved_y - y, moved_width) == (
        pytest.approx(-60, abs=1),
        pytest.approx(-40, abs=1),
        width,
    )

    # two fingers spread from 100 to 200 px apart: twice the size
    left, right = (middle[0] - 50, middle[1]), (middle[0] + 50, middle[1])
    touch(cdp, "touchStart", left, right)
    for step in range(1, 6):
        touch(cdp, "touchMove", (left[0] - 10 * step, left[1]), (right[0] + 10 * step, right[1]))
    touch(cdp, "touchEnd")
    deadline = time.monotonic() + 5
    while stage_transform(page)[2] < 1.9 * width and time.monotonic() < deadline:
        time.sleep(0.05)
    assert stage_transform(page)[2] == pytest.approx(2 * width, rel=0.05)
    context.close()


def test_the_page_carries_a_qr_code_of_its_address(page, job):
    page.goto(f"/jobs/{job}/find?name=Anna+Berg")
    page.locator("summary", has_text="QR code of this page").click()

    address = page.url.split("?")[0]
    expect(page.locator(".find-qr figcaption")).to_have_text(address)
    drawn = page.locator(".find-qr svg path").get_attribute("d")
    # The QR code of the address (without the query, for the poster as a whole).
    assert drawn == re.search(r' d="([^"]+)"', segno.make(address, error="m").svg_inline()).group(1)
