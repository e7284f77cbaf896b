"""The studio page, used as a person would: every file uploaded through the form, progress
watched live, the poster and its files taken away."""

import io
import json
import re
import sqlite3
import xml.etree.ElementTree as ElementTree
from contextlib import closing

import openpyxl
import pytest
from PIL import Image, ImageDraw
from playwright.sync_api import expect

from tests.pages.staff import staff_sign_in

pytestmark = pytest.mark.e2e
CONVERTER = True  # the .ai export goes through it (tests/pages/conftest.py)

# Records every value the percent label shows, in order, from the first moment on.
RECORD_PERCENTS = """
window.percentsShown = [];
document.addEventListener("DOMContentLoaded", () => {
  const label = document.getElementById("job-percent");
  new MutationObserver(() => window.percentsShown.push(parseInt(label.textContent, 10)))
    .observe(label, {childList: true, characterData: true, subtree: true});
});
"""


def name_list(path, count: int = 60):
    """Names in column B under a header, an id column A beside them."""
    book = openpyxl.Workbook()
    book.active.append(["id", "name"])
    given = ["Anna", "Bruno", "Chloé", "Dmitri", "Emil", "Farah", "Greta", "Hugo"]
    for number in range(count):
        book.active.append([number + 1, f"{given[number % len(given)]} {number}"])
    book.save(path)
    return path


def heart_mask(path):
    image = Image.new("RGB", (300, 260), "white")
    draw = ImageDraw.Draw(image)
    draw.ellipse((20, 20, 160, 150), fill="black")
    draw.ellipse((140, 20, 280, 150), fill="black")
    draw.polygon([(28, 110), (272, 110), (150, 250)], fill="black")
    image.save(path)
    return path


def shown(value) -> str:
    """A number as the page writes it in English (Intl.NumberFormat: 1,189; 6.23; 420; at
    most three decimals)."""
    return format(round(value, 3), ",g")


def shows_report(preflight, report):
    """The preflight panel shows the service's report: the smallest name in pt and mm, the
    count under MIN_NAME_PT, the thinnest stroke and the coverage."""
    expect(preflight.locator("[data-key=smallestName]")).to_have_text(
        f"{shown(report['smallestNamePt'])} pt ({shown(report['smallestNameMm'])} mm)"
    )
    expect(preflight.locator("[data-key=namesUnderMinPt]")).to_have_text(
        f"{shown(report['namesUnderMinPt'])} of {shown(report['names'])}"
    )
    expect(preflight.locator("[data-key=thinnestStroke]")).to_have_text(
        f"{shown(report['thinnestStrokePt'])} pt"
    )
    expect(preflight.locator("[data-key=coverage]")).to_have_text(shown(report["inkBoxCoverage"]))


