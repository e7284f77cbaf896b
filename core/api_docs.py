"""The API's documentation pages, served with everything they load from the service itself
(drf-spectacular-sidecar), so they work with no internet."""

from drf_spectacular.utils import extend_schema
from drf_spectacular.views import SpectacularRedocView


class RedocView(SpectacularRedocView):
    """ReDoc without Google's web fonts (its own template), and a policy that keeps the
    bundle's hard-wired Redocly logo from being fetched from their CDN (the sidebar then
    shows the link's text alone)."""

    template_name = "api_redoc.html"
    POLICY = (
        "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
        "worker-src 'self' blob:; font-src 'self' data:"
    )

    @extend_schema(exclude=True)
    def get(self, request, *args, **kwargs):
        response = super().get(request, *args, **kwargs)
        response["Content-Security-Policy"] = self.POLICY
        return response
