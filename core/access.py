"""Who may call each route: the kinds of a route's rule (`Who`), the refusal a caller gets,
the middleware that enforces the table for every Django route, and the check the ASGI
endpoints in front of Django make. The table itself is configuration, `config/access.py`
(`settings.ACCESS_TABLE`): every route by URL name, every method; the OpenAPI `security` of
each operation (`document_access`) and docs/security.md (`manage.py docs_tables`) are written
from it, so the three cannot drift.

A route that is not in the table is refused to everyone (403 `access_undeclared`): a new
route is closed until someone says who may call it."""

from dataclasses import dataclass
from enum import StrEnum
from functools import cache

from django.conf import settings
from django.http import JsonResponse
from django.middleware.csrf import CsrfViewMiddleware
from django.urls import Resolver404, URLResolver, resolve
from django.utils.module_loading import import_string

from core.errors import Forbidden, ServiceError, Unauthorized
from core.identity import Identity, Kind, request_identity, token_identity


class Who(StrEnum):
    ANYONE = "anyone"
    CUSTOMER = "customer"  # a customer (their own objects only) or staff
    END_USER = "customer only"  # a customer's own token: it acts for that user (not staff)
    STAFF = "staff"


@dataclass(frozen=True)
class Rule:
    who: Who
    note: str = ""  # what the table's reader should know: whose objects, what else lets in
    # A setting that, when true, raises ANYONE to CUSTOMER (JOBS_NEED_LOGIN for POST /api/jobs).
    login_setting: str = ""
    # Also let in (a predicate on the Django request): /metrics' scrapers by address.
    also: object = None

    def required(self) -> Who:
        if self.login_setting and getattr(settings, self.login_setting):
            return Who.CUSTOMER
        return self.who


def anyone(note: str = "", **options) -> Rule:
    return Rule(Who.ANYONE, note, **options)


def customer(note: str = "", **options) -> Rule:
    return Rule(Who.CUSTOMER, note, **options)


def end_user(note: str = "", **options) -> Rule:
    return Rule(Who.END_USER, note, **options)


def staff(note: str = "", **options) -> Rule:
    return Rule(Who.STAFF, note, **options)


# A method's rule stands for HEAD too; OPTIONS (what a route allows) is open to anyone.
READS = ("GET", "HEAD", "OPTIONS")
UNSAFE = ("POST", "PUT", "PATCH", "DELETE")


@cache
def table() -> dict[str, dict[str, Rule]]:
    """route name (a Django URL name, namespaced, or `<namespace>:*` for a whole namespace;
    the path of an endpoint in front of Django) → method → rule."""
    return import_string(settings.ACCESS_TABLE)


def rule_for(route: str, method: str) -> Rule | None:
    """The rule of `method` on `route`; None when the route is not declared."""
    routes = table()
    rules = routes.get(route)
    if rules is None and ":" in route:
        rules = routes.get(route.rsplit(":", 1)[0] + ":*")
    if rules is None:
        return None
    if method == "OPTIONS":
        return anyone()
    return rules.get("GET" if method == "HEAD" else method, _NOT_ALLOWED)


_NOT_ALLOWED = Rule(Who.STAFF, "a method the route does not declare")


class MethodNotDeclared(ServiceError):
    status_code = 405


def refusal(rule: Rule | None, identity: Identity, *, method: str) -> ServiceError | None:
    """Why `identity` may not call a route of this rule (None: it may). No credentials: 401;
    credentials of the wrong kind: 403. Whose object it is, the view asks (`owner_refusal`)."""
    if rule is None:
        return Forbidden("this route declares no access", code="access_undeclared")
    if rule is _NOT_ALLOWED:
        return MethodNotDeclared(f"method {method[:20]} not allowed")
    needed = rule.required()
    if needed is Who.ANYONE:
        return None
    if identity.kind is Kind.ANYONE:
        if identity.token_refused:
            return Unauthorized("invalid or expired token", code="token_invalid")
        return Unauthorized("authentication required", code="authentication_required")
    if needed is Who.STAFF and not identity.is_staff:
        return Forbidden("this endpoint is for staff", code="staff_only")
    if needed is Who.END_USER and not identity.is_customer:
        return Forbidden("this endpoint needs an end-user token", code="user_token_required")
    return None


