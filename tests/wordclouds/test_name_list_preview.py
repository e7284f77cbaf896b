"""POST /api/name-lists/preview: the first rows of a name list, to choose its column from."""

import openpyxl
import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from tests.errors import refusal

URL = "/api/name-lists/preview"


def workbook_upload(tmp_path, rows, filename="list.xlsx") -> SimpleUploadedFile:
    book = openpyxl.Workbook()
    for row in rows:
        book.active.append(row)
    path = tmp_path / filename
    book.save(path)
    return SimpleUploadedFile(filename, path.read_bytes())


def test_preview_shows_the_first_rows_cleaned_and_no_empty_columns(api, tmp_path, media_root):
    # given a list with a header, a number cell, spaces to fold and 30 rows
    rows = [["no.", "name", None]] + [
        [number, f"  Anna   {number} ", None] for number in range(1, 31)
    ]
    upload = workbook_upload(tmp_path, rows)

    response = api.post(URL, {"name_list": upload}, format="multipart")

    assert response.status_code == 200, response.json()
    table = response.json()["rows"]
    assert len(table) == 10
    assert table[0] == ["no.", "name"]
    assert table[1] == ["1", "Anna 1"]
    assert not any(media_root.iterdir())  # nothing kept


@pytest.mark.parametrize(
    "filename, content, detail",
    [
        ("names.txt", b"Anna\nBruno\n", "name_list must be xlsx"),
        ("names.xlsx", b"not a zip archive", "name_list is not a readable xlsx file"),
    ],
)
def test_preview_refuses_what_is_not_an_xlsx(api, filename, content, detail):
    upload = SimpleUploadedFile(filename, content)

    response = api.post(URL, {"name_list": upload}, format="multipart")

    assert response.status_code == 400
    assert refusal(response) == detail


def test_preview_needs_a_file(api):
    response = api.post(URL, {}, format="multipart")

    assert response.status_code == 400
    assert refusal(response) == "name_list is required"


def test_preview_over_the_size_limit_is_413(api, tmp_path, settings):
    settings.NAME_LIST_MAX_BYTES = 1024 * 1024
    upload = SimpleUploadedFile("big.xlsx", b"0" * (1024 * 1024 + 1))

    response = api.post(URL, {"name_list": upload}, format="multipart")

    assert response.status_code == 413
    assert refusal(response) == "name_list exceeds 1 MB"
