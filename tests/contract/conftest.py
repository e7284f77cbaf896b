"""The contract tests' service: real daphne, worker and converter processes, the identity
platform's stand-in answering every code, and a world seeded through the API itself (a
finished job, an asset, a font, a project, a product, an address, a design list, an order)."""

import io
import threading
from dataclasses import dataclass
from pathlib import Path

import httpx
import openpyxl
import pytest
from PIL import Image, ImageDraw

from commerce.identity_standin import IdentityPlatform, identity_server
from tests.processes import Service

ADMIN_PASSWORD = "contract-admin"
# A real TrueType font that is always installed (it ships with Django REST framework).
SMALL_FONT = (
    Path(__import__("rest_framework").__file__).parent
    / "static/rest_framework/fonts/glyphicons-halflings-regular.ttf"
)


def names_xlsx_bytes(names=("Anna", "Bruno", "李雷", "韩梅梅", "Chloé", "Dmitri")) -> bytes:
    book = openpyxl.Workbook()
    book.active.append(["name"])
    for name in names:
        book.active.append([name])
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def mask_png_bytes(size=(200, 150)) -> bytes:
    """A black ellipse on white: the shape words fill in IMAGE mode."""
    image = Image.new("RGB", size, "white")
    ImageDraw.Draw(image).ellipse((5, 5, size[0] - 5, size[1] - 5), fill="black")
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


@dataclass
class World:
    """Ids of real resources and the two tokens, for the tests to put into requests."""

    url: str
    admin_token: str
    user_token: str
    job_id: str
    asset_id: str
    font_id: str
    project_id: str
    template_id: str
    product_id: int
    address_id: int
    design_list_id: int
    order_id: int


@pytest.fixture(scope="module")
def identity_platform():
    """The stand-in platform with open codes: any code logs in (as `dev-<code>`)."""
    platform = IdentityPlatform(
        app_id="contract-app", app_secret="contract-secret", open_codes=True
    )
    server = identity_server(platform)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield platform
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="module")
def service(tmp_path_factory, database_template, identity_platform):
    started = Service(
        tmp_path_factory.mktemp("contract"),
        database_template,
        ORDERS_ADMIN_PASSWORD=ADMIN_PASSWORD,
        IDENTITY_PLATFORM_URL=identity_platform.url,
        IDENTITY_APP_ID=identity_platform.app_id,
        IDENTITY_APP_SECRET=identity_platform.app_secret,
    )
    try:
        yield started.start(worker=True, converter=True)
    finally:
        started.stop()


def _created(response: httpx.Response) -> dict:
    assert response.status_code in (200, 201), (response.request.url, response.text)
    return response.json()


@pytest.fixture(scope="module")
def world(service) -> World:
    """One of everything, made through the API as a client would."""
    http = httpx.Client(base_url=service.url, timeout=60)
    admin = _created(http.post("/api/login", json={"password": ADMIN_PASSWORD}))["token"]
    user = _created(http.post("/api/auth/login", json={"code": "contract-user"}))["token"]
    as_admin = {"Authorization": f"Bearer {admin}"}
    as_user = {"Authorization": f"Bearer {user}"}
    # The user's job and project: the operations a user's token is sent to act on their own.
    job_id = _created(
        http.post(
            "/api/jobs",
            headers=as_user,
            files={"name_list": ("names.xlsx", names_xlsx_bytes())},
            data={"params": '{"WIDTH": 400, "HEIGHT": 300, "SEED": 7}'},
        )
    )["job_id"]
    job = service.wait_for(job_id, lambda job: job["status"] in ("success", "failed"), timeout=120)
    assert job["status"] == "success", job
    asset = _created(
        http.post(f"/api/assets/from-job/{job_id}", headers=as_admin, data={"kind": "png"})
    )
    font = _created(
        http.post(
            "/api/fonts", headers=as_admin, files={"file": ("small.ttf", SMALL_FONT.read_bytes())}
        )
    )
    template_id = http.get("/api/templates").json()[0]["id"]
    stickers = f'[{{"asset_id": "{asset["id"]}", "x": 10, "y": 10, "width": 100, "height": 80}}]'
    project = _created(
        http.post(
            "/api/projects",
            headers=as_user,
            data={
                "name": "Class of 2026",
                "template_id": template_id,
                "background_color": "#FFFFFF",
                "stickers": stickers,
            },
        )
    )
    product = _created(
        http.post("/api/products", headers=as_admin, json={"name": "Poster A3", "price": 4900})
    )
    address = _created(
        http.post(
            "/api/addresses",
            headers=as_user,
            json={
                "recipient": "Li Lei",
                "phone": "13800138000",
                "province": "Guangdong",
                "city": "Shenzhen",
                "detail": "1 Keyuan Road",
            },
        )
    )
    design_list = _created(
        http.post(
            "/api/design-lists",
            headers=as_user,
            json={"name": "Class of 2026", "items": [{"jobId": job_id, "quantity": 1}]},
        )
    )
    order = _created(
        http.post(
            "/api/orders",
            headers=as_user,
            json={
                "addressId": address["id"],
                "items": [{"productId": product["id"], "quantity": 2}],
            },
        )
    )
    return World(
        url=service.url,
        admin_token=admin,
        user_token=user,
        job_id=job_id,
        asset_id=asset["id"],
        font_id=font["id"],
        project_id=project["id"],
        template_id=template_id,
        product_id=product["id"],
        address_id=address["id"],
        design_list_id=design_list["id"],
        order_id=order["id"],
    )
