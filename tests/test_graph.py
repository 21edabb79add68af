"""The graph view (issue #4): weights equal the list's counts, links round-trip, SVG is a11y."""

import json
import re
from collections import Counter
from collections.abc import Callable
from itertools import product
from typing import Any
from urllib.parse import parse_qsl, urlsplit

import networkx as nx
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text

from app import graph as g
from app import graph_layout as gl
from app import graph_order as go
from app.incidents import list_incidents, parse_filter, result_bits
from app.store import Store

PAIR_VIEWS = [name for name in g.VIEWS if name != "incident"]


def api(client: TestClient, query: str) -> dict[str, object]:
    response = client.get(f"/api/graph?{query}")
    assert response.status_code == 200, response.text
    body: dict[str, object] = response.json()
    return body


def list_total(store: Store, url: str) -> int:
    """What clicking a graph link shows: the list's total for that URL."""
    parts = urlsplit(url)
    assert parts.path == "/incidents"
    filters = parse_filter(store, parse_qsl(parts.query))
    assert not filters.ignored
    return list_incidents(store, filters, lang="en").total


def leaf_slugs(store: Store, kind: str) -> set[str]:
    terms = store.taxonomy.terms[kind]
    parents = {t.parent for t in terms if t.parent}
    return {t.slug for t in terms if t.slug not in parents}


def cooccurrence(store: Store, kind_a: str, kind_b: str) -> Counter[tuple[str, str]]:
    """Pairs counted straight from each incident's tags (independent of the bitsets)."""
    counts: Counter[tuple[str, str]] = Counter()
    keep_a, keep_b = leaf_slugs(store, kind_a), leaf_slugs(store, kind_b)
    with store.engine.connect() as conn:
        for (tags_json,) in conn.execute(text("SELECT tags_json FROM incident")):
            tags = json.loads(tags_json)
            pairs = product(set(tags.get(kind_a, [])), set(tags.get(kind_b, [])))
            counts.update((a, b) for a, b in pairs if a in keep_a and b in keep_b)
    return counts


# -- weights and links against the list ---------------------------------------------------------
def test_every_cause_component_edge_weight_equals_the_list_total(
    client: TestClient, store: Store
) -> None:
    body = api(client, "limit=all&min=1")
    edges = body["edges"]
    assert isinstance(edges, list) and edges
    expected = cooccurrence(store, "cause", "component")
    got = {(e["source"].split(":")[1], e["target"].split(":")[1]): e["weight"] for e in edges}
    assert got == dict(expected)  # every co-occurring pair, no other
    for edge in edges:
        assert edge["weight"] == list_total(store, edge["url"])


@pytest.mark.parametrize("view", PAIR_VIEWS)
def test_every_view_matches_the_incidents_tags(client: TestClient, store: Store, view: str) -> None:
    kind_a, kind_b = g.VIEWS[view]
    body = api(client, f"view={view}&limit=all&min=1")
    got = {
        (e["source"].split(":")[1], e["target"].split(":")[1]): e["weight"]
        for e in body["edges"]  # type: ignore[union-attr]
    }
    assert got == dict(cooccurrence(store, kind_a, kind_b))


@pytest.mark.parametrize("view", PAIR_VIEWS)
def test_node_links_round_trip_to_the_filtered_list(
    client: TestClient, store: Store, view: str
) -> None:
    body = api(client, f"view={view}&limit=all&min=1")
    nodes = body["nodes"]
    assert isinstance(nodes, list) and nodes
    for node in nodes:
        query = dict(parse_qsl(urlsplit(node["url"]).query))
        assert query == {node["kind"]: node["slug"]}
        assert node["count"] == list_total(store, node["url"])


def test_a_filtered_graph_only_counts_incidents_of_that_filter(
    client: TestClient, store: Store
) -> None:
    symptom = max(
        leaf_slugs(store, "symptom"), key=lambda s: (store.counts.get(("symptom", s), 0), s)
    )
    body = api(client, f"symptom={symptom}&limit=all&min=1")
    total = list_total(store, f"/incidents?symptom={symptom}")
    assert body["total"] == total
    assert body["filters"]["symptom"] == [symptom]  # type: ignore[index]
    for node in body["nodes"]:  # type: ignore[union-attr]
        assert f"symptom={symptom}" in node["url"]
        assert 0 < node["count"] <= total
        assert node["count"] == list_total(store, node["url"])
    for edge in body["edges"]:  # type: ignore[union-attr]
        assert f"symptom={symptom}" in edge["url"]
        assert edge["weight"] == list_total(store, edge["url"])