def test_a_poster_made_entirely_in_the_studio(page, tmp_path, tiny_font):
    # given the studio, with every input a file from this machine
    page.add_init_script(RECORD_PERCENTS)
    page.goto("/")
    page.get_by_label("Name list (.xlsx)").set_input_files(name_list(tmp_path / "class.xlsx"))

    # the first rows appear, and the names column is chosen from them
    preview = page.locator("#name-preview-table")
    expect(preview).to_contain_text("Anna 0")
    expect(page.get_by_label("Names column")).to_have_value("1")  # the text column, guessed
    page.get_by_label("Names column").select_option(label="B · name")
    expect(preview.locator("td.read").first).to_have_text("Anna 0")

    # the mask's shape is previewed at the threshold
    page.get_by_label("Mask image (optional: .png, .jpg)").set_input_files(
        heart_mask(tmp_path / "heart.png")
    )
    expect(page.locator("#mask-canvas")).to_be_visible()
    # the canvas shows before the image is decoded (createImageBitmap is asynchronous): its
    # pixels are read once it is drawn, polled in the page (the pages' CSP refuses eval)
    corner, centre = page.evaluate("""() => new Promise((resolve) => {
        const canvas = document.getElementById("mask-canvas");
        const pixel = (x, y) => Array.from(canvas.getContext("2d").getImageData(x, y, 1, 1).data);
        const read = () => [pixel(2, 2), pixel(canvas.width / 2, canvas.height / 2)];
        const drawn = () => read()[0][3] === 255;
        if (drawn()) return resolve(read());
        const poll = setInterval(() => drawn() && (clearInterval(poll), resolve(read())), 50);
        setTimeout(() => (clearInterval(poll), resolve(read())), 20000);
    })""")
    assert corner != centre  # outside and inside the shape are drawn apart

    page.get_by_label("…or upload a font (.ttf, .otf, .ttc)").set_input_files(tiny_font())
    page.get_by_label("Width (px)").fill("480")
    page.get_by_label("Repetitions").fill("2")
    page.get_by_label("Margin (px)").fill("1")
    page.get_by_label("Seed").fill("11")
    page.get_by_label("Vertical words").select_option("rotate")

    # when it is submitted
    page.get_by_role("button", name="Make the poster").click()

    # then progress is shown as it happens, never backwards, up to 100%
    expect(page.locator("#job-percent")).to_have_text("100%", timeout=120_000)
    expect(page.locator("#job-status")).to_have_text("success")
    shown = page.evaluate("window.percentsShown")
    assert shown[-1] == 100
    assert shown == sorted(shown)
    assert len(set(shown)) >= 4, shown  # several steps seen, not only the end
    assert re.search(r"[?&]job=[0-9a-f]{32}", page.url)

    # the poster appears and can be zoomed
    poster = page.get_by_alt_text("finished poster")
    expect(poster).to_be_visible()
    assert page.evaluate("document.getElementById('poster').naturalWidth") == 480
    page.get_by_role("button", name="zoom in").click()
    expect(page.locator("#zoom-level")).to_have_text(re.compile(r"\d+%"))

    # the SVG downloads and parses
    with page.expect_download() as download:
        page.get_by_role("link", name="Poster SVG").click()
    svg = ElementTree.parse(download.value.path()).getroot()
    assert svg.tag == "{http://www.w3.org/2000/svg}svg"
    assert len(svg.findall("{http://www.w3.org/2000/svg}path")) >= 60

    # custom.svg fills preview with their parameters
    page.get_by_label("Fill").select_option("line")
    page.get_by_label("Line pitch").fill("3")
    page.get_by_role("button", name="Preview").click()
    expect(page.get_by_alt_text("custom.svg preview")).to_be_visible()

    # the .ai export downloads through the converter
    with page.expect_download(timeout=60_000) as download:
        page.get_by_role("button", name="Export .ai").click()
    assert download.value.suggested_filename.endswith(".ai")
    with open(download.value.path(), "rb") as exported:
        assert exported.read(11) == b"%!PS-Adobe-"

    # the print PDF on an A4 sheet (turned to the poster's orientation) as PDF/X-4
    job_id = re.search(r"[?&]job=([0-9a-f]{32})", page.url)[1]
    poster_size = page.evaluate(
        "[document.getElementById('poster').naturalWidth, "
        "document.getElementById('poster').naturalHeight]"
    )
    # beside the Print PDF button, the preflight of the sheet chosen: what the service answers
    preflight = page.locator("#pdf-preflight")
    with page.expect_response(lambda answer: "preflight=1" in answer.url) as answer:
        page.locator("#pdf-size").select_option("210x297")
    report = answer.value.json()
    printed_size = {report["widthMm"], report["heightMm"]}  # the poster, fitted to the sheet
    assert max(printed_size) <= 297 and printed_size & {210, 297} and report["names"] >= 60
    shows_report(preflight, report)
    expect(preflight).not_to_have_class(re.compile("warning"))

    # names under a larger MIN_NAME_PT are counted, and the report turns to a warning
    with page.expect_response(lambda answer: "preflight=1" in answer.url) as answer:
        page.get_by_label("Smallest printed name (pt)").fill("72")
        page.get_by_label("Smallest printed name (pt)").press("Tab")
    strict = answer.value.json()
    assert strict["minNamePt"] == 72 and strict["namesUnderMinPt"] > 0
    shows_report(preflight, strict)
    expect(preflight).to_have_class(re.compile("warning"))
    expect(page.locator("#pdf-preflight-status")).to_contain_text("Too small")
    page.get_by_label("Smallest printed name (pt)").fill("6")
    page.get_by_label("Smallest printed name (pt)").press("Tab")
    expect(preflight).not_to_have_class(re.compile("warning"))

    page.locator("#pdf-standard").select_option("x4")
    printed = lambda answer: "/files/pdf?" in answer.url and "preflight" not in answer.url  # noqa: E731
    with (
        page.expect_response(printed) as answer,
        page.expect_download(timeout=60_000) as download,
    ):
        page.get_by_role("button", name="Print PDF").click()
    assert answer.value.status == 200
    assert answer.value.headers["content-type"] == "application/pdf"
    width, height = (297, 210) if poster_size[0] > poster_size[1] else (210, 297)
    assert download.value.suggested_filename == f"wordcloud-{job_id}-{width}x{height}mm-PDFX-4.pdf"
    with open(download.value.path(), "rb") as exported:
        assert exported.read(5) == b"%PDF-"
    expect(page.locator("#pdf-status")).to_have_text(f"{download.value.suggested_filename} saved")

    # the line spacing at a print size
    page.get_by_label("Print width (mm)").fill("300")
    page.get_by_role("button", name="Check").click()
    expect(page.locator("#spacing-result [data-key=minSpacingMm]")).to_contain_text("mm")

    # and, signed in as staff, the job is among the past jobs
    expect(page.locator("#past-jobs")).to_be_hidden()
    staff_sign_in(page)
    expect(page.locator("#past-jobs tr.current .status")).to_have_text("success")


