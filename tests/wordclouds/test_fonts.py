from io import BytesIO

import pytest
from fontTools.fontBuilder import FontBuilder
from fontTools.pens.ttGlyphPen import TTGlyphPen
from fontTools.ttLib import TTCollection, TTFont

from tests.errors import refusal
from tests.wordclouds.asset_factories import upload
from wordclouds.models import Font

pytestmark = pytest.mark.django_db


def ttf_bytes(family="Test Sans") -> bytes:
    """A real, tiny TrueType font with one glyph."""
    builder = FontBuilder(1000, isTTF=True)
    builder.setupGlyphOrder([".notdef", "A"])
    builder.setupCharacterMap({ord("A"): "A"})
    pen = TTGlyphPen(None)
    pen.moveTo((0, 0))
    pen.lineTo((500, 700))
    pen.lineTo((1000, 0))
    pen.closePath()
    glyph = pen.glyph()
    builder.setupGlyf({".notdef": glyph, "A": glyph})
    builder.setupHorizontalMetrics({".notdef": (1000, 0), "A": (1000, 0)})
    builder.setupHorizontalHeader(ascent=800, descent=-200)
    builder.setupNameTable({"familyName": family, "styleName": "Regular"})
    builder.setupOS2()
    builder.setupPost()
    out = BytesIO()
    builder.save(out)
    return out.getvalue()


def ttc_bytes() -> bytes:
    collection = TTCollection()
    collection.fonts = [TTFont(BytesIO(ttf_bytes("First"))), TTFont(BytesIO(ttf_bytes("Second")))]
    out = BytesIO()
    collection.save(out)
    return out.getvalue()


def font_upload(api, content: bytes, filename: str, **fields):
    return api.post("/api/fonts", {"file": upload(content, filename), **fields}, format="multipart")


def font_files(media_root):
    folder = media_root / "fonts"
    return sorted(path.name for path in folder.iterdir()) if folder.is_dir() else []


def test_list_starts_with_the_bundled_cjk_default(api):
    response = api.get("/api/fonts")

    assert response.status_code == 200
    default = response.json()[0]
    assert default["id"] == "__default__"
    assert default["is_default"] is True
    assert default["family"].startswith("Noto Sans CJK")
    assert default["filename"].endswith(".ttc")
    assert set(default) == {
        "id",
        "name",
        "family",
        "filename",
        "is_default",
        "created_at",
        "coverage",
        "faces",
    }
    assert default["faces"][:5] == [
        {"index": 0, "family": "Noto Sans CJK JP", "language": "ja"},
        {"index": 1, "family": "Noto Sans CJK KR", "language": "ko"},
        {"index": 2, "family": "Noto Sans CJK SC", "language": "zh-Hans"},
        {"index": 3, "family": "Noto Sans CJK TC", "language": "zh-Hant"},
        {"index": 4, "family": "Noto Sans CJK HK", "language": None},
    ]
    for script in ("Latin", "Arabic", "Hebrew", "Thai", "Devanagari", "Hangul", "emoji"):
        assert script in default["coverage"]


def test_upload_stores_the_font_and_lists_it_after_the_default(api, media_root):
    content = ttf_bytes()

    response = font_upload(api, content, "MyFont.TTF")

    assert response.status_code == 201
    record = response.json()
    assert record == {
        "id": record["id"],
        "name": "Test Sans",
        "family": "Test Sans",
        "filename": "MyFont.TTF",
        "is_default": False,
        "created_at": record["created_at"],
        "coverage": "",
        "faces": [],
    }
    assert (media_root / "fonts" / f"{record['id']}.ttf").read_bytes() == content
    listed = api.get("/api/fonts").json()
    assert [entry["id"] for entry in listed] == ["__default__", record["id"]]


def test_upload_takes_the_given_name(api):
    response = font_upload(api, ttf_bytes(), "a.otf", name="  Headline  ")

    assert response.status_code == 201
    assert response.json()["name"] == "Headline"


def test_upload_of_a_collection_reads_its_first_font(api):
    response = font_upload(api, ttc_bytes(), "pair.ttc")

    assert response.status_code == 201
    assert response.json()["family"] == "First"


@pytest.mark.parametrize(
    "content, filename, detail",
    [
        (b"", None, "file is required"),
        (ttf_bytes(), "font.woff", "file must be .ttf, .ttc or .otf"),
        (b"not a font at all", "font.ttf", "file is not a valid font"),
        (ttf_bytes()[:100], "cut.otf", "file is not a valid font"),
        (ttf_bytes(), "single.ttc", "file is not a valid font"),
    ],
    ids=["no-file", "woff", "not-a-font", "cut-short", "ttf-named-ttc"],
)
def test_bad_uploads_are_400_and_leave_no_file(api, media_root, content, filename, detail):
    form = {"file": upload(content, filename)} if filename else {"name": "x"}

    response = api.post("/api/fonts", form, format="multipart")

    assert response.status_code == 400
    assert refusal(response) == detail
    assert font_files(media_root) == []
    assert not Font.objects.exists()


def test_upload_over_the_limit_is_413(api, media_root, settings):
    settings.FONT_MAX_BYTES = 1024 * 1024

    response = font_upload(api, b"\0" * (1024 * 1024 + 1), "huge.ttf")

    assert response.status_code == 413
    assert refusal(response) == "file exceeds 1 MB"
    assert font_files(media_root) == []


def test_delete_removes_row_and_file(api, media_root, django_capture_on_commit_callbacks):
    font_id = font_upload(api, ttf_bytes(), "a.ttf").json()["id"]

    with django_capture_on_commit_callbacks(execute=True):
        response = api.delete(f"/api/fonts/{font_id}")

    assert response.status_code == 204
    assert response.content == b""
    assert font_files(media_root) == []
    assert [entry["id"] for entry in api.get("/api/fonts").json()] == ["__default__"]


def test_default_font_cannot_be_deleted(api):
    response = api.delete("/api/fonts/__default__")

    assert response.status_code == 400
    assert refusal(response) == "the default font cannot be deleted"


def test_unknown_font_is_404(api):
    response = api.delete("/api/fonts/0123")

    assert response.status_code == 404
    assert refusal(response) == "font not found"