def test_the_incident_view_shows_only_incidents_of_the_filter(
    client: TestClient, store: Store
) -> None:
    cause = "software-bug" if store.is_known("cause", "software-bug") else "config-change"
    body = api(client, f"cause={cause}&view=incident&limit=all")
    filters = parse_filter(store, [("cause", cause)])
    wanted = {
        row["slug"] for row in store.rows_by_rank(list(store.ranks(result_bits(store, filters))))
    }
    shown = {n["slug"] for n in body["nodes"] if n["kind"] == "incident"}  # type: ignore[union-attr]
    assert shown and shown <= wanted
    assert len(shown) == min(len(wanted), 200)
    for edge in body["edges"]:  # type: ignore[union-attr]
        assert edge["source"].startswith("incident:")
        assert edge["target"].split(":")[0] in g.INCIDENT_KINDS


def test_search_text_narrows_the_graph_like_the_list(client: TestClient, store: Store) -> None:
    body = api(client, "q=etcd&limit=all&min=1")
    assert body["total"] == list_total(store, "/incidents?q=etcd")
    for edge in body["edges"]:  # type: ignore[union-attr]
        assert "q=etcd" in edge["url"]
        assert edge["weight"] == list_total(store, edge["url"])


# -- limits, threshold and errors ----------------------------------------------------------------
def test_top_n_folds_the_rest_into_a_note(client: TestClient, store: Store) -> None:
    body = api(client, "limit=5")
    hidden = body["hidden"]
    components = [n for n in body["nodes"] if n["kind"] == "component"]  # type: ignore[union-attr]
    assert len(components) == 5
    assert hidden["component"] > 0  # type: ignore[index]
    page = client.get("/graph?limit=5")
    assert f"{hidden['component']} more components not shown" in page.text  # type: ignore[index]
    assert 'href="/graph?limit=all"' in page.text


def test_min_weight_drops_light_edges(client: TestClient) -> None:
    body = api(client, "limit=all&min=3")
    assert body["edges"]
    assert all(e["weight"] >= 3 for e in body["edges"])  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("query", "parameter"),
    [("cause=no-such-cause", "cause"), ("view=nonsense", "view"), ("limit=9999", "limit")],
)
def test_api_graph_is_a_400_for_unknown_values(
    client: TestClient, query: str, parameter: str
) -> None:
    response = client.get(f"/api/graph?{query}")
    assert response.status_code == 400
    body = response.json()
    assert body["parameter"] == parameter
    assert body["error"]


def test_openapi_documents_the_graph_response(client: TestClient) -> None:
    schema = client.get("/openapi.json").json()
    operation = schema["paths"]["/api/graph"]["get"]
    ref = operation["responses"]["200"]["content"]["application/json"]["schema"]["$ref"]
    assert ref.endswith("/GraphPublic")
    props = schema["components"]["schemas"]["GraphNode"]["properties"]
    assert set(props) == {"id", "kind", "slug", "label", "count", "url"}


# -- the HTML page ---------------------------------------------------------------------------------
def test_the_svg_has_titles_and_links_for_every_node_and_edge(client: TestClient) -> None:
    body = api(client, "")
    response = client.get("/graph")
    assert response.status_code == 200
    html = response.text
    svg = html[html.index("<svg") : html.index("</svg>")]
    nodes = re.findall(r'<a class="graph-node[^"]*" href="([^"]+)"[^>]*>\s*<title>', svg)
    edges = re.findall(r'<a class="graph-edge" href="([^"]+)"[^>]*>\s*<title>', svg)
    assert len(nodes) == len(body["nodes"])  # type: ignore[arg-type]
    assert len(edges) == len(body["edges"])  # type: ignore[arg-type]
    assert all(url.startswith("/incidents?") for url in nodes + edges)
    assert ' style="' not in html and "<script>" not in html  # CSP: no inline styles or scripts


