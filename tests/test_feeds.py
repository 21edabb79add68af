"""Atom feed and CSV/JSON exports: the filter's incidents, whole, described the way the API does."""

import csv
import io
import re
import xml.etree.ElementTree as ET
from datetime import UTC, datetime
from typing import Any
from urllib.parse import parse_qsl, urlsplit

import pytest
from fastapi.testclient import TestClient

from app import exports, incidents
from app.facets import Filter
from app.schema import DIMENSIONS
from app.store import Store

ATOM = "{http://www.w3.org/2005/Atom}"
HANGUL = re.compile(r"[\uac00-\ud7a3]")

FEED_FILTERS = [
    "",
    "cause=capacity-limit",
    "cause=config-change&sort=oldest",
    "q=dns",
    "component=dns&from=2019&to=2023",
    "org=GitHub&symptom=full-outage",
    "cause=external-attack&cause=time-handling",
]

EXPORT_FILTERS = [
    "",
    "cause=capacity-limit&from=2019&to=2023",
    "q=etcd",
    "factor=slow-recovery&sort=oldest",
    "symptom=data-loss&org=GitHub",
]


def newest_ids(store: Store, query: str, limit: int) -> list[str]:
    filters = incidents.parse_filter(store, parse_qsl(query))
    ranks = [int(r) for r in store.ranks(incidents.result_bits(store, filters))[:limit]]
    return [row["slug"] for row in store.rows_by_rank(ranks)]


def api_items(client: TestClient, query: str) -> list[dict[str, Any]]:
    """Every item of a filtered view, following the API's next links."""
    body = client.get(f"/api/incidents?{query}").json()
    items = list(body["items"])
    while body["links"]["next"]:
        parts = urlsplit(body["links"]["next"])
        body = client.get(f"{parts.path}?{parts.query}").json()
        items.extend(body["items"])
    return items


def parse_feed(client: TestClient, url: str, **headers: str) -> ET.Element:
    response = client.get(url, headers=headers)
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("application/atom+xml")
    root = ET.fromstring(response.content)
    assert root.tag == f"{ATOM}feed"
    return root


def entry_id(entry: ET.Element) -> str:
    return entry.findtext(f"{ATOM}id", "").rsplit("/", 1)[-1]


# -- Atom -----------------------------------------------------------------------------------
@pytest.mark.parametrize("query", FEED_FILTERS)
def test_feed_entries_are_the_filtered_incidents_newest_first(
    client: TestClient, store: Store, query: str
) -> None:
    root = parse_feed(client, f"/incidents.atom?{query}")
    entries = root.findall(f"{ATOM}entry")
    assert [entry_id(e) for e in entries] == newest_ids(store, query, 50)
    dates = [e.findtext(f"{ATOM}updated", "") for e in entries]
    assert dates == sorted(dates, reverse=True)


def test_feed_entries_have_stable_ids_dates_links_and_summaries(
    client: TestClient, store: Store
) -> None:
    root = parse_feed(client, "/incidents.atom?cause=capacity-limit")
    again = parse_feed(client, "/incidents.atom?cause=capacity-limit")
    assert ET.tostring(root) == ET.tostring(again)
    assert root.findtext(f"{ATOM}id") == "http://testserver/incidents.atom?cause=capacity-limit"
    assert "Capacity limit" in root.findtext(f"{ATOM}title", "")
    links = {link.get("rel"): link.get("href") for link in root.findall(f"{ATOM}link")}
    assert links["alternate"] == "http://testserver/incidents?cause=capacity-limit"
    for entry in root.findall(f"{ATOM}entry"):
        slug = entry_id(entry)
        assert entry.findtext(f"{ATOM}id") == f"http://testserver/incidents/{slug}"
        link = entry.find(f"{ATOM}link")
        assert link is not None and link.get("href") == f"http://testserver/incidents/{slug}"
        row = store.row_by_slug(slug)
        assert row is not None
        updated = datetime.fromisoformat(entry.findtext(f"{ATOM}updated", ""))
        assert updated == exports.incident_datetime(row["date"])
        assert entry.findtext(f"{ATOM}summary")
        assert not HANGUL.search(entry.findtext(f"{ATOM}summary", ""))
        assert "capacity-limit" in {c.get("term") for c in entry.findall(f"{ATOM}category")}


