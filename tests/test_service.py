"""Running it as a service, in process: health, readiness, metrics, request ids, forwarded
headers and the path prefix (the same behaviour behind a real nginx: test_service_proxy.py)."""

import json
import logging
import re
import time
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from app.config import Settings, bundled
from app.importer import build
from app.logs import JsonFormatter, PlainFormatter, RequestIdFilter
from app.main import create_app


def sample(metrics: str, name: str, **labels: str) -> float:
    """The value of one sample in a Prometheus text exposition (0 when absent)."""
    total = 0.0
    for line in metrics.splitlines():
        if not line.startswith(name + "{") and not line.startswith(name + " "):
            continue
        found = dict(re.findall(r'(\w+)="([^"]*)"', line.split(" ")[0]))
        if all(found.get(key) == value for key, value in labels.items()):
            total += float(line.rsplit(" ", 1)[1])
    return total


def test_healthz_answers_without_a_database(tmp_path: Path) -> None:
    app = create_app(Settings(database_path=tmp_path / "missing.db"))
    with TestClient(app) as client:
        response = client.get("/healthz")
    assert (response.status_code, response.text) == (200, "ok\n")


def test_readyz_is_503_until_the_database_exists_then_ready(
    tmp_path: Path, small_data: Path
) -> None:
    db = tmp_path / "incidents.db"
    app = create_app(Settings(database_path=db))
    with TestClient(app) as client:
        response = client.get("/readyz")
        assert response.status_code == 503
        assert response.json() == {"status": "not ready", "reason": f"no database at {db}"}
        count = build(small_data, db)
        for _ in range(100):  # the first probe after the file appears starts loading it
            response = client.get("/readyz")
            if response.status_code == 200:
                break
            assert response.json()["reason"] == "loading the database"
            time.sleep(0.05)
        body = response.json()
        assert (body["status"], body["incidents"]) == ("ready", count)
        assert re.fullmatch(r"[0-9a-f]{32}", body["build_id"])


def test_readyz_names_a_file_that_is_not_a_library(tmp_path: Path) -> None:
    db = tmp_path / "incidents.db"
    db.write_text("not a database")
    app = create_app(Settings(database_path=db))
    with TestClient(app) as client:
        for _ in range(100):
            response = client.get("/readyz")
            if response.json()["reason"] != "loading the database":
                break
            time.sleep(0.05)
    assert response.status_code == 503
    assert response.json()["reason"] == f"the database at {db} cannot be opened"


def test_metrics_count_requests_by_route_template_and_status(client: TestClient) -> None:
    before = client.get("/metrics").text
    for slug in ("IL-0129", "IL-0006", "IL-9999"):
        client.get(f"/incidents/{slug}")
    client.get("/no/such/page")
    after = client.get("/metrics")
    assert after.headers["content-type"].startswith("text/plain; version=")
    text = after.text

    def delta(name: str, **labels: str) -> float:
        return sample(text, name, **labels) - sample(before, name, **labels)

    route = "/incidents/{slug}"
    assert delta("il_http_requests_total", route=route, status="200") == 2
    assert delta("il_http_requests_total", route=route, status="404") == 1
    assert delta("il_http_requests_total", route="(unmatched)", status="404") == 1
    assert delta("il_http_request_duration_seconds_count", route=route) == 3
    assert "IL-0129" not in text  # raw URLs never become labels
    # The database gauges are per process (several apps share this one): their values are
    # checked against a real server's workers in test_service_server.py.
    assert "\nil_incidents_loaded " in text
    assert sample(text, "il_database_built_timestamp_seconds") > 1.7e9


def test_metrics_count_page_and_search_cache_hits_and_misses(client: TestClient) -> None:
    url = "/incidents?q=metrics-cache-probe&cause=capacity-limit"
    before = client.get("/metrics").text
    assert client.get(url).status_code == 200
    assert client.get(url).status_code == 200
    text = client.get("/metrics").text

    def delta(cache: str, result: str) -> float:
        return sample(text, "il_cache_lookups_total", cache=cache, result=result) - sample(
            before, "il_cache_lookups_total", cache=cache, result=result
        )

    assert (delta("page", "miss"), delta("page", "hit")) == (1, 1)
    assert delta("search", "miss") == 1


def test_every_response_carries_a_request_id(client: TestClient) -> None:
    first = client.get("/incidents/IL-0129").headers["x-request-id"]
    second = client.get("/incidents/IL-0129").headers["x-request-id"]
    assert re.fullmatch(r"[0-9a-f]{32}", first) and first != second


def test_a_sane_incoming_request_id_is_kept_and_a_hostile_one_replaced(client: TestClient) -> None:
    kept = client.get("/healthz", headers={"X-Request-ID": "edge-7f3a9c01-b2"})
    assert kept.headers["x-request-id"] == "edge-7f3a9c01-b2"
    for hostile in ("x", "a b c d e f g h", "<script>alert(1)</script>", "z" * 300):
        replaced = client.get("/healthz", headers={"X-Request-ID": hostile})
        assert re.fullmatch(r"[0-9a-f]{32}", replaced.headers["x-request-id"])


