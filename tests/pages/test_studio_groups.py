"""Groups in a text shape, made from the studio as a person would: the group column picked
from the list's preview, "text shape" chosen and its text typed, the groups' letters
previewed (outlined, each group's tinted in its colour) before the poster is made, and the
finished poster's legend of groups and colours, which are the job's metrics'. axe-core finds
no serious or critical violation on the page with the preview and with the legend."""

import openpyxl
import pytest
from playwright.sync_api import expect

from tests.pages.conftest import guarded_tab
from tests.pages.staff import staff_sign_in
from tests.pages.test_accessibility import LANGUAGES, serious

pytestmark = pytest.mark.e2e

# Three classes in spreadsheet order, the first with the most names (so the most letters).
CLASSES = (("Class A", 18), ("Class B", 6), ("Class C", 6))

# Per group colour, whether some pixel of the preview canvas has it (as tinted: its alpha
# under 255, its colour within 4 of the group's once the canvas's premultiplying is undone).
TINTED = """colors => {
  const canvas = document.getElementById("regions-canvas");
  const data = canvas.getContext("2d").getImageData(0, 0, canvas.width, canvas.height).data;
  const rgb = (hex) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
  return colors.map((color) => {
    const [r, g, b] = rgb(color);
    for (let i = 0; i < data.length; i += 4) {
      const alpha = data[i + 3];
      if (alpha > 40 && alpha < 200 && Math.abs(data[i] - r) <= 4
          && Math.abs(data[i + 1] - g) <= 4 && Math.abs(data[i + 2] - b) <= 4) return true;
    }
    return false;
  });
}"""


def grouped_list(path):
    """Names in column B under a header, each name's class in column C, an id in A."""
    book = openpyxl.Workbook()
    book.active.append(["id", "name", "class"])
    number = 0
    for group, count in CLASSES:
        for _ in range(count):
            number += 1
            book.active.append([number, f"Pupil {number}", group])
    book.save(path)
    return path


@pytest.fixture
def axe_page(browser, service, request):
    """A tab in the language asked (English by default) whose network stops at the service,
    with the CSP bypassed so that the test can put axe-core into it."""
    language = getattr(request, "param", "en")
    context = browser.new_context(
        base_url=service.url,
        viewport={"width": 1280, "height": 900},
        locale=LANGUAGES[language],
        extra_http_headers={"Accept-Language": LANGUAGES[language]},
        bypass_csp=True,
    )
    yield from guarded_tab(context)


def choose_grouped_text_shape(page, tmp_path, text: str) -> None:
    """Signed in as staff, the list uploaded, its names and group columns chosen from the
    preview, the text shape chosen and typed."""
    page.goto("/")
    staff_sign_in(page)  # the regions preview is the staff's
    page.locator("#name-list").set_input_files(grouped_list(tmp_path / "classes.xlsx"))
    expect(page.locator("#name-preview-table")).to_contain_text("Pupil 1")
    page.locator("#data-col").select_option("1")
    page.locator("#group-col").select_option("2")
    expect(page.locator("#name-preview-table td.group").first).to_have_text("class")
    page.locator("#shape").select_option("TEXT")
    expect(page.locator("#mask-text")).to_be_visible()
    page.locator("#mask-text").fill(text)


def test_a_grouped_text_poster_with_its_regions_previewed_and_its_legend(axe_page, tmp_path):
    page = axe_page
    # given a list of three classes and the text shape "20\n26" (a line break typed)
    choose_grouped_text_shape(page, tmp_path, "20\n26")
    page.get_by_label("Letter spacing (em)").fill("0.1")
    page.get_by_label("Width (px)").fill("600")
    page.get_by_label("Margin (px)").fill("1")
    page.get_by_label("Seed").fill("3")

    # then the groups' letters are previewed: each group in spreadsheet order with its
    # letters (runs in reading order, the largest class the most), the four letters
    # outlined on the canvas and each group's tinted in its colour
    regions = page.locator("#regions-list li")
    expect(regions).to_have_count(3)
    expect(page.locator("#regions-canvas")).to_have_attribute("data-letters", "4")
    assert [item.get_attribute("data-group") for item in regions.all()] == [
        group for group, _ in CLASSES
    ]
    expect(regions.nth(0)).to_contain_text("18 names · letters 0, 1")
    expect(regions.nth(1)).to_contain_text("6 names · letter 2")
    expect(regions.nth(2)).to_contain_text("6 names · letter 3")
    expect(page.locator("#regions-status")).to_contain_text("2026")
    previewed = [swatch.get_attribute("data-color") for swatch in regions.locator(".swatch").all()]
    assert page.evaluate(TINTED, previewed) == [True, True, True]
    assert serious(page) == []

    # when the poster is made
    page.get_by_role("button", name="Make the poster").click()
    expect(page.locator("#job-status")).to_have_text("success", timeout=180_000)

    # then its legend names the groups in order, each in the colour and letters of the
    # job's metrics, which are those the preview showed
    job_id = page.url.split("job=")[1]
    groups = page.request.get(f"/api/jobs/{job_id}/files/metrics").json()["groups"]
    legend = page.locator("#group-legend li")
    expect(legend).to_have_count(len(groups))
    assert [item.get_attribute("data-group") for item in legend.all()] == list(groups)
    for item, (group, figures) in zip(legend.all(), groups.items(), strict=True):
        swatch = item.locator(".swatch")
        assert swatch.get_attribute("data-color") == figures["color"]
        red, green, blue = (int(figures["color"][i : i + 2], 16) for i in (1, 3, 5))
        expect(swatch).to_have_css("background-color", f"rgb({red}, {green}, {blue})")
        expect(item).to_contain_text(f"{figures['placed']} of {figures['names']} names")
        expect(item).to_contain_text(group)
    assert [figures["color"] for figures in groups.values()] == previewed
    assert [figures["region"] for figures in groups.values()] == [
        "letter 0, 1",
        "letter 2",
        "letter 3",
    ]
    assert serious(page) == []


@pytest.mark.parametrize("axe_page", ["zh"], indirect=True)
def test_the_regions_preview_speaks_chinese_and_refuses_more_groups_than_letters(
    axe_page, tmp_path
):
    page = axe_page
    # given the studio in Chinese, three classes and a text of two letters
    choose_grouped_text_shape(page, tmp_path, "AB")

    # then the preview says why there is nothing to draw, in the service's sentence
    expect(page.locator("#regions-status")).to_contain_text("MASK_TEXT has only 2 letters")
    expect(page.locator("#regions-canvas")).to_be_hidden()
    expect(page.locator("label[for=group-col]")).to_have_text("分组列")

    # and with a third letter the groups' letters are drawn, the status in Chinese
    page.locator("#mask-text").fill("ABC")
    expect(page.locator("#regions-list li")).to_have_count(3)
    expect(page.locator("#regions-status")).not_to_contain_text("Each group")
    assert serious(page) == []
