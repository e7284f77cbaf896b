"""positions.db read by column name through positions.py, the one owner of its format."""

import sqlite3

import pytest

from tests.names import latin_names, write_names
from wordclouds.engine import generate
from wordclouds.engine.positions import (
    UNGROUPED_COLUMNS,
    WORD_COLUMNS,
    read_word_rows,
    read_words,
)


@pytest.fixture(scope="module")
def database(tmp_path_factory):
    folder = tmp_path_factory.mktemp("layout")
    generate(
        names_path=write_names(folder / "names.xlsx", latin_names(30, 3)),
        out_dir=folder / "out",
        params={"WIDTH": 400, "HEIGHT": 300, "SEED": 3},
    )
    return folder / "out" / "positions.db"


def test_the_column_list_is_the_tables(database):
    with sqlite3.connect(database) as connection:
        table = [row[1] for row in connection.execute("PRAGMA table_info(words)")]
    assert list(UNGROUPED_COLUMNS) == table  # a layout without groups: no group column
    assert WORD_COLUMNS == (*UNGROUPED_COLUMNS, "group")


def test_words_are_read_by_column_in_id_order(database):
    with sqlite3.connect(database) as connection:
        every = connection.execute("SELECT * FROM words ORDER BY id").fetchall()

    assert read_word_rows(database, UNGROUPED_COLUMNS) == every
    assert read_word_rows(database, WORD_COLUMNS) == [(*row, "") for row in every]
    assert read_word_rows(database, ("name", "id")) == [(row[1], row[0]) for row in every]
    assert read_words(database, ("name", "id")) == [{"name": n, "id": i} for i, n, *_ in every]
    with pytest.raises(ValueError, match="no column 'id; DROP TABLE words'"):
        read_word_rows(database, ("id; DROP TABLE words",))
