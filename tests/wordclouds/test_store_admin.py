"""The admin's page of the store's use (docs/deploy.md, "Retention"), through the test client
as staff: files and bytes per kind (job inputs, artifacts, assets, fonts, other) as the media
folder holds them, and the jobs the next retention run deletes (its dry run's list), with
nothing deleted by looking; linked from the job list; staff who may see jobs only; in
Chinese for a Chinese browser."""

import re
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone

from wordclouds import storage
from wordclouds.models import Asset, Job

pytestmark = pytest.mark.django_db
PAGE = "/admin/wordclouds/job/store/"
PRODUCTION_FILE = b"%PDF-1.7 a print file of an order"


def folder_use(folder) -> tuple[int, int]:
    """Files and bytes under a folder of the media root."""
    sizes = [path.stat().st_size for path in folder.rglob("*") if path.is_file()]
    return len(sizes), sum(sizes)


def table_rows(html: str, table_id: str) -> list[list[str]]:
    """The cells of each row of a table of the page, tags stripped."""
    table = re.search(rf'<table id="{table_id}">(.*?)</table>', html, re.S).group(1)
    return [
        [re.sub(r"<[^>]+>", "", cell).strip() for cell in re.findall(r"<t[dh]>(.*?)</t[dh]>", row)]
        for row in re.findall(r"<tr>(.*?)</tr>", table, re.S)
    ]


def shown(files_and_bytes: tuple[int, int]) -> list[str]:
    files, size = files_and_bytes
    return [str(files), f"{size:,} bytes"]


def test_the_page_shows_the_stores_use_by_kind_and_the_next_runs_deletions(
    admin_client, api, finished_job, tiny_font, media_root, settings
):
    settings.JOB_RETENTION_DAYS = 30
    expiring, copied, recent = finished_job(), finished_job(), finished_job()
    Job.objects.filter(id__in=[expiring, copied]).update(
        created_at=timezone.now() - timedelta(days=31)
    )
    asset = api.post(f"/api/assets/from-job/{copied}", {}, format="multipart")
    assert asset.status_code == 201, asset.content
    Asset.objects.filter(job_id=copied).update(keeps_job=True)  # as staff mark it in the admin
    font = tiny_font().read_bytes()
    uploaded = api.post(
        "/api/fonts",
        {"file": SimpleUploadedFile("tiny.ttf", font)},
        format="multipart",
    )
    assert uploaded.status_code == 201, uploaded.content
    storage.save("production/1/2/poster.pdf", PRODUCTION_FILE)
    jobs = media_root / "jobs"
    inputs = [folder_use(jobs / job_id / "input") for job_id in (expiring, copied, recent)]
    inputs = (sum(files for files, _ in inputs), sum(size for _, size in inputs))
    everything = folder_use(jobs)
    assert inputs[0] == 3 and everything[0] > inputs[0]

    listing = admin_client.get("/admin/wordclouds/job/")
    page = admin_client.get(PAGE)

    assert f'href="{PAGE}"' in listing.content.decode()
    assert page.status_code == 200
    html = page.content.decode()
    assert table_rows(html, "store-use")[1:] == [
        ["job inputs", *shown(inputs)],
        ["artifacts", *shown((everything[0] - inputs[0], everything[1] - inputs[1]))],
        ["assets", *shown(folder_use(media_root / "assets"))],
        ["fonts", *shown((1, len(font)))],
        ["other (production files and the rest)", *shown((1, len(PRODUCTION_FILE)))],
        ["in all", *shown(folder_use(media_root))],
    ]
    plan = table_rows(html, "retention-plan")[1:]
    assert [row[0] for row in plan] == [expiring, "in all"]  # the asset keeps `copied`
    assert plan[0][2:] == shown(folder_use(jobs / expiring))
    assert set(Job.objects.values_list("id", flat=True)) == {expiring, copied, recent}
    assert (jobs / expiring / "input").is_dir()


def test_nothing_to_delete_says_so_in_chinese(admin_client, finished_job):
    finished_job()
    admin_client.defaults["HTTP_ACCEPT_LANGUAGE"] = "zh-CN,zh;q=0.9"

    html = admin_client.get(PAGE).content.decode()

    assert '<html lang="zh-hans"' in html
    assert 'id="retention-plan"' not in html
    for english in ("job inputs", "artifacts", "What the next retention run deletes", "bytes"):
        assert english not in html, english
    assert "任务输入" in html


def test_only_staff_who_may_see_jobs_see_it(client, admin_user):
    outsider = User.objects.create_user("visitor", password="x")
    client.force_login(outsider)
    assert client.get(PAGE).status_code == 302  # to the admin's login
    outsider.is_staff = True
    outsider.save()
    assert client.get(PAGE).status_code == 403
