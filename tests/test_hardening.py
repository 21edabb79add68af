"""Hostile input, a bounded load on loopback, and a rebuild while the server is busy."""

import shutil
import threading
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.importer import build
from app.store import Store
from tests.conftest import start_server

URLS = [
    "/incidents",
    "/incidents?cause=capacity-limit",
    "/incidents?q=etcd",
    "/incidents?q=%EC%A0%84%EB%A0%A5",
    "/incidents?component=kubernetes&page=2",
    "/incidents/IL-0129",
    "/graph",
    "/api/incidents?cause=config-change",
    "/incidents?cause=nope",
]


def fetch(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=30) as response:
            response.read()
            return int(response.status)
    except urllib.error.HTTPError as error:
        return int(error.code)


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    st.lists(
        st.tuples(
            st.sampled_from(
                [
                    "q",
                    "cause",
                    "component",
                    "symptom",
                    "factor",
                    "org",
                    "from",
                    "to",
                    "sort",
                    "page",
                    "lang",
                    "view",
                    "limit",
                ]
            ),
            st.text(max_size=60),
        ),
        max_size=8,
    )
)
def test_no_query_string_gives_a_server_error(
    client: TestClient, pairs: list[tuple[str, str]]
) -> None:
    for path in ("/incidents", "/api/incidents", "/graph", "/api/facets", "/incidents.atom"):
        response = client.get(path, params=pairs)
        assert response.status_code < 500, (path, pairs, response.text[:300])
        assert "Traceback" not in response.text


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=120))
def test_any_search_text_gives_a_page(store: Store, q: str) -> None:
    from app.facets import Filter, FilterError
    from app.incidents import list_incidents, parse_filter

    try:
        filters = parse_filter(store, [("q", q)])
    except FilterError:
        return
    page = list_incidents(store, filters, lang="ko")
    assert page.total >= 0
    assert Filter.parse(filters.query_pairs()).q == filters.q


def test_bounded_load_on_loopback_has_no_errors(server: str) -> None:
    urls = [server + URLS[i % len(URLS)] for i in range(400)]
    with ThreadPoolExecutor(max_workers=8) as pool:
        statuses = list(pool.map(fetch, urls))
    assert set(statuses) <= {200}, sorted(set(statuses))


def test_rebuild_under_load_answers_every_request(
    library_db: Path, data_dir: Path, tmp_path: Path
) -> None:
    db = tmp_path / "live.db"
    shutil.copy(library_db, db)
    process, base = start_server(db)
    failures: list[str] = []
    done = threading.Event()

    def hammer() -> None:
        count = 0
        while not done.is_set() or count < 50:
            url = base + URLS[count % (len(URLS) - 1)]
            status = fetch(url)
            if status != 200:
                failures.append(f"{url} -> {status}")
            count += 1

    try:
        workers = [threading.Thread(target=hammer) for _ in range(4)]
        for worker in workers:
            worker.start()
        for _ in range(2):
            build(data_dir, db)
        done.set()
        for worker in workers:
            worker.join(timeout=60)
    finally:
        process.terminate()
        process.wait(timeout=10)
    assert not failures, failures[:5]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["live.db"]
