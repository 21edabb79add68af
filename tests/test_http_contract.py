"""What the API, feeds, exports and pages promise over HTTP: validators and 304s, HEAD, 405 with
Allow, opt-in CORS, and an OpenAPI schema made from the loaded taxonomy."""

from pathlib import Path

import pytest
import yaml
from fastapi.testclient import TestClient

from app.config import Settings
from app.importer import build
from app.main import create_app

CACHEABLE = [
    "/api/incidents?cause=capacity-limit",
    "/api/incidents/IL-0129",
    "/api/facets?component=dns",
    "/api/graph?cause=capacity-limit",
    "/incidents.atom?component=dns",
    "/incidents.csv?cause=capacity-limit",
    "/incidents.json?cause=capacity-limit",
    "/incidents?cause=capacity-limit",
    "/incidents/IL-0129",
    "/graph?cause=capacity-limit",
    "/openapi.json",
]


@pytest.mark.parametrize("url", CACHEABLE)
def test_a_repeated_request_with_its_validator_gets_304_and_no_body(
    client: TestClient, url: str
) -> None:
    first = client.get(url)
    assert first.status_code == 200
    etag, modified = first.headers["etag"], first.headers["last-modified"]
    assert etag.startswith('"') and etag.endswith('"')  # strong
    assert "must-revalidate" in first.headers["cache-control"]
    again = client.get(url, headers={"If-None-Match": etag})
    assert again.status_code == 304
    assert again.content == b""
    assert again.headers["etag"] == etag
    since = client.get(url, headers={"If-Modified-Since": modified})
    assert since.status_code == 304
    stale = client.get(url, headers={"If-None-Match": '"something-else"'})
    assert stale.status_code == 200 and stale.content == first.content


def test_pages_vary_by_language_and_htmx_but_the_api_does_not(client: TestClient) -> None:
    page = "/incidents?cause=capacity-limit"
    english = client.get(page, headers={"Accept-Language": "en"})
    korean = client.get(page, headers={"Accept-Language": "ko"})
    swap = client.get(page, headers={"Accept-Language": "en", "HX-Request": "true"})
    assert len({english.headers["etag"], korean.headers["etag"], swap.headers["etag"]}) == 3
    for name in ("accept-language", "cookie", "hx-request"):
        assert name in english.headers["vary"].lower()
    # A Korean reader's validator does not make the English page look current.
    cross = client.get(
        page, headers={"Accept-Language": "en", "If-None-Match": korean.headers["etag"]}
    )
    assert cross.status_code == 200
    api_en = client.get("/api/incidents", headers={"Accept-Language": "en"})
    api_ko = client.get("/api/incidents", headers={"Accept-Language": "ko"})
    assert api_en.headers["etag"] == api_ko.headers["etag"]


def test_a_rebuild_with_other_data_changes_the_validator(small_data: Path, tmp_path: Path) -> None:
    db = tmp_path / "lib.db"
    build(small_data, db)
    with TestClient(create_app(Settings(database_path=db))) as client:
        before = client.get("/api/incidents").headers["etag"]
        same = client.get("/api/incidents").headers["etag"]
        path = small_data / "incidents" / "IL-0064.yaml"
        record = yaml.safe_load(path.read_text())
        record["title"]["en"] = "A retitled incident"
        path.write_text(yaml.safe_dump(record, allow_unicode=True))
        build(small_data, db)
        after = client.get("/api/incidents", headers={"If-None-Match": before})
    assert before == same
    assert after.status_code == 200 and after.headers["etag"] != before


def test_a_rebuild_with_other_synonyms_changes_the_validator(
    small_data: Path, tmp_path: Path
) -> None:
    # Synonyms change what a search finds, so a cached answer to one must not survive them.
    db = tmp_path / "lib.db"
    synonyms = small_data / "synonyms.yaml"
    synonyms.write_text("groups:\n  - [k8s, kubernetes]\n")
    build(small_data, db)
    with TestClient(create_app(Settings(database_path=db))) as client:
        before = client.get("/api/incidents?q=k8s").headers["etag"]
        synonyms.write_text("groups:\n  - [k8s, kubernetes]\n  - [cert, certificate]\n")
        build(small_data, db)
        after = client.get("/api/incidents?q=k8s", headers={"If-None-Match": before})
    assert after.status_code == 200 and after.headers["etag"] != before


@pytest.mark.parametrize(
    "url", ["/api/incidents", "/incidents", "/incidents.csv", "/incidents.atom", "/static/app.css"]
)
def test_head_answers_wherever_get_does_with_no_body(client: TestClient, url: str) -> None:
    get = client.get(url)
    head = client.head(url)
    assert head.status_code == get.status_code == 200
    assert head.content == b""
    assert head.headers["content-type"] == get.headers["content-type"]


