"""Filter: parsing, canonical encoding, toggling; and its invariants under random input."""

from urllib.parse import parse_qsl

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.facets import KEYS, MAX_Q, Filter, FilterError

KNOWN = {("cause", "dns"), ("cause", "oom"), ("component", "etcd"), ("org", "GitHub")}


def known(dim: str, value: str) -> bool:
    return (dim, value) in KNOWN


def parse(query: str) -> Filter:
    return Filter.parse(parse_qsl(query, keep_blank_values=True), is_known=known)


@pytest.mark.parametrize(
    ("query", "canonical"),
    [
        ("", "/incidents"),
        ("cause=oom&cause=dns", "/incidents?cause=dns&cause=oom"),
        ("cause=dns&cause=dns", "/incidents?cause=dns"),
        (
            "component=etcd&q=etcd%20leader&cause=dns",
            "/incidents?q=etcd%20leader&cause=dns&component=etcd",
        ),
        ("q=&cause=&page=1&sort=", "/incidents"),
        ("q=%20%20a%20%20b%20", "/incidents?q=a%20b"),
        ("page=2&lang=ko&to=2023&from=2019", "/incidents?from=2019&to=2023&page=2&lang=ko"),
        ("from=2023&to=2019", "/incidents?from=2019&to=2023"),
        ("sort=recent", "/incidents"),
        ("q=x&sort=relevance", "/incidents?q=x"),
        ("q=x&sort=recent", "/incidents?q=x&sort=recent"),
        ("sort=oldest&org=GitHub", "/incidents?org=GitHub&sort=oldest"),
        ("q=%EC%A0%84%EB%A0%A5", "/incidents?q=%EC%A0%84%EB%A0%A5"),
        ("unknown=1&cause=dns", "/incidents?cause=dns"),
        # exclusion and required values: plain first, then +, then -, each sorted
        ("cause=-oom&cause=dns", "/incidents?cause=dns&cause=-oom"),
        ("cause=-oom&cause=-dns", "/incidents?cause=-dns&cause=-oom"),
        ("cause=%2Bdns", "/incidents?cause=dns"),
        ("cause=%2Boom&cause=%2Bdns", "/incidents?cause=dns&cause=%2Boom"),
        ("cause=oom&cause=%2Bdns", "/incidents?cause=dns&cause=%2Boom"),
        ("cause=dns&cause=+oom", "/incidents?cause=dns&cause=%2Boom"),  # raw + reads as space
        ("cause=dns&cause=oom&cause=%2Bdns", "/incidents?cause=dns"),
        ("org=-GitHub&component=-etcd", "/incidents?component=-etcd&org=-GitHub"),
        ("cause=-nope", "/incidents"),
        ("cause=-", "/incidents"),
    ],
)
def test_filter_canonical_url(query: str, canonical: str) -> None:
    assert parse(query).url() == canonical


@pytest.mark.parametrize(
    ("query", "parameter"),
    [
        ("cause=nope", "cause"),
        ("org=Nobody", "org"),
        ("page=-3", "page"),
        ("page=abc", "page"),
        ("from=19", "from"),
        ("sort=loudest", "sort"),
        ("lang=fr", "lang"),
    ],
)
def test_filter_drops_bad_values_with_a_reason(query: str, parameter: str) -> None:
    filters = parse(query)
    assert [i.parameter for i in filters.ignored] == [parameter]
    assert filters.url() == "/incidents"


def test_filter_drops_unknown_cause_but_keeps_known() -> None:
    filters = parse("cause=xyz&cause=dns")
    assert filters.cause == ("dns",)
    assert filters.ignored[0].reason == "unknown cause 'xyz' ignored"


def test_filter_rejects_overlong_search_text() -> None:
    with pytest.raises(FilterError) as error:
        parse("q=" + "a" * (MAX_Q + 1))
    assert error.value.parameter == "q"


def test_filter_rejects_too_many_values() -> None:
    with pytest.raises(FilterError):
        parse("&".join(f"cause=v{i}" for i in range(60)))


def test_toggle_adds_and_removes_and_returns_to_page_one() -> None:
    filters = parse("cause=dns&page=3")
    assert filters.toggled("cause", "oom").url() == "/incidents?cause=dns&cause=oom"
    assert filters.toggled("cause", "dns").url() == "/incidents"


def test_control_characters_are_removed_from_search_text() -> None:
    assert parse("q=a%00b%1Fc").q == "a b c"


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from([*KEYS, "x", "_size"]),
            st.one_of(
                st.text(max_size=30), st.sampled_from(["dns", "oom", "etcd", "GitHub", "2020", "7"])
            ),
        ),
        max_size=12,
    )
)
def test_canonical_form_is_idempotent(pairs: list[tuple[str, str]]) -> None:
    try:
        filters = Filter.parse(pairs, is_known=known)
    except FilterError:
        return
    again = Filter.parse(filters.query_pairs(), is_known=known)
    assert again == filters
    assert again.url() == filters.url()
    assert not again.ignored


def test_toggling_moves_a_value_between_its_states() -> None:
    f = parse("cause=dns")
    assert f.toggled("cause", "-dns").url() == "/incidents?cause=-dns"
    assert f.toggled("cause", "-dns").toggled("cause", "dns").url() == "/incidents?cause=dns"
    assert f.toggled("cause", "-oom").toggled("cause", "-oom").url() == "/incidents?cause=dns"
    both = parse("cause=dns").narrowed("cause", "oom")
    assert both.url() == "/incidents?cause=dns&cause=%2Boom"
    assert both.toggled("cause", "oom").url() == "/incidents?cause=dns"
    assert both.toggled("cause", "dns").url() == "/incidents?cause=oom"
    assert parse("cause=dns&cause=oom").narrowed("cause", "dns").url() == "/incidents?cause=dns"
    assert parse("").narrowed("component", "etcd").url() == "/incidents?component=etcd"
