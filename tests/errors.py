"""An API error as the tests check it: the body is `{"detail", "code"}`, the code declared in
core/error_codes.py with the answer's status (docs/api.md, "Error codes")."""

from core.error_codes import REGISTRY


def refusal(response) -> str:
    """The `detail` of an error answer (an httpx, Django or Playwright response), once its body's shape and code are checked."""
    body = response.json()
    status = getattr(response, "status_code", None) or response.status  # httpx/Django, Playwright
    assert set(body) == {"detail", "code"}, body
    declared = REGISTRY.get(body["code"])
    assert declared is not None, f"code {body['code']!r} is not in core/error_codes.py"
    assert declared.status == status, (body, status)
    return body["detail"]