def test_errors_show_next_to_the_field_they_name(page, tmp_path):
    page.goto("/")
    text_list = tmp_path / "names.txt"
    text_list.write_text("Anna\nBruno\n")

    # a .txt name list: the preview refuses it at once, beside the name-list field
    page.get_by_label("Name list (.xlsx)").set_input_files(text_list)
    name_field = page.locator("[data-field=name_list]")
    expect(name_field.locator(".field-error")).to_have_text("name_list must be xlsx")

    # and so does the submit
    page.get_by_role("button", name="Make the poster").click()
    expect(name_field.locator(".field-error")).to_have_text("name_list must be xlsx")
    expect(name_field).to_have_class(re.compile("invalid"))

    # a parameter out of range is shown next to its own field
    page.get_by_label("Name list (.xlsx)").set_input_files(name_list(tmp_path / "ok.xlsx"))
    page.get_by_label("Margin (px)").fill("500")
    page.get_by_role("button", name="Make the poster").click()
    margin_error = page.locator("[data-field='params.MARGIN'] .field-error")
    expect(margin_error).to_have_text(re.compile(r"^params\.MARGIN must be"))
    expect(name_field.locator(".field-error")).to_have_text("")


def test_retries_and_the_failure_are_shown_and_progress_never_goes_back(page, tmp_path):
    # given far too many names for a small canvas at a fixed smallest size
    page.add_init_script(RECORD_PERCENTS)
    page.goto("/")
    page.get_by_label("Name list (.xlsx)").set_input_files(name_list(tmp_path / "many.xlsx", 200))
    expect(page.get_by_label("Names column")).to_have_value("1")
    page.get_by_label("Width (px)").fill("128")
    page.get_by_label("Height (px)").fill("128")
    page.get_by_label("Smallest font (px)").fill("6")

    page.get_by_role("button", name="Make the poster").click()

    # then each retry of the engine is shown with its reason, and the failure in the end
    expect(page.locator("#job-status")).to_have_text("failed", timeout=120_000)
    retries = page.locator("#retries li")
    expect(retries.first).to_contain_text("retrying with smaller words")
    assert retries.count() >= 2
    expect(page.locator("#job-error")).to_contain_text("names did not fit")
    shown = page.evaluate("window.percentsShown")
    assert shown == sorted(shown) and shown[-1] < 100
    expect(page.get_by_role("heading", name="Poster", exact=True)).to_be_hidden()


def weighted_list(path):
    """Names in column B, their weights in column C (three names weigh 10, a Japanese and
    a Chinese name among the rest), an id column A."""
    book = openpyxl.Workbook()
    book.active.append(["id", "name", "weight"])
    names = [f"Person {number}" for number in range(36)] + ["鈴木 直子", "王直"]
    for number, name in enumerate(names):
        book.active.append([number + 1, name, 10 if number in (3, 17, 29) else 1])
    book.save(path)
    return path


def test_weights_locale_and_name_gap_are_set_in_the_studio(page, tmp_path, service):
    # given a name list with a weight column
    page.goto("/")
    page.get_by_label("Name list (.xlsx)").set_input_files(weighted_list(tmp_path / "w.xlsx"))
    expect(page.locator("#name-preview-table")).to_contain_text("Person 0")

    # the weight column is picked from the preview's columns, and its scaling then opens
    scaling = page.get_by_label("Size follows weight")
    expect(scaling).to_be_disabled()
    page.get_by_label("Weight column").select_option(label="C · weight")
    expect(page.locator("#name-preview-table td.weight").first).to_have_text("weight")
    expect(scaling).to_be_enabled()
    scaling.fill("1")
    page.get_by_label("Han character forms").select_option(label="Japanese (ja)")
    page.get_by_label("Gap between names (em)").fill("0.5")
    page.get_by_label("Width (px)").fill("600")
    page.get_by_label("Height (px)").fill("400")
    page.get_by_label("Seed").fill("5")

    # when it is submitted
    page.get_by_role("button", name="Make the poster").click()
    expect(page.locator("#job-status")).to_have_text("success", timeout=120_000)

    # then the summary shows every name placed, the weights and the lowest contrast
    summary = page.locator("#result-summary")
    expect(summary.locator("[data-key=placed]")).to_have_text("38 of 38")
    expect(summary.locator("[data-key=weights]")).to_have_text("1–10 (column 2)")
    job_id = re.search(r"job=([0-9a-f]{32})", page.url).group(1)
    metrics = page.request.get(f"/api/jobs/{job_id}/files/metrics").json()
    expect(summary.locator("[data-key=contrast]")).to_have_text(f"{metrics['lowest_contrast']}:1")

    # and the job ran with what was chosen: the three heavy names are the largest words,
    # the Han names in the Japanese face
    matches = page.request.get(f"/api/jobs/{job_id}/locations").json()["matches"]
    largest = sorted(matches, key=lambda match: -match["font_size"])[:3]
    assert {match["name"] for match in largest} == {"Person 3", "Person 17", "Person 29"}
    assert {match["weight"] for match in largest} == {10}
    assert set(metrics["scripts"]["Han"]["fonts"]) == {"Noto Sans CJK JP"}
    database = tmp_path / "positions.db"
    database.write_bytes(page.request.get(f"/api/jobs/{job_id}/files/db").body())
    with closing(sqlite3.connect(database)) as db:
        (sent,) = db.execute("SELECT value FROM meta WHERE key = 'params'").fetchone()
    sent = json.loads(sent)
    assert (sent["WEIGHT_COL_INDEX"], sent["RELATIVE_SCALING"], sent["LOCALE"]) == (2, 1, "ja")
    assert sent["NAME_GAP"] == 0.5


