"""Starts the whole service in the foreground: the daphne web server, the django-q2 worker
and the export converter. Ctrl-C (or SIGTERM) stops all of them; if one dies, the rest stop
too, so a half-running service is never left behind."""
import os
import signal
import subprocess
import sys
import time

from django.conf import settings
from django.core.management import get_commands
from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = "Run web (daphne), worker (qcluster) and converter together in the foreground."

    def add_arguments(self, parser):
        parser.add_argument("--port", type=int, default=int(os.environ.get("PORT", 8000)))
        parser.add_argument("--host", default=os.environ.get("HOST", "127.0.0.1"))

    def handle(self, *args, host, port, **options):
        manage = [sys.executable, str(settings.BASE_DIR / "manage.py")]
        commands = {
            "web": [sys.executable, "-m", "daphne", "-b", host, "-p", str(port),
                    "config.asgi:application"],
            "worker": [*manage, "qcluster"],
        }
        if "runconverter" in get_commands():
            commands["converter"] = [*manage, "runconverter"]

        children = {
            name: subprocess.Popen(argv, cwd=settings.BASE_DIR, start_new_session=True)
            for name, argv in commands.items()
        }
        self.stdout.write(f"serving on http://{host}:{port}/api/ ({', '.join(children)}); Ctrl-C stops")

        stopping = False

        def stop(signum, frame):
            nonlocal stopping
            stopping = True

        signal.signal(signal.SIGINT, stop)
        signal.signal(signal.SIGTERM, stop)
        while not stopping:
            exited = [name for name, child in children.items() if child.poll() is not None]
            if exited:
                self.stderr.write(f"{', '.join(exited)} exited; stopping the rest")
                break
            time.sleep(0.5)
        self._stop(children)

    def _stop(self, children):
        # SIGTERM to each leader, which stops its own processes: SIGTERM to qcluster's whole
        # group can kill a process holding a shared lock and hang the cluster. Then SIGKILL
        # whatever is left of each group.
        for child in children.values():
            if child.poll() is None:
                child.terminate()
        deadline = time.monotonic() + 10
        for child in children.values():
            try:
                child.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                pass
            try:
                os.killpg(child.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            child.wait()
