from django.urls import include, path

# One module per area under wordclouds/api/: its views and its urlpatterns.
urlpatterns = [
    # Every /api/jobs route: the job itself (jobs), what is looked up in its poster
    # (lookup: locations, find, occupancy_mask, custom.svg, analyze-line-spacing) and its tiles
    # (tiles), its revisions, proof and words (revisions). Its event stream, /api/jobs/<id>/events, is answered in front of Django
    # (config/urls.py).
    path("", include("wordclouds.api.jobs")),
    path("", include("wordclouds.api.revisions")),
    path("", include("wordclouds.api.lookup")),
    path("", include("wordclouds.api.tiles")),
    path("", include("wordclouds.api.name_lists")),
    path("", include("wordclouds.api.login")),
    path("", include("wordclouds.api.fonts")),
    path("", include("wordclouds.api.templates")),
    path("", include("wordclouds.api.assets")),
    path("", include("wordclouds.api.projects")),
]
