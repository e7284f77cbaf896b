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
