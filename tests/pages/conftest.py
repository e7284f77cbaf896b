"""Browser tests: Debian's Chromium driven by Playwright against the real service (daphne,
worker, converter) on loopback, with static files collected as the set-up collects them.

The browser may reach the service only: every request to another host is aborted and
recorded, and a test fails if any was attempted (the pages load nothing from outside)."""

import os
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect, sync_playwright

from tests.processes import BASE_DIR, Service
from tests.wordclouds.conftest import tiny_font  # noqa: F401  (uploaded in the studio)

CHROMIUM = "/usr/bin/chromium"  # Debian's package, installed by `make system-deps`
LOOPBACK = {"127.0.0.1", "localhost", "::1"}
# A bounded wait for what a person waits for (a preview, a conversion) on a busy machine.
WAIT_MS = 30_000
expect.set_options(timeout=WAIT_MS)


@pytest.fixture(scope="session")
def static_root(tmp_path_factory) -> Path:
    """STATIC_ROOT filled by collectstatic, as `make run` and `make test` do."""
    root = tmp_path_factory.mktemp("static")
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "--verbosity", "0"],
        cwd=BASE_DIR,
        env={**os.environ, "STATIC_ROOT": str(root)},
        check=True,
        capture_output=True,
    )
    return root


@pytest.fixture(scope="module")
def service(request, tmp_path_factory, database_template, static_root):
    """One service per test module: web and worker, DEBUG off (production mode); the web
    server alone for a module that sets `WORKER = False` (its jobs stay queued); with the
    converter too for a module that sets `CONVERTER = True` (it exports .ai files)."""
    folder = tmp_path_factory.mktemp("pages-service")
    service = Service(folder, database_template, STATIC_ROOT=static_root, DEBUG="0")
    worker = getattr(request.module, "WORKER", True)
    service.start(worker=worker, converter=getattr(request.module, "CONVERTER", False))
    yield service
    service.stop()


@pytest.fixture(scope="module")
def browser():
    # Per module, not per session: Playwright's sync API keeps an event loop running in the
    # main thread while it is open, and Django's sync test client refuses to run beside one,
    # so the browser must be gone before the suite's other tests (pytest-django runs tests
    # without a database last).
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM)
        yield browser
        browser.close()


@pytest.fixture
def page(browser, service):
    """A fresh browser tab whose network stops at the service."""
    context = browser.new_context(
        base_url=service.url, accept_downloads=True, viewport={"width": 1280, "height": 900}
    )
    yield from guarded_tab(context)


def guarded_tab(context):
    """For a fixture: a tab of ``context`` whose network stops at the service, yielded; then
    the context closed, and the test failed if the page tried to load from elsewhere."""
    outside = []

    def guard(route):
        url = urlsplit(route.request.url)
        if url.scheme in ("data", "blob") or url.hostname in LOOPBACK:
            route.continue_()
        else:
            outside.append(route.request.url)
            route.abort()

    context.route("**/*", guard)
    page = context.new_page()
    page.set_default_timeout(WAIT_MS)
    yield page
    context.close()
    assert outside == [], f"the page tried to load from outside the service: {outside}"
