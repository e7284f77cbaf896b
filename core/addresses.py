"""Client addresses: the networks a setting lists (METRICS_ALLOWED_IPS, TRUSTED_PROXIES),
read when the settings are, and the address a request comes from."""

import ipaddress

from django.core.exceptions import ImproperlyConfigured


def networks_setting(name: str, text: str) -> list[str]:
    """The comma-separated addresses or networks of the setting `name`; a wrong entry stops
    the process at start, naming the setting, never a request with a 500."""
    entries = [entry.strip() for entry in text.split(",") if entry.strip()]
    for entry in entries:
        try:
            ipaddress.ip_network(entry, strict=False)
        except ValueError:
            raise ImproperlyConfigured(
                f"{name}: {entry!r} is not an address or a network (e.g. 10.0.0.0/8)"
            ) from None
    return entries


def address_in(address: str, networks: list[str]) -> bool:
    """`address` is one of `networks` (addresses or networks); False for a malformed one."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip in ipaddress.ip_network(network, strict=False) for network in networks)


def client_address(peer: str, forwarded_for: str, trusted: list[str]) -> str:
    """The client's address: the immediate peer's, unless the peer is one of the `trusted`
    proxies; then the nearest address of its `X-Forwarded-For` that is not itself a trusted
    proxy (a client may write anything at the header's start, never at its end, which each
    proxy appends to)."""
    address = peer
    if address_in(peer, trusted):
        for hop in reversed([hop.strip() for hop in forwarded_for.split(",") if hop.strip()]):
            address = hop
            if not address_in(hop, trusted):
                break
    return address