@pytest.mark.parametrize(
    ("url", "headers"),
    [
        ("/incidents.atom?cause=capacity-limit&lang=ko", {}),
        ("/incidents.atom?cause=capacity-limit", {"Accept-Language": "ko-KR,ko;q=0.9"}),
    ],
)
def test_feed_speaks_korean_when_asked(
    client: TestClient, url: str, headers: dict[str, str]
) -> None:
    root = parse_feed(client, url, **headers)
    assert "용량 한계" in root.findtext(f"{ATOM}title", "")
    for entry in root.findall(f"{ATOM}entry"):
        assert HANGUL.search(entry.findtext(f"{ATOM}summary", ""))


def test_unknown_slug_in_a_feed_is_a_400(client: TestClient) -> None:
    assert client.get("/incidents.atom?cause=no-such-cause").status_code == 400
    assert client.get("/incidents.csv?component=nope").status_code == 400


@pytest.mark.parametrize(
    ("date", "expected"),
    [
        ("2025", datetime(2025, 1, 1, tzinfo=UTC)),
        ("2019-03", datetime(2019, 3, 1, tzinfo=UTC)),
        ("2021-11-24", datetime(2021, 11, 24, tzinfo=UTC)),
    ],
)
def test_incident_dates_become_midnight_utc(date: str, expected: datetime) -> None:
    assert exports.incident_datetime(date) == expected


# -- CSV and JSON ---------------------------------------------------------------------------
@pytest.mark.parametrize("query", EXPORT_FILTERS)
def test_csv_round_trips_to_the_api_items(client: TestClient, query: str) -> None:
    response = client.get(f"/incidents.csv?{query}")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/csv")
    reader = csv.DictReader(io.StringIO(response.text))
    assert tuple(reader.fieldnames or ()) == exports.CSV_COLUMNS
    rows = list(reader)
    items = api_items(client, query)
    assert [row["id"] for row in rows] == [item["id"] for item in items]
    for row, item in zip(rows, items, strict=True):
        for dim in DIMENSIONS:
            assert [s for s in row[dim].split(";") if s] == item["tags"][dim]
        assert (row["title_en"], row["title_ko"]) == (item["title"]["en"], item["title"]["ko"])
        assert row["url"] == item["url"]
        assert row["source_urls"].startswith("http")


@pytest.mark.parametrize("query", EXPORT_FILTERS)
def test_json_export_is_the_whole_result(client: TestClient, query: str) -> None:
    response = client.get(f"/incidents.json?{query}")
    assert response.status_code == 200
    body = response.json()
    api = client.get(f"/api/incidents?{query}").json()
    assert body["total"] == api["total"] == len(body["items"])
    assert [i["id"] for i in body["items"]] == [i["id"] for i in api_items(client, query)]
    assert body["filters"]["query"] == urlsplit(api["links"]["first"]).query
    assert all(item["sources"] for item in body["items"])


def test_whole_library_export_streams_past_one_chunk(
    client: TestClient, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(exports, "CHUNK", 7)
    body = client.get("/incidents.json").json()
    assert body["total"] == store.total == len(body["items"])
    assert [i["id"] for i in body["items"]] == newest_ids(store, "", store.total)
    lines = client.get("/incidents.csv").text.splitlines()
    assert len(list(csv.DictReader(lines))) == store.total


@pytest.mark.parametrize(
    ("query", "name"),
    [
        ("", "incidents"),
        ("cause=capacity-limit&from=2019&to=2023", "incidents-cause-capacity-limit-2019-2023"),
        ("cause=b-c&cause=a", "incidents-cause-a-b-c"),
        (
            "q=DNS timeouts&component=etcd&from=2020",
            "incidents-search-dns-timeouts-component-etcd-from-2020",
        ),
        ("q=전력&to=2021", "incidents-search-text-to-2021"),
        (
            "org=mybinder.org (Binder team)&from=2020&to=2020",
            "incidents-org-mybinder-org-binder-team-2020",
        ),
    ],
)
def test_export_file_names_say_what_was_filtered(query: str, name: str) -> None:
    filters = Filter.parse(parse_qsl(query))
    assert exports.export_filename(filters, "csv") == f"{name}.csv"


def test_export_is_an_attachment_named_after_the_filter(client: TestClient) -> None:
    response = client.get("/incidents.csv?cause=capacity-limit&from=2019&to=2023")
    assert response.headers["content-disposition"] == (
        'attachment; filename="incidents-cause-capacity-limit-2019-2023.csv"'
    )
    response = client.get("/incidents.json?q=전력")
    assert response.headers["content-disposition"] == (
        'attachment; filename="incidents-search-text.json"'
    )
    long = client.get("/incidents.json?" + "&".join(f"org={o}" for o in ["a" * 150]))
    assert long.status_code == 400  # an unknown organisation, not a huge header