def test_access_log_has_one_line_per_request_with_its_id_and_skips_probes(
    client: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.INFO, logger="incident_library.access"):
        response = client.get("/incidents?cause=capacity-limit")
        client.get("/healthz")
        client.get("/readyz")
    lines = [r for r in caplog.records if r.name == "incident_library.access"]
    assert len(lines) == 1
    record = lines[0]
    RequestIdFilter().filter(record)
    plain = PlainFormatter().format(record)
    assert '"GET /incidents?cause=capacity-limit" 200' in plain
    assert plain.endswith(f"rid={response.headers['x-request-id']}")
    data = json.loads(JsonFormatter().format(record))
    assert data["request_id"] == response.headers["x-request-id"]
    assert (data["route"], data["status"], data["query"]) == (
        "/incidents",
        200,
        "cause=capacity-limit",
    )
    assert data["duration_ms"] > 0 and data["bytes"] == len(response.content)


# -- proxies -------------------------------------------------------------------------------
FORWARDED = {"X-Forwarded-Proto": "https", "X-Forwarded-Host": "library.example.org"}


def test_forwarded_headers_from_an_untrusted_peer_are_ignored(settings: Settings) -> None:
    app = create_app(settings.model_copy(update={"forwarded_allow_ips": "10.0.0.0/8"}))
    with TestClient(app, base_url="http://internal:8000") as client:
        body = client.get("/api/incidents?cause=capacity-limit", headers=FORWARDED).json()
    assert body["links"]["self"].startswith("http://internal:8000/api/incidents?")


def test_forwarded_headers_from_a_trusted_proxy_make_absolute_urls(settings: Settings) -> None:
    app = create_app(settings.model_copy(update={"forwarded_allow_ips": "*"}))
    with TestClient(app, base_url="http://internal:8000") as client:
        body = client.get("/api/incidents?cause=capacity-limit", headers=FORWARDED).json()
        hostile = client.get("/api/incidents", headers={"X-Forwarded-Host": "a b/c"}).json()
    assert body["links"]["self"].startswith("https://library.example.org/api/incidents?")
    assert body["items"][0]["url"].startswith("https://library.example.org/incidents/IL-")
    assert body["html_url"].startswith("https://library.example.org/incidents?")
    assert hostile["links"]["self"].startswith("http://internal:8000/")


@pytest.fixture(scope="module")
def prefixed(settings: Settings) -> TestClient:
    return TestClient(
        create_app(settings.model_copy(update={"root_path": "/library"})), follow_redirects=False
    )


@pytest.mark.parametrize("path", ["/incidents/IL-0129", "/library/incidents/IL-0129"])
def test_prefix_serves_whether_or_not_the_proxy_strips_it(prefixed: TestClient, path: str) -> None:
    assert prefixed.get(path).status_code == 200


def test_every_link_of_a_prefixed_page_is_under_the_prefix(prefixed: TestClient) -> None:
    html = prefixed.get("/incidents?cause=capacity-limit").text
    links = re.findall(r'\s(?:href|src|action|hx-get)="([^"#][^"]*)"', html)
    local = [url for url in links if not url.startswith("http")]
    assert len(local) > 50
    assert [url for url in local if not url.startswith("/library/")] == []
    assert 'href="/library/static/app.css"' in html


def test_prefixed_redirects_headers_and_pages(prefixed: TestClient) -> None:
    assert prefixed.get("/").headers["location"] == "/library/incidents"
    redirect = prefixed.get("/incidents?factor=untested-assumption&cause=capacity-limit")
    assert redirect.status_code == 302
    assert redirect.headers["location"] == (
        "/library/incidents?cause=capacity-limit&factor=untested-assumption"
    )
    page = prefixed.get("/incidents?cause=capacity-limit")
    assert page.headers["link"].startswith("</library/api/incidents?cause=capacity-limit>")
    swap = prefixed.get("/incidents?cause=capacity-limit", headers={"HX-Request": "true"})
    assert swap.headers["hx-push-url"] == "/library/incidents?cause=capacity-limit"
    missing = prefixed.get("/incidents/IL-9999")
    assert missing.status_code == 404 and 'href="/library/static/app.css"' in missing.text
    docs = prefixed.get("/docs").text
    assert 'href="/library/openapi.json"' in docs
    assert prefixed.get("/openapi.json").json()["servers"] == [{"url": "/library"}]


def test_bad_root_path_is_refused_with_a_message() -> None:
    with pytest.raises(ValueError, match="is not a path prefix like /library"):
        Settings(root_path="library")


def test_settings_default_to_the_bundled_files() -> None:
    settings = Settings()
    assert settings.templates_dir == bundled("templates")
    assert (settings.templates_dir / "base.html").is_file()
    assert (settings.data_dir / "taxonomy.yaml").is_file()


def test_shared_pages_belong_to_one_database_build_and_stay_bounded(tmp_path: Path) -> None:
    from app.pagecache import SWEEP_EVERY, SharedPages

    old = SharedPages(tmp_path, "build-a", size=10)
    old.write(("list", "/incidents", ""), b"old page")
    assert old.read(("list", "/incidents", "")) == b"old page"
    new = SharedPages(tmp_path, "build-b", size=10)  # a rolled-out database: old pages go
    assert new.read(("list", "/incidents", "")) is None
    assert list(tmp_path.iterdir()) == []
    for n in range(SWEEP_EVERY):
        new.write(("list", f"/incidents?page={n}", ""), b"page")
    assert len(list(tmp_path.iterdir())) == 10
