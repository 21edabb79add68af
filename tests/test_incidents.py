"""The one query path: results and facet counts checked against a brute-force count."""

from pathlib import Path
from typing import Any

import pytest

from app.facets import Filter
from app.importer import iter_incident_records
from app.incidents import FACET_KINDS, list_incidents, parse_filter
from app.schema import DIMENSIONS, IncidentFile
from app.store import Store


@pytest.fixture(scope="module")
def records(data_dir: Path) -> list[IncidentFile]:
    return [IncidentFile.model_validate(raw) for _, raw in iter_incident_records(data_dir)]


@pytest.fixture(scope="module", autouse=True)
def parents(store: Store) -> None:
    PARENTS.update({t.slug: t.parent for t in store.taxonomy.terms["component"] if t.parent})


PARENTS: dict[str, str] = {}


def values_of(record: IncidentFile, kind: str) -> set[str]:
    """The values an incident matches: a component also matches its group."""
    if kind == "org":
        return {record.organization}
    values = set(getattr(record.tags, kind))
    if kind == "component":
        values |= {PARENTS[v] for v in values if v in PARENTS}
    return values


def matches(record: IncidentFile, filters: Filter, *, without: str = "") -> bool:
    """The URL grammar read literally: plain values OR, `+` values AND, `-` values NOT."""
    for kind in FACET_KINDS:
        if kind == without:
            continue
        tokens = filters.values(kind)
        plain = {t for t in tokens if t[0] not in "+-"}
        required = {t[1:] for t in tokens if t[0] == "+"}
        excluded = {t[1:] for t in tokens if t[0] == "-"}
        have = values_of(record, kind)
        if (plain and not plain & have) or not required <= have or excluded & have:
            return False
    year = record.date_parts[0]
    if filters.year_from is not None and year < filters.year_from:
        return False
    return not (filters.year_to is not None and year > filters.year_to)


FILTERS = [
    "",
    "cause=capacity-limit",
    "cause=capacity-limit&cause=config-change",
    "cause=capacity-limit&factor=untested-assumption",
    "component=pod-scheduling&symptom=full-outage",
    "component=shared-network-filesystem",
    "from=2019&to=2021",
    "cause=power-cooling-failure&from=2016",
    "factor=single-point-of-failure&factor=global-rollout&component=dns",
    "component=kubernetes&cause=config-change",
    "component=kubernetes&component=storage&org=DFDS",
    "component=dns&cause=-config-change",
    "cause=capacity-limit&cause=%2Bsoftware-bug",
    "cause=capacity-limit&cause=software-bug&cause=%2Bconfig-change&factor=-untested-assumption",
    "component=kubernetes&org=-DFDS",
    "org=-DFDS&org=-GitHub",
    "component=-kubernetes&symptom=full-outage&symptom=-data-loss",
]


@pytest.mark.parametrize("query", FILTERS)
def test_results_and_facet_counts_equal_brute_force(
    store: Store, records: list[IncidentFile], query: str
) -> None:
    from urllib.parse import parse_qsl

    filters = parse_filter(store, parse_qsl(query))
    page = list_incidents(store, filters, lang="en")
    expected = [r for r in records if matches(r, filters)]
    assert page.total == len(expected)
    for kind in FACET_KINDS:
        for value in page.facets[kind].values:
            if value.selected:
                want = sum(1 for r in expected if value.slug in values_of(r, kind))
            else:  # an excluded value's link takes the exclusion off
                token = f"-{value.slug}" if value.state == "none" else value.slug
                clicked = filters.toggled(kind, token)
                want = sum(1 for r in records if matches(r, clicked))
            assert value.count == want, (kind, value.slug)


@pytest.mark.parametrize("query", FILTERS[:5] + FILTERS[-6:])
def test_facet_count_equals_click_result(store: Store, query: str) -> None:
    from urllib.parse import parse_qsl

    filters = parse_filter(store, parse_qsl(query))
    page = list_incidents(store, filters, lang="en")
    for kind in DIMENSIONS:
        for value in page.facets[kind].values:
            if value.selected or not value.count:
                continue
            clicked = parse_filter(store, parse_qsl(value.toggle_url.partition("?")[2]))
            assert list_incidents(store, clicked, lang="en").total == value.count
            if value.widens:
                assert value.added == value.count - page.total >= 0


@pytest.mark.parametrize("query", FILTERS[-6:])
def test_exclude_links_open_the_count_they_promise(store: Store, query: str) -> None:
    from urllib.parse import parse_qsl

    filters = parse_filter(store, parse_qsl(query))
    page = list_incidents(store, filters, lang="en")
    checked = 0
    for kind in DIMENSIONS:
        for value in page.facets[kind].values:
            if not value.exclude_url or not (value.count or value.selected):
                continue
            target = parse_filter(store, parse_qsl(value.exclude_url.partition("?")[2]))
            assert list_incidents(store, target, lang="en").total == value.excluded_count
            assert f"-{value.slug}" in target.values(kind) or value.state == "none"
            checked += 1
    assert checked > 10


def test_pages_cover_every_result_exactly_once(store: Store) -> None:
    filters = Filter(cause=("capacity-limit",))
    seen: list[str] = []
    page_number = 1
    while True:
        page = list_incidents(store, filters.with_(page=page_number), lang="en", page_size=7)
        seen.extend(card.slug for card in page.items)
        if page_number >= page.pages:
            break
        page_number += 1
    assert len(seen) == len(set(seen)) == list_incidents(store, filters, lang="en").total


def test_year_histogram_counts_ignore_the_year_filter(store: Store, records: list[Any]) -> None:
    page = list_incidents(store, Filter(year_from=2020, year_to=2020), lang="en")
    by_year = {bar.year: bar.count for bar in page.years}
    for year, count in by_year.items():
        assert count == sum(1 for r in records if r.date_parts[0] == year)


def test_group_by_cause_counts_the_current_result(store: Store) -> None:
    page = list_incidents(store, Filter(component=("pod-scheduling",)), lang="ko")
    for group in page.groups:
        both = Filter(cause=(group.term.slug,), component=("pod-scheduling",))
        assert group.count == list_incidents(store, both, lang="ko").total
        assert len(group.incidents) == min(3, group.count)


def test_recommended_filters_come_from_the_search_words(store: Store) -> None:
    page = list_incidents(store, Filter(q="etcd 전력 장애"), lang="ko")
    slugs = {(v.kind, v.slug) for v in page.recommendations}
    assert ("component", "etcd") in slugs
    assert ("cause", "power-cooling-failure") in slugs


def test_related_incidents_share_tags(store: Store) -> None:
    from app.incidents import get_incident

    detail = get_incident(store, "IL-0064", lang="en")
    assert detail is not None
    mine = {(d, t.slug) for d in DIMENSIONS for t in detail.card.tags[d]}
    assert detail.related
    for other in detail.related:
        assert other.slug != "IL-0064"
        assert mine & {(d, t.slug) for d in DIMENSIONS for t in other.tags[d]}
