"""Content negotiation for the API: an Accept header naming what a download serves
(`image/png`, `image/svg+xml`, `application/octet-stream`, ...) never gets 406."""

from rest_framework.exceptions import NotAcceptable
from rest_framework.negotiation import DefaultContentNegotiation


class AnyAccept(DefaultContentNegotiation):
    """Files are written by the views themselves, not by DRF's renderers, so any Accept is
    served; JSON answers (errors included) are JSON whatever the client accepts."""

    def select_renderer(self, request, renderers, format_suffix=None):
        try:
            return super().select_renderer(request, renderers, format_suffix)
        except NotAcceptable:
            return renderers[0], renderers[0].media_type
