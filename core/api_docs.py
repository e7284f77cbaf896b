"""The API's documentation pages, served with everything they load from the service itself
(drf-spectacular-sidecar), so they work with no internet."""

from drf_spectacular.utils import extend_schema
from drf_spectacular.views import SpectacularRedocView, SpectacularSwaggerSplitView


class DocsPolicy:
    """The docs pages' own Content-Security-Policy in place of the pages' strict one: the
    bundles set styles inline and ReDoc starts a worker from a blob; scripts are still the
    service's own only. It also keeps ReDoc's hard-wired Redocly logo from being fetched from
    their CDN (the sidebar then shows the link's text alone)."""

    POLICY = (
        "default-src 'self'; script-src 'self'; img-src 'self' data:; "
        "style-src 'self' 'unsafe-inline'; worker-src 'self' blob:; font-src 'self' data:"
    )

    @extend_schema(exclude=True)
    def get(self, request, *args, **kwargs):
        response = super().get(request, *args, **kwargs)
        response["Content-Security-Policy"] = self.POLICY
        return response


class RedocView(DocsPolicy, SpectacularRedocView):
    """ReDoc without Google's web fonts (its own template)."""

    template_name = "api_redoc.html"


class SwaggerView(DocsPolicy, SpectacularSwaggerSplitView):
    """Swagger UI with its start-up script served as a file (`?script`), not inline."""