def test_the_graph_page_redirects_to_its_canonical_url(client: TestClient) -> None:
    response = client.get("/graph?view=cause-factor&page=3&cause=software-bug&min=1")
    assert response.status_code == 302
    assert response.headers["location"] == "/graph?cause=software-bug&view=cause-factor&min=1"
    response = client.get("/graph?min=&view=cause-factor")  # the form's "automatic" choice
    assert response.headers["location"] == "/graph?view=cause-factor"
    assert client.get("/graph?view=cause-component").headers["location"] == "/graph"


def test_unknown_values_on_the_page_are_a_notice_not_an_error(client: TestClient) -> None:
    response = client.get("/graph?cause=no-such-cause&view=nonsense")
    assert response.status_code == 200
    assert "unknown cause &#39;no-such-cause&#39; ignored" in response.text
    assert "unknown graph view" in response.text


def test_graph_and_list_link_to_each_other_keeping_filters(client: TestClient) -> None:
    html = client.get("/graph?cause=software-bug&view=cause-factor").text
    assert 'href="/incidents?cause=software-bug"' in html
    tab = 'href="/graph?cause=software-bug&amp;view=component-symptom"'
    assert tab in html


def test_the_page_speaks_korean(client: TestClient, store: Store) -> None:
    html = client.get("/graph?lang=ko").text
    assert "그래프: 원인에서 구성 요소로" in html
    assert "원인 → 구성 요소" in html
    term = store.taxonomy.terms["cause"][0]
    assert term.label_ko in html


def test_search_text_is_escaped(client: TestClient) -> None:
    url = "/graph?q=%3Cscript%3Ealert(1)%3C/script%3E"
    html = client.get(url, follow_redirects=True).text
    assert "<script>alert(1)" not in html
    assert "&lt;script&gt;alert(1)" in html


# -- the pure model --------------------------------------------------------------------------------
def _link(values: object) -> str:
    return "/x?" + "&".join(f"{k}={s}" for k, s in values)  # type: ignore[attr-defined]


def _small() -> g.Built:
    # incidents 0..5 as bits
    left = [g.Term("cause", "a", "A", 0b000111), g.Term("cause", "b", "B", 0b111000)]
    right = [
        g.Term("component", "x", "X", 0b100001),
        g.Term("component", "y", "Y", 0b000110),
        g.Term("component", "z", "Z", 0b011000),
    ]
    return g.pair_graph(0b111111, left, right, link=_link, limit=None)


def test_pair_graph_weights_are_bitset_intersections() -> None:
    graph = _small().graph
    weights = {(u, v): w for u, v, w in graph.edges(data="weight")}
    assert weights == {
        ("cause:a", "component:x"): 1,
        ("cause:a", "component:y"): 2,
        ("cause:b", "component:x"): 1,
        ("cause:b", "component:z"): 2,
    }
    assert graph.nodes["cause:a"]["count"] == 3


def test_barycentre_order_removes_crossings_and_is_deterministic() -> None:
    graph = _small().graph
    left, right = go.order_columns(graph)
    assert go.crossings(graph, left, right) == 0  # y, x, z: the shared x sits in the middle
    assert (left, right) == go.order_columns(graph)
    assert gl.layout(graph) == gl.layout(graph)


@pytest.mark.parametrize(
    ("weights", "max_lines", "expected"),
    [
        ([5, 4, 3, 2, 1], 5, 1),  # all fit
        ([5, 4, 3, 2, 1], 3, 3),  # 5, 4, 3
        ([5, 4, 3, 3, 3, 1], 3, 4),  # a tie at the edge: 3 would draw five lines
        ([2, 2, 2], 1, 2),  # the heaviest alone are too many: drawn, not an empty picture
        ([3, 2, 2], 1, 3),
        ([], 60, 1),
    ],
)
def test_legible_min_is_the_smallest_minimum_within_the_budget(
    weights: list[int], max_lines: int, expected: int
) -> None:
    assert g.legible_min(weights, max_lines) == expected
    if expected < max(weights, default=1):
        assert sum(w >= expected for w in weights) <= max_lines
    assert expected == 1 or sum(w >= expected - 1 for w in weights) > max_lines


