"""Heavy work in a forked child with a hard time and memory limit, so that no request can
stall the process that serves the others (the web server, the converter): the parent only
waits on a pipe, without the GIL, and kills the child at the time limit."""

import ctypes
import gc
import logging
import os
import pickle
import resource
import select
import signal
import threading
import time
from collections.abc import Callable
from contextlib import contextmanager

from django.conf import settings
from django.db import connections

from core.errors import ServiceError, Unavailable, Unprocessable

logger = logging.getLogger(__name__)

# Children run at this niceness: on a busy machine the process that serves every other
# request (health checks, lookups, event streams) gets the CPU before the heavy work does.
CHILD_NICENESS = 10
PR_SET_PDEATHSIG = 1  # Linux prctl option: a signal for the process when its parent dies


class Limits:
    """A time limit, an address-space limit added to the parent's, the answers when either
    is reached, and the semaphore that bounds how many children run at once (None: the
    caller bounds that itself), waited for at most `wait_seconds` (then 503 `busy`)."""

    def __init__(
        self,
        *,
        seconds: float,
        memory_bytes: int,
        too_slow: str,
        too_big: str,
        slots: threading.Semaphore | None = None,
        wait_seconds: float | None = None,
        busy: str = "",
    ):
        self.seconds = seconds
        self.memory_bytes = memory_bytes
        self.too_slow = too_slow
        self.too_big = too_big
        self.slots = slots
        self.wait_seconds = wait_seconds
        self.busy = busy


_heavy_slots = None
# Held while this process forks with the garbage collector paused (_forked): one fork at a
# time, so that one thread's fork never resumes collection while another's is under way.
_forking = threading.Lock()


def run_heavy(what: str, function: Callable, *args, **kwargs):
    """run_isolated with the web process's limits for heavy requests (HEAVY_* settings);
    `what` names the work in the answers (`render.png takes longer than 30 s`)."""
    global _heavy_slots
    if _heavy_slots is None:
        _heavy_slots = threading.BoundedSemaphore(settings.HEAVY_CONCURRENCY)
    seconds, megabytes = settings.HEAVY_TIME_LIMIT_SECONDS, settings.HEAVY_MEMORY_LIMIT_MB
    wait = settings.HEAVY_WAIT_SECONDS
    limits = Limits(
        seconds=seconds,
        memory_bytes=megabytes * 1024 * 1024,
        slots=_heavy_slots,
        wait_seconds=wait,
        too_slow=f"{what} takes longer than {seconds:g} s; ask for less work",
        too_big=f"{what} needs more than {megabytes} MB of memory or nests too deeply",
        busy=f"every heavy-work slot stayed busy for {wait:g} s; try again shortly",
    )
    return run_isolated(limits, function, *args, **kwargs)


def run_isolated(limits: Limits, function: Callable, *args, **kwargs):
    """function(*args, **kwargs) in a forked child: its result (picklable), or the
    ServiceError it raised, raised here. Over the time limit: Unprocessable(too_slow); out of
    memory or recursion: Unprocessable(too_big); anything else is a bug, logged in the
    child and raised here as RuntimeError. With no slot free within wait_seconds:
    Unavailable(busy), 503 with Retry-After."""
    with _slot(limits):
        read_end, write_end = os.pipe()
        pid = _forked()
        if pid == 0:
            os.close(read_end)
            _child(limits, write_end, function, args, kwargs)
        os.close(write_end)
        try:
            output = _read_until(read_end, time.monotonic() + limits.seconds)
        finally:
            os.close(read_end)
            _reap(pid)
    if output is None:
        raise Unprocessable(limits.too_slow, code="too_slow")
    if not output:  # killed by the kernel, or could not even report
        raise Unprocessable(limits.too_big, code="too_big")
    kind, value = pickle.loads(output)
    if kind == "result":
        return value
    if kind == "error":
        raise value
    if kind == "too big":
        raise Unprocessable(limits.too_big, code="too_big")
    raise RuntimeError(f"isolated {function.__name__} failed")


@contextmanager
def _slot(limits: Limits):
    """One of the limits' slots held (none to hold without slots)."""
    if limits.slots is None:
        yield
        return
    if not limits.slots.acquire(timeout=limits.wait_seconds):
        raise Unavailable(limits.busy, code="heavy_work_busy", retry_after=limits.wait_seconds)
    try:
        yield
    finally:
        limits.slots.release()


