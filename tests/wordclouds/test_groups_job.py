"""A job with groups and a text mask run by the worker's code (issue 41): every name in its
group's letter, and GET /api/jobs/{id}/words answering each word's group."""

import json
import random

import openpyxl
import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from tests.names import latin_names
from wordclouds.models import Job
from wordclouds.services.job_run import job_execute
from wordclouds.services.jobs import job_create

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_text_job_with_groups_answers_each_word_s_group(
    api, tmp_path, django_capture_on_commit_callbacks
):
    rng = random.Random(12)
    names = latin_names(80, 12)
    groups = [f"Class {rng.randint(1, 4)}" for _ in names]
    workbook = openpyxl.Workbook()
    workbook.active.append(["name", "class"])
    for row in zip(names, groups, strict=True):
        workbook.active.append(list(row))
    workbook.save(tmp_path / "names.xlsx")
    params = {"MASK_TEXT": "2026", "WIDTH": 900, "GROUP_COL_INDEX": 1, "SEED": 12}
    upload = SimpleUploadedFile("names.xlsx", (tmp_path / "names.xlsx").read_bytes())
    with django_capture_on_commit_callbacks(execute=False):
        job = job_create(params=json.dumps(params), name_list=upload)
    job_execute(job_id=job.id)

    assert Job.objects.get(id=job.id).status == Job.Status.SUCCESS
    answer = api.get(f"/api/jobs/{job.id}/words")
    assert answer.status_code == 200
    words = answer.json()
    assert len(words) == 80
    by_name = {}
    for name, group in zip(names, groups, strict=True):
        by_name.setdefault(name, set()).add(group)
    assert all(word["group"] in by_name[word["name"]] for word in words)
    assert {word["group"] for word in words} == set(groups)
