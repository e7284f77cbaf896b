"""Who may call what (docs/security.md): every route of the URL table, resolved through every
include, and the four endpoints in front of Django, called with every declared method by
four identities — anyone, customer A, customer B and staff — against objects that are A's.
Each answer is what config/access.py declares: a caller it lets in is never refused for who
they are; a refused one gets 401/403/404 with `{"detail", "code"}`, and the database rows,
the stored files and the queue are as they were."""

import json
import re
import threading
from pathlib import Path

import pytest
from django.apps import apps
from django.conf import settings
from django.db import connection
from django.test import Client
from django.urls import resolve
from drf_spectacular.generators import SchemaGenerator
from drf_spectacular.renderers import OpenApiJsonRenderer
from rest_framework.test import APIClient

from commerce.models import DesignList
from config.urls import in_front_of_django
from core import access
from core.access import Who, rule_for, table, url_routes
from core.admin_token import admin_token_issue
from core.endpoints import _route_name
from tests.asgi import asgi_request
from tests.commerce.factories import (
    make_address,
    make_design_list,
    make_order,
    make_product,
    user_client,
)
from wordclouds.api.lookup_front import readers
from wordclouds.models import Asset, Font, Job, Project, Template

IDENTITIES = ("anyone", "customer B", "customer A", "staff")
# The codes of a refusal for who the caller is (not for what they sent).
REFUSED_FOR_WHO = {
    "authentication_required",
    "token_invalid",
    "staff_only",
    "user_token_required",
    "not_owner",
    "access_undeclared",
    "csrf_failed",
}
# The path parameters naming one of A's objects: B is refused on them.
OWNED = ("job_id", "project_id", "address_id", "design_list_id", "order_id")
FRONT = {_route_name(pattern): methods for pattern, methods, _ in in_front_of_django}


def _declared_methods(name: str) -> list[str]:
    rules = table().get(name) or table().get(name.split(":")[0] + ":*", {})
    return list(rules)


def _cases() -> list[tuple[str, str, str]]:
    """(route name, path pattern, method) for every route and declared method; the admin's
    pages are walked with GET (their POSTs are Django's forms, refused by its CSRF check)."""
    cases = []
    for route in url_routes():
        methods = ["GET"] if route.name.startswith("admin:") else _declared_methods(route.name)
        cases += [(route.name, route.path, method) for method in methods or ["GET"]]
    cases += [(name, name, method) for name in FRONT for method in _declared_methods(name)]
    return cases


CASES = _cases()


# Routes whose work needs committed rows: the endpoints in front of Django read on threads of
# their own; paying calls the platform outside any transaction.
COMMITTED = {*FRONT, "order-pay", "order-payment-sync"}


@pytest.fixture
def world(media_root):
    return _world(media_root)


def _world(media_root) -> dict:
    """A's objects, one of each kind a path names, and a client per identity."""
    a, b = user_client("openid-a"), user_client("openid-b")
    owner = str(a.user.pk)
    # failed: a revision of it is refused (409) after the check of who asks, files or none
    job = Job.objects.create(name_list="names.xlsx", status=Job.Status.FAILED, owner=owner)
    template, _ = Template.objects.get_or_create(
        id="poster_1x1", defaults={"name": "square", "width": 1080, "height": 1080}
    )
    project = Project.objects.create(
        name="A's poster", template=template, background_color="#ffffff", owner=owner
    )
    font = Font.objects.create(name="F", filename="f.ttf", file="fonts/f.ttf")
    asset = Asset.objects.create(
        name="a",
        filename="a.png",
        file="assets/a.png",
        content_type="image/png",
        sha256="0",
        size=1,
    )
    design_list = make_design_list(a.user, DesignList.Status.DRAFT)
    staff = APIClient()
    staff.credentials(HTTP_AUTHORIZATION=f"Bearer {admin_token_issue()}")
    (media_root / "fonts").mkdir()
    (media_root / "fonts" / "f.ttf").write_bytes(b"not read")
    values = {
        "job_id": job.id,
        "project_id": project.id,
        "font_id": font.id,
        "asset_id": asset.id,
        "product_id": make_product().pk,
        "address_id": make_address(a.user).pk,
        "design_list_id": design_list.pk,
        "order_id": make_order(a.user).pk,
        "preparation_id": 1,
        "token": "x",
        "kind": "png",
        "level": 0,
        "column": 0,
        "row": 0,
        "object_id": 1,
        "id": 1,
        "app_label": "wordclouds",
        "content_type_id": 1,
        "url": "x",
    }
    clients = {"anyone": APIClient(), "customer A": a, "customer B": b, "staff": staff}
    return {"values": values, "clients": clients, "media": media_root}


