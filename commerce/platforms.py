"""What the two platform clients (commerce/identity.py, commerce/payments/client.py) share:
a request that times out or cannot reach the platform, and an answer that is not a JSON
object, are the platform's failure, a `BadGateway` (502) with a sentence naming the platform
and a code of its own (`<codes>_unavailable`, `<codes>_bad_answer`)."""

from dataclasses import dataclass

import httpx

from core.errors import BadGateway


@dataclass(frozen=True)
class Platform:
    name: str  # as the sentences name it: "identity platform"
    codes: str  # the error codes' prefix: "identity"


def platform_request(platform: Platform, method: str, url: str, **options) -> httpx.Response:
    """httpx.request(method, url, **options); 502 `<codes>_unavailable` when it times out or
    fails to reach the platform."""
    try:
        return httpx.request(method, url, **options)
    except httpx.TimeoutException:
        raise BadGateway(
            f"{platform.name} timed out", code=f"{platform.codes}_unavailable"
        ) from None
    except httpx.HTTPError:
        raise BadGateway(
            f"{platform.name} unreachable", code=f"{platform.codes}_unavailable"
        ) from None


def platform_json(platform: Platform, response: httpx.Response) -> dict:
    """The answer's JSON object; 502 `<codes>_bad_answer` when it is not JSON, or JSON but
    not an object."""
    try:
        body = response.json()
    except ValueError:
        raise BadGateway(
            f"{platform.name} answered HTTP {response.status_code} without JSON",
            code=f"{platform.codes}_bad_answer",
        ) from None
    if not isinstance(body, dict):
        raise BadGateway(
            f"{platform.name} answered an unexpected JSON value",
            code=f"{platform.codes}_bad_answer",
        )
    return body
