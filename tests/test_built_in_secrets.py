"""The built-in secrets serve a loopback development run only (core/built_in_secrets.py): who
refuses them, where; PUBLIC_BASE_URL and the ALLOWED_HOSTS it gives; the lookup page's link
and QR code never where a Host header points."""

import runpy

import pytest

from core.built_in_secrets import built_in_secrets_refused, development_secrets_note
from core.processes import web_command, web_listens_on
from tests.processes import BASE_DIR

REAL = {"SECRET_KEY": "x7" * 32, "ORDERS_ADMIN_PASSWORD": "a long admin password"}
COMPOSE_WEB = "daphne -v 0 -b 0.0.0.0 -p 8000 --proxy-headers config.asgi:application".split()


def sys_argv(command: list[str]) -> list[str]:
    """The daphne process's sys.argv for web_command's `python -m daphne ...`."""
    assert command[1:3] == ["-m", "daphne"]
    return ["/venv/lib/python3.11/site-packages/daphne/__main__.py", *command[3:]]


@pytest.mark.parametrize(
    ("argv", "hosts"),
    [
        (sys_argv(web_command("127.0.0.1", 8000)), ["127.0.0.1"]),
        (sys_argv(web_command("0.0.0.0", 8000)), ["0.0.0.0"]),
        (["/opt/venv/bin/" + COMPOSE_WEB[0], *COMPOSE_WEB[1:]], ["0.0.0.0"]),
        (["daphne", "config.asgi:application"], ["127.0.0.1"]),  # daphne's default
        (["daphne", "-e", "tcp:port=8000", "config.asgi:application"], ["0.0.0.0"]),
        (["daphne", "-e", r"tcp:8000:interface=\:\:1", "config.asgi:application"], ["::1"]),
        (["daphne", "-u", "/run/web.sock", "config.asgi:application"], ["unix socket"]),
        (["/usr/bin/pytest", "-b", "0.0.0.0"], []),  # not daphne: the test process
    ],
)
def test_the_addresses_a_daphne_command_line_listens_on(argv, hosts):
    assert web_listens_on(argv) == hosts


@pytest.mark.parametrize("missing", ["SECRET_KEY", "ORDERS_ADMIN_PASSWORD"])
@pytest.mark.parametrize("hosts", [["0.0.0.0"], ["10.0.0.5"], ["unix socket"]])
def test_a_reachable_process_refuses_a_built_in_secret_naming_it(settings, missing, hosts):
    for name, value in REAL.items():
        setattr(settings, name, value)
    setattr(settings, missing, getattr(settings, f"{missing}_DEFAULT"))

    with pytest.raises(SystemExit) as refused:
        built_in_secrets_refused(process="web", hosts=hosts)

    assert str(refused.value).startswith(f"web: refusing to start (listening on {hosts[0]})")
    assert f": {missing} is the built-in development value; set {missing} in" in str(refused.value)


def test_behind_tls_even_loopback_refuses_and_both_secrets_are_named(settings):
    settings.HTTPS = True

    with pytest.raises(SystemExit, match=r"\(HTTPS=1\): SECRET_KEY and ORDERS_ADMIN_PASSWORD"):
        built_in_secrets_refused(process="worker", hosts=[])


@pytest.mark.parametrize("hosts", [[], ["127.0.0.1"], ["localhost"], ["::1"], ["[::1]"]])
def test_loopback_runs_on_the_built_in_secrets_and_says_so(settings, hosts):
    built_in_secrets_refused(process="runall", hosts=hosts)

    assert development_secrets_note() == (
        "; development secrets (built-in SECRET_KEY and ORDERS_ADMIN_PASSWORD): loopback only"
    )


def test_real_secrets_start_anywhere_and_say_nothing(settings):
    settings.HTTPS = True
    for name, value in REAL.items():
        setattr(settings, name, value)

    built_in_secrets_refused(process="web", hosts=["0.0.0.0"])

    assert development_secrets_note() == ""


def settings_with(monkeypatch, **environment) -> dict:
    for name in ("PUBLIC_BASE_URL", "ALLOWED_HOSTS"):
        monkeypatch.delenv(name, raising=False)
    for name, value in environment.items():
        monkeypatch.setenv(name, value)
    return runpy.run_path(str(BASE_DIR / "config" / "settings.py"))


def test_allowed_hosts_default_to_loopback_plus_the_public_host(monkeypatch):
    assert settings_with(monkeypatch)["ALLOWED_HOSTS"] == ["127.0.0.1", "localhost", "[::1]"]
    public = settings_with(monkeypatch, PUBLIC_BASE_URL="https://Posters.example:8443/")
    assert public["PUBLIC_BASE_URL"] == "https://Posters.example:8443"
    assert public["ALLOWED_HOSTS"] == ["127.0.0.1", "localhost", "[::1]", "posters.example"]
    assert settings_with(monkeypatch, ALLOWED_HOSTS="*")["ALLOWED_HOSTS"] == ["*"]
    named = settings_with(monkeypatch, ALLOWED_HOSTS="a.example, b.example")
    assert named["ALLOWED_HOSTS"] == ["a.example", "b.example"]


@pytest.mark.parametrize(
    "url", ["posters.example", "ftp://posters.example", "https://x.example/shop"]
)
def test_a_public_base_url_that_is_not_an_origin_stops_the_settings_naming_it(monkeypatch, url):
    from django.core.exceptions import ImproperlyConfigured

    with pytest.raises(ImproperlyConfigured, match="PUBLIC_BASE_URL"):
        settings_with(monkeypatch, PUBLIC_BASE_URL=url)


def test_a_forged_host_header_is_refused_by_default(client):
    page = client.get("/jobs/0123456789abcdef0123456789abcdef/find", HTTP_HOST="evil.example")

    assert page.status_code == 400
    assert b"evil.example" not in page.content


def test_the_share_link_and_qr_code_are_at_the_public_base_url_whatever_the_host(client, settings):
    settings.ALLOWED_HOSTS = ["*"]
    settings.PUBLIC_BASE_URL = "https://posters.example"
    job = "0123456789abcdef0123456789abcdef"

    page = client.get(f"/jobs/{job}/find?name=Anna", HTTP_HOST="evil.example")

    assert page.status_code == 200
    assert page.context["page_url"] == f"https://posters.example/jobs/{job}/find"
    assert b"evil.example" not in page.content
