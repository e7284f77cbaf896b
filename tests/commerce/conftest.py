"""A small real HTTP server on loopback plays the identity platform, so the commerce client
is tested over real sockets (no mock of our own code); end-user and staff clients."""

import threading

import pytest

from commerce.identity_standin import IdentityPlatform, identity_server
from core.admin_token import admin_token_issue
from tests.commerce.factories import client_with, user_client

APP_ID = "wx-test-app"
APP_SECRET = "test-secret"


@pytest.fixture(scope="session")
def identity_platform_server():
    platform = IdentityPlatform(app_id=APP_ID, app_secret=APP_SECRET)
    server = identity_server(platform)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield platform
    server.shutdown()
    server.server_close()


@pytest.fixture
def identity_platform(identity_platform_server, settings):
    """The fake platform, fresh for this test, and the settings pointing at it."""
    identity_platform_server.reset()
    settings.IDENTITY_PLATFORM_URL = identity_platform_server.url
    settings.IDENTITY_APP_ID = APP_ID
    settings.IDENTITY_APP_SECRET = APP_SECRET
    settings.IDENTITY_TIMEOUT = 2
    return identity_platform_server


@pytest.fixture
def alice(db):
    """An end user and an API client carrying their token (login itself: test_identity.py)."""
    return user_client("openid-alice")


@pytest.fixture
def bob(db):
    return user_client("openid-bob")


@pytest.fixture
def staff():
    return client_with(admin_token_issue())
