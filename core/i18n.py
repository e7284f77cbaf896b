"""The pages' language (docs/i18n.md). The pages, the admin and the API's documentation speak
the visitor's language; the API itself always answers in English, whatever Accept-Language
says: its bodies are data a client reads (`detail` is the contract's sentence, `code` what a
client translates), so Django REST framework's own messages must not turn Chinese under it."""

from django.middleware.locale import LocaleMiddleware
from django.utils import translation

# Under /api/ but read by people: the documentation pages and the schema they show.
DOCUMENTATION = ("/api/docs/", "/api/redoc/", "/api/schema/")


class PagesLocaleMiddleware(LocaleMiddleware):
    def process_request(self, request):
        if request.path.startswith("/api/") and not request.path.startswith(DOCUMENTATION):
            translation.activate("en")
            request.LANGUAGE_CODE = "en"
            return
        super().process_request(request)

    def process_response(self, request, response):
        if request.path.startswith("/api/") and not request.path.startswith(DOCUMENTATION):
            return response
        return super().process_response(request, response)
