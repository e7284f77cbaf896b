"""Waiting for what another process does in its own time (a log line, a status, a file)."""

import time

import psycopg


def wait_until(condition, timeout: float = 15, every: float = 0.1):
    """`condition()`'s first true value within `timeout` seconds, else its last value."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value or time.monotonic() > deadline:
            return value
        time.sleep(every)


def wait_for_lock_waiters(database_url: str, waiters: int) -> None:
    """Until `waiters` sessions of PostgreSQL's database wait for a lock (at most 20 s)."""
    with psycopg.connect(database_url, autocommit=True) as observer:
        wait_until(
            lambda: observer.execute(
                "SELECT count(*) FROM pg_stat_activity"
                " WHERE datname = current_database() AND wait_event_type = 'Lock'"
            ).fetchone()[0]
            >= waiters,
            timeout=20,
            every=0.05,
        )
