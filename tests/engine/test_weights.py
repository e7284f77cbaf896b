"""Weights: a column of numbers makes names larger and places them first (WEIGHT_COL_INDEX,
RELATIVE_SCALING), read, merged, checked and recorded in the position database and metrics."""

import json
import random
import sqlite3

import numpy as np
import openpyxl
import pytest
from scipy.stats import spearmanr

from wordclouds.engine import InputError, generate, parse_params, read_names
from wordclouds.engine.planning import size_profile


def write_rows(path, rows, header=("name", "weight")):
    """An .xlsx of ``rows`` (tuples of cells) under a header row."""
    workbook = openpyxl.Workbook()
    workbook.active.append(list(header))
    for row in rows:
        workbook.active.append(list(row))
    workbook.save(path)
    return path


def run(tmp_path, rows, params):
    names = write_rows(tmp_path / "names.xlsx", rows)
    metrics = generate(names_path=names, out_dir=tmp_path / "out", params=params)
    db = sqlite3.connect(tmp_path / "out" / "positions.db")
    db.row_factory = sqlite3.Row
    words = [dict(row) for row in db.execute("SELECT * FROM words WHERE repetition = 1")]
    db.close()
    return metrics, words


def test_weights_are_read_and_empty_cells_weigh_one(tmp_path):
    path = write_rows(tmp_path / "n.xlsx", [("Anna", 3), ("Bruno", None), ("Chloé", "2.5")])

    names = read_names(path, column=0, skip_rows=1, weight_column=1)

    assert [(n.text, n.row, n.weight) for n in names] == [
        ("Anna", 2, 3.0),
        ("Bruno", 3, 1.0),
        ("Chloé", 4, 2.5),
    ]


def test_equal_names_add_up_their_weights_with_a_weight_column_and_repeat_without(tmp_path):
    path = write_rows(tmp_path / "n.xlsx", [("Anna", 2), ("Bruno", 1), ("Anna", 5), ("Anna", None)])

    merged = read_names(path, column=0, skip_rows=1, weight_column=1)
    repeated = read_names(path, column=0, skip_rows=1)

    assert [(n.text, n.row, n.weight) for n in merged] == [("Anna", 2, 8.0), ("Bruno", 3, 1.0)]
    assert [n.text for n in repeated] == ["Anna", "Bruno", "Anna", "Anna"]
    assert {n.weight for n in repeated} == {1.0}


@pytest.mark.parametrize("cell", ["gold", -1, True, "nan"])
def test_a_weight_that_is_not_a_number_of_at_least_0_names_its_row(tmp_path, cell):
    path = write_rows(tmp_path / "n.xlsx", [("Anna", 1), ("Bruno", 2), ("Chloé", cell)])

    with pytest.raises(InputError, match=r"^name_list row 4 has a weight that is not a number"):
        read_names(path, column=0, skip_rows=1, weight_column=1)


def test_the_weight_column_must_differ_from_the_names_column():
    with pytest.raises(InputError, match="^params.WEIGHT_COL_INDEX must differ from DATA_COL"):
        parse_params({"DATA_COL_INDEX": 2, "WEIGHT_COL_INDEX": 2})
    with pytest.raises(InputError, match="^params.RELATIVE_SCALING must be a number from 0 to 1"):
        parse_params({"RELATIVE_SCALING": 1.5})


def test_the_size_profile_follows_the_weights_by_relative_scaling():
    weights = np.array([100.0, 50.0, 50.0, 1.0])

    by_rank = size_profile(weights, 0.0)
    proportional = size_profile(weights, 1.0)
    unweighted = size_profile(np.ones(4), 0.7)

    assert np.all(np.diff(by_rank) < 0)
    assert proportional == pytest.approx(weights / 100)
    assert unweighted == pytest.approx(by_rank)  # equal weights: the rank profile alone
    assert np.all(np.diff(size_profile(weights, 0.5)) <= 0)


def test_ten_heavy_names_among_a_thousand_are_the_ten_largest_words(tmp_path):
    rows = [(f"Name {i}", 10 if i % 100 == 7 else 1) for i in range(1000)]

    metrics, words = run(
        tmp_path, rows, {"WIDTH": 1400, "HEIGHT": 1000, "SEED": 3, "WEIGHT_COL_INDEX": 1}
    )

    assert metrics["names_placed"] == metrics["names_read"] == 1000
    largest = sorted(words, key=lambda word: -word["font_size"])[:10]
    assert {word["name"] for word in largest} == {f"Name {i}" for i in range(7, 1000, 100)}
    assert {word["weight"] for word in largest} == {10.0}
    assert metrics["weights"] == {"column": 1, "relative_scaling": 0.5, "min": 1.0, "max": 10.0}


@pytest.mark.parametrize("scaling", [0.2, 0.5, 1.0])
def test_sizes_grow_with_weight_over_a_random_weight_column(tmp_path, scaling):
    draw = random.Random(24)
    rows = [(f"Person {i}", round(draw.uniform(0, 100), 2)) for i in range(300)]

    metrics, words = run(
        tmp_path,
        rows,
        {
            "WIDTH": 1200,
            "HEIGHT": 900,
            "SEED": 5,
            "WEIGHT_COL_INDEX": 1,
            "RELATIVE_SCALING": scaling,
        },
    )

    assert metrics["names_placed"] == 300
    weight = {name: value for name, value in rows}
    assert [word["weight"] for word in words] == [weight[word["name"]] for word in words]
    rho = spearmanr([word["weight"] for word in words], [word["font_size"] for word in words])
    assert rho.statistic >= 0.95, rho


def test_without_a_weight_column_every_name_weighs_one(tmp_path):
    metrics, words = run(tmp_path, [("Anna", 5), ("Anna", 9), ("Bruno", 1)], {"SEED": 1})

    assert sorted(word["name"] for word in words) == ["Anna", "Anna", "Bruno"]
    assert {word["weight"] for word in words} == {1.0}
    assert json.loads(json.dumps(metrics["weights"]))["column"] is None
