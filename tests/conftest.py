import pytest
from rest_framework.test import APIClient

from tests.processes import DatabaseTemplate

LOCAL_FILES = {
    "BACKEND": "django.core.files.storage.FileSystemStorage",
    "OPTIONS": {"allow_overwrite": True},
}


@pytest.fixture(autouse=True)
def media_root(tmp_path, settings):
    """Every test writes its files into its own temporary MEDIA_ROOT and keeps its working
    files in its own SCRATCH_ROOT. Tests in this process use the local file storage whatever
    the environment names, since many build job folders, fonts and assets in MEDIA_ROOT by
    hand; the real processes of the e2e tests take the S3 settings of the environment (CI's
    second pass: a local Swift), and tests/storage/ starts a Swift of its own."""
    root = tmp_path / "media"
    root.mkdir()
    settings.MEDIA_ROOT = root
    settings.SCRATCH_ROOT = tmp_path / "scratch"
    settings.STORAGES = {**settings.STORAGES, "default": LOCAL_FILES, "worker": LOCAL_FILES}
    return root


@pytest.fixture
def api():
    return APIClient()


@pytest.fixture(scope="session")
def database_template(tmp_path_factory):
    template = DatabaseTemplate(tmp_path_factory.mktemp("database-template"))
    yield template
    template.drop()


# Fixtures that start a real process: the service's web server, worker and converter (every
# Service is made from the database template), the converter alone, Chromium, Swift. A test
# that uses one, itself or through another fixture, must be marked e2e, so that
# `-m "not e2e"` leaves out every test that starts a server (CONTRIBUTING.md, "Tests").
PROCESS_FIXTURES = {"database_template", "converter_process", "browser", "swift"}


@pytest.hookimpl(tryfirst=True)  # before -m deselects anything
def pytest_collection_modifyitems(items):
    unmarked = [
        item.nodeid
        for item in items
        if PROCESS_FIXTURES & set(getattr(item, "fixturenames", ()))
        and item.get_closest_marker("e2e") is None
    ]
    if unmarked:
        raise pytest.UsageError(
            "these tests start processes but are not marked e2e:\n  " + "\n  ".join(unmarked)
        )