def test_layout_keeps_labels_apart_and_outside_the_columns() -> None:
    picture = gl.layout(_small().graph)
    for side in ("left", "right"):
        ys = sorted(n.y for n in picture.nodes if n.side == side)
        assert all(b - a >= gl.ROW for a, b in zip(ys, ys[1:], strict=False))
    for node in picture.nodes:
        if node.side == "left":
            assert node.anchor == "end" and node.label_x < node.x - node.r
        else:
            assert node.anchor == "start" and node.label_x > node.x + node.r
    assert max(n.label_x for n in picture.nodes) < picture.width


GRAPH_FILTERS = [
    "cause=capacity-limit",
    "component=dns",
    "cause=capacity-limit&cause=software-bug",  # two values of one dimension
    "component=kubernetes&factor=-untested-assumption",  # a group and an exclusion
    "q=etcd",  # a search text
    "cause=config-change&cause=%2Bsoftware-bug&symptom=-full-outage&from=2015",
]


@pytest.mark.parametrize("query", GRAPH_FILTERS)
def test_every_number_on_a_filtered_graph_opens_a_list_of_that_size(
    client: TestClient, store: Store, query: str
) -> None:
    walked = 0
    for view in PAIR_VIEWS:
        body = api(client, f"{query}&view={view}&limit=all&min=1")
        assert body["total"] == list_total(store, f"/incidents?{query}")
        for node in body["nodes"]:  # type: ignore[union-attr]
            assert node["count"] == list_total(store, node["url"]), (view, node["slug"])
            walked += 1
        for edge in body["edges"]:  # type: ignore[union-attr]
            assert edge["weight"] == list_total(store, edge["url"]), (view, edge["url"])
            walked += 1
    assert walked > 20


def test_the_html_graph_links_agree_with_their_labels(client: TestClient, store: Store) -> None:
    response = client.get("/graph?cause=capacity-limit&limit=all&lang=en", follow_redirects=True)
    assert response.status_code == 200
    page = response.text
    links = re.findall(
        r'<a class="graph-(?:node|edge)[^"]*" href="(/incidents\?[^"]+)"[^>]*>\s*'
        r"<title>[^<]*?(\d+) incidents</title>",
        page,
    )
    assert len(links) > 20
    for url, number in links:
        assert list_total(store, url.replace("&amp;", "&")) == int(number), url


# -- issue #14: a picture you can read -------------------------------------------------------------
def drawn_crossings(svg: str) -> int:
    """Pairs of lines that cross in the SVG as drawn (from each path's two end points)."""
    ends = [
        (float(y1), float(y2))
        for y1, y2 in re.findall(
            r'class="graph-line" d="M[\d.]+ ([\d.]+) C[\d. ]+? [\d.]+ ([\d.]+)"', svg
        )
    ]
    return sum(
        1
        for i, (a1, a2) in enumerate(ends)
        for b1, b2 in ends[i + 1 :]
        if (a1 - b1) * (a2 - b2) < 0
    )


def test_the_default_view_crosses_far_fewer_lines_than_taxonomy_order(
    client: TestClient, store: Store
) -> None:
    html = client.get("/graph").text
    svg = html[html.index("<svg") : html.index("</svg>")]
    drawn = drawn_crossings(svg)
    body = api(client, "")
    edges = [(e["source"], e["target"]) for e in body["edges"]]  # type: ignore[union-attr]
    assert len(edges) == svg.count('class="graph-line"')
    graph = nx.DiGraph()
    graph.add_edges_from(edges, weight=1)
    taxonomy = {
        g.node_id(kind, term.slug): index
        for kind in ("cause", "component")
        for index, term in enumerate(store.taxonomy.terms[kind])
    }
    counts = {n["id"]: (-n["count"], n["slug"]) for n in body["nodes"]}  # type: ignore[union-attr]
    linked = {side: sorted({e[i] for e in edges}) for i, side in enumerate(("left", "right"))}

    def crossings_by(key: Callable[[str], Any]) -> int:
        return go.line_crossings(
            graph, sorted(linked["left"], key=key), sorted(linked["right"], key=key)
        )

    in_taxonomy_order = crossings_by(taxonomy.__getitem__)
    in_count_order = crossings_by(counts.__getitem__)
    print(
        f"default view: {len(edges)} lines, {drawn} crossings drawn; taxonomy order "
        f"{in_taxonomy_order}, count order {in_count_order}"
    )
    assert drawn == int(re.search(r'data-crossings="(\d+)"', svg).group(1))  # type: ignore[union-attr]
    assert drawn <= 0.6 * in_taxonomy_order, (drawn, in_taxonomy_order)
    assert drawn <= 0.6 * in_count_order, (drawn, in_count_order)


