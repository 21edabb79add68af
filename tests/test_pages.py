"""HTTP tests of the pages: canonical URLs, notices, paging, htmx partials, languages, safety."""

import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from app.store import Store


def total_on(html: str) -> int:
    match = re.search(r'class="total">(?:사례 )?(\d+)', html)
    assert match, "no result count on the page"
    return int(match.group(1))


def test_root_lands_on_the_incident_list(client: TestClient) -> None:
    response = client.get("/")
    assert response.status_code == 302
    assert response.headers["location"] == "/incidents"


def test_list_shows_the_whole_library_newest_first(client: TestClient, store: Store) -> None:
    response = client.get("/incidents")
    assert response.status_code == 200
    assert total_on(response.text) == store.total
    ids = re.findall(r'class="card-id" href="/incidents/(IL-\d+)"', response.text)
    assert len(ids) == 20
    newest = store.rows_by_rank(list(range(20)))
    assert ids == [row["slug"] for row in newest]
    assert f"1–20 of {store.total}" in response.text


@pytest.mark.parametrize(
    ("query", "location"),
    [
        (
            "cause=software-bug&cause=capacity-limit",
            "/incidents?cause=capacity-limit&cause=software-bug",
        ),
        ("component=etcd&cause=capacity-limit", "/incidents?cause=capacity-limit&component=etcd"),
        ("cause=capacity-limit&cause=capacity-limit", "/incidents?cause=capacity-limit"),
        ("q=&cause=capacity-limit&page=1", "/incidents?cause=capacity-limit"),
        ("q=etcd+leader", "/incidents?q=etcd%20leader"),
    ],
)
def test_non_canonical_query_redirects_to_canonical(
    client: TestClient, query: str, location: str
) -> None:
    response = client.get(f"/incidents?{query}")
    assert response.status_code == 302
    assert response.headers["location"] == location
    assert client.get(location).status_code == 200


def test_unknown_slug_is_a_visible_notice_not_an_error(client: TestClient) -> None:
    response = client.get("/incidents?cause=xyz&cause=capacity-limit")
    assert response.status_code == 200
    assert "unknown cause &#39;xyz&#39; ignored" in response.text
    assert '<link rel="canonical" href="/incidents?cause=capacity-limit">' in response.text


@pytest.mark.parametrize("page", ["-3", "abc", "0", "1e9", "99999999999"])
def test_nonsense_page_numbers_get_a_sensible_page(client: TestClient, page: str) -> None:
    response = client.get(f"/incidents?page={page}")
    assert response.status_code == 200
    assert "1–20 of" in response.text


