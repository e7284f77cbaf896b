import hashlib
import json
import sqlite3

import pytest

from tests.errors import refusal
from tests.wordclouds.asset_factories import (
    asset_id,
    asset_upload,
    png_bytes,
    project_create,
    svg_bytes,
    upload,
)
from wordclouds.models import Asset

pytestmark = pytest.mark.django_db


def stored_files(media_root):
    folder = media_root / "assets"
    return sorted(path.name for path in folder.iterdir()) if folder.is_dir() else []


def finished_job_directory(media_root, job_id="ab" * 16, png=None):
    """A record-less finished job folder, which counts as a successful job."""
    directory = media_root / "jobs" / job_id
    directory.mkdir(parents=True)
    db = sqlite3.connect(directory / "positions.db")
    db.execute("CREATE TABLE meta (key TEXT, value TEXT)")
    db.close()
    (directory / "wordcloud.png").write_bytes(png or png_bytes())
    (directory / "wordcloud.svg").write_bytes(svg_bytes('<path d="M0 0h5v5z"/>'))
    return job_id


def test_upload_round_trips_byte_for_byte_with_sniffed_type(api, media_root):
    content = png_bytes((7, 5))

    # the client claims text/plain and a .txt name; the content is a PNG
    response = api.post(
        "/api/assets",
        {"file": upload(content, "photo.txt", "text/plain"), "name": "Logo"},
        format="multipart",
    )

    assert response.status_code == 201
    record = response.json()
    assert record == {
        "id": record["id"],
        "name": "Logo",
        "type": "upload",
        "job_id": "",
        "kind": "",
        "filename": "photo.txt",
        "content_type": "image/png",
        "size": len(content),
        "created_at": record["created_at"],
        "download_url": f"/api/assets/{record['id']}/download",
    }
    assert record["created_at"].endswith("Z")
    assert Asset.objects.get(id=record["id"]).sha256 == hashlib.sha256(content).hexdigest()
    download = api.get(record["download_url"])
    assert download.status_code == 200
    assert b"".join(download.streaming_content) == content
    assert download["Content-Type"] == "image/png"
    assert download["Content-Disposition"] == 'attachment; filename="photo.txt"'


@pytest.mark.parametrize(
    "content, expected",
    [
        (b"\xff\xd8\xff\xe0" + b"\0" * 20, "image/jpeg"),
        (b"GIF89a" + b"\0" * 20, "image/gif"),
        (b"RIFF\0\0\0\0WEBPVP8 " + b"\0" * 10, "image/webp"),
        (b'<?xml version="1.0"?>\n' + svg_bytes("<rect/>"), "image/svg+xml"),
        (
            b'<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "svg11.dtd">' + svg_bytes(""),
            "image/svg+xml",
        ),
        (b'<!DOCTYPE svg [<!ENTITY a "b">]>' + svg_bytes("&a;"), "application/octet-stream"),
        (b"<html><body>not svg</body></html>", "application/octet-stream"),
        (b"<svg xmlns='http://www.w3.org/2000/svg'><unclosed></svg>", "application/octet-stream"),
        (b'{"a": [1, 2]}', "application/json"),
        (b'{"a": ', "application/octet-stream"),
        (b"SQLite format 3\x00" + b"\0" * 100, "application/vnd.sqlite3"),
        (b"plain text", "application/octet-stream"),
    ],
)
def test_content_type_is_sniffed_from_the_content(api, content, expected):
    response = asset_upload(api, content, "upload.png")

    assert response.status_code == 201
    assert response.json()["content_type"] == expected


def test_upload_without_file_is_400_and_creates_nothing(api, media_root):
    response = api.post("/api/assets", {"name": "x"}, format="multipart")

    assert response.status_code == 400
    assert refusal(response) == "file is required"
    assert not Asset.objects.exists()


def test_upload_one_byte_over_50_mb_is_413_and_leaves_no_file(api, media_root):
    content = b"\0" * (50 * 1024 * 1024 + 1)

    response = asset_upload(api, content, "big.bin")

    assert response.status_code == 413
    assert refusal(response) == "file exceeds 50 MB"
    assert stored_files(media_root) == []
    assert not Asset.objects.exists()


def test_upload_of_exactly_the_limit_is_accepted(api, settings):
    settings.ASSET_MAX_BYTES = 1000

    response = asset_upload(api, b"x" * 1000, "edge.bin")

    assert response.status_code == 201


