"""View bases every app's API shares, and the HTML 500 page."""

from django.http import HttpResponseServerError
from django.template import loader
from rest_framework.parsers import JSONParser
from rest_framework.views import APIView

from core.request_ids import request_id_current


class JsonApiView(APIView):
    """A view whose bodies are JSON only (the schema then lists no form types for it)."""

    parser_classes = [JSONParser]


def server_error(request):
    """The HTML 500 page with the request's id (Django's own renders without a context)."""
    body = loader.render_to_string("500.html", {"request_id": request_id_current()})
    return HttpResponseServerError(body)