def _path(pattern: str, values: dict) -> str:
    """The pattern with each parameter (`<str:job_id>`, `<job_id>`, `(?P<url>.*)$`) filled."""
    path = re.sub(r"<(?:\w+:)?(\w+)>", lambda m: str(values[m[1]]), pattern)
    path = re.sub(r"\(\?P<(\w+)>[^)]*\)", lambda m: str(values[m[1]]), path)
    return path.replace("^", "").replace("$", "").replace("…", "")


def _state(media: Path) -> tuple:
    """Every row of every table (the queue's among them) and every stored file."""
    rows = {
        model._meta.label: sorted(map(repr, model.objects.values()))
        for model in apps.get_models()
        if model._meta.managed
    }
    files = sorted((str(p), p.read_bytes()) for p in media.rglob("*") if p.is_file())
    return rows, files


def _refused(rule, who: str, pattern: str) -> bool:
    """Whether the table refuses `who` on this route (B: on A's objects too)."""
    needed = rule.required() if rule else None
    if needed is None:
        return True
    if needed is Who.ANYONE:
        return False
    if who == "anyone":
        return True
    if needed is Who.STAFF:
        return who != "staff"
    if needed is Who.END_USER and who == "staff":
        return True
    return who == "customer B" and any(f"{name}>" in pattern for name in OWNED)


def _call(world, who: str, name: str, pattern: str, method: str):
    path = _path(pattern, world["values"])
    client = world["clients"][who]
    if name in FRONT:
        token = client._credentials.get("HTTP_AUTHORIZATION")
        headers = {"authorization": token} if token else {}
        return asgi_request(method, path, **headers)
    return client.generic(method, path, "{}", content_type="application/json")


def _body(response) -> dict:
    try:
        return response.json()
    except (ValueError, TypeError):  # not JSON, or no body (204)
        return {}


def check_route(world, name: str, pattern: str, method: str) -> None:
    rule = rule_for(name, method)
    assert rule is not None, f"{method} {pattern} ({name}) is not in config/access.py"
    for who in IDENTITIES:
        before = _state(world["media"])
        response = _call(world, who, name, pattern, method)
        body = _body(response)
        seen = f"{who} {method} {pattern}: {response.status_code} {body}"
        if _refused(rule, who, pattern):
            assert response.status_code in (401, 403, 404), seen
            assert set(body) == {"detail", "code"}, seen
            assert _state(world["media"]) == before, seen
        else:
            # never a bug; 502/503 (no payment platform, no worker here) are the service's word
            assert response.status_code != 500, seen
            assert not (
                response.status_code in (401, 403) and body.get("code") in REFUSED_FOR_WHO
            ), seen


def _ids(cases):
    return [f"{method} {pattern}" for _, pattern, method in cases]


IN_TRANSACTIONS = [case for case in CASES if case[0] not in COMMITTED]
COMMITTING = [case for case in CASES if case[0] in COMMITTED]


@pytest.mark.django_db
@pytest.mark.parametrize(("name", "pattern", "method"), IN_TRANSACTIONS, ids=_ids(IN_TRANSACTIONS))
def test_each_route_answers_each_identity_as_declared(world, name, pattern, method):
    check_route(world, name, pattern, method)


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(("name", "pattern", "method"), COMMITTING, ids=_ids(COMMITTING))
def test_each_committing_route_answers_each_identity_as_declared(
    world, lookup_threads, name, pattern, method
):
    check_route(world, name, pattern, method)


@pytest.fixture
def lookup_threads():
    """After the test, the lookup threads close their kept connections (as the `lookup`
    fixture of tests/wordclouds does): a test database with one open cannot be dropped."""
    yield
    barrier = threading.Barrier(settings.LOOKUP_DB_READERS)

    def close():
        barrier.wait(timeout=10)
        connection.close()

    for future in [readers.submit(close) for _ in range(settings.LOOKUP_DB_READERS)]:
        future.result()


def test_every_route_is_declared_and_every_declaration_is_a_route():
    names = {route.name for route in url_routes()}
    undeclared = sorted(
        name for name in names if name not in table() and f"{name.split(':')[0]}:*" not in table()
    )
    namespaces = {f"{name.split(':')[0]}:*" for name in names if ":" in name}
    stale = sorted(set(table()) - names - set(FRONT) - namespaces)

    assert undeclared == [] and stale == []
    assert set(FRONT) <= set(table())
    assert len(CASES) > 150  # the walk really goes through the admin's routes and the API's


