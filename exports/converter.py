"""One conversion, SVG bytes to Illustrator bytes, run in a forked child with a hard memory
and time limit, so that no input can take the converter down with it."""
import json
import logging
import os
import resource
import select
import signal
import time

from config.errors import ServiceError
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
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read_end)
        _child(svg, title, write_end)
    os.close(write_end)
    try:
        output = _read_until(read_end, time.monotonic() + TIME_LIMIT_SECONDS)
    finally:
        os.close(read_end)
        _reap(pid)
    if output is None:
        return 422, _detail(TOO_SLOW)
    status_line, _, body = output.partition(b"\n")
    if not status_line.isdigit():
        return 422, _detail(TOO_BIG)
    return int(status_line), body


def _child(svg: bytes, title: str, write_end: int):
    """Runs in the forked child: converts, reports through the pipe, and always exits
    here, whatever happened (the child must never return into the server's code)."""
    try:
        status, body = _convert_limited(svg, title)
        report = memoryview(b"%d\n" % status + body)
        while report:
            report = report[os.write(write_end, report):]
    finally:
        os._exit(0)


def _convert_limited(svg: bytes, title: str) -> tuple[int, bytes]:
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    with open("/proc/self/statm") as statm:
        current = int(statm.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    limit = current + MEMORY_LIMIT_BYTES
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    outcome = None
    try:
        resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
        outcome = 200, convert(svg, title=title)
    except ServiceError as error:
        outcome = error.status_code, _detail(error.detail)
    except (MemoryError, RecursionError):
        pass
    except Exception:  # a bug, not the input's fault: logged, answered 500, the server goes on
        logger.exception("conversion failed")
        outcome = 500, _detail("conversion failed")
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))  # room to report
    return outcome or (422, _detail(TOO_BIG))


def _read_until(fd: int, deadline: float) -> bytes | None:
    chunks = []
    while True:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return None
        ready, _, _ = select.select([fd], [], [], remaining)
        if not ready:
            return None
        chunk = os.read(fd, 1 << 20)
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)


def _reap(pid: int):
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    os.waitpid(pid, 0)


def _detail(text: str) -> bytes:
    return json.dumps({"detail": text}).encode()