def test_page_far_past_the_end_shows_the_last_page(client: TestClient, store: Store) -> None:
    response = client.get("/incidents?page=9999")
    assert response.status_code == 200
    last = -(-store.total // 20)
    assert f"page 9999 is past the end; showing page {last}" in response.text
    assert f"of {store.total}" in response.text


def test_second_page_continues_where_the_first_ends(client: TestClient, store: Store) -> None:
    response = client.get("/incidents?page=2")
    ids = re.findall(r'class="card-id" href="/incidents/(IL-\d+)"', response.text)
    assert ids == [row["slug"] for row in store.rows_by_rank(list(range(20, 40)))]
    assert 'rel="prev"' in response.text


def test_htmx_request_gets_only_the_results_block(client: TestClient) -> None:
    response = client.get("/incidents?cause=capacity-limit", headers={"HX-Request": "true"})
    assert response.status_code == 200
    assert "<html" not in response.text
    assert response.text.lstrip().startswith('<div id="results"')
    assert "HX-Request" in response.headers["vary"]
    assert response.headers["hx-push-url"] == "/incidents?cause=capacity-limit"


def test_htmx_request_with_non_canonical_query_pushes_the_canonical_url(client: TestClient) -> None:
    response = client.get(
        "/incidents?q=&component=etcd&cause=capacity-limit", headers={"HX-Request": "true"}
    )
    assert response.status_code == 200
    assert response.headers["hx-push-url"] == "/incidents?cause=capacity-limit&component=etcd"


def test_history_restore_gets_the_full_page(client: TestClient) -> None:
    response = client.get(
        "/incidents?cause=capacity-limit",
        headers={"HX-Request": "true", "HX-History-Restore-Request": "true"},
    )
    assert "<html" in response.text


def test_plain_get_form_search_works_without_javascript(client: TestClient) -> None:
    response = client.get("/incidents?q=etcd&from=&to=", follow_redirects=True)
    assert response.status_code == 200
    assert str(response.url).endswith("/incidents?q=etcd")
    assert total_on(response.text) > 0
    assert '<form id="search-form"' in response.text and 'method="get"' in response.text


def test_korean_page_uses_seed_labels(client: TestClient) -> None:
    response = client.get("/incidents?cause=capacity-limit&factor=untested-assumption&lang=ko")
    assert response.status_code == 200
    html = response.text
    assert '<html lang="ko">' in html
    for label in ("적용된 필터", "모두 풀기", "용량 한계", "미검증 가정", "원인별"):
        assert label in html
    assert "검색어 없이 필터만 적용한 목록입니다. 최근 사례부터입니다." in html
    assert response.cookies.get("lang") == "ko"
    # 추천 필터 appear once there is search text to recommend from
    searched = client.get("/incidents?q=%EC%A0%84%EB%A0%A5&lang=ko").text
    assert "추천 필터" in searched and "전력" in searched


def test_accept_language_chooses_korean(app: object) -> None:
    with TestClient(app) as fresh:  # type: ignore[arg-type]
        html = fresh.get("/incidents", headers={"Accept-Language": "ko-KR,ko;q=0.9,en;q=0.8"}).text
    assert '<html lang="ko">' in html


def test_cookie_language_wins_over_accept_language(app: object) -> None:
    with TestClient(app) as fresh:  # type: ignore[arg-type]
        fresh.cookies.set("lang", "en")
        html = fresh.get("/incidents", headers={"Accept-Language": "ko"}).text
    assert '<html lang="en">' in html


def test_language_switch_keeps_the_filters(client: TestClient) -> None:
    html = client.get("/incidents?cause=capacity-limit&page=2").text
    assert (
        'class="lang-switch" href="/incidents?cause=capacity-limit&amp;page=2&amp;lang=ko"' in html
    )


def test_incident_page_shows_every_section_and_sources(client: TestClient) -> None:
    response = client.get("/incidents/IL-0129")
    assert response.status_code == 200
    html = response.text
    for anchor, heading in (
        ("symptom", "Symptom"),
        ("trigger", "Trigger"),
        ("cause", "Cause"),
        ("component", "Component"),
        ("detection", "Detection"),
        ("actions", "Actions"),
        ("lessons", "Lessons"),
    ):  # each section has an anchor of its own to link to
        assert f'<dt id="{anchor}">{heading} <a class="anchor" href="#{anchor}"' in html
    assert 'rel="noopener noreferrer external"' in html
    assert 'href="/incidents?component=shared-network-filesystem"' in html
    assert "Related incidents" in html


def test_incident_page_in_korean(client: TestClient) -> None:
    html = client.get("/incidents/IL-0094?lang=ko").text
    assert '<dt id="symptom">증상 ' in html and '<dt id="lessons">교훈 ' in html
    assert "JupyterHub 클러스터에서" in html


def test_missing_incident_is_a_404_page(client: TestClient) -> None:
    response = client.get("/incidents/IL-99999")
    assert response.status_code == 404
    assert "IL-99999" in response.text
    assert "Traceback" not in response.text


def test_unknown_path_is_a_404_page(client: TestClient) -> None:
    response = client.get("/nothing/here")
    assert response.status_code == 404
    assert "<html" in response.text


def test_overlong_search_text_is_a_clear_400(client: TestClient) -> None:
    response = client.get("/incidents", params={"q": "a" * 5000})
    assert response.status_code == 400
    assert "longer than 500 characters" in response.text


def test_security_headers_on_every_response(client: TestClient) -> None:
    for path in ("/incidents", "/static/app.css", "/incidents/IL-0129", "/nope"):
        headers = client.get(path).headers
        csp = headers["content-security-policy"]
        assert "script-src 'self'" in csp and "frame-ancestors 'none'" in csp
        assert headers["x-content-type-options"] == "nosniff"
        assert headers["referrer-policy"]


def test_static_files_do_not_escape_the_static_folder(client: TestClient) -> None:
    for path in (
        "/static/../pyproject.toml",
        "/static/%2e%2e/pyproject.toml",
        "/static/..%2fapp/main.py",
    ):
        response = client.get(path)
        assert response.status_code == 404
        assert "[project]" not in response.text


def test_search_text_is_escaped_in_the_page(client: TestClient) -> None:
    payload = "<script>alert(1)</script>\"'><img src=x onerror=alert(1)>"
    response = client.get("/incidents", params={"q": payload}, follow_redirects=True)
    assert response.status_code == 200
    assert "<script>alert(1)</script>" not in response.text
    assert "<img src=x" not in response.text


def test_list_links_every_graph_view_with_the_same_filters(client: TestClient) -> None:
    html = client.get("/incidents?cause=capacity-limit").text
    assert 'href="/graph?cause=capacity-limit"' in html
    assert 'href="/graph?cause=capacity-limit&amp;view=incident"' in html
    ko = client.get("/incidents?cause=capacity-limit&lang=ko").text
    assert "원인 → 구성 요소" in ko


def test_the_incident_page_says_how_it_was_checked_in_both_languages(
    client: TestClient, data_dir: Path
) -> None:
    import yaml

    seen = set()
    for path in sorted((data_dir / "incidents").glob("IL-*.yaml")):
        review = yaml.safe_load(path.read_text()).get("review")
        if not review or review["read"] in seen:
            continue
        seen.add(review["read"])
        for lang, words in (("en", "Checked against the report on"), ("ko", "보고서와 대조")):
            page = client.get(f"/incidents/{path.stem}?lang={lang}").text
            if review["read"] == "none":
                words = "Not re-checked" if lang == "en" else "다시 대조하지 못했습니다"
            assert words in page, (path.stem, lang)
            if review["read"] != "full":
                assert review["part"][lang].split(";")[0][:20] in page.replace("&#39;", "'")
    assert {"full", "partial"} <= seen


# -- issue 13: small things that add up ------------------------------------------------------
def test_list_page_has_one_h1_with_the_count_in_either_language(
    client: TestClient, store: Store
) -> None:
    html = client.get("/incidents").text
    assert html.count("<h1") == 1
    assert f'<span class="total">{store.total} incidents</span></h1>' in html
    ko = client.get("/incidents?lang=ko").text
    assert f'<span class="total">사례 {store.total}건</span></h1>' in ko
    assert "사례 사례" not in ko


def test_one_incident_is_singular(client: TestClient, store: Store) -> None:
    single = next(org for org in store.orgs if store.counts.get(("org", org)) == 1)
    html = client.get("/incidents", params={"org": single}, follow_redirects=True).text
    assert '<span class="total">1 incident</span>' in html
    assert "1 incidents" not in html


def test_empty_list_suggests_each_removal_that_gives_results(
    client: TestClient, store: Store
) -> None:
    # a cause and a component that never meet
    facets = client.get("/api/facets?cause=power-cooling-failure").json()
    never = next(
        v["slug"]
        for v in facets["component"]["values"]
        if v["count"] == 0 and store.counts.get(("component", v["slug"]), 0) > 0
    )
    query = f"cause=power-cooling-failure&component={never}"
    html = client.get(f"/incidents?{query}").text
    assert total_on(html) == 0
    suggestions = re.findall(
        r'<li><a href="([^"]+)" hx-get="[^"]+">.*?</a> → <span class="count">(\d+) incidents?</span>',
        html,
    )
    assert len(suggestions) == 2, "dropping the cause or the component gives results"
    counts = [int(n) for _, n in suggestions]
    assert counts == sorted(counts, reverse=True)
    for url, n in suggestions:  # each count is exactly what its link opens
        assert total_on(client.get(url.replace("&amp;", "&")).text) == int(n)


def test_csv_for_excel_starts_with_a_byte_order_mark(client: TestClient) -> None:
    html = client.get("/incidents?cause=capacity-limit&lang=ko").text
    assert 'href="/incidents.csv?cause=capacity-limit&amp;lang=ko&amp;bom=1" download' in html
    plain = client.get("/incidents.csv?cause=capacity-limit")
    excel = client.get("/incidents.csv?cause=capacity-limit&bom=1")
    assert excel.status_code == plain.status_code == 200
    assert excel.content == "\ufeff".encode() + plain.content
    assert not plain.content.startswith(b"\xef\xbb\xbf")
    assert client.get("/incidents.csv?bom=maybe").status_code == 400
    schema = client.get("/openapi.json").json()
    names = [p["name"] for p in schema["paths"]["/incidents.csv"]["get"]["parameters"]]
    assert "bom" in names


def test_api_docs_are_a_page_of_the_site_listing_every_endpoint(client: TestClient) -> None:
    response = client.get("/docs")
    assert response.status_code == 200
    html = response.text
    assert 'class="site-header"' in html and 'class="lang-switch"' in html
    assert "swagger" not in html.lower() and "unsafe-inline" not in response.headers.get(
        "content-security-policy", ""
    )
    for path in client.get("/openapi.json").json()["paths"]:
        assert f"<code>{path}</code>" in html
    assert 'href="/api/taxonomy"' in html
    ko = client.get("/docs?lang=ko").text
    assert '<html lang="ko">' in ko and "엔드포인트" in ko and ' lang="en">' in ko
