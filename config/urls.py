"""Where a request finds its handler: the root of the routes, not every route.

1. The ASGI application (config/asgi.py) answers the four paths of `in_front_of_django` below
   before Django, on the event loop (core/endpoints.py says why); a CORS preflight of them
   still goes to Django.
2. Django tries `urlpatterns` in order and the first route that matches answers. The admin,
   the metrics, the translations and the API's docs are routed here; each `include` brings a
   list of routes from elsewhere: `exports/pdf/api.py` and `exports/laser/api.py` (a job's
   drawn files, a project's PDF), `wordclouds/urls.py` and `commerce/urls.py` (each includes
   its API areas, `<app>/api/<area>.py`, whose `urlpatterns` hold the routes),
   `exports/urls.py` (the .ai converter), and the pages (`wordclouds/pages.py`,
   `commerce/pages.py`).

Order matters where one route's path would also match another's: the job files drawn on
request (`jobs/<id>/files/pdf`, `dxf`, `laser.svg`) come before the stored ones'
`jobs/<id>/files/<kind>`, so exports' lists are included first; `jobs/size-advice` comes
before `jobs/<id>` (wordclouds/api/jobs.py). Every route has a name, unique in the service.
tests/test_routes.py fails when a route is answered by another one before it, or has no name.
The API's routes are listed in its schema (`/api/schema/`, docs/api.md)."""

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

# The requests each throttle scope counts (core/throttles.py; its rates are THROTTLE_RATES,
# docs/settings.md "Throttles"): (method, route) as the metrics name a route, a HEAD counted as
# its GET. tests/test_throttles.py checks that each names a route.
JOB = "/api/jobs/<str:job_id>"
throttled = {
    # jobs: work queued or checked for a job
    ("POST", "/api/jobs"): "jobs",
    ("POST", f"{JOB}/revisions"): "jobs",
    ("POST", "/api/proofs/<str:token>/revision"): "jobs",
    ("POST", "/api/name-lists/preview"): "jobs",
    ("POST", "/api/jobs/size-advice"): "jobs",
    ("POST", "/api/jobs/regions-preview"): "jobs",
    # exports: files drawn on request in a heavy child
    ("GET", f"{JOB}/custom.svg"): "exports",
    ("POST", f"{JOB}/analyze-line-spacing"): "exports",
    ("GET", f"{JOB}/files/pdf"): "exports",
    ("GET", f"{JOB}/files/dxf"): "exports",
    ("GET", f"{JOB}/files/laser.svg"): "exports",
    ("GET", "/api/projects/<str:project_id>/render.png"): "exports",
    ("GET", "/api/projects/<str:project_id>/render.svg"): "exports",
    ("GET", "/api/projects/<str:project_id>/render.pdf"): "exports",
    ("POST", "/api/exports/pdf"): "exports",
    ("POST", "/api/exports/ai"): "exports",
    # login: both logins, right or wrong
    ("POST", "/api/login"): "login",
    ("POST", "/api/auth/login"): "login",
    # lookups: what tells where a name is on a poster
    ("GET", "/api/jobs/<job_id>/locations"): "lookups",
    ("GET", "/api/jobs/<job_id>/find"): "lookups",
    ("GET", f"{JOB}/tiles"): "lookups",
    ("GET", f"{JOB}/tiles/<int:level>/<int:column>_<int:row>.jpg"): "lookups",
    ("GET", f"{JOB}/words"): "lookups",
}

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
    # Before the job files' `files/<kind>` (wordclouds.urls): `files/pdf`, `files/dxf`,
    # `files/laser.svg` are drawn, not stored.
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
