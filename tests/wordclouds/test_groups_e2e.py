"""End to end through the real web server and worker (issue 41): a poster of two groups in
the letters of a text mask (MODE=TEXT, MASK_TEXT), a revision adding a name to each group
(each lands in its own group's letter), its DXF and print PDF with a named layer per group,
and the lookups filtered by group answering only that group's names."""

import io

import ezdxf
import httpx
import openpyxl
import pytest

from tests.exports.test_group_layers import pdf_layers, word_starts, words_at
from tests.names import latin_names
from tests.processes import Service, staff_headers

pytestmark = [pytest.mark.e2e, pytest.mark.backend]
NAMES = latin_names(40, 41)
GROUPS = ["Class B" if k % 3 == 2 else "Class A" for k in range(40)]  # A first
PARAMS = {"MODE": "TEXT", "MASK_TEXT": "AB", "WIDTH": 900, "GROUP_COL_INDEX": 1, "SEED": 41}


@pytest.fixture(scope="module")
def service(tmp_path_factory, database_template):
    with Service(tmp_path_factory.mktemp("service"), database_template) as started:
        yield started.start()


@pytest.fixture(scope="module")
def revised(service, tmp_path_factory):
    """The poster and its revision adding one name to each group: (parent, child) jobs."""
    path = tmp_path_factory.mktemp("names") / "names.xlsx"
    book = openpyxl.Workbook()
    book.active.append(["name", "class"])
    for row in zip(NAMES, GROUPS, strict=True):
        book.active.append(list(row))
    book.save(path)
    parent = service.finished(service.submit(path, PARAMS))
    edits = {
        "add": [{"name": "Zoë Newcomer", "group": "Class A"}, {"name": "李明", "group": "Class B"}]
    }
    answer = httpx.post(
        f"{service.url}/api/jobs/{parent['job_id']}/revisions",
        json=edits,
        timeout=60,
        headers=staff_headers(),
    )
    assert answer.status_code == 201, answer.text
    return parent, service.finished(answer.json()["job_id"])


def words(service, job_id) -> list[dict]:
    answer = httpx.get(
        f"{service.url}/api/jobs/{job_id}/words", headers=staff_headers(), timeout=30
    )
    assert answer.status_code == 200, answer.text
    return answer.json()


def test_each_added_name_lands_in_its_own_group_s_letter(service, revised):
    parent, child = revised
    metrics = httpx.get(
        f"{service.url}{child['artifacts']['metrics']}", timeout=30, follow_redirects=True
    ).json()
    # the regions: A's letter for the first group in the list, B's for the second
    assert metrics["groups"]["Class A"]["region"] == "letter 0"
    assert metrics["groups"]["Class B"]["region"] == "letter 1"
    before = {word["id"] for word in words(service, parent["job_id"])}
    after = words(service, child["job_id"])
    added = {word["name"]: word for word in after if word["id"] not in before}
    assert set(added) == {"Zoë Newcomer", "李明"}
    assert added["Zoë Newcomer"]["group"] == "Class A" and added["李明"]["group"] == "Class B"
    # the letters lie side by side, a band between them: every word of A's letter left of
    # every word of B's; the added names too
    right_of_a = max(w["box_x"] + w["box_width"] for w in after if w["group"] == "Class A")
    left_of_b = min(w["box_x"] for w in after if w["group"] == "Class B")
    assert right_of_a < left_of_b


def test_the_revision_s_dxf_has_a_named_layer_per_group(service, revised):
    _, child = revised
    url = f"{service.url}/api/jobs/{child['job_id']}/files/dxf?width_mm=300&hatch=1"
    response = httpx.get(url, timeout=120, follow_redirects=True, headers=staff_headers())
    assert response.status_code == 200, response.text[:300]
    document = ezdxf.read(io.StringIO(response.content.decode()))
    space = document.modelspace()
    for group in ("Class A", "Class B"):
        hatches = space.query(f'HATCH[layer=="ENGRAVE {group}"]')
        assert len(hatches) == GROUPS.count(group) + 1, group  # its names and the added one


def test_the_revision_s_print_pdf_has_a_named_layer_per_group(service, revised, tmp_path):
    """PDF/X-4 (PDF/X-1a has no optional content): a layer per group, in the groups' order,
    drawing exactly its group's words, the added ones among them."""
    job = revised[1]["job_id"]

    def get(path: str) -> bytes:
        url = f"{service.url}/api/jobs/{job}/{path}"
        response = httpx.get(url, timeout=120, follow_redirects=True, headers=staff_headers())
        assert response.status_code == 200, response.text[:300]
        return response.content

    (tmp_path / "wordcloud.svg").write_bytes(get("files/svg"))
    layers = pdf_layers(get("files/pdf?width_mm=300&standard=x4"))
    starts = word_starts(tmp_path)
    by_group: dict[str, set[int]] = {}
    for word in words(service, job):
        by_group.setdefault(word["group"], set()).add(word["id"])
    assert [(name, words_at(points, starts)) for name, points in layers] == [
        (group, by_group[group] & starts.keys()) for group in ("Class A", "Class B")
    ]


def test_a_lookup_filtered_by_group_answers_only_that_group_s_names(service, revised):
    _, child = revised
    url = f"{service.url}/api/jobs/{child['job_id']}/locations"
    everything = httpx.get(url, timeout=30).json()
    assert everything["groups"] == ["Class A", "Class B"]
    for group in ("Class A", "Class B"):
        answer = httpx.get(url, params={"group": group}, timeout=30).json()
        expected = {m["id"] for m in everything["matches"] if m["group"] == group}
        assert {m["id"] for m in answer["matches"]} == expected and expected
        assert {m["group"] for m in answer["matches"]} == {group}
    found = httpx.get(url, params={"name": "李明", "group": "Class B"}, timeout=30).json()
    assert [m["name"] for m in found["matches"]] == ["李明"]
    assert (
        httpx.get(url, params={"name": "李明", "group": "Class A"}, timeout=30).json()["matches"]
        == []
    )
    unknown = httpx.get(url, params={"group": "Class C"}, timeout=30)
    assert unknown.status_code == 404
    assert unknown.json() == {
        "detail": 'group "Class C" is not a group of this poster',
        "code": "group_unknown",
    }
