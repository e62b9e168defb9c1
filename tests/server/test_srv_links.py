"""Invite links (server/links.py, issue 12): which addresses the server tells friends to open."""

from __future__ import annotations

import pytest

from server.cli import parse_args
from server.links import BadPublicUrl, invite_bases, is_local, public_base


def test_a_public_url_is_a_site_root() -> None:
    assert public_base("https://guandan.example.org") == "https://guandan.example.org/"
    assert public_base(" http://gd.example.org:8080/ ") == "http://gd.example.org:8080/"
    for bad in ("gd.example.org", "ftp://gd.example.org/", "https://gd.example.org/guandan", "https:///",
                "https://gd.example.org/?x=1"):
        with pytest.raises(BadPublicUrl):
            public_base(bad)


def test_the_cli_takes_the_public_url_from_the_option_or_the_environment(monkeypatch, capsys) -> None:
    assert parse_args(["--public-url", "https://gd.example.org"]).public_url == "https://gd.example.org/"
    monkeypatch.setenv("GUANDAN_PUBLIC_URL", "https://env.example.org")
    assert parse_args([]).public_url == "https://env.example.org/"
    with pytest.raises(SystemExit):
        parse_args(["--public-url", "https://gd.example.org/guandan"])
    assert "root of a site" in capsys.readouterr().err


def test_links_for_a_given_host_name_it_and_loopback_ones_are_local() -> None:
    assert invite_bases("127.0.0.1", 8765) == ["http://127.0.0.1:8765/"]
    assert invite_bases("::1", 8765) == ["http://[::1]:8765/"]
    assert invite_bases("gd.lan", 80) == ["http://gd.lan:80/"]
    assert invite_bases("0.0.0.0", 1, "https://gd.example.org/") == ["https://gd.example.org/"]
    for url in ("http://127.0.0.1:8765/", "http://[::1]:8765/", "http://localhost:8765/", "http://127.0.1.1/"):
        assert is_local(url), url
    for url in ("http://192.168.1.20:8765/", "https://gd.example.org/", "http://[fd00::2]:1/"):
        assert not is_local(url), url
