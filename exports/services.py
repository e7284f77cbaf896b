"""Export to the legacy Illustrator format: the web side checks the request and forwards
the SVG to the converter process, which is reachable on loopback only."""

import re
import unicodedata
from dataclasses import dataclass

import httpx
from django.conf import settings

from core.errors import BadGateway, InvalidInput, ServiceError, TooLarge, Unprocessable
from exports.converter import TIME_LIMIT_SECONDS

SVG_REQUIRED = "svg is required"
SVG_TOO_LARGE = "svg exceeds 25 MB"
AI_CONTENT_TYPE = "application/illustrator"
CONVERTER_UNAVAILABLE = "converter unavailable"
DEFAULT_FILENAME = "wordcloud"
_UNSAFE_RE = re.compile(r'[\x00-\x1f\x7f"\\/:*?<>|;]+')
_XML_ENCODING_RE = re.compile(r"""^(\s*<\?xml[^>]*?\bencoding\s*=\s*)["'][^"']*["']""")
_ERRORS = {400: InvalidInput, 413: TooLarge, 422: Unprocessable}


@dataclass(frozen=True)
class AiFile:
    content: bytes
    filename: str


def request_too_large(content_length: int) -> bool:
    """A JSON body whose svg cannot fit the limit even after JSON escaping is refused
    before it is read: the limit plus room for escaping (Django's own body limit)."""
    return content_length > max(settings.DATA_UPLOAD_MAX_MEMORY_SIZE, settings.SVG_EXPORT_MAX_BYTES)


def ai_filename(raw: object) -> str:
    """The download name: the last path component, without control characters, quotes or
    separators, at most 200 characters, ending in `.ai`."""
    return export_stem(raw, ".ai") + ".ai"


def export_stem(raw: object, extension: str) -> str:
    """A client's file name made safe, without `extension` (any case): the last path
    component, control characters, quotes and separators as `_`, at most 200 characters."""
    name = unicodedata.normalize("NFC", raw if isinstance(raw, str) else "")
    name = re.split(r"[/\\]", name)[-1]
    name = _UNSAFE_RE.sub("_", name).strip(" ._")
    if name.lower().endswith(extension):
        name = name[: -len(extension)].rstrip(" ._")
    return name[:200] or DEFAULT_FILENAME


def svg_document(svg: object) -> bytes:
    """The SVG of a JSON body as UTF-8 bytes: 400 `svg is required`, 413 over 25 MB."""
    if not isinstance(svg, str) or not svg.strip():
        raise InvalidInput(SVG_REQUIRED, code="svg_required")
    # The JSON string is already text: a declared encoding (GB2312, Latin-1...) no longer
    # holds for the UTF-8 bytes sent on, and would make the parser misread them.
    data = _XML_ENCODING_RE.sub(r'\1"UTF-8"', svg, count=1).encode("utf-8")
    if len(data) > settings.SVG_EXPORT_MAX_BYTES:
        raise TooLarge(SVG_TOO_LARGE, code="svg_too_large")
    return data


def ai_export(*, svg: object, filename: object) -> AiFile:
    """The SVG converted by the converter service; its 400/413/422 pass through with their
    detail, and an unreachable converter is 502 `converter unavailable`."""
    data = svg_document(svg)
    name = ai_filename(filename)
    url = f"http://{settings.CONVERTER_HOST}:{settings.CONVERTER_PORT}/convert"
    try:
        response = httpx.post(
            url,
            params={"filename": name},
            content=data,
            headers={"Content-Type": "image/svg+xml"},
            timeout=httpx.Timeout(TIME_LIMIT_SECONDS + 30, connect=5),
        )
    except httpx.TransportError:
        raise BadGateway(CONVERTER_UNAVAILABLE, code="converter_unavailable") from None
    if response.status_code == 200:
        return AiFile(response.content, name)
    raise _converter_error(response)


def _converter_error(response: httpx.Response) -> ServiceError:
    try:
        detail = response.json()["detail"]
    except (ValueError, KeyError, TypeError):
        return BadGateway(CONVERTER_UNAVAILABLE, code="converter_unavailable")
    error = _ERRORS.get(response.status_code, BadGateway)
    if error is BadGateway:
        return BadGateway(f"converter failed: {detail}", code="converter_failed")
    return error(detail)  # the converter's own refusal, with its status's code
