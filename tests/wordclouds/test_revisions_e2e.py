"""End to end through the real web server and worker: revisions of a finished poster — a
revision of a revision, two revisions of one parent at once, what every unchanged word keeps,
the proof, the chain, a revision printed, and every refusal answered with nothing created."""

import io

import httpx
import pytest
from PIL import Image

from tests.names import latin_names
from tests.processes import Service, staff_headers
from wordclouds.engine import INKS
from wordclouds.selectors import job_key

pytestmark = [pytest.mark.e2e, pytest.mark.backend]
PARAMS = {"WIDTH": 900, "HEIGHT": 600, "SEED": 7}


@pytest.fixture(scope="module")
def service(tmp_path_factory, database_template):
    with Service(tmp_path_factory.mktemp("service"), database_template) as started:
        yield started.start()


@pytest.fixture(scope="module")
def poster(service, tmp_path_factory):
    """A finished 200-name poster."""
    from tests.names import write_names

    path = write_names(tmp_path_factory.mktemp("names") / "names.xlsx", latin_names(200, 30))
    return service.finished(service.submit(path, PARAMS))["job_id"]


def revise(service, job_id, edits, **kwargs):
    return httpx.post(
        f"{service.url}/api/jobs/{job_id}/revisions",
        json=edits,
        timeout=60,
        **{"headers": staff_headers(), **kwargs},
    )


def paths(service, job_id, kind) -> dict[str, str]:
    url = f"{service.url}/api/jobs/{job_id}/files/{kind}"
    text = httpx.get(url, timeout=30, follow_redirects=True).text
    return {line.split('"')[1]: line for line in text.splitlines() if line.startswith("<path")}


def test_a_revision_keeps_every_word_it_need_not_move(service, poster):
    before = service.words(poster)
    parent_files = service.digests(poster)
    edits = {
        "add": ["Zoë Newcomer", {"name": "李明", "weight": 2}],
        "remove": [3, 4],
        "rename": [{"id": 5, "name": "Dmitri Renamed"}],
        "move": [{"id": 6, "x": 450, "y": 300}],
        "resize": [{"id": 7, "fontSize": 30}],
        "recolor": [{"id": 8, "color": "#C0392B"}],
        "keepOut": [{"shape": "ellipse", "x": 40, "y": 40, "width": 120, "height": 90}],
    }
    answer = revise(service, poster, edits)
    assert answer.status_code == 201, answer.text
    child = service.finished(answer.json()["job_id"])
    assert (child["parent_job_id"], child["revision"]) == (poster, 1)

    metrics = httpx.get(
        f"{service.url}{child['artifacts']['metrics']}", timeout=30, follow_redirects=True
    ).json()
    changes = metrics["changes"]
    assert changes["parent"] == poster
    assert changes["removed"] == [3, 4] and changes["renamed"] == [5]
    assert changes["moved"] == [6] and changes["resized"] == [7] and changes["recolored"] == [8]
    assert changes["added"] == [max(before) + 1, max(before) + 2]
    after = service.words(child["job_id"])
    touched = {3, 4, 5, 6, 7, 8, *changes["displaced"], *changes["added"]}
    unchanged = [word_id for word_id in before if word_id not in touched]
    assert changes["unchanged"] == len(unchanged)
    assert all(after[word_id] == before[word_id] for word_id in unchanged)
    for kind in ("svg", "svg_stroke"):
        old, new = paths(service, poster, kind), paths(service, child["job_id"], kind)
        assert all(new[f"w{word_id}"] == old[f"w{word_id}"] for word_id in unchanged)

    # a customer who found their name finds it at the same place
    for word_id in unchanged[:10]:
        name = before[word_id][1]
        found = httpx.get(
            f"{service.url}/api/jobs/{child['job_id']}/locations", params={"name": name}, timeout=30
        ).json()
        assert (before[word_id][2], before[word_id][3]) in {
            (match["x"], match["y"]) for match in found["matches"]
        }
    for name in ("Zoë Newcomer", "李明", "Dmitri Renamed"):
        found = httpx.get(
            f"{service.url}/api/jobs/{child['job_id']}/locations", params={"name": name}, timeout=30
        ).json()
        assert [match["name"] for match in found["matches"]] == [name]
    assert 3 not in after and 4 not in after

    # the proof outlines the changes; the parent is untouched
    proof = httpx.get(
        f"{service.url}/api/jobs/{child['job_id']}/proof.png", timeout=30, follow_redirects=True
    )
    assert proof.headers["content-type"] == "image/png"
    assert Image.open(io.BytesIO(proof.content)).size == (900, 600)
    assert service.digests(poster) == parent_files

    # what reads a finished poster reads a revision: the occupancy mask, custom.svg, the page
    revised = child["job_id"]
    mask = httpx.get(f"{service.url}/api/jobs/{revised}/occupancy_mask", timeout=30)
    assert mask.headers["content-type"] == "image/png"
    custom = httpx.get(f"{service.url}/api/jobs/{revised}/custom.svg?fill=dot", timeout=60)
    assert custom.status_code == 200 and b"<svg" in custom.content
    assert httpx.get(f"{service.url}/jobs/{revised}/find", timeout=30).status_code == 200

    # a revision of the revision, printed as a PDF; each kept its words' ink beside its
    # files, which the next revision stamps them from
    answer = revise(service, child["job_id"], {"remove": [changes["added"][0]]})
    grandchild = service.finished(answer.json()["job_id"])
    stored = service.stored_files()
    assert {job_key(job_id, INKS) for job_id in (poster, revised, grandchild["job_id"])} <= stored
    assert (grandchild["parent_job_id"], grandchild["revision"]) == (child["job_id"], 2)
    chain = httpx.get(f"{service.url}/api/jobs/{grandchild['job_id']}/revisions", timeout=30)
    assert [entry["job_id"] for entry in chain.json()][:1] == [poster]
    assert {child["job_id"], grandchild["job_id"]} <= {entry["job_id"] for entry in chain.json()}
    pdf = httpx.get(
        f"{service.url}/api/jobs/{grandchild['job_id']}/files/pdf",
        params={"width_mm": 297, "height_mm": 210},
        timeout=120,
    )
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF-")


