"""The pages in Simplified Chinese, walked as a guest and the shop's staff in China would:
Chromium started with --lang=zh-CN (so Accept-Language zh-CN) makes a poster in the studio,
downloads it, previews a custom fill and prints a PDF; finds a name on the lookup page; signs
in on the orders page and opens an order; signs in to the admin, whose index names every app
and model in Chinese. At every step no text a person reads is left in
English: none equals a msgid of the project's catalogs (names and other data excluded).
Switching to English and back on each page keeps what the page shows (its address)."""

import re
import subprocess
import sys

import pytest
from django.conf import settings
from playwright.sync_api import expect, sync_playwright

from tests.i18n.catalogs import DOMAINS, chinese_catalog
from tests.pages.conftest import CHROMIUM, WAIT_MS
from tests.pages.test_studio import name_list
from tests.processes import BASE_DIR

pytestmark = pytest.mark.e2e

# Every text a person reads on the page: visible text nodes, the options of visible menus,
# and the attributes read out or shown (labels for screen readers, placeholders, tooltips).
VISIBLE_TEXTS = """() => {
  const texts = [document.title];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const element = walker.currentNode.parentElement;
    if (element && !element.closest("script, style, svg") && element.checkVisibility()) {
      texts.push(walker.currentNode.textContent);
    }
  }
  for (const element of document.querySelectorAll("select, [aria-label], [placeholder], [title], [alt]")) {
    if (!element.checkVisibility()) continue;
    if (element.tagName === "SELECT") texts.push(...Array.from(element.options, (o) => o.text));
    for (const name of ["aria-label", "placeholder", "title", "alt"]) {
      if (element.hasAttribute(name)) texts.push(element.getAttribute(name));
    }
  }
  return texts.map((text) => text.trim()).filter(Boolean);
}"""


def english_patterns() -> list[re.Pattern]:
    """Each msgid whose Chinese differs, as a whole-text pattern (placeholders match any
    text, a trailing colon is optional)."""
    patterns = []
    for domain in DOMAINS:
        for message in chinese_catalog(domain):
            for english in filter(None, (message.msgid, message.plural)):
                if english in message.translations:
                    continue  # reads the same in both languages
                parts = re.split(r"%(?:\(\w+\))?s|\{\}", english)
                body = ".+".join(re.escape(part) for part in parts)
                patterns.append(re.compile(rf"{body}:?"))
    return patterns


ENGLISH = english_patterns()
# The name lists' cells (tests/pages/test_studio.py's name_list): data, not the page's words.
GIVEN = ("Anna", "Bruno", "Chloé", "Dmitri", "Emil", "Farah", "Greta", "Hugo")
PEOPLE = {f"{name} {number}" for name in GIVEN for number in range(60)}
SHEET_HEADER = {"id", "name"}  # the name lists' first row, shown in the studio's preview


def english_left(page, data=()) -> list[str]:
    """The page's texts that are an English msgid, but for those holding `data` (names,
    products...)."""
    return [
        text
        for text in page.evaluate(VISIBLE_TEXTS)
        if text not in SHEET_HEADER
        and not any(item in text for item in data)
        and any(pattern.fullmatch(text) for pattern in ENGLISH)
    ]


def switch_language(page, name: str, lang: str) -> None:
    url = page.url
    page.get_by_role("button", name=name, exact=True).click()
    expect(page.locator("html")).to_have_attribute("lang", lang)
    assert page.url == url  # the same page, with the same query (the page's state)


@pytest.fixture(scope="module")
def browser():
    """Chromium in Chinese: its interface language and Accept-Language zh-CN."""
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--lang=zh-CN"])
        yield browser
        browser.close()


@pytest.fixture
def page(browser, service):
    context = browser.new_context(
        base_url=service.url,
        locale="zh-CN",
        accept_downloads=True,
        viewport={"width": 1280, "height": 900},
    )
    page = context.new_page()
    page.set_default_timeout(WAIT_MS)
    yield page
    context.close()