def test_the_size_advice_follows_the_list_the_mask_and_the_printed_width(page, tmp_path):
    advised = lambda answer: answer.url.endswith("/api/jobs/size-advice")  # noqa: E731
    panel = page.locator("#size-advice")
    # given the studio, when a list is chosen (its names column guessed from the preview)
    page.goto("/")
    expect(panel).to_be_hidden()
    with page.expect_response(advised) as answer:
        page.get_by_label("Name list (.xlsx)").set_input_files(
            name_list(tmp_path / "class.xlsx", count=400)
        )
    assert answer.value.status == 200
    rectangle = answer.value.json()

    # then the panel shows the smallest A size the service found for it
    smallest = rectangle["smallest"]
    expect(panel.locator("[data-key=smallest]")).to_have_text(
        f"{smallest['name']} ({shown(smallest['width_mm'])} × {shown(smallest['height_mm'])} mm)"
    )
    expect(panel.locator("[data-key=printed]")).to_have_count(0)

    # the mask goes with it: the heart holds less than the rectangle, so the names are smaller
    with page.expect_response(advised) as answer:
        page.get_by_label("Mask image (optional: .png, .jpg)").set_input_files(
            heart_mask(tmp_path / "heart.png")
        )
    heart = answer.value.json()
    a4 = [next(s for s in advice["sizes"] if s["name"] == "A4") for advice in (rectangle, heart)]
    assert a4[1]["expected_smallest_name_pt"] < a4[0]["expected_smallest_name_pt"]

    # a printed width too small for the names: the smallest name there, as a warning
    with page.expect_response(advised) as answer:
        page.get_by_label("Printed width (mm)").fill("20")
    printed = answer.value.json()["printed"]
    assert printed["width_mm"] == 20 and not printed["fits"]
    expect(panel.locator("[data-key=printed]")).to_have_text(
        f"about {shown(printed['expected_smallest_name_pt'])} pt"
    )
    expect(panel).to_have_class(re.compile("warning"))

    # and one large enough: no warning
    with page.expect_response(advised) as answer:
        page.get_by_label("Printed width (mm)").fill("2000")
    printed = answer.value.json()["printed"]
    assert printed["fits"]
    expect(panel.locator("[data-key=printed]")).to_have_text(
        f"about {shown(printed['expected_smallest_name_pt'])} pt"
    )
    expect(panel).not_to_have_class(re.compile("warning"))
    expect(page.locator("#size-advice-status")).to_have_text("Every name fits at this width.")


def test_on_a_phone_the_studio_is_no_wider_than_the_screen_with_past_jobs(browser, service):
    # given past jobs (one made here, whatever ran before)
    context = browser.new_context(base_url=service.url, viewport={"width": 390, "height": 844})
    page = context.new_page()
    book = openpyxl.Workbook()
    book.active.append(["name"])
    book.active.append(["Anna Karenina-Oblonskaya"])
    content = io.BytesIO()
    book.save(content)
    created = page.request.post(
        "/api/jobs",
        multipart={
            "name_list": {
                "name": "n.xlsx",
                "mimeType": "application/octet-stream",
                "buffer": content.getvalue(),
            },
            "params": json.dumps({"WIDTH": 200, "HEIGHT": 100}),
        },
    )
    assert created.status == 201, created.text()

    # when the studio opens on a 390-px screen and lists them to staff
    page.goto("/")
    staff_sign_in(page)
    expect(page.locator("#past-jobs tbody tr").first).to_be_visible()
    expect(page.locator("#past-jobs tbody tr .status").first).not_to_be_empty()

    # then nothing is wider than the screen
    widths = page.evaluate(
        "[document.documentElement.scrollWidth, document.body.scrollWidth, window.innerWidth]"
    )
    context.close()
    assert max(widths[:2]) <= widths[2] == 390, widths
