"""GET never writes (RFC 9110's safe method; docs/architecture.md, "Reads never write"):
every GET route of the URL table, the endpoints in front of Django and the admin among them,
is asked through the ASGI application daphne serves, with real objects in its path, by an
anonymous client, an end user and staff, while every writer is watched: SQL that inserts,
updates, deletes or locks rows for update (on any thread), objects saved to or deleted from
the file store, tasks enqueued, job events announced. A job whose worker died is among the
objects: reads show it failed, and its failure is written by the worker only."""

import re
import sys
from datetime import timedelta

import httpx
import pytest
from asgiref.sync import async_to_sync
from django.contrib import admin
from django.contrib.auth.models import User
from django.core.files.storage import FileSystemStorage
from django.db.backends import utils as db_utils
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from django.utils import timezone

from commerce.auth import user_token_issue
from commerce.models import (
    Address,
    DesignList,
    EndUser,
    Order,
    Payment,
    Preparation,
    Product,
    Proof,
    ProofComment,
    ProofDecision,
    ProofVersion,
    Refund,
)
from commerce.services.production import preparation_downloads
from config.asgi import application
from config.urls import in_front_of_django
from core.admin_token import admin_token_issue
from core.pipeline import move
from tests.wordclouds.asset_factories import asset_id, png_bytes, project_create, upload
from tests.wordclouds.conftest import finished_job, names_xlsx, queued_job, tiny_font  # noqa: F401
from wordclouds import storage
from wordclouds.models import Job, Template
from wordclouds.services import events
from wordclouds.services.jobs import job_start

# The ASGI endpoints and the admin read on threads of their own, which see committed rows.
pytestmark = pytest.mark.django_db(transaction=True)
SQL_WRITE = re.compile(r"^\s*(INSERT|UPDATE|DELETE|REPLACE)\b|\bFOR\s+UPDATE\b", re.IGNORECASE)
# What some GET routes need in their query to answer 200 rather than 400.
QUERIES = {"locations": "name=Anna", "find": "name=Anna"}


class Writes(list):
    """Every write seen while it watches, as (kind, what)."""

    def watch(self, monkeypatch) -> "Writes":
        for method in ("execute", "executemany"):
            original = getattr(db_utils.CursorWrapper, method)
            monkeypatch.setattr(db_utils.CursorWrapper, method, self._sql(original))
        for method in ("_save", "delete"):
            original = getattr(FileSystemStorage, method)
            monkeypatch.setattr(FileSystemStorage, method, self._recorded("store", original))
        monkeypatch.setattr(events, "_announce", self._recorded("announce", events._announce))
        for name, module in list(sys.modules.items()):
            if name.split(".")[0] in {"config", "core", "wordclouds", "commerce", "exports"}:
                if hasattr(module, "async_task"):
                    task = self._recorded("task", module.async_task)
                    monkeypatch.setattr(module, "async_task", task)
        monkeypatch.setattr("django_q.tasks.async_task", self._recorded("task", lambda *a: None))
        return self

    def _sql(self, original):
        def execute(cursor, sql, *args, **kwargs):
            if SQL_WRITE.search(str(sql)):
                self.append(("sql", str(sql)[:200]))
            return original(cursor, sql, *args, **kwargs)

        return execute

    def _recorded(self, kind: str, original):
        def call(*args, **kwargs):
            self.append((kind, repr(args)[:200]))
            return original(*args, **kwargs)

        return call


@pytest.fixture
def world(finished_job, queued_job, tiny_font, settings, client):  # noqa: F811
    """Real objects of every kind a GET route names, and the callers' headers."""
    finished = finished_job(["Anna", "Bruno", "Chloé"])
    silent = queued_job(["Anna", "Bruno"])
    job_start(job_id=silent, worker_pid=1)
    silent_since = timezone.now() - timedelta(seconds=settings.JOB_STALE_SECONDS + 1)
    Job.objects.filter(id=silent).update(updated_at=silent_since)

    staff_token = admin_token_issue()
    from rest_framework.test import APIClient

    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Bearer {staff_token}")
    asset = asset_id(api, png_bytes())
    font = api.post("/api/fonts", {"file": upload(tiny_font().read_bytes(), "tiny.ttf")}).json()
    # Its own template: a transactional test before this one may have emptied the built-ins.
    Template.objects.get_or_create(
        id="walk", defaults={"name": "Walk", "width": 300, "height": 200}
    )
    project = project_create(api, template_id="walk").json()["id"]
    user = EndUser.objects.create(openid="openid-reader")
    product = Product.objects.create(name="Poster A3", price=4900)
    address = Address.objects.create(
        user=user, recipient="Li Lei", phone="13800138000", province="G", city="S", detail="1"
    )
    design_list = DesignList.objects.create(user=user, name="Class of 2026")
    order = Order.objects.create(user=user, address={"recipient": "Li Lei"}, total_amount=4900)
    payment = Payment.objects.create(order=order, out_trade_no="P1_reader", amount=4900)
    Refund.objects.create(payment=payment, out_refund_no="R1_reader", amount=4900, reason="x")
    # A paid order's production file, and its signed link
    preparation = Preparation.objects.create(
        order=order, product=product, design={"jobId": finished}, design_key="j", kind="engrave"
    )
    storage.save("production/reader.dxf", b"0")
    file = {"name": "a.dxf", "key": "production/reader.dxf", "contentType": "image/vnd.dxf"}
    move(preparation, "prepared", files=[{**file, "size": 1, "preflight": {}}])
    (download,) = preparation_downloads(preparation)
    # A proof of the finished job with a comment and a decision; `token` names it too
    token = download.url.rsplit("/", 1)[-1]
    proof = Proof.objects.create(token=token, job_id=finished)
    version = ProofVersion.objects.create(proof=proof, version=1, job_id=finished)
    ProofComment.objects.create(version=version, word_id=1, kind="other", text="fine")
    ProofDecision.objects.create(version=version, decision="changes", name="Li", svg_sha256="0",
                                 db_sha256="0")  # fmt: skip

    superuser = User.objects.create_superuser("staff", "staff@example.com", "pw")
    client.force_login(superuser)  # the session row is written here, before the walk
    session = client.cookies[settings.SESSION_COOKIE_NAME].value
    callers = {
        "anonymous": {},
        "owner": {"Authorization": f"Bearer {user_token_issue(user)}"},
        "staff": {
            "Authorization": f"Bearer {staff_token}",
            "Cookie": f"{settings.SESSION_COOKIE_NAME}={session}",
        },
    }
    values = {
        "kind": "png",
        "level": 0,
        "column": 0,
        "row": 0,
        "font_id": font["id"],
        "asset_id": asset,
        "project_id": project,
        "product_id": product.id,
        "address_id": address.id,
        "design_list_id": design_list.id,
        "order_id": order.id,
        "preparation_id": preparation.id,
        "token": token,
    }
    return {"jobs": [finished, silent], "values": values, "callers": callers}


