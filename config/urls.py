from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from config.api_docs import RedocView

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="api-docs"),
    path("api/redoc/", RedocView.as_view(url_name="schema"), name="api-redoc"),
    path("api/", include("wordclouds.urls")),
    path("api/", include("commerce.urls")),
    path("api/", include("exports.urls")),
    path("", include("wordclouds.pages")),
    path("", include("commerce.pages")),
]
