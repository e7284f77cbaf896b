from django.urls import include, path

# One module per area under wordclouds/api/: its views and its urlpatterns.
urlpatterns = [
    path("", include(f"wordclouds.api.{area}"))
    for area in (
        "jobs",
        "name_lists",
        "lookup",
        "tiles",
        "login",
        "fonts",
        "templates",
        "assets",
        "projects",
    )
]