def django_routes(patterns, prefix=""):
    """(route, name) of every route Django answers, the admin's left to admin_paths."""
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            if getattr(pattern, "app_name", None) == "admin":
                continue
            yield from django_routes(pattern.url_patterns, prefix + str(pattern.pattern))
        elif isinstance(pattern, URLPattern):
            yield "/" + prefix + str(pattern.pattern), pattern.name


def filled(route: str, values: dict) -> str:
    """The route (a Django route or an ASGI endpoint's pattern) with `values` in it."""
    route = re.sub(r"\(\?P<(\w+)>[^)]*\)", lambda m: str(values[m.group(1)]), route)
    return re.sub(r"<(?:\w+:)?(\w+)>", lambda m: str(values[m.group(1)]), route)


def api_paths(values: dict) -> list[tuple[str, str]]:
    """(route, path) of every route, its parameters filled with real objects."""
    routes = [(route, name) for route, name in django_routes(get_resolver().url_patterns)]
    routes += [(pattern, pattern.rsplit("/", 1)[-1]) for pattern, _, _ in in_front_of_django]
    paths = []
    for route, name in routes:
        query = QUERIES.get(name) or QUERIES.get(route.rsplit("/", 1)[-1], "")
        paths.append((route, filled(route, values) + (f"?{query}" if query else "")))
    return paths


def admin_paths() -> dict[str, str]:
    """path: page of the admin's index, its password form, its apps, and every registered
    model's list, add, change, history and delete pages (a GET of delete only asks to
    confirm)."""
    paths = {reverse(f"admin:{page}"): page for page in ("index", "password_change", "jsi18n")}
    for model in admin.site._registry:
        app, name = model._meta.app_label, model._meta.model_name
        paths[reverse("admin:app_list", args=[app])] = "app_list"
        record = model.objects.first()
        for page in ("changelist", "add", "change", "history", "delete"):
            if page in ("changelist", "add") or record is not None:
                args = [] if page in ("changelist", "add") else [record.pk]
                paths[reverse(f"admin:{app}_{name}_{page}", args=args)] = page
    return paths


def get(path: str, headers: dict) -> int:
    async def request():
        transport = httpx.ASGITransport(app=application)
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as client:
            return (await client.get(path, headers=headers)).status_code

    return async_to_sync(request)()


def test_no_get_route_writes(world, monkeypatch):
    writes = Writes().watch(monkeypatch)
    answered: dict[str, list[int]] = {}
    pages: dict[str, tuple[str, int]] = {}

    for job_id in world["jobs"]:
        for route, path in api_paths({**world["values"], "job_id": job_id}):
            for headers in world["callers"].values():
                answered.setdefault(route, []).append(get(path, headers))
    for path, page in admin_paths().items():
        pages[path] = (page, get(path, world["callers"]["staff"]))

    assert writes == []
    # The walk reached every route that answers GET, and each of them answered it.
    unread = {route: statuses for route, statuses in answered.items() if min(statuses) >= 400}
    assert {route: s for route, s in unread.items() if set(s) != {405}} == {}
    assert len(answered) - len(unread) > 30
    # Adding and deleting are refused on the view-only admins (403), every other page shown.
    shown = {
        path: status for path, (page, status) in pages.items() if page not in ("add", "delete")
    }
    assert {path: status for path, status in shown.items() if status != 200} == {}
    assert len(shown) > 40


def test_the_watch_sees_each_kind_of_write(monkeypatch, django_capture_on_commit_callbacks):
    """The watch itself: a write of each kind is seen."""
    from commerce.payments import services as payments
    from wordclouds import storage

    writes = Writes().watch(monkeypatch)

    with django_capture_on_commit_callbacks(execute=True):
        Product.objects.create(name="Poster A3", price=4900)
    storage.delete(["jobs/none/input/names.xlsx"])
    events._announce("0" * 32)
    payments.async_task("math.floor", 1)

    assert {kind for kind, _ in writes} == {"sql", "store", "announce", "task"}
