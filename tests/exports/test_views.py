"""POST /api/exports/ai through the web API, forwarding to the real converter process."""

import pytest

from tests.errors import refusal
from tests.exports.samples import FORBIDDEN, HAND_MADE, svg_document

SQUARE = svg_document('<rect x="10" y="10" width="50" height="50" fill="#336699"/>')
BILLION_LAUGHS = """<?xml version="1.0"?>
<!DOCTYPE svg [
  <!ENTITY a "lol">
  <!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">
  <!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">
  <!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;">
  <!ENTITY e "&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;">
  <!ENTITY f "&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;">
  <!ENTITY g "&f;&f;&f;&f;&f;&f;&f;&f;&f;&f;">
  <!ENTITY h "&g;&g;&g;&g;&g;&g;&g;&g;&g;&g;">
  <!ENTITY i "&h;&h;&h;&h;&h;&h;&h;&h;&h;&h;">
]>
<svg xmlns="http://www.w3.org/2000/svg"><text x="0" y="10">&i;</text></svg>"""
LOCAL_FILE_ENTITY = """<?xml version="1.0"?>
<!DOCTYPE svg [<!ENTITY secret SYSTEM "file:///etc/passwd">]>
<svg xmlns="http://www.w3.org/2000/svg"><text x="0" y="10">&secret;</text></svg>"""
LOCAL_FILE_USE = svg_document('<use xlink:href="file:///etc/passwd#root"/>')


def export(api, svg, filename="poster", **headers):
    return api.post("/api/exports/ai", {"svg": svg, "filename": filename}, format="json", **headers)


def assert_converter_still_answers(api):
    response = export(api, SQUARE)
    assert response.status_code == 200
    assert response.content.startswith(b"%!PS-Adobe-3.0\n")


@pytest.mark.e2e
def test_export_answers_the_illustrator_file(api, converter):
    # given a valid SVG; when it is exported
    response = export(api, HAND_MADE["even-odd-holes"], filename="my poster")
    # then the legacy Illustrator file comes back as a download
    assert response.status_code == 200
    assert response["Content-Type"] == "application/illustrator"
    assert response["Content-Disposition"] == 'attachment; filename="my poster.ai"'
    lines = response.content.decode("latin-1").splitlines()
    assert lines[0] == "%!PS-Adobe-3.0"
    assert lines[1] == "%%Creator: Adobe Illustrator(R) 8.0"
    assert "*u" in lines and "1 XR" in lines and lines[-1] == "%%EOF"


@pytest.mark.e2e
def test_a_postscript_client_is_served_too(api, converter):
    response = export(api, SQUARE, HTTP_ACCEPT="application/postscript")
    assert response.status_code == 200
    assert response.content.startswith(b"%!PS-Adobe-3.0\n")


@pytest.mark.e2e
@pytest.mark.parametrize(
    "raw, header",
    [
        ('../../etc/pass"wd.AI', 'attachment; filename="pass_wd.ai"'),
        ("", 'attachment; filename="wordcloud.ai"'),
        ("词云.ai", "attachment; filename=\"__.ai\"; filename*=UTF-8''%E8%AF%8D%E4%BA%91.ai"),
    ],
)
def test_the_download_name_is_sanitised(api, converter, raw, header):
    response = export(api, SQUARE, filename=raw)
    assert response.status_code == 200
    assert response["Content-Disposition"] == header


@pytest.mark.parametrize("body", [{}, {"svg": ""}, {"svg": 12}, {"filename": "x"}])
def test_a_missing_svg_is_400_and_not_forwarded(api, counting_converter, body):
    response = api.post("/api/exports/ai", body, format="json")
    assert response.status_code == 400
    assert refusal(response) == "svg is required"
    assert counting_converter.requests == 0


@pytest.mark.e2e
@pytest.mark.parametrize("svg", ["<svg", "not xml at all", '<html xmlns="x"/>'])
def test_malformed_svg_is_400(api, converter, svg):
    response = export(api, svg)
    assert response.status_code == 400
    assert refusal(response) == "svg is not valid SVG"


@pytest.mark.e2e
@pytest.mark.parametrize("feature", sorted(FORBIDDEN))
def test_each_unsupported_feature_is_422_naming_it_and_writes_nothing(
    api, converter, media_root, feature
):
    # given an SVG that uses one feature the legacy format cannot hold
    svg = svg_document(FORBIDDEN[feature])
    # when it is exported
    response = export(api, svg)
    # then it is refused, naming the feature, and no file is made
    assert response.status_code == 422
    assert response["Content-Type"] == "application/json"
    assert response.json()["detail"] == f"svg uses unsupported content: {feature}"
    assert list(media_root.iterdir()) == []


def test_svg_over_25_mb_is_413_and_never_forwarded(api, counting_converter, settings):
    svg = SQUARE + " " * (settings.SVG_EXPORT_MAX_BYTES - len(SQUARE) + 1)
    response = export(api, svg)
    assert response.status_code == 413
    assert refusal(response) == "svg exceeds 25 MB"
    assert counting_converter.requests == 0


def test_svg_of_exactly_25_mb_is_forwarded(api, counting_converter, settings):
    svg = SQUARE + " " * (settings.SVG_EXPORT_MAX_BYTES - len(SQUARE))
    response = export(api, svg)
    assert counting_converter.requests == 1
    assert response.status_code == 502  # the stand-in answers 500 without a detail


def test_stopped_converter_is_502(api, stopped_converter):
    response = export(api, SQUARE)
    assert response.status_code == 502
    assert refusal(response) == "converter unavailable"


@pytest.mark.e2e
def test_billion_laughs_is_refused_and_the_converter_keeps_answering(api, converter):
    response = export(api, BILLION_LAUGHS)
    assert response.status_code == 422
    assert refusal(response) == "svg uses unsupported content: XML entity declarations"
    assert_converter_still_answers(api)


@pytest.mark.e2e
@pytest.mark.parametrize(
    "svg, found",
    [
        (LOCAL_FILE_ENTITY, "XML entity declarations"),
        (LOCAL_FILE_USE, "external reference"),
        (
            svg_document('<image href="file:///etc/passwd" width="5" height="5"/>'),
            "external reference, image",
        ),
    ],
)
def test_local_file_references_are_refused(api, converter, svg, found):
    response = export(api, svg)
    assert response.status_code == 422
    assert refusal(response) == f"svg uses unsupported content: {found}"
    assert b"root:" not in response.content
    assert_converter_still_answers(api)


@pytest.mark.e2e
def test_a_declared_encoding_and_the_svg_11_doctype_are_fine(api, converter):
    # given the text of a document that once was GB2312, with the SVG 1.1 DOCTYPE
    svg = (
        '<?xml version="1.0" encoding="GB2312"?>\n'
        '<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">\n'
        + svg_document('<text x="5" y="50" font-size="40">词云</text>')
    )
    # when it is exported; then the Chinese text is drawn (two glyphs, not mojibake)
    response = export(api, svg)
    assert response.status_code == 200
    body = response.content.decode("latin-1").splitlines()
    assert body.count("*u") == 1 and body.count("f") > 2
