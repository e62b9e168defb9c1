"""Where friends can reach this server: the base URLs that invite links are made of.

The address a host typed into their own browser (``http://127.0.0.1:8765``) is no use to anyone else,
so the server says which addresses to share: the public URL it was given (behind a reverse proxy or a
domain), else, listening on every interface, the machine's own network addresses, else the one address
it listens on. The client builds ``<base>?room=CODE`` from the first and offers the rest.
"""

from __future__ import annotations

import ipaddress
from urllib.parse import urlsplit

import ifaddr

ANY_HOSTS = ("", "0.0.0.0", "::")
# Bridges to containers and virtual machines on this host: no friend on the network reaches them
VIRTUAL_ADAPTERS = ("docker", "br-", "veth", "virbr", "lxcbr", "lxdbr", "cni", "flannel", "podman")


class BadPublicUrl(ValueError):
    """A ``--public-url`` the client could not be served from."""


def public_base(url: str) -> str:
    """``scheme://host[:port]/`` from a ``--public-url``: the client and its WebSocket live at the root
    of the site, so a path other than ``/`` could not work."""
    parts = urlsplit(url.strip())
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise BadPublicUrl(f"--public-url must look like https://host[:port]/, not {url!r}")
    if parts.path not in ("", "/") or parts.query or parts.fragment:
        raise BadPublicUrl(f"--public-url must be the root of a site (the client and /ws live there), "
                           f"not {url!r}")
    return f"{parts.scheme}://{parts.netloc}/"


def invite_bases(host: str, port: int, public_url: str | None = None) -> list[str]:
    """The base URLs to share, best first (never empty)."""
    if public_url:
        return [public_base(public_url)]
    if host in ANY_HOSTS:
        addresses = interface_addresses(ipv6=host == "::") or ["127.0.0.1"]
    else:
        addresses = [host]
    return [f"http://{_bracketed(a)}:{port}/" for a in addresses]


def interface_addresses(ipv6: bool = False) -> list[str]:
    """This machine's addresses others may reach: IPv4 first, then (``ipv6``) global IPv6; no loopback,
    no link-local (a browser cannot open those), container bridges last."""
    found: list[tuple[int, int, str]] = []
    for adapter in ifaddr.get_adapters():
        virtual = adapter.name.startswith(VIRTUAL_ADAPTERS)
        for ip in adapter.ips:
            raw = ip.ip[0] if isinstance(ip.ip, tuple) else ip.ip
            try:
                address = ipaddress.ip_address(raw)
            except ValueError:
                continue
            if address.is_loopback or address.is_link_local or address.is_unspecified:
                continue
            if address.version == 6 and not ipv6:
                continue
            found.append((int(virtual), address.version, str(address)))
    ordered = [a for _v, _f, a in sorted(found, key=lambda x: (x[0], x[1]))]
    return list(dict.fromkeys(ordered))


def is_local(url: str) -> bool:
    """Whether only this machine can open ``url`` (a loopback address or ``localhost``)."""
    host = urlsplit(url).hostname or ""
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _bracketed(address: str) -> str:
    return f"[{address}]" if ":" in address else address
