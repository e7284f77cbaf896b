"""Correcting a finished poster in the studio, as staff would: each edit made on the poster
itself (click a name, drag it, draw a box, paste names), "Make revision" watched live, the
revisions listed with their proofs, and an earlier one opened again; a proof marks each name
changed, also a renamed one whose longer name had to move."""

import re

import httpx
import pytest
from playwright.sync_api import expect

from tests.names import latin_names, write_names
from tests.pages.images import wait_for_image
from tests.pages.staff import staff_sign_in
from wordclouds.engine.revision.files import PROOF_CHANGED, PROOF_LINE

pytestmark = pytest.mark.e2e
PARAMS = {"WIDTH": 700, "HEIGHT": 500, "SEED": 4}


@pytest.fixture(scope="module")
def poster(service, tmp_path_factory):
    path = write_names(tmp_path_factory.mktemp("names") / "names.xlsx", latin_names(80, 4))
    return service.finished(service.submit(path, PARAMS))["job_id"]


def open_poster(page, job_id):
    page.goto("/")
    staff_sign_in(page)  # a job made without a token: staff revise it
    page.goto(f"/?job={job_id}")
    expect(page.locator("#job-status")).to_have_text("success", timeout=120_000)
    expect(page.locator("#revise-frame path#w3")).to_be_attached()
    # the poster above the frame loads last and moves the frame down: a click aimed before
    # that lands outside the viewport
    wait_for_image(page, "#poster")
    page.locator("#revise-frame").scroll_into_view_if_needed()


def choose(page, word_id):
    page.locator(f"#revise-frame path#w{word_id}").click(force=True)
    expect(page.locator("#revise-word-id")).to_have_text(f"#{word_id}")


def make_revision(page, service):
    parent = re.search(r"[?&]job=([0-9a-f]{32})", page.url)[1]
    page.get_by_role("button", name="Make revision").click()
    expect(page).not_to_have_url(re.compile(f"job={parent}"))
    expect(page.locator("#job-status")).to_have_text("success", timeout=120_000)
    job_id = re.search(r"[?&]job=([0-9a-f]{32})", page.url)[1]
    job = service.job(job_id)
    metrics = httpx.get(
        f"{service.url}{job['artifacts']['metrics']}", timeout=30, follow_redirects=True
    ).json()
    return job, metrics["changes"]


def test_rename_recolour_resize_and_remove_by_clicking_names(page, service, poster):
    before = service.words(poster)
    open_poster(page, poster)
    choose(page, 3)
    page.get_by_label("Name", exact=True).fill("Renamed Person")
    page.get_by_role("button", name="Rename").click()
    choose(page, 4)
    page.get_by_label("Colour of the name").fill("#c0392b")
    page.get_by_role("button", name="Recolour").click()
    choose(page, 5)
    page.get_by_role("button", name="Bigger").click()
    choose(page, 6)
    page.get_by_role("button", name="Remove").click()
    expect(page.locator("#revise-edits li")).to_have_count(4)

    job, changes = make_revision(page, service)

    assert job["parent_job_id"] == poster and job["revision"] == 1
    assert (changes["renamed"], changes["recolored"], changes["resized"], changes["removed"]) == (
        [3],
        [4],
        [5],
        [6],
    )
    after = service.words(job["job_id"])
    assert after[3][1] == "Renamed Person" and after[4][5] == "#C0392B"
    assert after[5][4] == round(before[5][4] * 1.25 * 10) / 10
    # the revision is listed with its proof, and the first layout opens again
    listed = page.locator("#revisions tbody tr")
    expect(listed).to_have_count(2)
    expect(listed.nth(1).get_by_role("link", name="proof")).to_have_attribute(
        "href", f"/api/jobs/{job['job_id']}/proof.png?inline=1"
    )
    listed.nth(0).get_by_role("link").first.click()
    expect(page).to_have_url(re.compile(f"job={poster}"))
    expect(page.locator("#revisions tbody tr.current")).to_have_attribute("data-job", poster)


