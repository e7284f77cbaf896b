"""The built-in SECRET_KEY and admin password serve a loopback development run only
(docs/settings.md, "Built-in secrets"): anyone who read the code could forge admin and
end-user tokens with the key, or log in with the password. A process others can reach —
bound to an address that is not loopback, or behind TLS (`HTTPS=1`) — refuses to start while
either is in use: the web process (config/asgi.py), the worker (`runcluster`) and `runall`."""

import ipaddress
from collections.abc import Iterable

from django.conf import settings

LOOPBACK_NAMES = {"localhost"}


def is_loopback(host: str) -> bool:
    """`host` (a name, an address, an IPv6 address in brackets) is this machine's loopback."""
    host = host.strip().strip("[]").lower()
    if host in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def built_in_secrets() -> list[str]:
    """The names of the secrets still at their built-in values."""
    defaults = {
        "SECRET_KEY": settings.SECRET_KEY_DEFAULT,
        "ORDERS_ADMIN_PASSWORD": settings.ORDERS_ADMIN_PASSWORD_DEFAULT,
    }
    return [name for name, default in defaults.items() if getattr(settings, name) == default]


def built_in_secrets_refused(*, process: str, hosts: Iterable[str]) -> None:
    """Ends the process (SystemExit, status 1, one line naming each setting) when others can
    reach it — HTTPS on, or one of `hosts` (the addresses it listens on) not loopback — while
    a built-in secret is in use."""
    names = built_in_secrets()
    reachable = [host for host in hosts if not is_loopback(host)]
    if not names or not (settings.HTTPS or reachable):
        return
    where = "HTTPS=1" if settings.HTTPS else f"listening on {', '.join(reachable)}"
    verb = "is" if len(names) == 1 else "are"
    raise SystemExit(
        f"{process}: refusing to start ({where}): {' and '.join(names)} {verb} the built-in "
        f"development value; set {' and '.join(names)} in the environment (docs/settings.md)"
    )


def development_secrets_note() -> str:
    """What a loopback run's start-up line says about its secrets ('' when none is built in)."""
    names = built_in_secrets()
    if not names:
        return ""
    return f"; development secrets (built-in {' and '.join(names)}): loopback only"
