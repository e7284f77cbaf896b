"""The converter process itself: loopback only, size limit, health."""

import httpx
import pytest
from django.core.management import CommandError, call_command


@pytest.mark.parametrize("host", ["0.0.0.0", "192.168.1.10", "example.org"])
def test_runconverter_refuses_a_non_loopback_address(host):
    with pytest.raises(CommandError, match="refusing to listen on non-loopback address"):
        call_command("runconverter", host=host, port=0)


@pytest.mark.e2e
def test_the_converter_refuses_a_body_over_the_limit_before_reading_it(converter, settings):
    response = httpx.post(
        f"{converter}/convert", content=b" " * (settings.SVG_EXPORT_MAX_BYTES + 1)
    )
    assert response.status_code == 413
    assert response.json() == {"detail": "svg exceeds 25 MB"}
    assert httpx.get(f"{converter}/health").json() == {"status": "ok"}


@pytest.mark.e2e
def test_unknown_paths_are_404(converter):
    assert httpx.get(f"{converter}/convert").status_code == 404
    assert httpx.post(f"{converter}/other", content=b"x").status_code == 404
