import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from django.conf import settings as django_settings
from django.test import override_settings
from rest_framework.test import APIClient

from core.admin_token import admin_token_issue
from core.throttle_rates import throttle_rates
from tests.processes import BASE_DIR, GENEROUS_QUEUE, GENEROUS_RATES, DatabaseTemplate

LOCAL_FILES = {
    "BACKEND": "django.core.files.storage.FileSystemStorage",
    "OPTIONS": {"allow_overwrite": True},
}


def pytest_configure(config):
    """This process keeps its files in the local file storage whatever the environment
    names, since many tests build job folders, fonts and assets in MEDIA_ROOT by hand; the
    real processes of the e2e tests take the S3 settings of the environment (CI's second
    pass: a local Swift), and tests/storage/ starts a Swift of its own.

    Set once for the whole session, never per test: a thread that outlives its test (health's
    store check, every 2 s for the life of the process) takes `storages["default"]` whenever
    it checks, between two tests too, and Django's storage handler, emptied on each change of
    STORAGES, is not safe against a thread building a storage meanwhile. With the S3 settings
    in force between tests, the check's S3 storage outlived the next test's change and that
    test looked for its files in the bucket (CI: a lookup answered 404 `job not found`)."""
    override_settings(
        STORAGES={**django_settings.STORAGES, "default": LOCAL_FILES, "worker": LOCAL_FILES}
    ).enable()


@pytest.fixture(autouse=True)
def media_root(tmp_path, settings):
    """Every test writes its files into its own temporary MEDIA_ROOT and keeps its working
    files in its own SCRATCH_ROOT."""
    root = tmp_path / "media"
    root.mkdir()
    settings.MEDIA_ROOT = root
    settings.SCRATCH_ROOT = tmp_path / "scratch"
    return root


@pytest.fixture(autouse=True)
def generous_throttles(settings, request):
    """Every test in this process counts its requests in a cache of its own (the throttles'
    counts outlive a test in a shared one, Redis with REDIS_URL) with rates it does not meet;
    the real processes of the e2e tests count in the cache their settings name."""
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": request.node.nodeid,
        }
    }
    settings.THROTTLE_RATES = throttle_rates(GENEROUS_RATES)
    settings.MAX_QUEUED_PER_CLIENT = GENEROUS_QUEUE


@pytest.fixture
def api():
    """The API as staff (the admin token), who may call every route: what a test of what an
    endpoint does calls it with. tests/test_access.py proves who else may."""
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {admin_token_issue()}")
    return client


@pytest.fixture
def anonymous():
    """The API with no credentials: anyone on the internet."""
    return APIClient()


@pytest.fixture(scope="session")
def database_template(tmp_path_factory):
    """Every Service is made from this template, so here is also where the services of one
    pytest-xdist worker get a store bucket of their own (when S3_BUCKET names one)."""
    _bucket_of_this_worker()
    template = DatabaseTemplate(tmp_path_factory.mktemp("database-template"))
    yield template
    template.drop()


# Fixtures that start a real process: the service's web server, worker and converter (every
# Service is made from the database template), the converter alone, Chromium, Swift. A test
# that uses one, itself or through another fixture, must be marked e2e, so that
# `-m "not e2e"` leaves out every test that starts a process (CONTRIBUTING.md, "Running
# things").
PROCESS_FIXTURES = {"database_template", "converter_process", "browser", "swift"}
# In-process tests of these apps that use the database are marked backend: the apps' services
# lock rows, commit in transactions and write SQL per database (lookups, placements), all on
# whatever database DATABASE_URL names. The e2e tests whose subject is the database, the
# queue or the store shared between processes carry the mark in their module.
BACKEND_FOLDERS = {"wordclouds", "commerce"}
TESTS = Path(__file__).resolve().parent


@pytest.hookimpl(tryfirst=True)  # before -m deselects anything
def pytest_collection_modifyitems(items):
    unmarked = []
    for item in items:
        fixtures = set(getattr(item, "fixturenames", ()))
        e2e = item.get_closest_marker("e2e") is not None
        if fixtures & PROCESS_FIXTURES and not e2e:
            unmarked.append(item.nodeid)
        if e2e:
            # `make test` runs with --dist loadgroup: an e2e module goes to one xdist worker
            # whole, so its module-scoped service starts once; the other tests are spread one
            # by one in pytest-django's order (transactional tests after the others, since
            # they empty the tables, the fixed templates included).
            item.add_marker(pytest.mark.xdist_group(item.path.relative_to(TESTS).as_posix()))
        database = item.get_closest_marker("django_db") or fixtures & {"db", "transactional_db"}
        in_backend_folder = item.path.relative_to(TESTS).parts[0] in BACKEND_FOLDERS
        if database and in_backend_folder and not e2e:
            item.add_marker(pytest.mark.backend)
    if unmarked:
        raise pytest.UsageError(
            "these tests start processes but are not marked e2e:\n  " + "\n  ".join(unmarked)
        )
    # pytest-xdist's loadgroup keys its work by node id: of tests sharing one it runs one.
    parallel = Counter(item.nodeid for item in items if not item.get_closest_marker("serial"))
    shared = [nodeid for nodeid, count in parallel.items() if count > 1]
    if shared:
        raise pytest.UsageError(
            "these node ids are shared by several tests, which `make test`'s parallel step "
            "would run once: mark them serial\n  " + "\n  ".join(shared)
        )


def pytest_collection_finish(session):
    """In a pytest-xdist worker under --dist loadgroup, every grouped test's node id must carry
    its group (`...@pages/test_find.py`), which is how the controller keeps a module on one
    worker. pytest-xdist 3.8 writes it into a field pytest 9.2 no longer reads, and then every
    e2e test went to either worker, its module's service started again there (pytest is pinned
    below 9.2 in requirements.txt for this)."""
    if not getattr(session.config.option, "loadgroup", False):  # set by xdist in its workers
        return
    lost = [
        item.nodeid
        for item in session.items
        if item.get_closest_marker("xdist_group") and "@" not in item.nodeid
    ]
    if lost:
        # Written to the worker's stderr too: the controller reports a worker's refusal at
        # collection as its own internal error only.
        sentence = (
            f"{len(lost)} tests lost their xdist_group (pytest-xdist's loadgroup does not work "
            f"with this pytest), so their modules' services would start on both workers; "
            f"the first: {lost[0]}"
        )
        print(sentence, file=sys.__stderr__, flush=True)
        raise pytest.UsageError(sentence)


def _bucket_of_this_worker() -> None:
    """S3_BUCKET-<worker> for this pytest-xdist worker's services, made by the service's own
    store_setup; each worker already has its own ports, databases, media folders and queue
    names (tests/processes.py)."""
    worker, bucket = os.environ.get("PYTEST_XDIST_WORKER"), os.environ.get("S3_BUCKET")
    if not (worker and bucket) or bucket.endswith(f"-{worker}"):
        return
    os.environ["S3_BUCKET"] = f"{bucket}-{worker}"
    subprocess.run(
        [sys.executable, "manage.py", "store_setup", "--wait", "60"],
        cwd=BASE_DIR,
        check=True,
        capture_output=True,
    )