def test_every_method_a_view_answers_is_declared():
    from django.urls import get_resolver

    missing = []
    for route in url_routes():
        if route.name.startswith("admin:"):
            continue
        match = get_resolver().resolve(_path(route.path, _SAMPLE))
        view = getattr(match.func, "cls", None) or getattr(match.func, "view_class", None)
        if view is None:
            continue
        answered = {m.upper() for m in view.http_method_names if hasattr(view, m)}
        answered -= {"OPTIONS", "HEAD"}
        missing += [f"{m} {route.path}" for m in answered - set(_declared_methods(route.name))]

    assert missing == []


_SAMPLE = {
    name: "1"
    for name in (
        "job_id project_id font_id asset_id product_id address_id design_list_id order_id "
        "preparation_id token kind level column row"
    ).split()
}


@pytest.mark.django_db
def test_a_route_left_out_of_the_table_is_refused_to_everyone(world, monkeypatch):
    # given the table without the fonts' list
    without = {name: rules for name, rules in table().items() if name != "fonts"}
    monkeypatch.setattr(access, "table", lambda: without)

    response = world["clients"]["staff"].get("/api/fonts")

    # then even staff are refused, and the walk fails on it
    assert response.status_code == 403 and response.json()["code"] == "access_undeclared"
    with pytest.raises(AssertionError):
        check_route(world, "fonts", "/api/fonts", "GET")


# What the schema's `security` says for each kind of the table (docs/security.md).
SECURITY = {
    "anyone": [],
    "customer": [{"userToken": []}, {"adminToken": []}, {"staffSession": []}],
    "customer only": [{"userToken": []}],
    "staff": [{"adminToken": []}, {"staffSession": []}],
}


@pytest.mark.django_db
def test_each_operations_security_in_the_schema_is_the_tables():
    generated = SchemaGenerator().get_schema(request=None, public=True)
    schema = json.loads(OpenApiJsonRenderer().render(generated))
    seen, wrong = set(), []
    for path, operations in schema["paths"].items():
        front = re.sub(r"\{(\w+)\}", r"<\1>", path)
        name = front if front in FRONT else resolve(re.sub(r"\{\w+\}", "1", path)).view_name
        for method, operation in operations.items():
            rule = table()[name][method.upper()]
            expected = SECURITY[rule.who.value]
            if name in FRONT and rule.who is Who.STAFF:
                expected = [{"adminToken": []}]  # no session in front of Django
            if operation["security"] != expected:
                wrong.append(f"{method} {path}: {operation['security']} is not {rule.who}")
            seen.add((name, method.upper()))

    declared = {
        (route.name, method)
        for route in url_routes()
        if route.path.startswith("/api/") and route.name not in ("schema", "api-docs", "api-redoc")
        for method in _declared_methods(route.name)
    } | {(name, method) for name in FRONT for method in _declared_methods(name)}
    assert wrong == []
    assert declared - seen == set()  # every declared operation is in the schema


@pytest.mark.django_db
def test_jobs_need_a_login_when_so_set(world, settings):
    settings.JOBS_NEED_LOGIN = True

    refused = world["clients"]["anyone"].post("/api/jobs", {})
    let_in = world["clients"]["customer A"].post("/api/jobs", {})

    assert refused.status_code == 401 and refused.json()["code"] == "authentication_required"
    assert let_in.status_code == 400  # past the door: the name list is missing
    generated = SchemaGenerator().get_schema(request=None, public=True)
    assert generated["paths"]["/api/jobs"]["post"]["security"] == SECURITY["customer"]


@pytest.mark.django_db
def test_a_staff_session_needs_the_csrf_token_for_a_write(world, admin_user):
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(admin_user)
    browser.get("/admin/")  # the page sets the CSRF cookie
    csrf = browser.cookies["csrftoken"].value

    listed = browser.get("/api/jobs")
    refused = browser.delete(f"/api/fonts/{world['values']['font_id']}")
    deleted = browser.delete(f"/api/fonts/{world['values']['font_id']}", HTTP_X_CSRFTOKEN=csrf)

    assert listed.status_code == 200
    assert refused.status_code == 403 and refused.json()["code"] == "csrf_failed"
    assert deleted.status_code == 204