@pytest.mark.parametrize(
    ("method", "url", "allow"),
    [
        ("DELETE", "/api/incidents", "GET, HEAD"),
        ("TRACE", "/incidents.json", "GET, HEAD"),
        ("POST", "/api/incidents/IL-0129", "GET, HEAD"),
        ("PUT", "/incidents", "GET, HEAD"),
        ("PATCH", "/static/app.css", "GET, HEAD"),
        ("PUT", "/check", "GET, HEAD, POST"),
    ],
)
def test_an_undeclared_method_is_a_405_naming_the_allowed_ones(
    client: TestClient, method: str, url: str, allow: str
) -> None:
    response = client.request(method, url)
    assert response.status_code == 405
    assert response.headers["allow"] == allow
    if url.startswith("/api/") or url.endswith(".json"):
        assert response.json()["status"] == 405


def test_cors_is_off_unless_turned_on(client: TestClient, settings: Settings) -> None:
    origin = {"Origin": "https://dashboards.example"}
    assert "access-control-allow-origin" not in client.get("/api/incidents", headers=origin).headers
    on = Settings(database_path=settings.database_path, cors_origins=["*"])
    with TestClient(create_app(on)) as cors_client:
        api = cors_client.get("/api/incidents", headers=origin)
        feed = cors_client.get("/incidents.atom", headers=origin)
        page = cors_client.get("/incidents", headers=origin)
        preflight = cors_client.options(
            "/api/incidents",
            headers={**origin, "Access-Control-Request-Method": "GET"},
        )
    assert api.headers["access-control-allow-origin"] == "*"
    assert feed.headers["access-control-allow-origin"] == "*"
    assert "etag" in api.headers["access-control-expose-headers"].lower()
    assert "access-control-allow-origin" not in page.headers
    assert preflight.status_code == 200


def test_the_schema_lists_the_loaded_taxonomy_and_follows_a_rebuild(
    small_data: Path, tmp_path: Path
) -> None:
    db = tmp_path / "lib.db"
    build(small_data, db)
    with TestClient(create_app(Settings(database_path=db))) as client:
        params = _params(client.get("/openapi.json").json(), "/api/incidents")
        cause = params["cause"]["schema"]["items"]["enum"]
        assert {"capacity-limit", "+capacity-limit", "-capacity-limit"} <= set(cause)
        assert params["sort"]["schema"]["enum"] == ["recent", "oldest", "relevance", "longest"]
        assert params["page"]["schema"] == {"type": "integer", "minimum": 1, "maximum": 10**6}
        assert params["lang"]["schema"]["enum"] == ["en", "ko"]
        taxonomy = yaml.safe_load((small_data / "taxonomy.yaml").read_text())
        taxonomy["cause"].append(
            {
                "slug": "cosmic-ray",
                "label": {"en": "Cosmic ray", "ko": "우주선"},
                "description": {
                    "en": "A bit flipped by radiation.",
                    "ko": "방사선으로 비트가 바뀜.",
                },
                "aliases": [],
            }
        )
        (small_data / "taxonomy.yaml").write_text(yaml.safe_dump(taxonomy, allow_unicode=True))
        build(small_data, db)
        after = _params(client.get("/openapi.json").json(), "/api/incidents")
        assert "-cosmic-ray" in after["cause"]["schema"]["items"]["enum"]
        assert client.get("/api/incidents?cause=cosmic-ray").status_code == 200


def test_every_operation_documents_its_error_body(client: TestClient) -> None:
    schema = client.get("/openapi.json").json()
    for path, item in schema["paths"].items():
        for method, operation in item.items():
            assert {"400", "405", "default"} <= set(operation["responses"]), (method, path)


def test_empty_parameters_are_a_400_in_the_api_and_ignored_on_pages(client: TestClient) -> None:
    response = client.get("/api/incidents?cause=")
    assert response.status_code == 400
    assert response.json()["parameter"] == "cause"
    assert client.get("/incidents?cause=", follow_redirects=True).status_code == 200


def _params(schema: dict[str, object], path: str) -> dict[str, dict[str, object]]:
    operation = schema["paths"][path]["get"]  # type: ignore[index]
    return {p["name"]: p for p in operation["parameters"]}


def test_the_schema_examples_work(client: TestClient) -> None:
    schema = client.get("/openapi.json").json()
    tried = 0
    for path, item in schema["paths"].items():
        operation = item.get("get")
        if not operation or "{" in path:
            continue
        pairs = []
        for parameter in operation.get("parameters", []):
            if "example" in parameter:
                value = parameter["example"]
                for one in value if isinstance(value, list) else [value]:
                    pairs.append((parameter["name"], str(one)))
        if pairs:
            response = client.get(path, params=pairs)
            assert response.status_code == 200, (path, pairs, response.text[:200])
            tried += 1
    assert tried >= 5
