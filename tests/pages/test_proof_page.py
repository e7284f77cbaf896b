"""The proof page end to end (docs/proofs.md), in Chromium against the real service and
worker, twice (RUNS): staff make a poster and send it as a proof; the customer finds their
name, pins a misspelling to it and a missing name to a point, and asks for changes on
version 1; staff, in the studio, make the comments one revision in one step and send it;
version 2 says what changed and shows the revision's proof image; the customer approves it
by keyboard alone, ticking the terms; a design list, an order, its payment (staff's
mark-paid) and its production follow, the files recording the approval's hashes, which are
the version's files'; a revision made afterwards leaves the order's files byte for byte.
Between the two runs each version is seen on a phone (390 px) and a desktop, in English and
in Chinese, and each of the four (size, language) pairs is met once. axe-core finds no
serious or critical violation on the proof page at both sizes in both languages; a comment
is pinned to a found name and sent by keyboard alone; a revoked link answers 410."""

import hashlib
import re
import time

import httpx
import pytest
from playwright.sync_api import expect

from tests.commerce.clients import SHENZHEN, Api
from tests.commerce.conftest import identity_platform_server  # noqa: F401
from tests.names import write_names
from tests.pages.staff import staff_sign_in
from tests.pages.test_accessibility import AXE, LANGUAGES, VIEWPORTS, _focus_by_tab, serious
from tests.processes import Service, staff_headers

pytestmark = pytest.mark.e2e

NAMES = ["Ana Berg", "Bruno Li", "Chloé Martin", "李雷", "韩梅梅", "Dmitri Ivanov"]
PARAMS = {"WIDTH": 480, "HEIGHT": 360, "SEED": 4}


@pytest.fixture(scope="module")
def service(tmp_path_factory, database_template, static_root, identity_platform_server):  # noqa: F811
    service = Service(
        tmp_path_factory.mktemp("proof-page"),
        database_template,
        STATIC_ROOT=static_root,
        DEBUG="0",
        IDENTITY_PLATFORM_URL=identity_platform_server.url,
        IDENTITY_APP_ID="wx-test-app",
        IDENTITY_APP_SECRET="test-secret",
    )
    service.start()
    yield service
    service.stop()


@pytest.fixture(scope="module")
def staff(service):
    return Api(service.url, staff_headers()["Authorization"].removeprefix("Bearer "))


@pytest.fixture(scope="module")
def customer(service, identity_platform_server):  # noqa: F811
    """The school's customer (the mini-program makes their jobs with their token)."""
    code = identity_platform_server.login_code("openid-proof-customer")
    login = httpx.post(f"{service.url}/api/auth/login", json={"code": code}, timeout=30)
    assert login.status_code == 200, login.text
    return Api(service.url, login.json()["token"])


def _proofed(service, staff, customer, folder) -> tuple[str, str]:
    """The customer's poster, made by staff for them, sent by staff as a proof: (job id,
    token)."""
    job = service.submit(
        write_names(folder / "names.xlsx", NAMES), PARAMS, headers=customer.headers
    )
    assert service.finished(job)["status"] == "success"
    sent = staff.call("POST", f"/api/jobs/{job}/proofs", {"note": "Class 3, 2026"})
    assert sent.status_code == 201, sent.text
    return job, sent.json()["url"].removeprefix("/proofs/")


@pytest.fixture(scope="module")
def proofed(service, staff, customer, tmp_path_factory):
    return _proofed(service, staff, customer, tmp_path_factory.mktemp("names"))


# The (size, language) version 1 and version 2 are seen in, in each run: each version at both
# sizes and in both languages, each pair once.
RUNS = [(("phone", "en"), ("desktop", "en")), (("desktop", "zh"), ("phone", "zh"))]
# What the customer's pages say, in each language.
SAYS = {
    "en": {
        "title": "Proof, version 1",
        "pin": "Comment on “Ana Berg”.",
        "point": "Comment on the point marked.",
        "summary": "Since version 1: 1 renamed, 1 added.",
        "approver": "Ms Li",
        "terms": "I approve this version for production",
    },
    "zh": {
        "title": "校样，第 1 版",
        "pin": "为“Ana Berg”添加批注。",
        "point": "为标记的位置添加批注。",
        "summary": "自第 1 版以来：改名 1 个，新增 1 个。",
        "approver": "李老师",
        "terms": "我批准此版本用于生产",
    },
}


def _context(browser, service, viewport: str, language: str, **options):
    return browser.new_context(
        base_url=service.url,
        viewport=VIEWPORTS[viewport],
        locale=LANGUAGES[language],
        extra_http_headers={"Accept-Language": LANGUAGES[language]},
        **options,
    )


def _finished(service, job_id: str) -> None:
    assert service.finished(job_id)["status"] == "success", service.job(job_id)


def _ready(staff, order_id: int, timeout: float = 120) -> list[dict]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        listed = staff.call("GET", f"/api/orders/{order_id}/production").json()
        if listed and all(p["status"] != "PENDING" for p in listed):
            return listed
        time.sleep(0.5)
    raise AssertionError(f"production of order {order_id} not done: {listed}")


