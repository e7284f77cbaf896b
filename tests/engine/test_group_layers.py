"""Groups as layers in the engine's SVGs (docs/engine.md, Groups): over layouts of a fixed
generator (1, 3 and 5 groups, a few seeds), wordcloud.svg and wordcloud-stroke.svg hold one
top-level layer per group, in the groups' order (positions.db's meta.groups), named as
Inkscape and Illustrator read a layer's name, each holding exactly the words positions.db
gives that group; a revision's added names land in their group's layer, and a layout
without groups has no layer at all."""

import json
import random
import shutil
from xml.etree import ElementTree

import openpyxl
import pytest

from tests.names import latin_names
from wordclouds.engine import generate, revise
from wordclouds.engine.positions import read_meta, read_words

SVG = "{http://www.w3.org/2000/svg}"
INKSCAPE = "{http://www.inkscape.org/namespaces/inkscape}"
FILES = ("wordcloud.svg", "wordcloud-stroke.svg")
CASES = [(groups, seed) for groups in (1, 3, 5) for seed in (5, 41)]


def grouped_names(path, groups: int, seed: int) -> dict[int, str]:
    """A list of names with their group in column 1, the groups' rows shuffled; each
    spreadsheet row's group."""
    rng = random.Random(seed)
    count = 14 * groups
    labels = [f"Class {k % groups + 1}" for k in range(count)]
    rng.shuffle(labels)
    workbook = openpyxl.Workbook()
    workbook.active.append(["name", "class"])
    for name, label in zip(latin_names(count, seed), labels, strict=True):
        workbook.active.append([name, label])
    workbook.save(path)
    return dict(enumerate(labels, start=2))


def grouped_poster(folder, groups: int, seed: int, **params):
    """A poster with ``groups`` groups laid out by the engine in ``folder``/poster."""
    grouped_names(folder / "names.xlsx", groups, seed)
    params = {"WIDTH": 520, "HEIGHT": 400, "GROUP_COL_INDEX": 1, "SEED": seed, **params}
    generate(names_path=folder / "names.xlsx", out_dir=folder / "poster", params=params)
    return folder / "poster"


def group_order(folder) -> list[str]:
    """The groups in their order, as positions.db keeps them."""
    return [spec["group"] for spec in json.loads(read_meta(folder / "positions.db")["groups"])]


def words_by_group(folder) -> dict[str, set[int]]:
    """Each group's word ids, as positions.db has them."""
    found: dict[str, set[int]] = {}
    for word in read_words(folder / "positions.db", ["id", "group"]):
        found.setdefault(word["group"], set()).add(word["id"])
    return found


def svg_layers(svg: bytes) -> list[tuple[dict, set[int]]]:
    """Each top-level layer's attributes and the word ids (``w<ID>`` paths) it holds, in
    order; asserts no word is drawn outside a layer."""
    root = ElementTree.fromstring(svg)
    layers = []
    for child in root:
        if child.tag == SVG + "g":
            ids = {int(path.get("id")[1:]) for path in child.iter(SVG + "path")}
            layers.append((dict(child.attrib), ids))
        else:
            assert not (child.get("id") or "").startswith("w"), child.attrib
    return layers


def assert_layers_hold_the_groups(folder):
    order, by_group = group_order(folder), words_by_group(folder)
    for name in FILES:
        layers = svg_layers((folder / name).read_bytes())
        assert [attrib[INKSCAPE + "label"] for attrib, _ in layers] == order, name
        for k, (attrib, ids) in enumerate(layers, start=1):
            group = order[k - 1]
            assert attrib["id"] == f"group-{k}"
            assert attrib[INKSCAPE + "groupmode"] == "layer"
            assert attrib["data-name"] == attrib["data-group"] == group
            assert ids == by_group[group], (name, group)


@pytest.mark.parametrize(("groups", "seed"), CASES)
def test_each_group_is_a_layer_of_exactly_its_words(tmp_path, groups, seed):
    assert_layers_hold_the_groups(grouped_poster(tmp_path, groups, seed))


def test_a_layout_without_groups_has_no_layer(tmp_path):
    grouped_names(tmp_path / "names.xlsx", 3, 5)
    params = {"WIDTH": 520, "HEIGHT": 400, "SEED": 5}
    generate(names_path=tmp_path / "names.xlsx", out_dir=tmp_path / "plain", params=params)
    for name in FILES:
        svg = (tmp_path / "plain" / name).read_bytes()
        assert b"<g" not in svg and b"inkscape" not in svg
        assert svg.startswith(b'<svg xmlns="http://www.w3.org/2000/svg" width="520" ')


@pytest.mark.parametrize(("groups", "seed"), [(3, 5), (5, 41)])
def test_a_revision_puts_each_added_name_in_its_group_s_layer(tmp_path, groups, seed):
    parent = grouped_poster(tmp_path, groups, seed)
    order = group_order(parent)
    kept = sorted(words_by_group(parent)[order[0]])
    added = [{"name": f"Added {k}", "group": order[k % groups]} for k in range(2 * groups)]
    edits = {"add": added, "remove": kept[:1], "rename": [{"id": kept[1], "name": "Renamed"}]}
    first = revise(parent_dir=parent, out_dir=tmp_path / "one", edits=edits)
    ids = first["changes"]["added"]
    assert len(ids) == len(added)
    assert_layers_hold_the_groups(tmp_path / "one")
    by_group = words_by_group(tmp_path / "one")
    for word_id, entry in zip(ids, added, strict=True):
        assert word_id in by_group[entry["group"]], entry
    assert kept[0] not in by_group[order[0]] and kept[1] in by_group[order[0]]
    # a revision of the revision: one more name in the last group, the first ones removed
    more = {"add": [{"name": "Later", "group": order[-1]}], "remove": ids[:groups]}
    second = revise(parent_dir=tmp_path / "one", out_dir=tmp_path / "two", edits=more)
    assert_layers_hold_the_groups(tmp_path / "two")
    assert set(second["changes"]["added"]) <= words_by_group(tmp_path / "two")[order[-1]]


def test_a_parent_written_before_layers_takes_added_names_before_its_end(tmp_path):
    """A grouped poster laid out before posters had layers (its layers taken out here):
    a revision adds its names as then, before the closing tag, and makes no layer."""
    parent = grouped_poster(tmp_path, 3, 5)
    old = tmp_path / "old"
    shutil.copytree(parent, old)
    for name in FILES:
        lines = (old / name).read_text().splitlines(keepends=True)
        kept = [line for line in lines if not line.startswith(("<g ", "</g>"))]
        (old / name).write_text("".join(kept))
    order = group_order(old)
    revised = revise(
        parent_dir=old,
        out_dir=tmp_path / "child",
        edits={"add": [{"name": "Zed", "group": order[1]}]},
    )
    (word_id,) = revised["changes"]["added"]
    for name in FILES:
        svg = (tmp_path / "child" / name).read_text()
        assert "<g " not in svg
        assert svg.splitlines()[-2].startswith(f'<path id="w{word_id}" ')
