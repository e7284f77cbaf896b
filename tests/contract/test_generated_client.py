"""A client generated with openapi-python-client from the live schema, used as it comes out
of the generator: a job from uploaded files, its PNG, its locations, and an order's life."""

import importlib
import io
import json
import subprocess
import sys
import time

import httpx
import pytest
from PIL import Image

from tests.contract.conftest import ADMIN_PASSWORD, mask_png_bytes, names_xlsx_bytes

pytestmark = pytest.mark.e2e
PACKAGE = "wordcloud_client"
# The generator reads JSON and octet-stream bodies; the service's downloads carry their real
# types, which its documented configuration maps to bytes.
GENERATOR_CONFIG = {
    "content_type_overrides": {
        kind: "application/octet-stream"
        for kind in (
            "image/png",
            "image/jpeg",
            "image/gif",
            "image/webp",
            "image/svg+xml",
            "application/vnd.sqlite3",
            "application/illustrator",
        )
    }
}


@pytest.fixture(scope="module")
def client_package(service, tmp_path_factory):
    folder = tmp_path_factory.mktemp("generated")
    (folder / "schema.json").write_text(httpx.get(f"{service.url}/api/schema/?format=json").text)
    (folder / "config.json").write_text(json.dumps(GENERATOR_CONFIG))
    subprocess.run(
        [
            sys.executable,
            "-m",
            "openapi_python_client",
            "generate",
            "--path",
            "schema.json",
            "--config",
            "config.json",
            "--output-path",
            PACKAGE,
            "--meta",
            "none",
        ],
        cwd=folder,
        check=True,
        capture_output=True,
    )
    sys.path.insert(0, str(folder))
    try:
        yield importlib.import_module(PACKAGE)
    finally:
        sys.path.remove(str(folder))
        for name in [name for name in sys.modules if name.split(".")[0] == PACKAGE]:
            del sys.modules[name]


def _module(package, name: str):
    return importlib.import_module(f"{package.__name__}.{name}")


def test_a_generated_client_runs_a_job_and_reads_its_results(service, client_package):
    api, models, types = (_module(client_package, name) for name in ("api", "models", "types"))
    # follow_redirects: with object storage a download is a redirect to the stored file
    client = client_package.Client(
        base_url=service.url, raise_on_unexpected_status=True, follow_redirects=True
    )
    jobs = _module(client_package, "api.jobs")
    create = _module(client_package, "api.jobs.jobs_create")
    body = models.JobCreateRequest(
        name_list=types.File(payload=io.BytesIO(names_xlsx_bytes()), file_name="names.xlsx"),
        mask_image=types.File(payload=io.BytesIO(mask_png_bytes()), file_name="mask.png"),
        params=models.JobCreateRequestParams.from_dict(
            {"MODE": "IMAGE", "WIDTH": 400, "SEED": 11, "BACKGROUND_COLOR": "transparent"}
        ),
    )
    created = create.sync(client=client, body=body)
    assert isinstance(created, models.JobCreated), created

    status = _module(client_package, "api.jobs.jobs_retrieve")
    deadline = time.monotonic() + 120
    job = status.sync(created.job_id, client=client)
    while job.status.value not in ("success", "failed") and time.monotonic() < deadline:
        time.sleep(0.2)
        job = status.sync(created.job_id, client=client)
    assert job.status.value == "success", job

    download = _module(client_package, "api.jobs.jobs_files_retrieve")
    png = download.sync(created.job_id, models.JobsFilesRetrieveKind.PNG, client=client)
    image = Image.open(io.BytesIO(png.payload.read()))
    assert (image.format, image.mode, image.size) == ("PNG", "RGBA", (400, 300))

    locations = _module(client_package, "api.jobs.jobs_locations_retrieve").sync(
        created.job_id, client=client
    )
    assert isinstance(locations, models.LocationResult)
    assert locations.total == len(locations.matches) >= 6
    assert {"Anna", "李雷"} <= {match.name for match in locations.matches}
    assert jobs is not None and api is not None


def test_a_generated_client_logs_in_and_creates_reads_and_cancels_an_order(service, client_package):
    models = _module(client_package, "models")
    # follow_redirects: with object storage a download is a redirect to the stored file
    client = client_package.Client(
        base_url=service.url, raise_on_unexpected_status=True, follow_redirects=True
    )
    admin_login = _module(client_package, "api.login.login_create")
    user_login = _module(client_package, "api.commerce.auth_login_create")
    admin_token = admin_login.sync(
        client=client, body=models.LoginRequestRequest(password=ADMIN_PASSWORD)
    ).token
    login = user_login.sync(client=client, body=models.CodeInRequest(code="generated-client"))
    assert isinstance(login, models.LoginOut) and login.user.openid == "dev-generated-client"
    staff = client_package.AuthenticatedClient(
        base_url=service.url, token=admin_token, raise_on_unexpected_status=True
    )
    user = client_package.AuthenticatedClient(
        base_url=service.url, token=login.token, raise_on_unexpected_status=True
    )

    commerce = "api.commerce."
    product = _module(client_package, commerce + "products_create").sync(
        client=staff, body=models.ProductInRequest(name="Poster A2", price=6900)
    )
    address = _module(client_package, commerce + "addresses_create").sync(
        client=user,
        body=models.AddressInRequest(
            recipient="Han Meimei",
            phone="13900139000",
            province="Guangdong",
            city="Shenzhen",
            detail="2 Keyuan Road",
        ),
    )
    order = _module(client_package, commerce + "orders_create").sync(
        client=user,
        body=models.OrderCreateInRequest.from_dict(
            {"addressId": address.id, "items": [{"productId": product.id, "quantity": 3}]}
        ),
    )
    assert isinstance(order, models.OrderOut), order
    assert (order.total_amount, order.paid_at) == (3 * 6900, None)

    read = _module(client_package, commerce + "orders_retrieve").sync(order.id, client=user)
    assert (read.id, read.status.value, read.items[0].quantity) == (order.id, "PENDING", 3)

    cancelled = _module(client_package, commerce + "orders_cancel_create").sync(
        order.id, client=user
    )
    assert cancelled.status.value == "CANCELLED" and cancelled.cancelled_at is not None
    seen_by_staff = _module(client_package, commerce + "orders_retrieve").sync(
        order.id, client=staff
    )
    assert seen_by_staff.status.value == "CANCELLED"
