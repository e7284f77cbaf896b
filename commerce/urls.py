from django.urls import include, path

# One module per area under commerce/api/: its views and its urlpatterns.
urlpatterns = [
    path("", include(f"commerce.api.{area}"))
    for area in ("auth", "products", "addresses", "design_lists", "orders")
]
