"""Small real files and API calls shared by the font, asset, project and render tests."""

from io import BytesIO

from django.core.files.uploadedfile import SimpleUploadedFile
from PIL import Image


def png_bytes(size=(4, 3), color=(255, 0, 0, 255)) -> bytes:
    out = BytesIO()
    Image.new("RGBA", size, color).save(out, "PNG")
    return out.getvalue()


def svg_bytes(body: str, *, attributes: str = 'viewBox="0 0 10 10"') -> bytes:
    return f'<svg xmlns="http://www.w3.org/2000/svg" {attributes}>{body}</svg>'.encode()


def upload(content: bytes, filename: str, content_type: str = "application/octet-stream"):
    return SimpleUploadedFile(filename, content, content_type=content_type)


def asset_upload(api, content: bytes, filename: str = "sticker.png", **fields):
    return api.post(
        "/api/assets",
        {"file": upload(content, filename), **fields},
        format="multipart",
    )


def asset_id(api, content: bytes, filename: str = "sticker.png", **fields) -> str:
    response = asset_upload(api, content, filename, **fields)
    assert response.status_code == 201, response.content
    return response.json()["id"]


def project_create(api, **fields):
    form = {"name": "Poster", "template_id": "poster_1x1", "background_color": "#FFFFFF"}
    return api.post("/api/projects", {**form, **fields}, format="multipart")