def _files(staff, listed) -> dict[str, bytes]:
    return {
        f["name"]: httpx.get(staff.base + f["url"], timeout=30, follow_redirects=True).content
        for preparation in listed
        for f in preparation["files"]
    }


@pytest.mark.parametrize("first, second", RUNS, ids=["-".join(a + ("then",) + b) for a, b in RUNS])
def test_a_customer_comments_asks_for_changes_and_approves_the_revision_that_is_printed(
    browser, service, staff, customer, tmp_path, first, second
):
    job, token = _proofed(service, staff, customer, tmp_path)
    # v1: find the name, pin two comments, ask for changes
    says = SAYS[first[1]]
    phone = _context(browser, service, *first)
    page = phone.new_page()
    page.goto(f"/proofs/{token}")
    expect(page.locator("h1")).to_have_text(says["title"])
    page.locator("#proof-name").fill("Ana")
    page.locator("#proof-search button").click()
    expect(page.locator("#comment-pin")).to_have_text(says["pin"])
    page.locator("#comment-kind").select_option("misspelt")
    page.locator("#comment-spelling").fill("Anna Berg")
    page.locator("#comment-text").fill("Anna is spelt with two n.")
    page.locator("#comment-send").click()
    expect(page.locator("#proof-comments li")).to_have_count(1)
    # the page reloads with the comment; its marker is drawn once its script has the words
    expect(page.locator(".proof-marker")).to_have_count(1)
    page.locator("#pin-centre").click()
    expect(page.locator("#comment-pin")).to_have_text(says["point"])
    page.locator("#comment-kind").select_option("missing")
    page.locator("#comment-spelling").fill("Zoë Quinn")
    page.locator("#comment-text").fill("Zoë is missing.")
    page.locator("#comment-send").click()
    expect(page.locator("#proof-error")).to_be_empty()
    expect(page.locator("#proof-comments li")).to_have_count(2)
    expect(page.locator(".proof-marker")).to_have_count(2)
    page.locator("#decision-name").fill("Ms Li")
    page.locator("#ask-changes").click()
    expect(page.locator(".proof-asked")).to_contain_text("Ms Li")
    expect(page.locator("#proof-error")).to_be_empty()
    phone.close()
    decisions = httpx.get(f"{service.url}/api/proofs/{token}").json()["decisions"]
    assert [d["decision"] for d in decisions] == ["changes"]

    # staff, in the studio: the comments listed, made one revision in one step, which sent
    # as a proof is version 2
    studio = browser.new_context(base_url=service.url, viewport=VIEWPORTS["desktop"])
    page = studio.new_page()
    page.goto("/")
    staff_sign_in(page)
    page.goto(f"/?job={job}")
    expect(page.locator("#job-status")).to_have_text("success")
    page.locator("#proof-tool summary").click()
    expect(page.locator("#proof-tool-comments li")).to_have_count(2)
    expect(page.locator("#proof-tool-comments")).to_contain_text("misspelt")
    page.locator("#proof-revise").click()
    expect(page).not_to_have_url(re.compile(f"job={job}"))
    expect(page.locator("#job-status")).to_have_text("success", timeout=120_000)
    revision = page.url.split("job=")[1]
    # the link of version 1 shows before the send; the send is done when it names version 2
    expect(page.locator("#proof-link")).to_contain_text("(version 1)")
    page.locator("#proof-send").click()
    expect(page.locator("#proof-link")).to_contain_text(
        f"(version 2): {service.url}/proofs/{token}"
    )
    studio.close()
    assert (
        httpx.get(f"{service.url}/api/proofs/{token}").json()["versions"][-1]["job_id"] == revision
    )

    # v2: what changed, the proof image; approved by keyboard alone
    says = SAYS[second[1]]
    desktop = _context(browser, service, *second)
    page = desktop.new_page()
    page.goto(f"/proofs/{token}")
    expect(page.locator("#proof-summary")).to_have_text(says["summary"])
    expect(page.locator(".proof-change-list")).to_contain_text("Ana Berg → Anna Berg")
    expect(page.locator(".proof-change-list")).to_contain_text("Zoë Quinn")
    image = page.locator(".proof-image img")
    image.scroll_into_view_if_needed()
    page.wait_for_function("i => i.complete && i.naturalWidth > 0", arg=image.element_handle())
    _focus_by_tab(page, "#decision-name", presses=60)
    page.keyboard.type(says["approver"])
    page.keyboard.press("Tab")
    page.keyboard.press("Space")
    expect(page.locator("#decision-terms")).to_be_checked()
    page.keyboard.press("Tab")
    expect(page.locator("#approve")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator(".proof-approved")).to_contain_text(says["approver"])
    desktop.close()
    approval = httpx.get(f"{service.url}/api/proofs/{token}").json()["approvals"][-1]
    assert approval["version"] == 2 and says["terms"] in approval["terms"]

    # the customer's design list of version 2, an order, paid, produced from the approval
    product = staff.call("POST", "/api/products", {"name": f"Plaque {job}", "price": 9900,
                         "kind": "engrave", "widthMm": 60}).json()  # fmt: skip
    address = customer.call("POST", "/api/addresses", SHENZHEN).json()["id"]
    listed = customer.call("POST", "/api/design-lists", {"name": "Class 3",
                           "items": [{"jobId": revision, "quantity": 1}]}).json()  # fmt: skip
    old = customer.call("POST", "/api/design-lists", {"name": "Old",
                        "items": [{"jobId": job, "quantity": 1}]}).json()  # fmt: skip
    refused = customer.call("POST", f"/api/design-lists/{old['id']}/submit")
    assert (refused.status_code, refused.json()["code"]) == (409, "proof_not_approved")
    order = customer.call("POST", "/api/orders", {"addressId": address, "designListId":
                          listed["id"], "items": [{"productId": product["id"], "quantity": 1}]})  # fmt: skip
    assert order.status_code == 201, order.text
    order_id = order.json()["id"]
    assert staff.call("POST", f"/api/orders/{order_id}/mark-paid").status_code == 200
    produced = _ready(staff, order_id)
    assert [p["status"] for p in produced] == ["READY"], produced
    hashes = {"svgSha256": approval["svg_sha256"], "dbSha256": approval["db_sha256"]}
    assert produced[0]["drawnFrom"] == hashes
    assert produced[0]["design"]["approval"]["version"] == 2
    named = customer.call("GET", f"/api/design-lists/{listed['id']}").json()["items"][0]
    assert {k: named["approval"][k] for k in hashes} == hashes  # the list names the approval
    for kind, key in (("svg", "svgSha256"), ("db", "dbSha256")):
        drawn = httpx.get(f"{service.url}/api/jobs/{revision}/files/{kind}", timeout=30).content
        assert hashlib.sha256(drawn).hexdigest() == hashes[key], kind
    files = _files(staff, produced)

    # a revision made afterwards: the order's files are as they were, byte for byte
    later = staff.call("POST", f"/api/jobs/{revision}/revisions", {"add": ["Late Name"]})
    assert later.status_code == 201, later.text
    _finished(service, later.json()["job_id"])
    again = _ready(staff, order_id)
    assert again[0]["drawnFrom"] == hashes and _files(staff, again) == files


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_the_proof_page_has_no_serious_or_critical_violation(
    browser, service, proofed, viewport, language
):
    assert AXE.is_file(), f"{AXE} is missing: `make axe` installs it"
    _, token = proofed
    context = _context(browser, service, viewport, language, bypass_csp=True)
    page = context.new_page()
    try:
        page.goto(f"/proofs/{token}")
        expect(page.locator("#poster-stage img").first).to_be_attached()
        assert page.evaluate("document.documentElement.lang").lower().startswith(language)
        assert serious(page) == []
    finally:
        context.close()


