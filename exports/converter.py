"""One conversion, SVG bytes to Illustrator bytes, run in a forked child with a hard memory
and time limit (core/isolated.py), so that no input can take the converter down with it."""

import json
import logging

from core.errors import ServiceError
from core.isolated import Limits, run_isolated
from exports.ai_writer import write_ai
from exports.svg_reader import read_svg

logger = logging.getLogger(__name__)
TIME_LIMIT_SECONDS = 60.0
MEMORY_LIMIT_BYTES = 1536 * 1024 * 1024  # address space a conversion may add to the server's
TOO_SLOW = "svg takes longer than 60 s to convert"
TOO_BIG = "svg needs more memory than the converter allows"


def convert(svg: bytes, *, title: str) -> bytes:
    """The Illustrator file for an SVG document; raises the reader's 400/422 errors."""
    return write_ai(read_svg(svg), title=title)


def convert_isolated(svg: bytes, *, title: str) -> tuple[int, bytes]:
    """(status, body): 200 and the file, or an error status and a JSON `{"detail"}` body."""
    # The server bounds concurrent conversions itself (ConverterServer.slots).
    limits = Limits(
        seconds=TIME_LIMIT_SECONDS,
        memory_bytes=MEMORY_LIMIT_BYTES,
        too_slow=TOO_SLOW,
        too_big=TOO_BIG,
    )
    try:
        return 200, run_isolated(limits, convert, svg, title=title)
    except ServiceError as error:
        return error.status_code, _detail(error.detail)
    except RuntimeError:  # a bug, logged by the child: answered 500, the server goes on
        return 500, _detail("conversion failed")


def _detail(text: str) -> bytes:
    return json.dumps({"detail": text}).encode()
