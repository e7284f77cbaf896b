import pytest
from rest_framework.test import APIClient

from tests.processes import DatabaseTemplate


@pytest.fixture(autouse=True)
def media_root(tmp_path, settings):
    """Every test writes its files into its own temporary MEDIA_ROOT (the local file
    storage) and keeps its working files in its own SCRATCH_ROOT."""
    root = tmp_path / "media"
    root.mkdir()
    settings.MEDIA_ROOT = root
    settings.SCRATCH_ROOT = tmp_path / "scratch"
    return root


@pytest.fixture
def api():
    return APIClient()


@pytest.fixture(scope="session")
def database_template(tmp_path_factory):
    template = DatabaseTemplate(tmp_path_factory.mktemp("database-template"))
    yield template
    template.drop()
