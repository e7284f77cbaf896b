"""A small real HTTP server on loopback plays the identity platform, so the commerce client
is tested over real sockets (no mock of our own code); end-user and staff clients."""
import itertools
import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlparse

import pytest

from tests.commerce.factories import client_with, user_client
from wordclouds.admin_token import admin_token_issue

APP_ID = "wx-test-app"
APP_SECRET = "test-secret"


class IdentityPlatform:
    """State of the fake platform. Codes are single-use, like the real ones; access tokens
    expire after `token_lifetime` seconds and the server counts how often one is fetched."""

    def __init__(self):
        self.lock = threading.Lock()
        self.serial = itertools.count(1)
        self.reset()

    def reset(self):
        with self.lock:
            self.login_codes: dict[str, dict] = {}
            self.openpid_codes: dict[str, str] = {}
            self.phone_codes: dict[str, dict] = {}
            self.tokens: dict[str, float] = {}  # token -> monotonic expiry
            self.token_lifetime = 7200
            self.token_fetches = 0
            self.token_rejections = 0
            self.delay = 0.0

    def _code(self) -> str:
        return f"code-{next(self.serial)}"

    def login_code(self, openid: str, unionid: str = "") -> str:
        code = self._code()
        self.login_codes[code] = {"openid": openid, "unionid": unionid, "session_key": f"sk-{code}"}
        return code

    def openpid_code(self, openpid: str) -> str:
        code = self._code()
        self.openpid_codes[code] = openpid
        return code

    def phone_code(self, pure: str, country: str = "86") -> str:
        code = self._code()
        self.phone_codes[code] = {"phoneNumber": f"+{country}{pure}", "purePhoneNumber": pure,
                                  "countryCode": country}
        return code

    def revoke_tokens(self):
        """As when the app secret is reset: every issued access token stops working."""
        with self.lock:
            self.tokens.clear()

    # -- answers --------------------------------------------------------------------------------

    def answer(self, method: str, path: str, query: dict, body: dict) -> dict:
        if self.delay:
            time.sleep(self.delay)
        with self.lock:
            if path == "/sns/jscode2session" and method == "GET":
                return self._session(query)
            if path == "/cgi-bin/token" and method == "GET":
                return self._token(query)
            if path == "/wxa/getpluginopenpid" and method == "POST":
                return self._with_token(query) or self._openpid(body)
            if path == "/wxa/business/getuserphonenumber" and method == "POST":
                return self._with_token(query) or self._phone(body)
        return {"errcode": -1, "errmsg": f"no such api {method} {path}"}

    def _credentials_wrong(self, query: dict) -> dict | None:
        if query.get("appid") != APP_ID or query.get("secret") != APP_SECRET:
            return {"errcode": 40125, "errmsg": "invalid appsecret"}
        return None

    def _session(self, query: dict) -> dict:
        if wrong := self._credentials_wrong(query):
            return wrong
        if query.get("grant_type") != "authorization_code":
            return {"errcode": 40002, "errmsg": "invalid grant_type"}
        session = self.login_codes.pop(query.get("js_code", ""), None)
        return session or {"errcode": 40029, "errmsg": "invalid code"}

    def _token(self, query: dict) -> dict:
        if wrong := self._credentials_wrong(query):
            return wrong
        self.token_fetches += 1
        token = f"access-{self.token_fetches}"
        self.tokens[token] = time.monotonic() + self.token_lifetime
        return {"access_token": token, "expires_in": self.token_lifetime}

    def _with_token(self, query: dict) -> dict | None:
        expiry = self.tokens.get(query.get("access_token", ""))
        if expiry is None:
            self.token_rejections += 1
            return {"errcode": 40001, "errmsg": "invalid credential, access_token is invalid or not latest"}
        if expiry <= time.monotonic():
            self.token_rejections += 1
            return {"errcode": 42001, "errmsg": "access_token expired"}
        return None

    def _openpid(self, body: dict) -> dict:
        openpid = self.openpid_codes.pop(body.get("code", ""), None)
        if openpid is None:
            return {"errcode": 40029, "errmsg": "invalid code"}
        return {"errcode": 0, "errmsg": "ok", "openpid": openpid}

    def _phone(self, body: dict) -> dict:
        info = self.phone_codes.pop(body.get("code", ""), None)
        if info is None:
            return {"errcode": 40029, "errmsg": "invalid code"}
        return {"errcode": 0, "errmsg": "ok", "phone_info": {**info, "watermark": {"appid": APP_ID}}}


def _handler(platform: IdentityPlatform):
    class Handler(BaseHTTPRequestHandler):
        def _reply(self, method: str):
            url = urlparse(self.path)
            query = {key: values[0] for key, values in parse_qs(url.query).items()}
            length = int(self.headers.get("Content-Length") or 0)
            body = json.loads(self.rfile.read(length) or b"{}") if length else {}
            payload = json.dumps(platform.answer(method, url.path, query, body)).encode()
            self.send_response(200)
            # The real platform labels some JSON answers text/plain; the client must not care.
            self.send_header("Content-Type", "text/plain")
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            try:
                self.wfile.write(payload)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client gave up (timeout test)

        def do_GET(self):
            self._reply("GET")

        def do_POST(self):
            self._reply("POST")

        def log_message(self, *args):
            pass

    return Handler


@pytest.fixture(scope="session")
def identity_platform_server():
    platform = IdentityPlatform()
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(platform))
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    platform.url = f"http://127.0.0.1:{server.server_address[1]}"
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

