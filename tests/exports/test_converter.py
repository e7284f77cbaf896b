"""Each conversion runs in a child process with a memory and a time limit."""

import json
import os
import subprocess
import sys

from django.conf import settings

from exports import converter
from tests.exports.samples import svg_document

MANY_CIRCLES = svg_document(
    "".join(f'<circle cx="{i % 100}" cy="{i // 100}" r="3"/>' for i in range(20000))
)


def test_a_conversion_answers_the_file():
    status, body = converter.convert_isolated(
        svg_document('<rect width="5" height="5"/>').encode(), title="a.ai"
    )
    assert status == 200 and body.startswith(b"%!PS-Adobe-3.0\n")


def test_an_error_answers_its_status_and_detail():
    status, body = converter.convert_isolated(b"<svg", title="a.ai")
    assert (status, json.loads(body)) == (400, {"detail": "svg is not valid SVG"})


def test_a_conversion_over_the_time_limit_is_stopped(monkeypatch):
    monkeypatch.setattr(converter, "TIME_LIMIT_SECONDS", 0.05)
    status, body = converter.convert_isolated(MANY_CIRCLES.encode(), title="a.ai")
    assert (status, json.loads(body)) == (422, {"detail": converter.TOO_SLOW})


def test_a_conversion_over_the_memory_limit_is_stopped():
    # in a fresh interpreter: the limit counts address space above the parent's, and a
    # process that already freed a lot (like this test session) lends that space back
    script = (
        "import django, json; django.setup()\n"
        "from exports import converter\n"
        "from tests.exports.test_converter import MANY_CIRCLES\n"
        "converter.MEMORY_LIMIT_BYTES = 4 * 1024 * 1024\n"
        "status, body = converter.convert_isolated(MANY_CIRCLES.encode(), title='a.ai')\n"
        "print(json.dumps([status, json.loads(body)]))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script],
        cwd=settings.BASE_DIR,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings"},
    )
    assert json.loads(result.stdout.splitlines()[-1]) == [422, {"detail": converter.TOO_BIG}]


def test_an_unexpected_error_is_500_and_the_next_conversion_works(monkeypatch):
    def broken(svg, *, title):
        raise KeyError("a bug")

    monkeypatch.setattr(converter, "convert", broken)
    status, body = converter.convert_isolated(b"<svg/>", title="a.ai")
    assert (status, json.loads(body)) == (500, {"detail": "conversion failed"})
    monkeypatch.undo()
    assert converter.convert_isolated(svg_document("").encode(), title="a.ai")[0] == 200
