"""The promises of a revision (docs/engine.md, "Revisions") over generated cases: parent
layouts of several lists, shapes and seeds, each revised by a generated mix of edits. Every
word no edit needed keeps its bytes in both SVGs and in the position database, and its place;
added and renamed names are there exactly, removed ones gone; NAME_GAP, neighbour colours,
the mask and the keep-out shapes hold; every name is placed; the same input gives the same
bytes."""

import random
import re
import shutil
import sqlite3
from types import SimpleNamespace

import numpy as np
import pytest
from PIL import Image, ImageDraw

from tests.engine.name_gap_rule import measure
from tests.names import latin_names, sample_names, write_names
from wordclouds.engine import (
    InputError,
    LayoutError,
    Parent,
    check_edits,
    generate,
    load_mask,
    parse_params,
    revise,
)
from wordclouds.engine.mask import keep_out_pixels
from wordclouds.engine.neighbours import reading_neighbours, words_near
from wordclouds.engine.restamp import INKS, read_inks
from wordclouds.engine.revision.edits import LIST_BOUNDS
from wordclouds.engine.revision.files import PROOF_CHANGED, PROOF_DISPLACED, PROOF_LINE

FILES = ("wordcloud.png", "wordcloud.svg", "wordcloud-stroke.svg", "positions.db", "proof.png")
PARENTS = [  # (names, canvas, mask shape, seed)
    ("latin", 160, (700, 500), None, 1),
    ("mixed", 200, (800, 600), "ellipse", 2),
    ("latin", 260, (900, 700), "heart", 3),
    ("mixed", 120, (600, 600), None, 4),
]
CASES = [(parent, mix) for parent in range(len(PARENTS)) for mix in range(6)]  # 24 cases


