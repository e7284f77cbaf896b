from django.urls import path

from exports.views import AiExportView

urlpatterns = [
    path("exports/ai", AiExportView.as_view(), name="exports-ai"),
]
