"""WCAG 2.1 AA (docs/accessibility.md): axe-core, put into each page by the test (never served
by the service), finds no serious or critical violation on every page and state a person
meets (the studio empty, with a finished poster and with an error; the lookup page with
results and with none; the orders page signed in), on a desktop and a phone, in English and
Simplified Chinese; and the lookup page is used with the keyboard alone."""

import io
import json
import re

import pytest
from django.conf import settings
from playwright.sync_api import expect

from tests.pages.staff import staff_sign_in
from tests.pages.test_find import job  # noqa: F401  (a finished job, Li Wei on it twice)
from tests.processes import BASE_DIR

pytestmark = pytest.mark.e2e

AXE = BASE_DIR / "var/npm/node_modules/axe-core/axe.min.js"  # `make axe`
RULES = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
VIEWPORTS = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}
LANGUAGES = {"en": "en", "zh": "zh-CN"}


def _studio_error(page, job_id):
    page.goto("/")
    text = io.BytesIO(b"Anna\n")
    page.locator("#name-list").set_input_files(
        {"name": "names.txt", "mimeType": "text/plain", "buffer": text.getvalue()}
    )
    page.locator("#submit").click()
    expect(page.locator("[data-field=name_list] .field-error")).not_to_be_empty()


def _studio_poster(page, job_id):
    page.goto("/")
    staff_sign_in(page)  # past jobs are listed to staff
    page.goto(f"/?job={job_id}")
    expect(page.locator("#result-panel")).to_be_visible()
    expect(page.locator("#past-jobs tr.current")).to_be_visible()


def _find(name):
    def visit(page, job_id):
        page.goto(f"/jobs/{job_id}/find?name={name}")
        expect(page.locator("#find-message")).not_to_be_empty()

    return visit


def _orders(page, job_id):
    page.goto("/orders")
    page.locator("#staff-password").fill(settings.ORDERS_ADMIN_PASSWORD)
    page.locator("#staff-sign-in button[type=submit]").click()
    expect(page.locator("#staff-sign-in")).to_be_hidden()


STATES = {
    "studio-empty": lambda page, job_id: page.goto("/"),
    "studio-poster": _studio_poster,
    "studio-error": _studio_error,
    "find-results": _find("Anna Berg"),
    "find-none": _find("Nobody Here"),
    "orders": _orders,
}


def serious(page) -> list[str]:
    """axe-core's serious and critical violations on the page as it is now, one line each."""
    page.add_script_tag(path=str(AXE))
    report = page.evaluate(
        "rules => axe.run(document, {runOnly: {type: 'tag', values: rules}})", RULES
    )
    return [
        f"{v['impact']} {v['id']}: {v['help']} — "
        + "; ".join(json.dumps(n["target"]) + " " + n["failureSummary"][:160] for n in v["nodes"])
        for v in report["violations"]
        if v["impact"] in ("serious", "critical")
    ]


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("viewport", VIEWPORTS)
@pytest.mark.parametrize("state", STATES)
def test_no_serious_or_critical_violation(browser, service, job, state, viewport, language):
    assert AXE.is_file(), f"{AXE} is missing: `make axe` installs it"
    context = browser.new_context(
        base_url=service.url,
        viewport=VIEWPORTS[viewport],
        locale=LANGUAGES[language],
        extra_http_headers={"Accept-Language": LANGUAGES[language]},
        bypass_csp=True,  # axe-core is put into the page by the test, not by the service
    )
    page = context.new_page()
    try:
        STATES[state](page, job)
        lang = page.evaluate("document.documentElement.lang")
        assert lang, "no lang on <html>"
        if language == "zh" and "django.middleware.locale.LocaleMiddleware" in settings.MIDDLEWARE:
            assert lang.lower().startswith("zh"), lang
        assert serious(page) == []
    finally:
        context.close()


def _focus_by_tab(page, selector: str, presses: int = 25) -> None:
    """Tab until `selector` has the focus, checking the focus is visible on the way there."""
    for _ in range(presses):
        page.keyboard.press("Tab")
        if page.evaluate("s => document.activeElement.matches(s)", selector):
            outline = page.evaluate(
                "() => { const s = getComputedStyle(document.activeElement);"
                " return [s.outlineStyle, s.outlineWidth]; }"
            )
            assert outline[0] != "none" and outline[1] != "0px", (selector, outline)
            return
    raise AssertionError(f"{selector} never got the focus by Tab")


def test_the_lookup_page_with_the_keyboard_alone(browser, service, job):
    context = browser.new_context(base_url=service.url, viewport=VIEWPORTS["desktop"])
    page = context.new_page()
    try:
        page.goto(f"/jobs/{job}/find")
        expect(page.locator("#poster-stage")).to_be_attached()
        live = page.locator("#find-message")
        expect(live).to_have_attribute("aria-live", "polite")

        # search: type a name, walk the suggestions with the arrow keys, Enter picks one
        _focus_by_tab(page, "#find-name")
        page.keyboard.type("Li Wei")
        expect(page.locator("#find-suggestions [role=option]").first).to_be_visible()
        page.keyboard.press("ArrowDown")
        expect(page.locator("#find-name")).to_have_attribute(
            "aria-activedescendant", "find-option-0"
        )
        page.keyboard.press("Enter")
        expect(live).to_have_text(re.compile("2"))  # announced: two people have this name
        expect(page.locator("#poster-highlight")).to_be_visible()

        # move through the results: the next one by its button
        expect(page.locator("#find-position")).to_have_text(re.compile("^1"))
        _focus_by_tab(page, "#find-next")
        page.keyboard.press("Enter")
        expect(page.locator("#find-position")).to_have_text(re.compile("^2"))

        # zoom and move the poster from the keyboard
        _focus_by_tab(page, "#poster-viewer")
        before = page.locator("#poster-stage").evaluate("e => e.style.transform")
        page.keyboard.press("+")
        zoomed = page.locator("#poster-stage").evaluate("e => e.style.transform")
        assert zoomed != before
        page.keyboard.press("ArrowLeft")
        moved = page.locator("#poster-stage").evaluate("e => e.style.transform")
        assert moved != zoomed
        page.keyboard.press("0")  # the whole poster again
        assert page.locator("#poster-stage").evaluate("e => e.style.transform") != moved
    finally:
        context.close()