def test_failed_row_leaves_no_file(api, media_root, monkeypatch):
    # The database refusing the row is the one failure that cannot be provoked for real here.
    def refuse(*args, **kwargs):
        raise RuntimeError("database went away")

    monkeypatch.setattr(Asset.objects, "create", refuse)
    api.raise_request_exception = False

    response = asset_upload(api, png_bytes(), "a.png")

    assert response.status_code == 500
    assert stored_files(media_root) == []


def test_import_from_job_defaults_to_png_and_type_wordcloud(api, media_root):
    png = png_bytes((9, 9), (0, 128, 0, 255))
    job_id = finished_job_directory(media_root, png=png)

    response = api.post(f"/api/assets/from-job/{job_id}", {}, format="multipart")

    assert response.status_code == 201
    record = response.json()
    assert (record["type"], record["kind"], record["job_id"], record["name"]) == (
        "wordcloud",
        "png",
        job_id,
        "",
    )
    assert record["filename"] == f"wordcloud-{job_id}.png"
    assert record["content_type"] == "image/png"
    assert b"".join(api.get(record["download_url"]).streaming_content) == png


def test_import_from_job_takes_any_artifact_kind_name_and_type(api, media_root):
    job_id = finished_job_directory(media_root)

    response = api.post(
        f"/api/assets/from-job/{job_id}",
        {"kind": "db", "name": "positions", "type": "data"},
        format="multipart",
    )

    assert response.status_code == 201
    record = response.json()
    assert (record["kind"], record["name"], record["type"]) == ("db", "positions", "data")
    assert record["content_type"] == "application/vnd.sqlite3"


@pytest.mark.parametrize(
    "path, detail",
    [
        ("/api/assets/from-job/" + "cd" * 16, "job not found"),
        ("/api/assets/from-job/not-a-job", "job not found"),
    ],
)
def test_import_from_missing_job_is_404(api, path, detail):
    response = api.post(path, {}, format="multipart")

    assert response.status_code == 404
    assert refusal(response) == detail


@pytest.mark.parametrize(
    "kind, detail",
    [
        ("metrics", "artifact not ready"),
        ("pdf", "unknown artifact kind"),
    ],
)
def test_import_of_missing_or_unknown_artifact_is_404(api, media_root, kind, detail):
    job_id = finished_job_directory(media_root)

    response = api.post(f"/api/assets/from-job/{job_id}", {"kind": kind}, format="multipart")

    assert response.status_code == 404
    assert refusal(response) == detail
    assert stored_files(media_root) == []


def test_list_filters_by_type_and_job_id_together(api, media_root):
    job_a = finished_job_directory(media_root, "a" * 32)
    job_b = finished_job_directory(media_root, "b" * 32)
    wanted = api.post(f"/api/assets/from-job/{job_a}", {}, format="multipart").json()["id"]
    api.post(f"/api/assets/from-job/{job_a}", {"type": "other"}, format="multipart")
    api.post(f"/api/assets/from-job/{job_b}", {}, format="multipart")
    asset_id(api, png_bytes())

    both = api.get("/api/assets", {"type": "wordcloud", "job_id": job_a}).json()
    by_type = api.get("/api/assets", {"type": "wordcloud"}).json()
    everything = api.get("/api/assets").json()

    assert [record["id"] for record in both] == [wanted]
    assert len(by_type) == 2
    assert len(everything) == 4
    assert everything[0]["type"] == "upload"  # newest first


def test_unknown_asset_is_404_everywhere(api):
    for response in (
        api.get("/api/assets/nope"),
        api.get("/api/assets/nope/download"),
        api.delete("/api/assets/nope"),
    ):
        assert response.status_code == 404
        assert refusal(response) == "asset not found"


def test_delete_removes_row_and_file(api, media_root, django_capture_on_commit_callbacks):
    the_id = asset_id(api, png_bytes())
    assert stored_files(media_root) == [f"{the_id}.png"]

    with django_capture_on_commit_callbacks(execute=True):
        response = api.delete(f"/api/assets/{the_id}")

    assert response.status_code == 204
    assert response.content == b""
    assert api.get(f"/api/assets/{the_id}").status_code == 404
    assert stored_files(media_root) == []


def test_delete_of_asset_in_use_is_409_naming_the_projects(api, media_root):
    the_id = asset_id(api, png_bytes())
    sticker = {"asset_id": the_id, "x": 0, "y": 0, "width": 10, "height": 10}
    project = project_create(api, name="Summer", stickers=json.dumps([sticker])).json()

    response = api.delete(f"/api/assets/{the_id}")

    assert response.status_code == 409
    assert refusal(response) == f"asset is used by projects: Summer ({project['id']})"
    assert api.get(f"/api/assets/{the_id}").status_code == 200
    assert stored_files(media_root) == [f"{the_id}.png"]