@pytest.fixture(scope="module")
def demo(service):
    """The demo data (products, a job, design lists, an order in each state) in the
    service's database, as `manage.py demo_data` makes it."""
    subprocess.run(
        [sys.executable, "manage.py", "demo_data"],
        cwd=BASE_DIR,
        env=service.env,
        check=True,
        capture_output=True,
    )


def test_the_studio_in_chinese_and_back(page, tmp_path):
    page.goto("/")
    expect(page.locator("html")).to_have_attribute("lang", "zh-Hans")
    expect(page.get_by_role("heading", name="工作台")).to_be_visible()
    expect(page.get_by_label("字体", exact=True)).to_contain_text("Noto Sans CJK SC（内置）")
    assert english_left(page) == []

    names = name_list(tmp_path / "names.xlsx", count=30)
    page.get_by_label("名单（.xlsx）").set_input_files(names)
    expect(page.locator("#name-preview-table")).to_contain_text("Anna 0")
    assert english_left(page, PEOPLE) == []

    page.get_by_label("宽度（像素）").fill("400")
    page.get_by_label("随机种子").fill("3")
    page.get_by_role("button", name="生成海报").click()
    expect(page.locator("#job-percent")).to_have_text("100%", timeout=120_000)
    expect(page.locator("#job-status")).to_have_text("成功")
    expect(page.get_by_alt_text("已完成的海报")).to_be_visible()
    expect(page.locator("#result-summary [data-key=placed]")).to_have_text(re.compile(r"\d+ / 30"))
    page.get_by_text("消息", exact=True).click()  # the job's messages, by stage
    expect(page.locator("#job-log li").first).to_be_visible()
    assert english_left(page, PEOPLE) == []

    with page.expect_download() as download:
        page.get_by_role("link", name="海报 SVG").click()
    assert download.value.suggested_filename.endswith(".svg")

    page.get_by_label("填充", exact=True).select_option("dot")
    expect(page.get_by_label("点间距")).to_be_visible()
    page.get_by_role("button", name="预览", exact=True).click()
    expect(page.get_by_alt_text("custom.svg 预览")).to_be_visible()
    assert english_left(page, PEOPLE) == []

    page.locator("#pdf-size").select_option("210x297")
    with page.expect_download(timeout=60_000) as download:
        page.get_by_role("button", name="印刷 PDF").click()
    expect(page.locator("#pdf-status")).to_have_text(f"已保存 {download.value.suggested_filename}")
    assert english_left(page, PEOPLE) == []

    # to English and back: the same job's poster is shown each time
    switch_language(page, "English", "en")
    expect(page.get_by_role("heading", name="Studio")).to_be_visible()
    expect(page.locator("#job-status")).to_have_text("success")
    expect(page.get_by_alt_text("finished poster")).to_be_visible()
    switch_language(page, "简体中文", "zh-Hans")
    expect(page.locator("#job-status")).to_have_text("成功")
    expect(page.get_by_alt_text("已完成的海报")).to_be_visible()


def test_the_lookup_page_in_chinese_and_back(page, service, tmp_path):
    job_id = service.submit(
        name_list(tmp_path / "names.xlsx", count=12), {"WIDTH": 500, "SEED": 4, "DATA_COL_INDEX": 1}
    )
    finished = service.wait_for(job_id, lambda job: job["status"] in ("success", "failed"), 120)
    assert finished["status"] == "success"

    page.goto(f"/jobs/{job_id}/find")
    expect(page.locator("html")).to_have_attribute("lang", "zh-Hans")
    page.get_by_label("查找你的名字").fill("anna")
    page.get_by_role("option", name="Anna 0").click()
    expect(page.get_by_role("status")).to_have_text("找到你了。")
    page.get_by_text("本页二维码，可打印后放在海报旁").click()
    assert english_left(page, PEOPLE) == []

    page.get_by_label("查找你的名字").fill("Nobody")
    page.get_by_role("button", name="查找", exact=True).click()
    expect(page.get_by_role("status")).to_contain_text("这张海报上没有“Nobody”")
    page.get_by_label("查找你的名字").fill("Anna 0")
    page.get_by_role("button", name="查找", exact=True).click()
    expect(page.get_by_role("status")).to_have_text("找到你了。")

    switch_language(page, "English", "en")
    expect(page.get_by_role("status")).to_have_text("Here you are.")
    expect(page.get_by_label("Find your name")).to_have_value("Anna 0")
    switch_language(page, "简体中文", "zh-Hans")
    expect(page.get_by_role("status")).to_have_text("找到你了。")


