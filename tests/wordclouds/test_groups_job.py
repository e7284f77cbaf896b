"""A job with groups and a text mask run by the worker's code (issue 41): GET
/api/jobs/{id}/words answers each word's group, and its DXF draws each group on a layer of
its own, cut along the letters."""

import io
import json
import random

import ezdxf
import openpyxl
import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from tests.names import latin_names
from wordclouds.models import Job
from wordclouds.services.job_run import job_execute
from wordclouds.services.jobs import job_create

pytestmark = pytest.mark.django_db(transaction=True)
NAMES = latin_names(80, 12)
GROUPS = [f"Class {random.Random(12 + k).randint(1, 4)}" for k in range(80)]


@pytest.fixture
def grouped_job(tmp_path, django_capture_on_commit_callbacks):
    workbook = openpyxl.Workbook()
    workbook.active.append(["name", "class"])
    for row in zip(NAMES, GROUPS, strict=True):
        workbook.active.append(list(row))
    workbook.save(tmp_path / "names.xlsx")
    params = {"MASK_TEXT": "2026", "WIDTH": 900, "GROUP_COL_INDEX": 1, "SEED": 12}
    upload = SimpleUploadedFile("names.xlsx", (tmp_path / "names.xlsx").read_bytes())
    with django_capture_on_commit_callbacks(execute=False):
        job = job_create(params=json.dumps(params), name_list=upload)
    job_execute(job_id=job.id)
    assert Job.objects.get(id=job.id).status == Job.Status.SUCCESS
    return job.id


def test_the_words_answer_each_word_s_group(api, grouped_job):
    answer = api.get(f"/api/jobs/{grouped_job}/words")
    assert answer.status_code == 200
    words = answer.json()
    assert len(words) == 80
    by_name = {}
    for name, group in zip(NAMES, GROUPS, strict=True):
        by_name.setdefault(name, set()).add(group)
    assert all(word["group"] in by_name[word["name"]] for word in words)
    assert {word["group"] for word in words} == set(GROUPS)


def test_the_dxf_has_a_named_layer_per_group_and_cuts_along_the_letters(api, grouped_job):
    response = api.get(f"/api/jobs/{grouped_job}/files/dxf?width_mm=300&hatch=1")
    assert response.status_code == 200, response.content[:300]
    document = ezdxf.read(io.StringIO(response.content.decode()))
    assert not document.audit().has_errors
    space = document.modelspace()
    for group in set(GROUPS):  # one HATCH per word of the group, on its layer
        hatches = space.query(f'HATCH[layer=="ENGRAVE {group}"]')
        assert len(hatches) == GROUPS.count(group), group
    assert len(space.query('HATCH[layer=="ENGRAVE"]')) == 0
    assert len(space.query('LWPOLYLINE[layer=="CUT"]')) >= 4  # the letters' rings, not a box


def test_the_lookups_answer_each_match_s_group_and_the_job_s_groups(lookup, grouped_job):
    result = lookup(grouped_job, {}).json()
    assert result["groups"] == list(dict.fromkeys(GROUPS))  # spreadsheet order
    assert result["group"] is None
    words = {(m["name"], m["group"]) for m in result["matches"]}
    assert words == set(zip(NAMES, GROUPS, strict=True))


@pytest.mark.parametrize("mode", ["exact", "contains"])
def test_a_group_filters_the_lookup_to_that_group(lookup, grouped_job, mode):
    group = GROUPS[0]
    result = lookup(grouped_job, {"group": group}).json()
    assert result["group"] == group
    assert sorted(m["name"] for m in result["matches"]) == sorted(
        n for n, g in zip(NAMES, GROUPS, strict=True) if g == group
    )
    other = next(n for n, g in zip(NAMES, GROUPS, strict=True) if g != group)
    query = other if mode == "exact" else other[1:-1]
    found = lookup(grouped_job, {"name": query, "mode": mode, "group": group}).json()
    assert all(m["group"] == group for m in found["matches"])
    everywhere = lookup(grouped_job, {"name": query, "mode": mode}).json()
    assert {m["id"] for m in found["matches"]} == {
        m["id"] for m in everywhere["matches"] if m["group"] == group
    }
    assert found["total"] == len(found["matches"])


def test_a_group_the_job_does_not_have_is_404_naming_it(lookup, grouped_job):
    for name in ("", NAMES[0]):  # without matches and (for a name) before looking
        response = lookup(grouped_job, {"name": name, "group": "Class 9"})
        assert response.status_code == 404
        assert response.json() == {
            "detail": 'group "Class 9" is not a group of this poster',
            "code": "group_unknown",
        }
