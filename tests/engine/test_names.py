import zipfile

import pytest

from wordclouds.engine import InputError, read_names
from wordclouds.engine import names as names_module


def test_cells_are_cleaned_and_duplicates_kept(names_file):
    path = names_file(["  王  小明 ", 12.0, None, "Ana\u0301", "王 小明", 3.5, "x" * 100], column=2)
    names = read_names(path, column=2, skip_rows=1)
    assert [n.text for n in names] == ["王 小明", "12", "Aná", "王 小明", "3.5", "x" * 100]
    assert [n.row for n in names] == [2, 3, 5, 6, 7, 8]


def test_skip_rows_counts_header_rows(names_file):
    path = names_file(["a", "b"], header=False)
    assert [n.text for n in read_names(path, column=0, skip_rows=0)] == ["a", "b"]
    assert [n.text for n in read_names(path, column=0, skip_rows=1)] == ["b"]


def test_an_empty_column_is_rejected(names_file):
    path = names_file(["a"], column=0)
    with pytest.raises(InputError, match="^name_list has no names in column 3$"):
        read_names(path, column=3, skip_rows=1)


@pytest.mark.parametrize(
    "content",
    [
        b"not a spreadsheet at all",
        b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 512,  # an .xls (OLE2) renamed
    ],
)
def test_unreadable_files_are_rejected(tmp_path, content):
    path = tmp_path / "names.xlsx"
    path.write_bytes(content)
    with pytest.raises(InputError, match="^name_list is not a readable xlsx file$"):
        read_names(path, column=0, skip_rows=1)


def test_a_zip_that_is_not_a_workbook_is_rejected(tmp_path):
    path = tmp_path / "names.xlsx"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("hello.txt", "hi")
    with pytest.raises(InputError, match="^name_list is not a readable xlsx file$"):
        read_names(path, column=0, skip_rows=1)


def test_an_archive_that_unpacks_too_large_is_rejected(names_file, monkeypatch):
    path = names_file(["a"] * 50)
    monkeypatch.setattr(names_module, "MAX_UNPACKED_BYTES", 1000)
    with pytest.raises(InputError, match="^name_list is not a readable xlsx file$"):
        read_names(path, column=0, skip_rows=1)


def test_limits_on_name_length_and_count(names_file, monkeypatch):
    with pytest.raises(InputError, match="row 2 has a name longer than 100 characters"):
        read_names(names_file(["x" * 101]), column=0, skip_rows=1)
    monkeypatch.setattr(names_module, "MAX_NAMES", 3)
    with pytest.raises(InputError, match="more than 3 names"):
        read_names(names_file(["a", "b", "c", "d"]), column=0, skip_rows=1)
