"""The Content-Security-Policy of every answer: the pages run only the service's own scripts
and styles and show only its own images (and those of its file store, where downloads are
redirected). A view that needs another policy (the API docs pages) sets its own header first."""

from urllib.parse import urlsplit

from django.conf import settings


def content_security_policy() -> str:
    """The policy made from CSP_EXTRA_ORIGINS (the file store's public address)."""
    extra = " ".join(settings.CSP_EXTRA_ORIGINS)
    own = f"'self' {extra}".strip()
    return (
        "default-src 'self'; script-src 'self'; style-src 'self'; "
        f"img-src {own} data: blob:; connect-src {own}; font-src 'self' data:; "
        "object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'"
    )


def origin_of(url: str) -> str:
    """scheme://host[:port] of a URL, or '' for ''."""
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}" if parts.scheme and parts.netloc else ""


class ContentSecurityPolicyMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response
        self.policy = content_security_policy()

    def __call__(self, request):
        response = self.get_response(request)
        response.headers.setdefault("Content-Security-Policy", self.policy)
        return response
