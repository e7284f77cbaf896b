"""The lookup page of a poster with groups (issue 41): a select lists the job's groups, a
found name shows its group, and a group chosen searches that group only; axe-core finds no
serious or critical violation there, in English and Simplified Chinese."""

import openpyxl
import pytest
from playwright.sync_api import expect

from tests.pages.test_accessibility import AXE, LANGUAGES, serious

pytestmark = pytest.mark.e2e

ROWS = [
    ("Anna Berg", "Class 1"),
    ("Bruno Costa", "Class 2"),
    ("Chloé Dubois", "Class 1"),
    ("Dmitri Egorov", "Class 2"),
    ("Emil Fischer", "Class 1"),
    ("Farah Ghani", "Class 2"),
]


@pytest.fixture(scope="module")
def job(service, tmp_path_factory):
    """A finished poster of two groups in the letters of MASK_TEXT, made by the real worker."""
    path = tmp_path_factory.mktemp("find-groups") / "names.xlsx"
    book = openpyxl.Workbook()
    book.active.append(["name", "class"])
    for row in ROWS:
        book.active.append(list(row))
    book.save(path)
    params = {"MODE": "TEXT", "MASK_TEXT": "AB", "WIDTH": 900, "GROUP_COL_INDEX": 1, "SEED": 5}
    job_id = service.submit(path, params)
    finished = service.wait_for(job_id, lambda job: job["status"] in ("success", "failed"), 120)
    assert finished["status"] == "success", finished
    return job_id


def test_the_groups_are_offered_and_a_found_name_shows_its_group(page, job):
    page.goto(f"/jobs/{job}/find")
    select = page.locator("#find-group")
    expect(select).to_be_visible()
    assert select.locator("option").all_inner_texts()[1:] == ["Class 1", "Class 2"]

    page.locator("#find-name").fill("Bruno Costa")
    page.locator("#find-form button[type=submit]").click()
    expect(page.locator("#find-found-group")).to_have_text("Group: Class 2")

    select.select_option("Class 1")  # Bruno is not in Class 1
    expect(page.locator("#find-message")).to_contain_text("is not on this poster")

    select.select_option("Class 2")
    expect(page.locator("#find-found-group")).to_have_text("Group: Class 2")
    assert "group=Class+2" in page.url or "group=Class%202" in page.url


def test_a_poster_without_groups_offers_no_select(page, service, tmp_path):
    path = tmp_path / "names.xlsx"
    book = openpyxl.Workbook()
    book.active.append(["name"])
    book.active.append(["Anna Berg"])
    book.save(path)
    job_id = service.submit(path, {"WIDTH": 600, "HEIGHT": 400, "SEED": 5})
    assert (
        service.wait_for(job_id, lambda j: j["status"] in ("success", "failed"), 120)["status"]
        == "success"
    )
    page.goto(f"/jobs/{job_id}/find?name=Anna%20Berg")
    expect(page.locator("#find-message")).not_to_be_empty()
    expect(page.locator("#find-group")).to_be_hidden()
    expect(page.locator("#find-found-group")).to_be_empty()


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_grouped_page_has_no_serious_or_critical_violation(browser, service, job, language):
    assert AXE.is_file(), f"{AXE} is missing: `make axe` installs it"
    context = browser.new_context(
        base_url=service.url,
        viewport={"width": 1280, "height": 900},
        locale=LANGUAGES[language],
        extra_http_headers={"Accept-Language": LANGUAGES[language]},
        bypass_csp=True,  # axe-core is put into the page by the test, not by the service
    )
    page = context.new_page()
    try:
        page.goto(f"/jobs/{job}/find?name=Anna%20Berg&group=Class%201")
        expect(page.locator("#find-found-group")).not_to_be_empty()
        if language == "zh":
            expect(page.locator("label[for=find-group]")).to_have_text("分组")
            expect(page.locator("#find-found-group")).to_have_text("分组：Class 1")
        assert serious(page) == []
    finally:
        context.close()
