"""Shared helpers for the word-cloud tests: name-list workbooks, jobs that really ran
through the engine (with and without a record), and the name lookups as daphne serves them.
The real processes are in tests/processes.py."""

import json
import threading
import uuid
from pathlib import Path
from urllib.parse import urlencode

import openpyxl
import pytest
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection

from tests.asgi import asgi_request
from tests.names import sample_names
from wordclouds import engine
from wordclouds.api.lookup_front import readers
from wordclouds.services.job_run import job_execute
from wordclouds.services.jobs import job_create

SMALL_PARAMS = {"WIDTH": 400, "HEIGHT": 300, "SEED": 7}


def jobs_root() -> Path:
    """Where the local file storage keeps jobs (MEDIA_ROOT/jobs): for tests that put a job
    folder there by hand, as an operator would."""
    return Path(settings.MEDIA_ROOT) / "jobs"


@pytest.fixture
def names_xlsx(tmp_path):
    """A factory writing a one-sheet .xlsx: a header row, then one name per row in
    `column` (0-based). Returns the path."""

    def make(names, *, column: int = 0, header: str | None = "name", filename=None) -> Path:
        workbook = openpyxl.Workbook()
        sheet = workbook.active
        rows = ([header] if header is not None else []) + list(names)
        for number, name in enumerate(rows, start=1):
            sheet.cell(row=number, column=column + 1, value=name)
        path = tmp_path / (filename or f"names-{uuid.uuid4().hex[:8]}.xlsx")
        workbook.save(path)
        return path

    return make


@pytest.fixture
def finished_job_dir(media_root, names_xlsx):
    """A factory: a finished job folder made by the engine, without a database record
    (such a folder is a successful job, docs/architecture.md). Returns the job id."""

    def make(names=None, params=None, path=None) -> str:
        job_id = uuid.uuid4().hex
        names_path = path or names_xlsx(names or sample_names(12))
        engine.generate(
            names_path=names_path, out_dir=jobs_root() / job_id, params=params or SMALL_PARAMS
        )
        return job_id

    return make


@pytest.fixture
def finished_job(db, names_xlsx, django_capture_on_commit_callbacks):
    """A factory: a job created through the service and run by the worker's code in this
    process, as the queue would. Returns the job id."""

    def make(names=None, params=None) -> str:
        path = names_xlsx(names or sample_names(12))
        upload = SimpleUploadedFile("names.xlsx", path.read_bytes())
        with django_capture_on_commit_callbacks(execute=False):
            job = job_create(params=json.dumps(params or SMALL_PARAMS), name_list=upload)
        job_execute(job_id=job.id)
        return job.id

    return make


@pytest.fixture
def tiny_font(tmp_path):
    """A factory: a small real TrueType font (every glyph a box) covering `chars`, saved
    as .ttf; for font uploads without shipping a font file."""

    def make(
        chars: str = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789 ",
        family: str = "Tiny Test",
    ) -> Path:
        from fontTools.fontBuilder import FontBuilder
        from fontTools.pens.ttGlyphPen import TTGlyphPen

        def box():
            pen = TTGlyphPen(None)
            pen.moveTo((50, 0))
            pen.lineTo((50, 700))
            pen.lineTo((450, 700))
            pen.lineTo((450, 0))
            pen.closePath()
            return pen.glyph()

        glyphs = [".notdef"] + [f"u{ord(char):04X}" for char in chars]
        builder = FontBuilder(1000, isTTF=True)
        builder.setupGlyphOrder(glyphs)
        builder.setupCharacterMap({ord(char): f"u{ord(char):04X}" for char in chars})
        builder.setupGlyf({glyph: box() for glyph in glyphs})
        builder.setupHorizontalMetrics({glyph: (500, 50) for glyph in glyphs})
        builder.setupHorizontalHeader(ascent=800, descent=-200)
        builder.setupNameTable({"familyName": family, "styleName": "Regular"})
        builder.setupOS2(sTypoAscender=800, sTypoDescender=-200, usWinAscent=800, usWinDescent=200)
        builder.setupPost()
        path = tmp_path / f"{family.replace(' ', '-')}-{uuid.uuid4().hex[:6]}.ttf"
        builder.save(str(path))
        return path

    return make


@pytest.fixture
def queued_job(db, names_xlsx, django_capture_on_commit_callbacks):
    """A factory: a job created through the service, queued (its enqueueing is not run).
    Returns the job id."""

    def make(names=None, params=None, **fields) -> str:
        path = names_xlsx(names or sample_names(12))
        upload = SimpleUploadedFile("names.xlsx", path.read_bytes())
        with django_capture_on_commit_callbacks():
            job = job_create(params=json.dumps(params or SMALL_PARAMS), name_list=upload, **fields)
        return job.id

    return make


@pytest.fixture
def lookup():
    """GET of a job's `locations` or `find` (`endpoint`) as daphne serves them: in front of
    Django (wordclouds/api/lookup_front.py, through tests/asgi.py), on the lookup threads,
    which see committed rows only (the test needs `django_db(transaction=True)`). Returns
    the httpx response. After the test every lookup thread closes its kept connection: a test
    database with a connection open cannot be dropped (PostgreSQL)."""

    def get(job_id: str, params: dict | None = None, endpoint: str = "locations", **headers):
        path = f"/api/jobs/{job_id}/{endpoint}"
        return asgi_request("GET", f"{path}?{urlencode(params)}" if params else path, **headers)

    yield get
    barrier = threading.Barrier(settings.LOOKUP_DB_READERS)

    def close():
        barrier.wait(timeout=10)  # every thread takes one of these at once
        connection.close()

    for future in [readers.submit(close) for _ in range(settings.LOOKUP_DB_READERS)]:
        future.result()
