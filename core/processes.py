"""Process helpers shared by the long-running commands (runall, runcluster), the tests' real
processes and the deploy check: stopping on signals, killing a whole session, a free port."""

import os
import signal
import socket
import threading


def stop_on_signals() -> threading.Event:
    """An event set by SIGINT or SIGTERM: the command ends its loop and stops its children."""
    stop = threading.Event()
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, lambda *_: stop.set())
    return stop


def kill_session(session_id: int) -> None:
    """SIGKILL every process of a session (a child started with start_new_session, and the
    process groups it made inside it)."""
    for pid in session_members(session_id):
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


def session_members(session_id: int) -> list[int]:
    members = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as stat:
                fields = stat.read().rpartition(")")[2].split()
        except OSError:
            continue
        if int(fields[3]) == session_id:  # the fields after "(comm)": state, ppid, pgrp, session
            members.append(int(entry))
    return members


def free_port() -> int:
    """A TCP port free on loopback now (the OS's choice)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]