def test_a_revoked_link_answers_410(service, staff, proofed, tmp_path):
    names = write_names(tmp_path / "names.xlsx", NAMES[:3])
    job = service.submit(names, PARAMS, headers=staff.headers)
    _finished(service, job)
    token = staff.call("POST", f"/api/jobs/{job}/proofs").json()["url"].removeprefix("/proofs/")
    assert staff.call("DELETE", f"/api/proofs/{token}").status_code == 204
    page = httpx.get(f"{service.url}/proofs/{token}", timeout=30)
    api = httpx.get(f"{service.url}/api/proofs/{token}", timeout=30)
    assert (page.status_code, api.status_code, api.json()["code"]) == (410, 410, "proof_revoked")


def test_a_comment_pinned_to_a_name_by_keyboard_alone(browser, service, staff, customer, tmp_path):
    names = write_names(tmp_path / "names.xlsx", NAMES[:4])
    job = service.submit(names, PARAMS, headers=customer.headers)
    _finished(service, job)
    token = staff.call("POST", f"/api/jobs/{job}/proofs").json()["url"].removeprefix("/proofs/")
    context = _context(browser, service, "desktop", "en")
    page = context.new_page()
    try:
        page.goto(f"/proofs/{token}")
        expect(page.locator("#poster-stage img").first).to_be_attached()
        _focus_by_tab(page, "#proof-name", presses=40)
        page.keyboard.type("Bruno")
        page.keyboard.press("Enter")
        expect(page.locator("#comment-pin")).to_have_text("Comment on “Bruno Li”.")
        expect(page.locator("#poster-highlight")).to_be_visible()
        _focus_by_tab(page, "#comment-spelling", presses=40)  # misspelt is the kind chosen
        page.keyboard.type("Bruno Lee")
        page.keyboard.press("Tab")
        page.keyboard.type("Lee, not Li.")
        page.keyboard.press("Tab")
        expect(page.locator("#comment-send")).to_be_focused()
        page.keyboard.press("Enter")
        expect(page.locator("#proof-comments li")).to_have_count(1)
        expect(page.locator("#proof-comments")).to_contain_text("Bruno Lee")
    finally:
        context.close()
