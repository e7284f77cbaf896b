"""Every route of the service. Django answers `urlpatterns`; the four paths of
`in_front_of_django` are answered before Django, on the event loop, by the ASGI application
(config/asgi.py, core/endpoints.py says why): a CORS preflight of them still comes here."""

from django.contrib import admin
from django.urls import include, path
from django.utils import timezone
from django.views.decorators.http import last_modified
from django.views.i18n import JavaScriptCatalog
from drf_spectacular.views import SpectacularAPIView

from core.api_docs import RedocView, SwaggerView
from core.metrics import metrics_view
from wordclouds.api.health import health
from wordclouds.api.job_events import job_events
from wordclouds.api.lookup_front import find, locations

# The catalog changes only with a deployment: browsers ask again with If-Modified-Since and
# get a 304 (base.html puts the language in its address, so each language is cached apart).
STARTED = timezone.now()
catalog = last_modified(lambda request: STARTED)(JavaScriptCatalog.as_view())

in_front_of_django = [
    # (path pattern, methods, ASGI endpoint)
    (r"/api/health", ("GET", "HEAD"), health),
    (r"/api/jobs/(?P<job_id>[^/]+)/events", ("GET",), job_events),
    (r"/api/jobs/(?P<job_id>[^/]+)/locations", ("GET", "HEAD"), locations),
    (r"/api/jobs/(?P<job_id>[^/]+)/find", ("GET", "HEAD"), find),
]

urlpatterns = [
    path("admin/", admin.site.urls),
    path("metrics", metrics_view, name="metrics"),
    # The language switch on every page (POST, Django's set_language) and the pages' scripts'
    # translations (window.gettext), both under docs/i18n.md.
    path("i18n/", include("django.conf.urls.i18n")),
    path("jsi18n/", catalog, name="javascript-catalog"),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SwaggerView.as_view(url_name="schema"), name="api-docs"),
    path("api/redoc/", RedocView.as_view(url_name="schema"), name="api-redoc"),
    # Before the job files' `files/<kind>`: `files/pdf`, `files/dxf`, `files/laser.svg` are
    # drawn, not stored.
    path("api/", include("exports.pdf.api")),
    path("api/", include("exports.laser.api")),
    path("api/", include("wordclouds.urls")),
    path("api/", include("commerce.urls")),
    path("api/", include("exports.urls")),
    path("", include("wordclouds.pages")),
    path("", include("commerce.pages")),
]

# The HTML 500 page shows the request's id (core/request_ids.py); the 404 page gets it from
# the template context.
handler500 = "core.views.server_error"