def test_two_revisions_of_one_parent_at_once(service, poster):
    parent_files = service.digests(poster)
    first = revise(service, poster, {"remove": [10]})
    second = revise(service, poster, {"recolor": [{"id": 11, "color": "#1E8449"}]})
    assert first.status_code == second.status_code == 201
    one, two = (service.finished(answer.json()["job_id"]) for answer in (first, second))
    assert one["parent_job_id"] == two["parent_job_id"] == poster
    assert 10 not in service.words(one["job_id"]) and 10 in service.words(two["job_id"])
    assert service.words(two["job_id"])[11][5] == "#1E8449"
    assert service.digests(poster) == parent_files


REFUSALS = [
    ({"remove": [99999]}, "remove[0]: no word with id 99999"),
    ({"remove": [5], "rename": [{"id": 5, "name": "X"}]}, "id 5 is in both remove and rename"),
    ({"add": ["  "]}, "add[0] must be a name that is not empty"),
    ({"move": [{"id": 5, "x": 5000, "y": 10}]}, "move[0]: (5000, 10) is outside the canvas"),
    (
        {"keepOut": [{"shape": "rect", "x": 800, "y": 500, "width": 300, "height": 300}]},
        "keepOut[0] lies outside the canvas",
    ),  # fmt: skip
    ({"resize": [{"id": 5, "fontSize": 900}]}, "resize[0].fontSize must be from 4 to 300 px"),
    ({"colour": []}, 'unknown edit "colour"'),
    ({}, "no edit given"),
    ({"remove": list(range(1, 10_002))}, "remove has 10001 entries; at most 10000"),
]


@pytest.mark.parametrize(("edits", "detail"), REFUSALS)
def test_bad_edits_are_refused_and_nothing_is_created(service, poster, edits, detail):
    jobs_before = httpx.get(
        f"{service.url}/api/jobs?limit=1000", headers=staff_headers(), timeout=30
    ).json()
    answer = revise(service, poster, edits)
    assert answer.status_code == 400, answer.text
    assert answer.json()["detail"].startswith(detail)
    assert answer.json()["code"] == "edits_invalid"
    assert (
        httpx.get(f"{service.url}/api/jobs?limit=1000", headers=staff_headers(), timeout=30).json()
        == jobs_before
    )


def test_unknown_and_unfinished_parents(service, tmp_path):
    from tests.names import write_names

    missing = revise(service, "0" * 32, {"remove": [1]})
    assert (missing.status_code, missing.json()["code"]) == (404, "job_not_found")
    crowded = write_names(tmp_path / "many.xlsx", latin_names(300, 1))
    failing = service.submit(crowded, {"WIDTH": 100, "HEIGHT": 100, "MIN_FONT_SIZE": 20})
    service.wait_for(failing, lambda job: job["status"] == "failed", 120)
    refused = revise(service, failing, {"remove": [1]})
    assert (refused.status_code, refused.json()["code"]) == (409, "parent_not_success")
    bad_json = httpx.post(
        f"{service.url}/api/jobs/{failing}/revisions",
        content=b"{not json",
        headers={"Content-Type": "application/json", **staff_headers()},
        timeout=30,
    )
    assert bad_json.status_code == 400


def test_an_oversized_body_is_refused_before_it_is_read(service, poster):
    jobs_before = httpx.get(
        f"{service.url}/api/jobs?limit=1000", headers=staff_headers(), timeout=30
    ).json()
    body = b'{"add": ["' + b"x" * (31 * 1024 * 1024) + b'"]}'
    answer = httpx.post(
        f"{service.url}/api/jobs/{poster}/revisions",
        content=body,
        headers={"Content-Type": "application/json", **staff_headers()},
        timeout=60,
    )
    assert answer.status_code == 413
    assert answer.json()["detail"] == "request body exceeds the size limit"
    assert (
        httpx.get(f"{service.url}/api/jobs?limit=1000", headers=staff_headers(), timeout=30).json()
        == jobs_before
    )
