"""The JSON API answers with the pages' own Filter and query path, in its documented shapes."""

import re
from typing import Any
from urllib.parse import parse_qsl, urlsplit

import pytest
from fastapi.testclient import TestClient

from app import incidents
from app.schema import DIMENSIONS
from app.store import Store

FILTERS = [
    "",
    "cause=capacity-limit",
    "cause=capacity-limit&cause=config-change",
    "cause=software-bug&component=kube-apiserver",
    "symptom=full-outage&factor=slow-recovery",
    "component=dns&from=2019&to=2023",
    "org=GitHub",
    "org=github&cause=config-change",
    "q=etcd",
    "q=전력",
    "q=dns&sort=recent",
    "factor=missing-validation&sort=oldest&page=2",
    "from=2024",
]

BAD = [
    ("cause=no-such-cause", "cause"),
    ("component=capacity-limit", "component"),
    ("symptom=nope&cause=capacity-limit", "symptom"),
    ("factor=", "factor"),  # the schema gives every value; an empty one is refused
    ("q=", None),  # empty search text is no search
    ("cause=-no-such-cause", "cause"),
    ("org=No Such Org", "org"),
    ("page=abc", "page"),
    ("page=0", "page"),
    ("sort=xyz", "sort"),
    ("from=abc", "from"),
    ("to=3000", "to"),
    ("lang=fr", "lang"),
    ("q=" + "x" * 501, "q"),
    ("cause=" + "a" * 201, "cause"),
]

ERROR_BODY = "#/components/schemas/ErrorBody"
TOTAL = re.compile(r'<span class="total">(\d+) incidents</span>')


def page_of(store: Store, query: str, page_size: int = 20) -> incidents.IncidentPage:
    filters = incidents.parse_filter(store, parse_qsl(query))
    return incidents.list_incidents(store, filters, lang="en", page_size=page_size)


def get_json(client: TestClient, url: str) -> Any:
    response = client.get(url)
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("application/json")
    return response.json()


def path_of(url: str) -> str:
    parts = urlsplit(url)
    return parts.path + (f"?{parts.query}" if parts.query else "")


@pytest.mark.parametrize("query", FILTERS)
def test_api_total_and_first_page_equal_the_page(
    client: TestClient, store: Store, query: str
) -> None:
    body = get_json(client, f"/api/incidents?{query}")
    page = page_of(store, query)
    assert body["total"] == page.total
    assert (body["page"], body["pages"], body["page_size"]) == (page.page, page.pages, 20)
    assert [item["id"] for item in body["items"]] == [card.slug for card in page.items]


@pytest.mark.parametrize("query", FILTERS[:6])
def test_api_total_equals_the_html_count(client: TestClient, query: str) -> None:
    html = client.get(f"/incidents?{query}", follow_redirects=True)
    assert html.status_code == 200
    match = TOTAL.search(html.text)
    assert match, "the list page shows its total"
    assert get_json(client, f"/api/incidents?{query}")["total"] == int(match.group(1))


def test_paging_links_walk_the_whole_result_once(client: TestClient, store: Store) -> None:
    body = get_json(client, "/api/incidents?cause=config-change")
    assert body["links"]["prev"] is None
    assert path_of(body["links"]["first"]) == "/api/incidents?cause=config-change"
    assert path_of(body["links"]["self"]) == "/api/incidents?cause=config-change"
    seen = [item["id"] for item in body["items"]]
    while body["links"]["next"]:
        body = get_json(client, path_of(body["links"]["next"]))
        seen.extend(item["id"] for item in body["items"])
    assert body["links"]["self"] == body["links"]["last"]
    assert len(seen) == len(set(seen)) == body["total"]
    filters = incidents.parse_filter(store, [("cause", "config-change")])
    bits = incidents.result_bits(store, filters)
    ranks = [int(r) for r in incidents.ordered_ranks(store, filters, bits)]
    assert seen == [row["slug"] for row in store.rows_by_rank(ranks)]


def test_list_items_have_both_titles_slug_tags_and_links(client: TestClient) -> None:
    item = get_json(client, "/api/incidents?q=IL-0129")["items"][0]
    assert item["id"] == "IL-0129"
    assert set(item["title"]) == {"en", "ko"} and all(item["title"].values())
    assert set(item["tags"]) == set(DIMENSIONS)
    assert "shared-network-filesystem" in item["tags"]["component"]
    assert path_of(item["url"]) == "/incidents/IL-0129"
    assert get_json(client, path_of(item["api_url"]))["id"] == "IL-0129"


def test_a_page_past_the_end_shows_the_last_page(client: TestClient) -> None:
    body = get_json(client, "/api/incidents?cause=capacity-limit&page=999")
    assert body["page"] == body["pages"]
    assert body["links"]["next"] is None


