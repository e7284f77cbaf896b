"""GET /api/jobs/<id>/files/<kind>?inline=1: the artifact for a browser to show."""

import pytest

from tests.errors import refusal


@pytest.mark.django_db
def test_inline_serves_png_and_svg_for_showing(api, finished_job):
    job_id = finished_job()

    for kind, content_type in (("png", "image/png"), ("svg", "image/svg+xml")):
        response = api.get(f"/api/jobs/{job_id}/files/{kind}?inline=1")
        assert response.status_code == 200
        assert response["Content-Type"] == content_type
        assert response["Content-Disposition"].startswith("inline;")
        assert "default-src 'none'" in response["Content-Security-Policy"]
        b"".join(response.streaming_content)

    attachment = api.get(f"/api/jobs/{job_id}/files/png")
    assert attachment["Content-Disposition"].startswith("attachment;")
    b"".join(attachment.streaming_content)


@pytest.mark.django_db
def test_inline_other_than_0_or_1_is_400(api, finished_job):
    job_id = finished_job()

    response = api.get(f"/api/jobs/{job_id}/files/png?inline=yes")

    assert response.status_code == 400
    assert refusal(response) == "inline must be 0 or 1"
