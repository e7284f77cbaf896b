"""Each conversion runs in a child process with a memory and a time limit."""
import json

from exports import converter
from tests.exports.samples import svg_document

MANY_CIRCLES = svg_document("".join(f'<circle cx="{i % 100}" cy="{i // 100}" r="3"/>' for i in range(20000)))


def test_a_conversion_answers_the_file():
    status, body = converter.convert_isolated(svg_document('<rect width="5" height="5"/>').encode(), title="a.ai")
    assert status == 200 and body.startswith(b"%!PS-Adobe-3.0\n")


def test_an_error_answers_its_status_and_detail():
    status, body = converter.convert_isolated(b"<svg", title="a.ai")
    assert (status, json.loads(body)) == (400, {"detail": "svg is not valid SVG"})


def test_a_conversion_over_the_time_limit_is_stopped(monkeypatch):
    monkeypatch.setattr(converter, "TIME_LIMIT_SECONDS", 0.05)
    status, body = converter.convert_isolated(MANY_CIRCLES.encode(), title="a.ai")
    assert (status, json.loads(body)) == (422, {"detail": converter.TOO_SLOW})


def test_a_conversion_over_the_memory_limit_is_stopped(monkeypatch):
    monkeypatch.setattr(converter, "MEMORY_LIMIT_BYTES", 4 * 1024 * 1024)
    status, body = converter.convert_isolated(MANY_CIRCLES.encode(), title="a.ai")
    assert (status, json.loads(body)) == (422, {"detail": converter.TOO_BIG})
