"""HTTP clients for the commerce tests that talk to a real server: one end user or staff, a
new customer logged in through the identity stand-in, and the address they ship to."""

import uuid

import httpx

SHENZHEN = {
    "recipient": "Li Lei",
    "phone": "13800138000",
    "province": "Guangdong",
    "city": "Shenzhen",
    "detail": "1 Keyuan Road",
}


class Api:
    """An HTTP client for the service, acting as one end user or as staff."""

    def __init__(self, base: str, token: str):
        self.base, self.headers = base, {"Authorization": f"Bearer {token}"}

    def call(self, method: str, path: str, body: dict | None = None) -> httpx.Response:
        return httpx.request(method, self.base + path, json=body, headers=self.headers, timeout=60)


def new_customer(base: str, identity_platform) -> Api:
    """A new end user, logged in with a code the identity platform issued for a fresh openid."""
    code = identity_platform.login_code(f"openid-{uuid.uuid4().hex}")
    response = httpx.post(f"{base}/api/auth/login", json={"code": code}, timeout=30)
    assert response.status_code == 200, response.text
    return Api(base, response.json()["token"])