def _forked() -> int:
    """os.fork(), the child's garbage collector confined to what the child allocates.

    The parent serves requests on many threads; a lock another thread held at the fork (the
    SQLite allocator's, say, while it ran a query) stays held in the child, with no thread
    to release it. The objects the child inherits include garbage of those threads, such as
    a closed connection's SQLite statements: collected in the child, their finalizers would
    wait on such a lock for ever (about one print PDF in forty did, under eight at once).
    So the collector is paused across the fork, and the child freezes what it inherited
    (gc.freeze: never collected, never finalized) before collecting again. For the same
    reason a child must not open SQLite itself: the caller reads the database first."""
    with _forking:
        collecting = gc.isenabled()
        gc.disable()
        try:
            pid = os.fork()
            if pid == 0:
                gc.freeze()
        finally:
            if collecting:
                gc.enable()
    return pid


def _child(limits: Limits, write_end: int, function, args, kwargs):
    """Runs in the forked child and always exits here: it must never return into the
    server's code, nor use or close the parent's database connections. Those are only put
    aside: released here, a PostgreSQL connection would say goodbye to the server on the
    parent's socket."""
    try:
        os.nice(CHILD_NICENESS)
        inherited = []
        for connection in connections.all(initialized_only=True):
            inherited.append(connection.connection)
            connection.connection = None
        _write_all(write_end, pickle.dumps(_call_limited(limits, function, args, kwargs)))
    finally:
        os._exit(0)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def _call_limited(limits: Limits, function, args, kwargs) -> tuple[str, object]:
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    limit = _used_memory() + limits.memory_bytes
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    outcome = ("too big", None)
    try:
        resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
        outcome = ("result", function(*args, **kwargs))
    except ServiceError as error:
        outcome = ("error", type(error)(error.detail, error.code))
    except (MemoryError, RecursionError):
        pass
    except Exception:  # a bug, not the input's fault: logged, and the parent goes on
        logger.exception("isolated %s failed", function.__name__)
        outcome = ("bug", None)
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))  # room to report
    return outcome


def in_two_processes(function: Callable, first, second) -> tuple:
    """(function(first), function(second)), the second computed at the same time by a forked
    helper: for independent halves of heavy work in a child of run_isolated, which on a
    quiet server is alone on the machine's two cores.

    The two share this process's memory limit, half of the room left each (each half of the
    work needs about half the memory), and the helper dies with this process, which
    run_isolated kills at the time limit. Should the helper fail, this process computes the
    second half itself with all the room again, so that an error (out of memory, say) is
    this process's, answered as before; should the first half fail, the helper is killed at
    once."""
    with _memory_room_halved():
        read_end, write_end = os.pipe()
        parent = os.getpid()
        pid = os.fork()
        if pid == 0:
            os.close(read_end)
            _helper(parent, write_end, function, second)
        os.close(write_end)
        try:
            with os.fdopen(read_end, "rb") as pipe:
                first_result = function(first)
                report = pipe.read()
        except BaseException:
            os.kill(pid, signal.SIGKILL)  # this half failed: the other is not needed
            raise
        finally:
            _, status = os.waitpid(pid, 0)
    second_result = pickle.loads(report) if status == 0 else function(second)
    return first_result, second_result


@contextmanager
def _memory_room_halved():
    """The address-space limit (_call_limited sets it) lowered to half the room left under
    it, for this process and those it forks meanwhile: two processes sharing work take no
    more than it had. Without a limit, nothing changes."""
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    if soft == resource.RLIM_INFINITY:
        yield
        return
    used = _used_memory()
    resource.setrlimit(resource.RLIMIT_AS, (used + max(0, soft - used) // 2, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


def _used_memory() -> int:
    """This process's address space in bytes."""
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")


def _helper(parent: int, write_end: int, function: Callable, work):
    """Runs in in_two_processes' forked helper and always exits here: computes its half and
    writes it, pickled, to the pipe; exit status 0 when all of it was written."""
    status = 1
    try:
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
        if os.getppid() == parent:  # else this process's parent died before the line above
            _write_all(write_end, pickle.dumps(function(work)))
            status = 0
    finally:
        os._exit(status)


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
