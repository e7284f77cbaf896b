from django.urls import include, path

# One module per area under commerce/api/: its views and its urlpatterns.
urlpatterns = [
    path("", include("commerce.api.auth")),
    path("", include("commerce.api.products")),
    path("", include("commerce.api.addresses")),
    path("", include("commerce.api.design_lists")),
    path("", include("commerce.api.orders")),
    path("", include("commerce.api.production")),
    path("", include("commerce.api.payments")),
    path("", include("commerce.api.proofs")),
]