def test_the_orders_pages_in_chinese_and_back(page, demo):
    page.goto("/orders")
    expect(page.locator("html")).to_have_attribute("lang", "zh-Hans")
    assert english_left(page) == []
    page.get_by_label("管理员密码").fill(settings.ORDERS_ADMIN_PASSWORD)
    page.get_by_role("button", name="登录").click()
    rows = page.locator("#orders-rows tr")
    expect(rows.first).to_be_visible()
    expect(page.locator("#orders-page")).to_have_text(re.compile(r"第 1 页，共 1 页 · \d+ 个订单"))
    expect(rows.locator(".status").first).to_have_text(re.compile(r"[\u4e00-\u9fff]+"))
    # the rows' dates in the shop's time zone, in the page's language: 2026/11/28 16:02:03
    expect(rows.first.locator("td").nth(1)).to_have_text(
        re.compile(r"\d{4}/\d\d/\d\d \d\d:\d\d:\d\d")
    )
    products = {"Poster A2, matte", "Poster A3, matte", "Oak frame A3"}
    assert english_left(page, products) == []

    page.get_by_label("状态").select_option("PAID")
    page.get_by_role("button", name="搜索").click()
    switch_language(page, "English", "en")
    assert "status=PAID" in page.url
    expect(page.get_by_label("Status")).to_have_value("PAID")
    switch_language(page, "简体中文", "zh-Hans")
    expect(page.get_by_label("状态")).to_have_value("PAID")

    rows.first.get_by_role("link").click()
    expect(page.get_by_role("heading", name=re.compile(r"^订单 \d+$"))).to_be_visible()
    expect(page.locator("#order-items tr").first).to_be_visible()
    expect(page.locator("#design-list-items li, #design-list-head").first).to_be_visible()
    expect(page.locator("#order-total")).to_have_text(re.compile(r"^¥[\d,]+\.\d\d$"))
    assert english_left(page, products) == []
    switch_language(page, "English", "en")
    expect(page.get_by_role("heading", name=re.compile(r"^Order \d+$"))).to_be_visible()
    expect(page.locator("#order-items tr").first).to_be_visible()  # still signed in
    switch_language(page, "简体中文", "zh-Hans")
    expect(page.locator("#order-status")).to_have_text("已付款")


STAFF_PASSWORD = "staff-password-for-the-chinese-admin"
# What the admin index names: each app's caption and each of its models' links.
ADMIN_INDEX_NAMES = """() => Array.from(
  document.querySelectorAll("#content-main .module caption, #content-main .module th[scope=row]"),
  (element) => element.textContent.trim())"""
LATIN = re.compile(r"[A-Za-z]")


def test_the_admin_index_names_every_app_and_model_in_chinese(page, service):
    subprocess.run(
        [sys.executable, "manage.py", "createsuperuser", "--noinput", "--username", "staff"]
        + ["--email", "staff@example.com"],
        cwd=BASE_DIR,
        env={**service.env, "DJANGO_SUPERUSER_PASSWORD": STAFF_PASSWORD},
        check=True,
        capture_output=True,
    )
    page.goto("/admin/login/")
    expect(page.locator("html")).to_have_attribute("lang", "zh-hans")
    page.get_by_label("用户名").fill("staff")
    page.get_by_label("密码").fill(STAFF_PASSWORD)
    page.get_by_role("button", name="登录").click()

    page.goto("/admin/")
    for app in ("词云", "商城", "任务队列", "认证和授权"):
        expect(page.get_by_role("link", name=app, exact=True)).to_be_visible()
    names = page.evaluate(ADMIN_INDEX_NAMES)
    assert "订单" in names and "任务" in names  # commerce's and wordclouds' models are there
    assert [name for name in names if LATIN.search(name)] == []
    assert english_left(page) == []
