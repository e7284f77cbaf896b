"""Process helpers shared by the long-running commands (runall, runcluster), the tests' real
processes, the benchmarks and the deploy check: the web process's command, the addresses a
daphne command line listens on, waiting for its health, stopping on signals, killing a whole
session, a free port."""

import os
import random
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx
from daphne.cli import DEFAULT_HOST, CommandLineInterface


def web_command(host: str, port: int) -> list[str]:
    """The web process: daphne serving the ASGI application (config/asgi.py), without its
    access log (`-v 0`): the application logs each request itself, with its id
    (core/request_ids.py)."""
    return [
        *[sys.executable, "-m", "daphne", "-v", "0", "-b", host, "-p", str(port)],
        "config.asgi:application",
    ]


def web_listens_on(argv: list[str]) -> list[str]:
    """The addresses the daphne command line `argv` (this process's `sys.argv`) listens on:
    its `-b` host (daphne's default, loopback, without one), each endpoint string's interface
    (all addresses without one), and `unix socket` or `file descriptor`, whose reach this
    process cannot see. [] when `argv` is not daphne's (the test process importing the
    application)."""
    program = Path(argv[0]) if argv else Path()
    if "daphne" not in (program.name, program.parent.name):
        return []
    options, _ = CommandLineInterface().parser.parse_known_args(argv[1:])
    hosts = [options.host] if options.host else []
    for endpoint in options.socket_strings:
        interface = re.search(r"interface=([^:]+)", endpoint.replace("\\:", "%3A"))
        hosts.append(interface.group(1).replace("%3A", ":") if interface else "0.0.0.0")
    if options.unix_socket:
        hosts.append("unix socket")
    if options.file_descriptor is not None:
        hosts.append("file descriptor")
    return hosts or [DEFAULT_HOST]


def health_answered(
    base_url: str,
    *,
    seconds: float,
    statuses: tuple[int, ...] = (200,),
    web: subprocess.Popen | None = None,
) -> bool:
    """Asks `base_url`/api/health until it answers with one of `statuses` (True), or the web
    process exits or `seconds` pass (False)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if web is not None and web.poll() is not None:
            return False
        try:
            if httpx.get(f"{base_url}/api/health", timeout=2).status_code in statuses:
                return True
        except httpx.TransportError:
            pass
        time.sleep(0.1)
    return False


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


def free_port(host: str = "127.0.0.1") -> int:
    """A TCP port free on ``host`` now (loopback unless told), chosen at random below the
    kernel's range for outgoing connections: a port from that range (the OS's choice for
    port 0) can be taken by a connection between this choice and the bind of the process
    it is for."""
    try:
        with open("/proc/sys/net/ipv4/ip_local_port_range") as ranges:
            lowest_outgoing = int(ranges.read().split()[0])
    except OSError:
        lowest_outgoing = 32768
    while True:
        port = random.randrange(10000, lowest_outgoing)
        with socket.socket() as sock:
            try:
                sock.bind((host, port))
            except OSError:
                continue
            return port