def mask_image(path, shape, size):
    image = Image.new("L", size, 255)
    draw = ImageDraw.Draw(image)
    w, h = size
    if shape == "ellipse":
        draw.ellipse((10, 10, w - 10, h - 10), fill=0)
    else:
        draw.ellipse((20, 20, w // 2 + 30, h // 2 + 40), fill=0)
        draw.ellipse((w // 2 - 30, 20, w - 20, h // 2 + 40), fill=0)
        draw.polygon([(30, h // 3), (w - 30, h // 3), (w // 2, h - 20)], fill=0)
    image.save(path)
    return path


@pytest.fixture(scope="module")
def parents(tmp_path_factory):
    """The parent layouts, made once."""
    made = []
    for index, (kind, count, size, shape, seed) in enumerate(PARENTS):
        folder = tmp_path_factory.mktemp(f"parent{index}")
        names = latin_names(count, seed) if kind == "latin" else sample_names(count)
        params = {"WIDTH": size[0], "HEIGHT": size[1], "SEED": seed}
        mask = None
        if shape:
            mask = mask_image(folder / "mask.png", shape, size)
            params = {"MODE": "IMAGE", "SEED": seed}
        generate(
            names_path=write_names(folder / "names.xlsx", names),
            out_dir=folder / "out",
            params=params,
            mask_path=mask,
        )
        made.append((folder / "out", mask))
    return made


def rows(folder) -> dict[int, tuple]:
    with sqlite3.connect(folder / "positions.db") as connection:
        return {row[0]: row for row in connection.execute("SELECT * FROM words")}


def paths(folder, name) -> dict[int, str]:
    lines = (folder / name).read_text(encoding="utf-8").splitlines()
    return {int(line.split('"')[1][1:]): line for line in lines if line.startswith("<path")}


def edit_mix(parent_rows, mix: int, size) -> dict:
    """A generated mix of edits on word ids of the parent (a fixed generator per case)."""
    rng = random.Random(mix * 7919 + len(parent_rows))
    ids = sorted(parent_rows)
    chosen = rng.sample(ids, 12)
    width, height = size
    edits = {"seed": mix}
    kinds = [k for k, on in zip(("add", "remove", "rename", "move", "resize", "recolor", "keepOut"),
                                format(mix * 37 + 45, "07b")) if on == "1"]  # fmt: skip
    kinds = kinds or ["add"]
    if "add" in kinds:
        edits["add"] = [f"Added Name {mix}-{k}" for k in range(3)] + [{"name": "新名", "weight": 2}]
    if "remove" in kinds:
        edits["remove"] = chosen[0:2]
    if "rename" in kinds:
        edits["rename"] = [{"id": chosen[2], "name": "Renamed Somebody Longer"},
                           {"id": chosen[3], "name": "Li"}]  # fmt: skip
    if "move" in kinds:
        word = parent_rows[chosen[4]]
        edits["move"] = [{"id": chosen[4], "x": round(word[2] + rng.uniform(-40, 40), 1),
                          "y": round(word[3] + rng.uniform(-30, 30), 1)}]  # fmt: skip
    if "resize" in kinds:
        edits["resize"] = [{"id": chosen[5], "fontSize": round(parent_rows[chosen[5]][4] * 1.3, 2)}]
    if "recolor" in kinds:
        edits["recolor"] = [{"id": chosen[6], "color": "#2874A6"}]
    if "keepOut" in kinds:
        x, y = rng.uniform(0.2, 0.6) * width, rng.uniform(0.2, 0.6) * height
        edits["keepOut"] = [{"shape": rng.choice(["rect", "ellipse"]), "x": round(x),
                             "y": round(y), "width": 60, "height": 40}]  # fmt: skip
    return edits


def valid(edits, parent, mask):
    """The case's edits with the pinned spots the checks would refuse left out (a moved word
    whose centre falls outside the mask or whose box would reach a keep-out shape)."""
    try:
        check_edits(edits, parent=Parent(parent), mask_path=mask)
        return edits
    except InputError:
        return {k: v for k, v in edits.items() if k not in ("move", "resize")}


@pytest.mark.parametrize(("parent_index", "mix"), CASES)
def test_a_revision_keeps_what_no_edit_needs(parents, tmp_path, parent_index, mix):
    parent, mask = parents[parent_index]
    metrics = revision_checked(parent, mask, PARENTS[parent_index][2], mix, tmp_path)

    kept = read_inks(tmp_path / "a" / INKS, ink_boxes(tmp_path / "a"))
    assert kept is not None  # the revision keeps the ink of every word, for its own revisions
    parent_kept = read_inks(parent / INKS, ink_boxes(parent))
    changes = metrics["changes"]
    moved = {
        i for kind in ("added", "renamed", "moved", "resized", "displaced") for i in changes[kind]
    }
    for word_id, start, end in zip(*kept[:3]):
        if word_id in moved:
            continue
        at = np.searchsorted(parent_kept[0], word_id)
        old = parent_kept[3][parent_kept[1][at] : parent_kept[2][at]]
        assert np.array_equal(kept[3][start:end], old), word_id


@pytest.mark.parametrize("parent_index", range(len(PARENTS)))
def test_a_parent_that_kept_no_ink_is_revised_by_the_same_rules(parents, tmp_path, parent_index):
    """A layout made before the words' ink was kept beside it: its words are drawn again
    from its SVG's path data, and every promise holds as well."""
    parent, mask = parents[parent_index]
    older = tmp_path / "older"
    shutil.copytree(parent, older)
    (older / INKS).unlink()
    revision_checked(older, mask, PARENTS[parent_index][2], 5, tmp_path)
    assert not (tmp_path / "a" / INKS).exists()


def ink_boxes(folder) -> dict:
    with sqlite3.connect(folder / "positions.db") as connection:
        query = "SELECT id, ink_x, ink_y, ink_width, ink_height FROM words"
        return {row[0]: row[1:] for row in connection.execute(query)}


def revision_checked(parent, mask, size, mix, tmp_path) -> dict:
    """The parent revised twice (into tmp_path/a and /b) by the generated edit mix ``mix``,
    every promise checked; the revision's metrics."""
    before = rows(parent)
    edits = valid(edit_mix(before, mix, size), parent, mask)

    metrics = revise(parent_dir=parent, out_dir=tmp_path / "a", edits=edits, mask_path=mask)
    again = revise(parent_dir=parent, out_dir=tmp_path / "b", edits=edits, mask_path=mask)

    assert metrics["changes"] == again["changes"]
    for name in FILES:  # the same bytes twice
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes(), name
    out = tmp_path / "a"
    after = rows(out)
    changes = metrics["changes"]
    named = set()
    for kind in ("added", "removed", "renamed", "moved", "resized", "recolored", "displaced"):
        named |= set(changes[kind])
    unchanged = [word_id for word_id in before if word_id not in named]
    assert changes["unchanged"] == len(unchanged)
    assert all(after[word_id] == before[word_id] for word_id in unchanged)  # rows, so x, y too
    for svg in ("wordcloud.svg", "wordcloud-stroke.svg"):
        old, new = paths(parent, svg), paths(out, svg)
        assert all(new[word_id] == old[word_id] for word_id in unchanged), svg
        assert sorted(new) == sorted(after)
    assert not set(changes["removed"]) & set(after)
    for entry in edits.get("rename", []):
        assert after[entry["id"]][1] == entry["name"]
    added = [entry if isinstance(entry, str) else entry["name"] for entry in edits.get("add", [])]
    assert sorted(after[word_id][1] for word_id in changes["added"]) == sorted(added)
    assert min(changes["added"], default=max(before) + 1) == max(before) + 1
    # every name placed: all the parent's rows but the removed, and the added
    assert len(after) == len(before) - len(changes["removed"]) + len(added)
    # the gap and colour rules hold, for new neighbours too (a recolour is the customer's)
    findings = measure(out, 0.3)
    assert findings.close == []
    recolored = {after[word_id][1] for word_id in changes["recolored"]}
    assert [pair for pair in findings.same_color if not {pair[0], pair[1]} & recolored] == []
    # ink only inside the mask, never in a keep-out shape
    params = parse_params(
        {"WIDTH": size[0], "HEIGHT": size[1]} if mask is None else {"MODE": "IMAGE"}
    )
    inside = load_mask(mask, params=params).inside
    kept_out = keep_out_pixels(edits.get("keepOut", []), *inside.shape)
    ink = np.asarray(Image.open(out / "wordcloud.png").convert("L")) < 250
    assert not (ink & ~inside).any()
    for word_id in named - set(changes["removed"]):
        x, y, w, h = after[word_id][13:17]
        assert not kept_out[y : y + h, x : x + w].any() or word_id in changes["recolored"]
    assert_proof_marks(out, after, changes)
    return metrics


def proof_frames(proof, ink_box):
    """The pixels of the proof's outline of a word with ``ink_box`` (a proof at full size:
    the test posters are under 2,000 px a side), as a list of RGB rows."""
    height, width = proof.shape[:2]
    x, y, w, h = ink_box
    x0, y0 = max(0, x - PROOF_LINE - 1), max(0, y - PROOF_LINE - 1)
    x1, y1 = min(width, x + w + PROOF_LINE + 1), min(height, y + h + PROOF_LINE + 1)
    bands = (
        proof[y0 : y0 + PROOF_LINE, x0:x1],
        proof[max(y0, y1 - PROOF_LINE) : y1, x0:x1],
        proof[y0:y1, x0 : x0 + PROOF_LINE],
        proof[y0:y1, max(x0, x1 - PROOF_LINE) : x1],
    )
    return np.concatenate([band.reshape(-1, 3) for band in bands])


def assert_proof_marks(out, after, changes) -> None:
    """Every word an edit changed (added, renamed — in place or placed again —, moved,
    resized, recoloured) is outlined in the proof in PROOF_CHANGED, whole; every word only
    displaced in PROOF_DISPLACED (where no changed word's outline crosses it)."""
    proof = np.asarray(Image.open(out / "proof.png").convert("RGB"))
    named = {i for k in ("added", "renamed", "moved", "resized", "recolored") for i in changes[k]}
    for word_id in named:
        frame = proof_frames(proof, after[word_id][13:17])
        assert (frame == PROOF_CHANGED).all(), (word_id, changes)
    for word_id in set(changes["displaced"]) - named:
        frame = proof_frames(proof, after[word_id][13:17])
        colours = (frame == PROOF_DISPLACED).all(axis=1) | (frame == PROOF_CHANGED).all(axis=1)
        assert colours.all() and (frame == PROOF_DISPLACED).all(axis=1).any(), word_id


def test_a_renamed_word_placed_again_elsewhere_is_marked_in_the_proof(parents, tmp_path):
    """A rename whose longer name no longer fits where the word was: the word is placed
    again elsewhere, and the proof outlines it as changed, like every edited word."""
    parent, mask = parents[0]
    before = rows(parent)
    longer = "Bartholomew Maximilian Featherstonehaugh"
    for word_id in sorted(before, key=lambda i: before[i][4])[:20]:  # small words, crowded
        out = tmp_path / str(word_id)
        edits = {"rename": [{"id": word_id, "name": longer}]}
        metrics = revise(parent_dir=parent, out_dir=out, edits=edits, mask_path=mask)
        after = rows(out)
        if after[word_id][13:15] != before[word_id][13:15]:  # placed again elsewhere
            break
    else:
        pytest.fail("no rename of a small word to a longer name moved it")
    assert metrics["changes"]["renamed"] == [word_id]
    assert_proof_marks(out, after, metrics["changes"])


@pytest.mark.parametrize(
    ("edits", "detail"),
    [
        ({"remove": [99999]}, "remove[0]: no word with id 99999"),
        (
            {"remove": [1], "recolor": [{"id": 1, "color": "#000000"}]},
            "id 1 is in both remove and recolor",
        ),
        (
            {"rename": [{"id": 2, "name": "A"}, {"id": 2, "name": "B"}]},
            "id 2 is in both rename and rename",
        ),
        ({"colour": []}, 'unknown edit "colour"'),
        ({"seed": 3}, "no edit given"),
        ({"move": [{"id": 1, "x": -1, "y": 10}]}, "move[0].x must be a number from 0 to 10000"),
        ({"resize": [{"id": 1, "fontSize": 3}]}, "resize[0].fontSize must be from 4"),
        ({"add": [""]}, "add[0] must be a name that is not empty"),
        ({"add": ["\ue000"]}, 'add[0]: "\ue000" has characters the poster\'s font cannot draw'),
        ({"recolor": [{"id": 1, "color": "red"}]}, "recolor[0].color must be #RRGGBB"),
        (
            {"keepOut": [{"shape": "star", "x": 1, "y": 1, "width": 5, "height": 5}]},
            "keepOut[0].shape",
        ),
        ({"remove": [1] * (LIST_BOUNDS["remove"] + 1)}, "remove has 10001 entries"),
    ],
)
def test_bad_edits_are_refused_with_the_problem_named(parents, edits, detail):
    parent, mask = parents[0]
    with pytest.raises(InputError) as refused:
        check_edits(edits, parent=Parent(parent), mask_path=mask)
    assert str(refused.value).startswith(detail)


def test_a_revision_of_a_revision(parents, tmp_path):
    parent, mask = parents[1]
    first = revise(
        parent_dir=parent, out_dir=tmp_path / "one", edits={"add": ["Zed"]}, mask_path=mask
    )
    second = revise(
        parent_dir=tmp_path / "one",
        out_dir=tmp_path / "two",
        edits={"remove": first["changes"]["added"]},
        mask_path=mask,
    )
    assert second["changes"]["removed"] == first["changes"]["added"]
    assert rows(tmp_path / "two") == rows(parent)  # the added name removed again: the parent's rows
    for svg in ("wordcloud.svg", "wordcloud-stroke.svg"):  # and its bytes
        assert (tmp_path / "two" / svg).read_bytes() == (parent / svg).read_bytes(), svg


def test_a_parent_whose_lines_are_not_in_id_order_is_revised_all_the_same(parents, tmp_path):
    """The engine writes the words' lines in id order, and a revision finds the ones it
    changes by reading forward; a parent written otherwise (its lines reversed here) gets
    the same line for every word as the parent in order."""
    parent, mask = parents[0]
    shuffled = tmp_path / "shuffled"
    shutil.copytree(parent, shuffled)
    for svg in ("wordcloud.svg", "wordcloud-stroke.svg"):
        lines = (parent / svg).read_text(encoding="utf-8").splitlines(True)
        words = [line for line in lines if line.startswith("<path")]
        others = [line for line in lines if not line.startswith("<path")]
        (shuffled / svg).write_text("".join(others[:-1] + words[::-1] + others[-1:]), "utf-8")
    ids = sorted(rows(parent))
    edits = {
        "add": ["Zed", "Ann Other"],
        "remove": [ids[3], ids[-1]],
        "rename": [{"id": ids[0], "name": "Li"}],
        "recolor": [{"id": ids[7], "color": "#2874A6"}, {"id": ids[-2], "color": "#2874A6"}],
    }

    revise(parent_dir=parent, out_dir=tmp_path / "in_order", edits=edits, mask_path=mask)
    revise(parent_dir=shuffled, out_dir=tmp_path / "out", edits=edits, mask_path=mask)

    for svg in ("wordcloud.svg", "wordcloud-stroke.svg"):
        assert paths(tmp_path / "out", svg) == paths(tmp_path / "in_order", svg), svg
    assert rows(tmp_path / "out") == rows(tmp_path / "in_order")


@pytest.mark.parametrize("parent_index", range(len(PARENTS)))
def test_the_words_near_the_fresh_ones_hold_all_their_reading_neighbours(parents, parent_index):
    """A revision colours its fresh words by their reading neighbours among the words near
    them only: every neighbour they have among all the words is among those."""
    parent, _ = parents[parent_index]
    words = rows(parent)
    ids = sorted(words)
    placements = {
        word_id: SimpleNamespace(
            ink_box=row[13:17], font_size=row[4], vertical=row[6] == "vertical"
        )
        for word_id, row in words.items()
    }
    everything = reading_neighbours(
        [placements[i].ink_box for i in ids],
        [placements[i].font_size for i in ids],
        [placements[i].vertical for i in ids],
    )
    rng = random.Random(parent_index)
    for count in (0, 5, 20):  # words picked at random, and one that has a neighbour
        fresh = set(rng.sample(ids, count)) | {ids[rng.choice(everything)[rng.randrange(2)]]}
        near = words_near(ids, placements, fresh)
        among = reading_neighbours(
            [placements[i].ink_box for i in near],
            [placements[i].font_size for i in near],
            [placements[i].vertical for i in near],
        )
        expected = {(ids[i], ids[j]) for i, j in everything if {ids[i], ids[j]} & fresh}
        assert {(near[i], near[j]) for i, j in among if {near[i], near[j]} & fresh} == expected


def test_a_revision_with_no_room_fails_saying_how_many_names_did_not_fit(parents, tmp_path):
    """A keep-out box over most of the poster and forty names more: more names than the
    rest of the canvas holds. The revision writes nothing and names the count."""
    parent, mask = parents[3]
    edits = {
        "keepOut": [{"shape": "rect", "x": 40, "y": 40, "width": 520, "height": 520}],
        "add": [f"Newcomer Number {k}" for k in range(40)],
    }
    with pytest.raises(LayoutError) as refused:
        revise(parent_dir=parent, out_dir=tmp_path / "out", edits=edits, mask_path=mask)
    count = re.fullmatch(
        r"(\d+) names? did not fit, even with the smallest nearby words moved aside; make a "
        r"new layout of the revised list \(a new job\) instead",
        str(refused.value),
    )
    assert count and 1 < int(count[1]) <= len(rows(parent)) + 40
    assert not (tmp_path / "out").exists()


def test_a_new_job_keeps_its_keep_out_shapes_free(tmp_path):
    shapes = [
        {"shape": "ellipse", "x": 250, "y": 150, "width": 200, "height": 150},
        {"shape": "rect", "x": 20, "y": 20, "width": 120, "height": 60},
    ]
    params = {"WIDTH": 700, "HEIGHT": 500, "SEED": 9, "KEEP_OUT": shapes}
    names = write_names(tmp_path / "names.xlsx", latin_names(150, 9))
    metrics = generate(names_path=names, out_dir=tmp_path / "out", params=params)

    assert metrics["names_placed"] == 150
    ink = np.asarray(Image.open(tmp_path / "out" / "wordcloud.png").convert("L")) < 250
    assert not (ink & keep_out_pixels(shapes, 500, 700)).any()
    with pytest.raises(InputError, match=r"params.KEEP_OUT\[0\] lies outside the canvas"):
        generate(
            names_path=names,
            out_dir=tmp_path / "bad",
            params={**params, "KEEP_OUT": [{**shapes[0], "x": 600}]},
        )
