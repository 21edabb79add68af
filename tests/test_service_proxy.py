"""Behind a real nginx (Debian's) on loopback: X-Forwarded-Proto/Host believed from the trusted
proxy only, and the library under /library/ with every link, redirect, feed and API URL right."""

import json
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from tests.servers import Nginx, Serve, get

PUBLIC = "https://library.example.org"
ATOM = "{http://www.w3.org/2005/Atom}"


def location(prefix: str, port: int) -> str:
    # nginx strips the prefix (proxy_pass with a URI) and says the client came over TLS.
    return f"""
    location {prefix}/ {{
      proxy_pass http://127.0.0.1:{port}/;
      proxy_set_header Host $http_host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto https;
      proxy_set_header X-Forwarded-Host library.example.org;
    }}"""


@pytest.fixture(scope="module")
def proxy(library_db: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """nginx in front of two servers: /library/ trusts it, /untrusted/ trusts no proxy."""
    work = tmp_path_factory.mktemp("proxy")
    trusted = Serve(
        library_db, "--workers", "1", "--root-path", "/library",
        "--forwarded-allow-ips", "127.0.0.1", log=work / "trusted.log",
    )  # fmt: skip
    untrusted = Serve(
        library_db, "--workers", "1", "--root-path", "/untrusted", log=work / "untrusted.log"
    )
    nginx = None
    try:
        trusted.ready()
        untrusted.ready()
        body = "server { LISTEN " + location("/library", trusted.port)
        body += location("/untrusted", untrusted.port) + " }"
        nginx = Nginx(work / "nginx", body)
        yield nginx.base
    finally:
        if nginx is not None:
            nginx.stop()
        trusted.stop()
        untrusted.stop()


def test_feed_links_are_public_urls_under_the_prefix(proxy: str) -> None:
    status, headers, body = get(proxy + "/library/incidents.atom?cause=capacity-limit")
    assert status == 200 and headers["content-type"].startswith("application/atom+xml")
    feed = ET.fromstring(body)
    links = {link.get("rel"): link.get("href") for link in feed.findall(f"{ATOM}link")}
    assert links == {
        "self": f"{PUBLIC}/library/incidents.atom?cause=capacity-limit",
        "alternate": f"{PUBLIC}/library/incidents?cause=capacity-limit",
    }
    entries = feed.findall(f"{ATOM}entry")
    assert entries
    for entry in entries:
        assert re.fullmatch(
            rf"{PUBLIC}/library/incidents/IL-\d+", entry.findtext(f"{ATOM}id") or ""
        )


def test_api_links_are_public_urls_under_the_prefix(proxy: str) -> None:
    _, _, body = get(proxy + "/library/api/incidents?cause=capacity-limit&page=2")
    data = json.loads(body)
    api = f"{PUBLIC}/library/api/incidents?cause=capacity-limit"
    assert data["links"]["self"] == api + "&page=2"
    assert data["links"]["first"] == api and data["links"]["prev"] == api
    assert data["html_url"] == f"{PUBLIC}/library/incidents?cause=capacity-limit&page=2"
    for item in data["items"]:
        assert item["url"] == f"{PUBLIC}/library/incidents/{item['id']}"
        assert item["api_url"] == f"{PUBLIC}/library/api/incidents/{item['id']}"


def test_redirects_stay_under_the_prefix(proxy: str) -> None:
    assert get(proxy + "/library/")[1]["location"] == "/library/incidents"
    status, headers, _ = get(
        proxy + "/library/incidents?factor=untested-assumption&cause=capacity-limit"
    )
    assert status == 302
    assert (
        headers["location"] == "/library/incidents?cause=capacity-limit&factor=untested-assumption"
    )
    assert get(proxy + headers["location"])[0] == 200


def test_every_page_link_and_static_asset_resolves_through_the_proxy(proxy: str) -> None:
    _, headers, body = get(proxy + "/library/incidents?cause=capacity-limit")
    html = body.decode()
    assert headers["link"].startswith("</library/api/incidents?cause=capacity-limit>")
    urls = set(re.findall(r'\s(?:href|src|action|hx-get)="([^"#][^"]*)"', html))
    local = {u.replace("&amp;", "&") for u in urls if not u.startswith(("http:", "https:"))}
    assert [u for u in local if not u.startswith("/library/")] == []
    assets = {u for u in local if u.startswith("/library/static/")}
    assert {"/library/static/app.css", "/library/static/vendor/htmx.min.js"} <= assets
    pages = sorted(local - assets, key=lambda u: (urlsplit(u).path, u))
    # Every asset, and one link of each kind of page (list, incident, graph, feed, API, ...).
    kinds = {re.sub(r"IL-\d+", "IL-N", urlsplit(u).path): u for u in pages}
    checked = sorted(assets) + sorted(kinds.values())
    assert len(kinds) >= 8
    failed = [(u, status) for u in checked if (status := get(proxy + u)[0]) != 200]
    assert failed == []


def test_forwarded_headers_from_an_untrusted_proxy_are_ignored(proxy: str) -> None:
    _, _, body = get(proxy + "/untrusted/api/incidents?cause=capacity-limit")
    self_url = json.loads(body)["links"]["self"]
    assert (
        self_url == f"http://{urlsplit(proxy).netloc}/untrusted/api/incidents?cause=capacity-limit"
    )
