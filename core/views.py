"""View bases every app's API shares."""

from rest_framework.parsers import JSONParser
from rest_framework.views import APIView


class JsonApiView(APIView):
    """A view whose bodies are JSON only (the schema then lists no form types for it)."""

    parser_classes = [JSONParser]