# The colour of the proof's pixel at (x, y), as the browser shows the image.
PROOF_PIXEL = """([x, y]) => {
    const image = document.images[0];
    const canvas = document.createElement("canvas");
    canvas.width = image.naturalWidth;
    canvas.height = image.naturalHeight;
    const context = canvas.getContext("2d");
    context.drawImage(image, 0, 0);
    return Array.from(context.getImageData(x, y, 1, 1).data.slice(0, 3));
}"""


def test_a_rename_whose_longer_name_moves_is_outlined_in_the_proof(page, service, poster):
    before = service.words(poster)
    open_poster(page, poster)
    choose(page, 7)
    page.get_by_label("Name", exact=True).fill(f"{before[7][1]} Featherstonehaugh")
    page.get_by_role("button", name="Rename").click()

    job, changes = make_revision(page, service)

    assert changes["renamed"] == [7]
    x, y, w, h = service.words(job["job_id"])[7][13:17]
    assert (x, y) != tuple(before[7][13:15])  # not where it was: placed again elsewhere
    with page.context.expect_page() as opened:
        # this revision's row, whichever place it has (the module's poster has others)
        row = page.locator(f'#revisions tbody tr[data-job="{job["job_id"]}"]')
        row.get_by_role("link", name="proof").click()
    proof = opened.value
    wait_for_image(proof, "img")
    # the middle of each side of the outline around the word's ink box, as the proof drew it
    x0, y0 = max(0, x - PROOF_LINE - 1), max(0, y - PROOF_LINE - 1)
    x1 = min(PARAMS["WIDTH"], x + w + PROOF_LINE + 1)
    y1 = min(PARAMS["HEIGHT"], y + h + PROOF_LINE + 1)
    sides = [((x0 + x1) // 2, y0 + 1), ((x0 + x1) // 2, y1 - 2), (x0 + 1, (y0 + y1) // 2),
             (x1 - 2, (y0 + y1) // 2)]  # fmt: skip
    assert [proof.evaluate(PROOF_PIXEL, list(at)) for at in sides] == [list(PROOF_CHANGED)] * 4


def test_drag_a_name_draw_a_keep_out_box_and_add_names(page, service, poster, tmp_path):
    open_poster(page, poster)
    page.locator("#revise-frame").scroll_into_view_if_needed()
    word = page.locator("#revise-frame path#w10")
    box = word.bounding_box()
    frame = page.locator("#revise-frame svg").bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.mouse.move(frame["x"] + frame["width"] / 2, frame["y"] + frame["height"] / 2, steps=5)
    page.mouse.up()
    expect(page.locator("#revise-edits li[data-edit=move]")).to_have_count(1)

    page.get_by_label("Draw a keep-out box").check()
    page.mouse.move(frame["x"] + 10, frame["y"] + 10)
    page.mouse.down()
    page.mouse.move(frame["x"] + 90, frame["y"] + 70, steps=4)
    page.mouse.up()
    expect(page.locator("#revise-edits li[data-edit=keepOut]")).to_have_count(1)

    page.get_by_label("Names to add (one per line)").fill("Pasted Person\n张三")
    page.get_by_label("…or add the names of an .xlsx list").set_input_files(
        write_names(tmp_path / "more.xlsx", ["From List"])
    )

    job, changes = make_revision(page, service)

    assert changes["moved"] == [10]
    assert len(changes["added"]) == 3
    names = {row[1] for row in service.words(job["job_id"]).values()}
    assert {"Pasted Person", "张三", "From List"} <= names


def test_a_bad_correction_is_shown_in_the_form(page, poster):
    open_poster(page, poster)
    choose(page, 12)
    page.get_by_label("Font size (px)").fill("2000")
    page.get_by_role("button", name="Set size").click()
    page.get_by_role("button", name="Make revision").click()
    expect(page.locator("#revise-form .form-error")).to_contain_text("resize[0].fontSize")
