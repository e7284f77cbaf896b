"""The pages under their Content-Security-Policy in Chromium (docs/deploy.md, "TLS"): the
studio, the lookup, the orders page and the admin load and work with no violation reported,
and a script from outside, injected into a page, is refused by the browser."""

import pytest
from playwright.sync_api import expect

from core.security import content_security_policy
from tests.pages.images import wait_for_image
from tests.pages.test_admin import log_in, shop  # noqa: F401 (a fixture)
from tests.pages.test_orders import sign_in

pytestmark = pytest.mark.e2e

# Every securitypolicyviolation of the page, kept where the test can read it.
RECORD = """document.addEventListener("securitypolicyviolation", (event) => {
  window.cspViolations = window.cspViolations || [];
  window.cspViolations.push(`${event.violatedDirective} ${event.blockedURI}`);
});"""
INJECT = """() => new Promise((resolve) => {
  document.addEventListener("securitypolicyviolation", (event) => resolve(event.blockedURI),
                            { once: true });
  const script = document.createElement("script");
  script.src = "https://example.invalid/x.js";
  document.head.append(script);
})"""


@pytest.fixture
def watched(page):
    """The page, with every CSP report of the console and every violation event recorded."""
    console = []
    page.on("console", lambda message: console.append(message.text))
    page.add_init_script(RECORD)
    yield page, console


def violations(page, console) -> list[str]:
    reported = page.evaluate("window.cspViolations || []")
    return reported + [text for text in console if "Content Security Policy" in text]


def test_the_pages_show_no_violation_and_an_outside_script_is_blocked(watched, shop):  # noqa: F811
    page, console = watched
    answer = page.goto("/")
    assert answer.headers["content-security-policy"] == content_security_policy()
    expect(page.get_by_role("button", name="Make the poster")).to_be_visible()
    assert violations(page, console) == []

    page.goto(f"/jobs/{shop['job_id']}/find")
    wait_for_image(page, "img")
    assert violations(page, console) == []

    sign_in(page)
    expect(page.locator("#orders-page")).to_contain_text("Page 1")
    assert violations(page, console) == []

    log_in(page)
    for path in ("/admin/", f"/admin/wordclouds/job/{shop['job_id']}/change/"):
        page.goto(path)
        wait_for_image(page, "img") if "job" in path else None
        assert violations(page, console) == [], path

    assert page.evaluate(INJECT) == "https://example.invalid/x.js"
    assert any("example.invalid" in text for text in console), console
