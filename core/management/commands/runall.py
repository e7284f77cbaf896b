"""Starts the whole service in the foreground: the daphne web server, the supervised
django-q2 worker (`runcluster`) and the export converter, and in local development the
stand-ins of the outside platforms. A process that dies is started again (after
RESTART_DELAY_SECONDS), so the service recovers without a manual step; Ctrl-C (or SIGTERM)
stops all of them. Bound where others reach it (`--host`/HOST not loopback) or behind TLS,
it refuses to start on a built-in secret (core/built_in_secrets.py); on loopback its start-up
line says when it uses them. It belongs to the whole service, not to one app: it starts each
app's processes by their command's name and imports none of them."""

import os
import subprocess
import sys
import time

from django.conf import settings
from django.core.management import call_command, get_commands
from django.core.management.base import BaseCommand

from core.built_in_secrets import built_in_secrets_refused, development_secrets_note
from core.metrics import multiprocess_folder_prepare, process_dead
from core.processes import kill_session, stop_on_signals, web_command

RESTART_DELAY_SECONDS = 1.0


class Command(BaseCommand):
    help = "Run web (daphne), worker (runcluster) and converter together in the foreground."

    def add_arguments(self, parser):
        parser.add_argument("--port", type=int, default=int(os.environ.get("PORT", 8000)))
        parser.add_argument("--host", default=os.environ.get("HOST", "127.0.0.1"))
        parser.add_argument(
            "--secrets-only",
            action="store_true",
            help="refuse the built-in secrets as a start would, then exit (make run, first)",
        )

    def handle(self, *args, host, port, secrets_only=False, **options):
        built_in_secrets_refused(process="runall", hosts=[host])
        if secrets_only:
            return
        manage = [sys.executable, str(settings.BASE_DIR / "manage.py")]
        commands = {
            "web": web_command(host, port),
            "worker": [*manage, "runcluster"],
        }
        if "runconverter" in get_commands():
            commands["converter"] = [*manage, "runconverter"]
        if settings.IDENTITY_STANDIN:  # local development only (commerce.E001)
            commands["identity"] = [*manage, "identity_standin"]
        if settings.WECHATPAY_STANDIN:  # local development only (commerce.E002)
            # The web process reads the key files: made before anything starts.
            call_command("wechatpay_standin", keys_only=True)
            commands["wechatpay"] = [*manage, "wechatpay_standin"]

        # Every process counts its metrics into one folder, emptied now: the web's /metrics
        # sums them (core/metrics.py). Set before any child starts; they inherit it. The
        # default folder is the port's own, so two services on one machine (the tests start
        # several at once) never empty each other's.
        os.environ["PROMETHEUS_MULTIPROC_DIR"] = multiprocess_folder_prepare(
            os.environ.get("PROMETHEUS_MULTIPROC_DIR")
            or settings.BASE_DIR / "var" / "prometheus" / str(port)
        )
        children = {name: self._spawn(argv) for name, argv in commands.items()}
        self.stdout.write(
            f"serving on http://{host}:{port}/api/ ({', '.join(children)})"
            f"{development_secrets_note()}; Ctrl-C stops"
        )

        stopping = stop_on_signals()
        while not stopping.is_set():
            for name, child in children.items():
                if child.poll() is not None and not stopping.is_set():
                    self.stderr.write(f"{name} exited ({child.returncode}); starting it again")
                    process_dead(child.pid)
                    time.sleep(RESTART_DELAY_SECONDS)
                    children[name] = self._spawn(commands[name])
            time.sleep(0.5)
        self._stop(children)

    @staticmethod
    def _spawn(argv) -> subprocess.Popen:
        return subprocess.Popen(argv, cwd=settings.BASE_DIR, start_new_session=True)

    def _stop(self, children):
        # SIGTERM to each leader, which stops its own processes; then SIGKILL whatever is
        # left of each session.
        for child in children.values():
            if child.poll() is None:
                child.terminate()
        deadline = time.monotonic() + 10
        for child in children.values():
            try:
                child.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                pass
            kill_session(child.pid)
            child.wait()
