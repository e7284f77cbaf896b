"""Poster templates: the five fixed ones first, in the spec's order, then staff-added ones."""

from django.urls import path
from drf_spectacular.utils import extend_schema
from rest_framework.decorators import api_view
from rest_framework.response import Response

from wordclouds.models import Template
from wordclouds.serializers.assets import TemplateSerializer


@extend_schema(responses=TemplateSerializer(many=True))
@api_view(["GET"])
def templates(request):
    ordered = Template.objects.order_by("-builtin", "position", "id")
    return Response(TemplateSerializer(ordered, many=True).data)


urlpatterns = [path("templates", templates, name="templates")]
