"""Waiting for what another process does in its own time (a log line, a status, a file)."""

import time


def wait_until(condition, timeout: float = 15, every: float = 0.1):
    """`condition()`'s first true value within `timeout` seconds, else its last value."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value or time.monotonic() > deadline:
            return value
        time.sleep(every)