@pytest.mark.parametrize(("query", "parameter"), BAD)
def test_bad_parameters_are_a_400_naming_the_parameter(
    client: TestClient, query: str, parameter: str | None
) -> None:
    for path in ("/api/incidents", "/api/facets", "/incidents.json"):
        response = client.get(f"{path}?{query}")
        if parameter is None:
            assert response.status_code == 200
            continue
        assert response.status_code == 400, (path, response.text)
        body = response.json()
        assert body["status"] == 400
        assert body["parameter"] == parameter
        assert body["error"].startswith(f"{parameter}: ")


def test_unknown_incident_is_a_json_404(client: TestClient) -> None:
    response = client.get("/api/incidents/IL-99999")
    assert response.status_code == 404
    assert response.json() == {"error": "No incident with the ID 'IL-99999'.", "status": 404}


def test_incident_record_has_every_section_in_both_languages(
    client: TestClient, store: Store
) -> None:
    record = get_json(client, "/api/incidents/IL-0129")
    detail = incidents.get_incident(store, "IL-0129", lang="en")
    assert detail is not None
    assert record["id"] == "IL-0129"
    assert record["organization"] == detail.card.organization
    for section in ("title", "symptom", "trigger", "lessons"):
        assert record[section]["en"] and record[section]["ko"], section
    assert record["actions"]["en"] and len(record["actions"]["ko"]) == len(record["actions"]["en"])
    for dim in DIMENSIONS:
        terms = record["tags"][dim]
        assert [t["slug"] for t in terms] == [t.slug for t in detail.card.tags[dim]]
        for term in terms:
            assert term["label"]["en"] and term["label"]["ko"]
            assert path_of(term["url"]) == f"/incidents?{dim}={term['slug']}"
    assert record["sources"] == detail.sources
    assert record["related"] == [c.slug for c in detail.related]
    assert [p["slug"] for p in record["patterns"]] == [p.slug for p in detail.patterns]


@pytest.mark.parametrize("query", ["", "cause=capacity-limit", "q=etcd&org=GitHub", "from=2020"])
def test_facets_equal_the_page_facets(client: TestClient, store: Store, query: str) -> None:
    body = get_json(client, f"/api/facets?{query}")
    page = page_of(store, query)
    assert body["total"] == page.total
    for kind, facet in page.facets.items():
        got = [
            (v["slug"], v["count"], v["selected"], path_of(v["url"])) for v in body[kind]["values"]
        ]
        want = [(v.slug, v.count, v.selected, v.toggle_url) for v in facet.values]
        assert got == want, kind
        assert body[kind]["truncated"] == facet.truncated


def test_unselected_facet_count_equals_the_api_total_behind_its_link(client: TestClient) -> None:
    body = get_json(client, "/api/facets?cause=capacity-limit&symptom=full-outage")
    for kind in ("cause", "symptom", "factor"):
        for value in body[kind]["values"]:
            if value["selected"]:  # its link removes it; its count is the current total
                assert value["count"] == body["total"]
                continue
            total = get_json(client, path_of(value["api_url"]))["total"]
            assert total == value["count"], (kind, value["slug"])


def test_taxonomy_lists_every_term_with_labels_and_counts(client: TestClient, store: Store) -> None:
    body = get_json(client, "/api/taxonomy")
    for dim in DIMENSIONS:
        terms = body[dim]
        assert [t["slug"] for t in terms] == [t.slug for t in store.taxonomy.terms[dim]]
        for term, info in zip(terms, store.taxonomy.terms[dim], strict=True):
            assert term["label"] == {"en": info.label_en, "ko": info.label_ko}
            assert term["description"] == {"en": info.description_en, "ko": info.description_ko}
            assert term["aliases"] == list(info.aliases)
            assert term["parent"] == info.parent
            assert term["count"] == store.counts.get((dim, info.slug), 0)


def test_patterns_list_their_incidents(client: TestClient, store: Store) -> None:
    body = get_json(client, "/api/patterns")
    assert [p["slug"] for p in body] == [p.slug for p in store.patterns]
    for pattern in body:
        ranks = [int(r) for r in store.ranks(store.term_bits("pattern", pattern["slug"]))]
        assert pattern["incidents"] == [row["slug"] for row in store.rows_by_rank(ranks)]
        assert pattern["count"] == len(pattern["incidents"])
        assert pattern["title"]["en"] and pattern["title"]["ko"]


def test_openapi_declares_the_filter_parameters_and_our_error_body(client: TestClient) -> None:
    schema = get_json(client, "/openapi.json")
    wanted = ["q", *DIMENSIONS, "org", "from", "to", "sort", "page", "lang"]
    for path in ("/api/incidents", "/api/facets", "/incidents.json", "/incidents.atom"):
        operation = schema["paths"][path]["get"]
        assert [p["name"] for p in operation["parameters"]] == wanted, path
        assert "422" not in operation["responses"], path
        assert operation["description"], path
    for path in ("/api/incidents", "/api/facets", "/incidents.json"):
        content = schema["paths"][path]["get"]["responses"]["400"]["content"]
        assert content == {"application/json": {"schema": {"$ref": ERROR_BODY}}}, path
    record = schema["components"]["schemas"]["IncidentRecord"]["properties"]
    assert {"symptom", "trigger", "lessons", "sources", "related", "patterns"} <= set(record)
