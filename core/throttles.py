"""Per-client rates of the expensive and the guessable requests (THROTTLE_RATES, docs/settings.md,
"Throttles"), counted in Django's cache, which every web process shares (config/settings.py
CACHES), with DRF's sliding window (SimpleRateThrottle: the times of a client's requests in
the last period). Past its rate a request answers 429 `throttled` with `Retry-After`, before
its body is read.

Which requests count against which scope is declared once, in the root URLconf's `throttled`
table (config/urls.py, read here as Django reads its `handler500`): by method and route, as
the metrics name a route. `RouteThrottle` counts Django's requests (DRF's
DEFAULT_THROTTLE_CLASSES); the endpoints in front of Django call `front_throttle` on their
own threads. A client is its user when the request carries an end-user token, else its
address; staff (the admin token, a staff session) are never counted.

The login scope counts failed logins only (`failure_count`, called by both logins): past its
rate every attempt of that client is refused, right or wrong, until its oldest failure is a
period old, while a crowd of mini-program users behind one address logging in is never
refused (neither are staff who log in often)."""

import re

from django.conf import settings
from django.urls import get_resolver
from rest_framework.throttling import BaseThrottle, SimpleRateThrottle

# core.errors as a module, not its names: DRF imports this module while core.errors imports DRF.
from core import errors
from core.addresses import client_address
from core.identity import ANYONE, Identity, request_identity, token_identity

# The scopes whose requests are counted only when they fail (`failure_count`).
FAILURES_COUNTED = {"login"}


def route_scope(method: str, route: str) -> str | None:
    """The scope `method` on `route` counts against (a HEAD as a GET), or None."""
    method = "GET" if method == "HEAD" else method
    return _routes().get((method, route))


def _routes() -> dict[tuple[str, str], str]:
    """The root URLconf's `throttled` table."""
    return getattr(get_resolver().urlconf_module, "throttled", {})


def throttled_operations() -> dict[tuple[str, str], str]:
    """The scope of each throttled operation by (method, OpenAPI path), for the schema."""
    return {
        (method.lower(), re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", route)): scope
        for (method, route), scope in _routes().items()
    }


def throttle_count(scope: str, client: str, *, record: bool = True) -> None:
    """One request of `client` counted in `scope` (with `record` False only checked); 429
    `throttled` past the scope's rate."""
    counter = _Counter(scope, client, record)
    if not counter.allow_request(None, None):
        requests, seconds = settings.THROTTLE_RATES[scope]
        wait = counter.wait() or seconds
        raise errors.TooManyRequests(
            f"more than {requests} {scope} requests in {seconds} s from this client; "
            f"try again in {wait:.0f} s",
            code="throttled",
            retry_after=wait,
        )


class _Counter(SimpleRateThrottle):
    """DRF's sliding window over one client's requests in one scope."""

    def __init__(self, scope: str, client: str, record: bool):
        self.scope, self.client, self.record = scope, client, record
        self.num_requests, self.duration = settings.THROTTLE_RATES[scope]
        self.rate = f"{self.num_requests}/{self.duration}s"

    def get_cache_key(self, request, view):
        return self.cache_format % {"scope": self.scope, "ident": self.client}

    def throttle_success(self):
        return super().throttle_success() if self.record else True


def request_client(request) -> str | None:
    """The client a Django request counts for; None for staff."""
    return _client(
        request_identity(request),
        request.META.get("REMOTE_ADDR", ""),
        request.headers.get("X-Forwarded-For", ""),
    )


def scope_client(scope: dict) -> str | None:
    """The client an ASGI request counts for; None for staff (by the admin token: these
    endpoints read no session)."""
    headers = {}
    for name, value in scope["headers"]:
        headers.setdefault(name, []).append(value.decode("latin-1"))
    identity = token_identity(",".join(headers.get(b"authorization", []))) or ANYONE
    peer = (scope.get("client") or ("",))[0]
    return _client(identity, peer, ",".join(headers.get(b"x-forwarded-for", [])))


def _client(identity: Identity, peer: str, forwarded_for: str) -> str | None:
    if identity.is_staff:
        return None
    if identity.is_customer:
        return f"user:{identity.user_id}"
    return "address:" + client_address(peer, forwarded_for, settings.TRUSTED_PROXIES)


class RouteThrottle(BaseThrottle):
    """DRF: counts a request whose route `throttled` names (TooManyRequests past its rate)."""

    def allow_request(self, request, view):
        scope = _request_scope(request)
        client = scope and request_client(request)
        if client:
            throttle_count(scope, client, record=scope not in FAILURES_COUNTED)
        return True


def failure_count(request) -> None:
    """A failed login counted in its route's scope (FAILURES_COUNTED)."""
    scope = _request_scope(request)
    client = scope and request_client(request)
    if client:
        throttle_count(scope, client)


def _request_scope(request) -> str | None:
    match = request.resolver_match
    return match and route_scope(request.method, "/" + match.route)


def front_throttle(scope: dict) -> None:
    """An endpoint in front of Django: counts its request as RouteThrottle does (call it on
    a thread of the endpoint's: the cache may be the database)."""
    counted = route_scope(scope["method"], scope.get("route", ""))
    client = counted and scope_client(scope)
    if client:
        throttle_count(counted, client)