def test_the_default_minimum_is_the_smallest_that_keeps_the_picture_legible(
    client: TestClient,
) -> None:
    for view in PAIR_VIEWS:
        body = api(client, f"view={view}")
        chosen = body["min_weight"]
        assert body["min_auto"] is True and isinstance(chosen, int)
        assert len(body["edges"]) <= g.MAX_LINES  # type: ignore[arg-type]
        every = api(client, f"view={view}&min=1")
        assert body["lines_below"] == len(every["edges"]) - len(body["edges"])  # type: ignore[arg-type]
        if chosen > 1:
            lower = api(client, f"view={view}&min={chosen - 1}")
            assert len(lower["edges"]) > g.MAX_LINES  # type: ignore[arg-type]
            assert lower["min_auto"] is False
    html = client.get("/graph").text
    chosen = api(client, "")["min_weight"]
    assert f'<option value="" selected>Automatic: {chosen}</option>' in html
    assert '<option value="1">1</option>' in html  # and it can be changed
    assert "at most 60 lines" in html


def test_each_view_has_its_own_heading_in_both_languages(client: TestClient) -> None:
    for lang in ("en", "ko"):
        headings = set()
        for view in g.VIEWS:
            html = client.get(f"/graph?view={view}&lang={lang}", follow_redirects=True).text
            heading = re.search(r'<h1 id="graph-h">([^<]+)</h1>', html)
            assert heading, view
            assert f"<title>{heading.group(1)} · " in html
            headings.add(heading.group(1))
            if lang == "ko":
                assert re.search(r"[\uac00-\ud7a3]", heading.group(1)), heading.group(1)
        assert len(headings) == len(g.VIEWS), headings
    html = client.get("/graph?view=cause-symptom&lang=en", follow_redirects=True).text
    assert "which symptoms each cause produced" in html
    assert "how causes lead to components" not in html


def test_the_incident_view_keeps_full_titles_and_a_show_all_path(
    client: TestClient, store: Store
) -> None:
    html = client.get("/graph?view=incident").text  # a fresh client: English, no cookie
    titles = dict(re.findall(r'data-node="incident:([^"]+)"[^>]*>\s*<title>([^<]+)</title>', html))
    assert len(titles) == g.DEFAULT_LIMIT
    every = list(store.ranks(result_bits(store, parse_filter(store, []))))
    rows = {row["slug"]: row["title_en"] for row in store.rows_by_rank(every)}
    long_titles = [slug for slug, title in titles.items() if len(title) > 60]
    assert long_titles  # the drawn labels are shortened, the <title> is not
    for slug in long_titles:
        assert titles[slug].replace("&#39;", "'").replace("&amp;", "&") == f"{slug} {rows[slug]}"
    total = api(client, "view=incident")["total"]
    assert 'href="/graph?view=incident&amp;limit=all">Show all' in html
    assert f'<a href="/incidents">All {total} incidents in the list</a>' in html


def test_the_list_page_previews_the_graph_of_its_result(client: TestClient) -> None:
    html = client.get("/incidents?cause=capacity-limit").text
    start = html.index('<section class="graph-preview"')
    preview = html[start : html.index("</section>", start)]
    assert 'href="/graph?cause=capacity-limit"' in preview  # the full view, same filters
    lines = preview.count('class="graph-line"')
    assert 0 < lines <= 20
    assert f"The {lines} strongest cause → component lines." in preview
    assert 'href="/graph?cause=capacity-limit&amp;view=incident"' in preview
    heaviest = [e["weight"] for e in api(client, "cause=capacity-limit&min=1")["edges"]]  # type: ignore[union-attr]
    widths = re.findall(r'class="graph-line" d="[^"]+" stroke-width="([\d.]+)"', preview)
    assert len(widths) == lines and lines <= len(heaviest)
    partial = client.get("/incidents?cause=software-bug", headers={"HX-Request": "true"}).text
    assert 'href="/graph?cause=software-bug"' in partial  # htmx swaps keep it current
