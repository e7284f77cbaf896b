"""Ctrl-C and SIGTERM for the long-running commands (runall, runcluster)."""

import signal
import threading


def stop_on_signals() -> threading.Event:
    """An event set by SIGINT or SIGTERM: the command ends its loop and stops its children."""
    stop = threading.Event()
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, lambda *_: stop.set())
    return stop
