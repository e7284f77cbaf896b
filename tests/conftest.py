import pytest
from rest_framework.test import APIClient


@pytest.fixture(autouse=True)
def media_root(tmp_path, settings):
    """Every test writes its files into its own temporary MEDIA_ROOT."""
    root = tmp_path / "media"
    root.mkdir()
    settings.MEDIA_ROOT = root
    return root


@pytest.fixture
def api():
    return APIClient()
