"""A small HTTP server that plays the mini-program identity platform on loopback: the four
calls `commerce/identity.py` makes, with the platform's answers and error codes.

Two users: the tests (their own codes, single-use like the real ones, and access tokens that
expire, to test the client against real sockets), and local development, where
`IDENTITY_STANDIN` makes `make run` start it (`manage.py identity_standin`) so a newcomer can
log in without the real platform. There `open_codes` is on: any code logs in, as the user
whose openid is `dev-<code>`, so `POST /api/auth/login {"code": "alice"}` is Alice every time
(a code too long for the 128 characters the platform's identifiers have gives `dev-<its
SHA-256>` instead; the session key and openpid are made the same way)."""

import hashlib
import itertools
import json
import threading
import time
from http.server import ThreadingHTTPServer
from urllib.parse import parse_qs, urlparse

from core.standin import StandinHandler, standin_server

# The longest identifier the platform gives (openid, session key, openpid); real ones are 28.
IDENTIFIER_MAX = 128


def _open_identifier(prefix: str, code: str) -> str:
    """The same identifier for the same code, within the length the platform's have."""
    identifier = f"{prefix}{code}"
    if len(identifier) <= IDENTIFIER_MAX:
        return identifier
    return f"{prefix}{hashlib.sha256(code.encode()).hexdigest()}"


class IdentityPlatform:
    """State of the stand-in. Registered codes are single-use; access tokens expire after
    `token_lifetime` seconds, and the server counts how often one is fetched."""

    def __init__(self, *, app_id: str, app_secret: str, open_codes: bool = False):
        self.app_id = app_id
        self.app_secret = app_secret
        self.open_codes = open_codes
        self.lock = threading.Lock()
        self.serial = itertools.count(1)
        self.url = ""
        self.reset()

    def reset(self):
        with self.lock:
            self.login_codes: dict[str, dict] = {}
            self.openpid_codes: dict[str, str] = {}
            self.phone_codes: dict[str, dict] = {}
            self.used_codes: set[str] = set()  # answered 40163, as the real platform does
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
        self.phone_codes[code] = _phone_info(pure, country)
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
        if query.get("appid") != self.app_id or query.get("secret") != self.app_secret:
            return {"errcode": 40125, "errmsg": "invalid appsecret"}
        return None

    def _session(self, query: dict) -> dict:
        if wrong := self._credentials_wrong(query):
            return wrong
        if query.get("grant_type") != "authorization_code":
            return {"errcode": 40002, "errmsg": "invalid grant_type"}
        code = query.get("js_code", "")
        session = self._redeem(self.login_codes, code)
        if session is None and self.open_codes and code:
            session = {
                "openid": _open_identifier("dev-", code),
                "unionid": "",
                "session_key": _open_identifier("sk-", code),
            }
        return session or self._refused(code)

    def _redeem(self, codes: dict, code: str):
        """The value a registered code stands for, once: the code is used up."""
        value = codes.pop(code, None)
        if value is not None:
            self.used_codes.add(code)
        return value

    def _refused(self, code: str) -> dict:
        if code in self.used_codes:
            return {"errcode": 40163, "errmsg": "code been used"}
        return {"errcode": 40029, "errmsg": "invalid code"}

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
            return {
                "errcode": 40001,
                "errmsg": "invalid credential, access_token is invalid or not latest",
            }
        if expiry <= time.monotonic():
            self.token_rejections += 1
            return {"errcode": 42001, "errmsg": "access_token expired"}
        return None

    def _openpid(self, body: dict) -> dict:
        code = body.get("code", "")
        openpid = self._redeem(self.openpid_codes, code)
        if openpid is None and self.open_codes and code:
            openpid = _open_identifier("dev-openpid-", code)
        if openpid is None:
            return self._refused(code)
        return {"errcode": 0, "errmsg": "ok", "openpid": openpid}

    def _phone(self, body: dict) -> dict:
        code = body.get("code", "")
        info = self._redeem(self.phone_codes, code)
        if info is None and self.open_codes and code:
            info = _phone_info("13800138000")
        if info is None:
            return self._refused(code)
        return {
            "errcode": 0,
            "errmsg": "ok",
            "phone_info": {**info, "watermark": {"appid": self.app_id}},
        }


def _phone_info(pure: str, country: str = "86") -> dict:
    return {"phoneNumber": f"+{country}{pure}", "purePhoneNumber": pure, "countryCode": country}


def _handler(platform: IdentityPlatform):
    class Handler(StandinHandler):
        def _reply(self, method: str):
            url = urlparse(self.path)
            query = {
                key: values[0]
                for key, values in parse_qs(url.query, keep_blank_values=True).items()
            }
            length = int(self.headers.get("Content-Length") or 0)
            body = json.loads(self.rfile.read(length) or b"{}") if length else {}
            payload = json.dumps(platform.answer(method, url.path, query, body)).encode()
            # The real platform labels some JSON answers text/plain; the client must not care.
            self._write(200, payload, {"Content-Type": "text/plain"})

    return Handler


def identity_server(
    platform: IdentityPlatform, *, host: str = "127.0.0.1", port: int = 0
) -> ThreadingHTTPServer:
    """The server for `platform` (core.standin.standin_server)."""
    return standin_server(platform, _handler(platform), host=host, port=port)