class AccessMiddleware:
    """Every Django route answers only the callers its rule lets in, before its view runs."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_view(self, request, view, args, kwargs):
        rule = rule_for(request.resolver_match.view_name, request.method)
        if rule is not None and rule.also is not None and rule.also(request):
            return None
        identity = request_identity(request)
        error = refusal(rule, identity, method=request.method)
        if error is None and rule.required() is not Who.ANYONE:
            error = _csrf_refusal(request, identity, view, args, kwargs)
        if error is None:
            return None
        return JsonResponse(error.body(), status=error.status_code)


def _csrf_refusal(request, identity: Identity, view, args, kwargs) -> ServiceError | None:
    """A staff session carries the cookie on any site's form: an unsafe request made with it
    needs the page's CSRF token (X-CSRFToken), as Django's own forms do. Tokens need none."""
    if not identity.by_session or request.method not in UNSAFE:
        return None
    check = CsrfViewMiddleware(lambda request: None)  # as DRF's SessionAuthentication does
    check.process_request(request)
    if check.process_view(request, None, args, kwargs) is None:
        return None
    return Forbidden("the staff session needs the page's CSRF token", code="csrf_failed")


def endpoint_refusal(route: str, method: str, authorization: str) -> ServiceError | None:
    """The check of an ASGI endpoint in front of Django (core/endpoints.py), by its route
    (`/api/jobs/<job_id>/find`): the same table; there, staff is the admin token only."""
    identity = token_identity(authorization) or Identity(Kind.ANYONE)
    return refusal(rule_for(route, method), identity, method=method)


def owner_refusal(identity: Identity, owner: str, *, hidden: ServiceError) -> ServiceError | None:
    """Why `identity` may not act on an object whose owner key is `owner` ('' for one made
    without a customer's token, which only staff may act on): staff may always; another
    customer gets `hidden`, the 404 the object's absence would give, or a 403 where its id is
    already known to whoever holds it (a job's)."""
    if identity.is_staff or (owner and identity.owner_key == owner):
        return None
    if identity.kind is Kind.ANYONE:
        return Unauthorized("authentication required", code="authentication_required")
    return hidden


# The OpenAPI `security` of an operation, by the rule's kind (core/schema.py's schemes).
SECURITY = {
    Who.ANYONE: [],
    Who.CUSTOMER: [{"userToken": []}, {"adminToken": []}, {"staffSession": []}],
    Who.END_USER: [{"userToken": []}],
    Who.STAFF: [{"adminToken": []}, {"staffSession": []}],
}
IN_FRONT_SECURITY = {**SECURITY, Who.STAFF: [{"adminToken": []}]}  # no session there


def route_of(path: str) -> tuple[str, bool]:
    """The route name of a schema path (`/api/jobs/{job_id}`), and whether it is served in
    front of Django."""
    front = _in_front_routes()
    route = path.replace("{", "<").replace("}", ">")
    if route in front:
        return route, True
    try:
        return resolve(_sample(path)).view_name, False
    except Resolver404:
        return "", False


def _sample(path: str) -> str:
    """A path of this schema path's shape: every `{parameter}` is 1 (a string or an int)."""
    out, depth = [], 0
    for char in path:
        if char == "{":
            depth += 1
            out.append("1")
        elif char == "}":
            depth -= 1
        elif not depth:
            out.append(char)
    return "".join(out)


@cache
def _in_front_routes() -> frozenset[str]:
    return frozenset(route for route in table() if route.startswith("/"))


def document_access(result, generator, request, public):
    """drf-spectacular post-processing hook: every operation's `security` is its rule's in the
    table (an operation of an undeclared route gets the staff's, the tightest there is)."""
    for path, operations in result.get("paths", {}).items():
        route, front = route_of(path)
        securities = IN_FRONT_SECURITY if front else SECURITY
        for method, operation in operations.items():
            if not isinstance(operation, dict) or "responses" not in operation:
                continue
            rule = rule_for(route, method.upper())
            operation["security"] = securities[rule.required() if rule else Who.STAFF]
    return result


@dataclass(frozen=True)
class Route:
    name: str  # the table's key: a namespaced URL name (`admin:index`), or the path in front
    path: str  # /api/jobs/<str:job_id>


def url_routes(patterns=None, prefix: str = "/", namespace: str = "") -> list[Route]:
    """Every route of Django's URL table, resolved through every include, by the name the
    access table knows it by (an unnamed route by its view's, as `resolver_match` gives it)."""
    if patterns is None:
        from django.urls import get_resolver

        patterns = get_resolver().url_patterns
    routes = []
    for pattern in patterns:
        path = prefix + str(pattern.pattern)
        if isinstance(pattern, URLResolver):
            inner = f"{namespace}{pattern.namespace}:" if pattern.namespace else namespace
            routes += url_routes(pattern.url_patterns, path, inner)
        else:
            name = pattern.name or pattern.lookup_str
            routes.append(Route(namespace + name, path))
    return routes


def rows() -> list[dict[str, str]]:
    """docs/security.md's table: each declared route and method, who may call it."""
    paths: dict[str, str] = {}
    for route in url_routes():
        key = route.name if route.name in table() else route.name.split(":")[0] + ":*"
        paths.setdefault(key, route.path if key == route.name else route.path + "…")
    return [
        {
            "route": f"`{name}`",
            "path": f"`{paths.get(name, name)}`",
            "method": method,
            "who": rule.who.value
            + (f" ({rule.login_setting}=1: customer)" if rule.login_setting else ""),
            "note": rule.note,
        }
        for name, rules in table().items()
        for method, rule in rules.items()
    ]
