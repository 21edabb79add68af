"""list_incidents(store, filters) -> IncidentPage, get_incident(store, slug): the one query path.

Pages, the API, the feed, the exports and the graph all call these with the same Filter.
"""

import json
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qsl, urlsplit

import numpy as np

from app.explain import SearchExplanation, explain, match_of
from app.facets import Filter, Selection, split_token
from app.schema import DIMENSIONS
from app.store import Store
from app.taxonomy import TermInfo

FACET_KINDS = (*DIMENSIONS, "org")
ORG_FACET_SIZE = 12
GROUP_SIZE = 3


@dataclass(frozen=True)
class FacetValue:
    """One value of a facet. For a value not selected, `count` is the size of the list
    `toggle_url` opens; for a selected one, its incidents in the current list.

    `state` is how the filter names it: "" (not at all), "any" (plain), "all" (+) or "none"
    (-). `widens` marks an unselected value of a dimension that already has a selection: a
    click adds it with OR, so the page shows `+added` (how many incidents it would add).
    """

    kind: str
    slug: str
    label: str
    count: int
    selected: bool
    toggle_url: str
    parent: str | None = None
    state: str = ""
    widens: bool = False
    added: int = 0
    exclude_url: str = ""
    excluded_count: int = 0  # the list's size with this value excluded


FACET_TOP = 8


@dataclass(frozen=True)
class Facet:
    kind: str
    values: tuple[FacetValue, ...]
    truncated: bool = False  # org: only the biggest values are listed

    @property
    def ranked(self) -> list[FacetValue]:
        """Selected values first, then by count (ties keep taxonomy order)."""
        return sorted(self.values, key=lambda v: (not v.selected, -v.count))

    @property
    def top(self) -> list[FacetValue]:
        return [v for v in self.ranked if v.selected or v.count][:FACET_TOP]

    @property
    def rest(self) -> list[FacetValue]:
        shown = {v.slug for v in self.top}
        return [v for v in self.ranked if v.slug not in shown]

    @property
    def tree(self) -> list[tuple[FacetValue, list[FacetValue]]]:
        """Top-level values (groups, and values whose parent is not listed), each with its
        members (taxonomy `parent`); both levels in `ranked` order."""
        slugs = {v.slug for v in self.values}
        members: dict[str, list[FacetValue]] = {}
        for value in self.ranked:
            if value.parent in slugs:
                members.setdefault(value.parent, []).append(value)
        return [(v, members.get(v.slug, [])) for v in self.ranked if v.parent not in slugs]


@dataclass(frozen=True)
class Chip:
    kind: str
    slug: str
    label: str
    remove_url: str
    mode: str = ""  # "" any of, "+" also required, "-" excluded


@dataclass(frozen=True)
class Suggestion:
    """For an empty list: one applied chip, and how many incidents its removal gives."""

    chip: Chip
    total: int


@dataclass(frozen=True)
class YearBar:
    year: int
    count: int
    selected: bool
    url: str


@dataclass(frozen=True)
class IncidentCard:
    slug: str
    organization: str
    date: str
    year: int
    title: str
    tags: dict[str, list[TermInfo]]
    body: dict[str, Any]
    snippet: Any = None  # Markup: the text around the searched words, highlighted
    patterns: tuple[str, ...] = ()
    duration: int | None = None  # minutes of impact, where the report gives start and end
    why: Any = None  # Markup: why it matched, when not plainly by its text (synonym, tag)


@dataclass(frozen=True)
class CauseGroup:
    term: TermInfo
    count: int
    url: str
    incidents: tuple[IncidentCard, ...]


@dataclass(frozen=True)
class PatternCount:
    slug: str
    title: str
    count: int


@dataclass(frozen=True)
class IncidentPage:
    filters: Filter
    lang: str
    total: int
    library_total: int
    page: int
    pages: int
    page_size: int
    start: int
    end: int
    items: tuple[IncidentCard, ...]
    facets: dict[str, Facet]
    chips: tuple[Chip, ...]
    years: tuple[YearBar, ...]
    top_components: tuple[FacetValue, ...]
    groups: tuple[CauseGroup, ...]
    recommendations: tuple[FacetValue, ...]
    patterns: tuple[PatternCount, ...]
    notices: tuple[str, ...] = ()
    page_urls: dict[str, str] = field(default_factory=dict)
    search: SearchExplanation | None = None  # what the search did (relaxed, corrected ...)
    suggestions: tuple[Suggestion, ...] = ()  # only for an empty list


def parse_filter(store: Store, pairs: list[tuple[str, str]]) -> Filter:
    """Filter.parse with this library's vocabulary (organisations matched case-insensitively)."""
    fixed = [(k, store.canonical_org(v) or v) if k == "org" else (k, v) for k, v in pairs]
    return Filter.parse(fixed, is_known=store.is_known)


def _dimension_mask(store: Store, filters: Filter, kind: str) -> int | None:
    """(any plain value) AND (every + value) AND NOT (any - value), as one bitset."""
    if not filters.values(kind):
        return None
    return _selection_mask(store, kind, filters.selection(kind))


def _selection_mask(store: Store, kind: str, selection: Selection, extra: str = "") -> int:
    """The bitset of a selection; `extra` is one more plain (OR) value, as a facet click adds."""
    mask = store.all_bits
    any_of = (*selection.any_of, extra) if extra else tuple(selection.any_of)
    if any_of:
        union = 0
        for slug in any_of:
            union |= store.term_bits(kind, slug)
        mask &= union
    for slug in selection.all_of:
        mask &= store.term_bits(kind, slug)
    for slug in selection.none_of:
        mask &= ~store.term_bits(kind, slug)
    return mask


def _year_mask(store: Store, filters: Filter) -> int | None:
    if filters.year_from is None and filters.year_to is None:
        return None
    low = filters.year_from if filters.year_from is not None else -1
    high = filters.year_to if filters.year_to is not None else 10**9
    mask = 0
    for year in store.years:
        if low <= year <= high:
            mask |= store.term_bits("year", str(year))
    return mask


def masks(store: Store, filters: Filter) -> dict[str, int]:
    """Each active constraint as a bitset: one per facet kind, years, and search text."""
    out: dict[str, int] = {}
    for kind in FACET_KINDS:
        mask = _dimension_mask(store, filters, kind)
        if mask is not None:
            out[kind] = mask
    year = _year_mask(store, filters)
    if year is not None:
        out["year"] = year
    if filters.q:
        out["q"] = store.search(filters.q).bits
    return out


def combine(store: Store, active: dict[str, int], *, without: str = "") -> int:
    result = store.all_bits
    for kind, mask in active.items():
        if kind != without:
            result &= mask
    return result


def result_bits(store: Store, filters: Filter) -> int:
    """The incidents a filter selects, as a bitset over sort_rank."""
    return combine(store, masks(store, filters))


def ordered_ranks(store: Store, filters: Filter, bits: int) -> np.ndarray:
    """Ranks of the selected incidents in the filter's sort order."""
    if filters.effective_sort == "relevance":
        order = store.search(filters.q).by_relevance
        if not len(order):
            return order
        keep = store.mask(bits)[order]
        selected: np.ndarray = order[keep]
        return selected
    if filters.effective_sort == "longest":
        longest: np.ndarray = store.longest_order[store.mask(bits)[store.longest_order]]
        return longest
    ranks = store.ranks(bits)
    return ranks[::-1] if filters.effective_sort == "oldest" else ranks


def top_ranks(store: Store, filters: Filter, bits: int, start: int, count: int) -> list[int]:
    """Ranks start..start+count of the selection in the filter's order.

    Newest-first near the top of the list walks the lowest set bits directly; anything else
    unpacks the bitset once.
    """
    if filters.effective_sort == "recent" and start + count <= 200:
        return store.first_ranks(bits, start + count)[start:]
    return [int(r) for r in ordered_ranks(store, filters, bits)[start : start + count]]


def list_incidents(
    store: Store, filters: Filter, *, lang: str, page_size: int = 20
) -> IncidentPage:
    """The incident list for a filter: one page of cards, facets, chips, groups, paging."""
    active = masks(store, filters)
    bits = combine(store, active)
    total = bits.bit_count()
    pages = max(1, -(-total // page_size))
    page = min(filters.page, pages)
    notices = [ignored.reason for ignored in filters.ignored]
    if filters.page > pages:
        notices.append(f"page {filters.page} is past the end; showing page {pages}")
    start = (page - 1) * page_size
    page_ranks = top_ranks(store, filters, bits, start, page_size)
    items = tuple(card(store, row, lang, filters.q) for row in store.rows_by_rank(page_ranks))
    facets = {kind: _facet(store, filters, active, kind, lang, bits) for kind in FACET_KINDS}
    chips = _chips(store, filters, lang)
    return IncidentPage(
        filters=filters,
        lang=lang,
        total=total,
        library_total=store.total,
        page=page,
        pages=pages,
        page_size=page_size,
        start=start + 1 if total else 0,
        end=start + len(page_ranks),
        items=items,
        facets=facets,
        chips=chips,
        years=_years(store, filters, active),
        top_components=_top_components(store, bits, filters, lang),
        groups=_groups(store, filters, bits, lang),
        recommendations=_recommendations(store, filters, lang),
        patterns=_patterns(store, bits, lang),
        notices=tuple(notices),
        page_urls=_page_urls(filters, page, pages),
        search=explain(store.search(filters.q), filters) if filters.q else None,
        suggestions=() if total else _suggestions(store, chips),
    )


def _facet(
    store: Store, filters: Filter, active: dict[str, int], kind: str, lang: str, bits: int
) -> Facet:
    """Counts given the other filters: an unselected value's count is what clicking it returns."""
    if kind == "org":
        return _org_facet(store, filters, active, bits)
    base = combine(store, active, without=kind)
    selection = filters.selection(kind)
    total = bits.bit_count()
    widening = bool(selection.any_of)
    values: list[FacetValue] = []
    for term in store.taxonomy.terms[kind]:
        term_bits = store.term_bits(kind, term.slug)
        state = selection.state(term.slug)
        inside = (bits & term_bits).bit_count()
        if state in ("any", "all"):
            count = inside  # a selected value shows its share of the list; its link removes it
            excluded = _count_after(store, filters, base, kind, f"-{term.slug}")
        elif state == "none":  # its link takes the exclusion off again
            count = excluded = _count_after(store, filters, base, kind, f"-{term.slug}")
        else:
            count = (base & _selection_mask(store, kind, selection, term.slug)).bit_count()
            excluded = total - inside
        values.append(
            FacetValue(
                kind,
                term.slug,
                term.label(lang),
                count,
                state in ("any", "all"),
                filters.toggled_url(kind, f"-{term.slug}" if state == "none" else term.slug),
                term.parent,
                state=state,
                widens=widening and not state,
                added=count - total if widening and not state else 0,
                exclude_url=filters.toggled_url(kind, f"-{term.slug}"),
                excluded_count=excluded,
            )
        )
    return Facet(kind, tuple(values))


def _suggestions(store: Store, chips: tuple[Chip, ...]) -> tuple[Suggestion, ...]:
    """Which single chip to remove from an empty list, and what each removal gives, most first.

    Each count is the size of the list the chip's own remove link opens: that URL is parsed
    back into its Filter, so the number and the link cannot disagree.
    """
    found = []
    for chip in chips:
        without = parse_filter(store, parse_qsl(urlsplit(chip.remove_url).query))
        count = result_bits(store, without).bit_count()
        if count:
            found.append(Suggestion(chip, count))
    found.sort(key=lambda s: -s.total)
    return tuple(found)


def _count_after(store: Store, filters: Filter, base: int, kind: str, token: str) -> int:
    """The list's size once `token` is toggled in `kind` (the rare, selected values only)."""
    selection = filters.toggled(kind, token).selection(kind)
    return (base & _selection_mask(store, kind, selection)).bit_count()


def _org_facet(store: Store, filters: Filter, active: dict[str, int], bits: int) -> Facet:
    """The biggest organisations; one bincount gives every organisation's count at once."""
    base = combine(store, active, without="org")
    own = active.get("org")
    size = len(store.orgs)
    in_base = store.bincount(base, store.org_of_rank, size)
    in_result = store.bincount(bits, store.org_of_rank, size)
    selection = filters.selection("org")
    # With plain organisations selected a click adds one (OR); otherwise it selects just that.
    already = (base & own).bit_count() if own is not None and selection.any_of else 0
    selected = set(selection.included)
    # Organisations are single-valued, so adding one adds exactly its incidents in `base`.
    counts = {
        org: int(in_result[i]) if org in selected else already + int(in_base[i])
        for i, org in enumerate(store.orgs)
    }
    present = [org for i, org in enumerate(store.orgs) if org in selected or in_base[i]]
    ranked = sorted(present, key=lambda org: (org not in selected, -counts[org], org.lower()))
    shown = ranked[: max(ORG_FACET_SIZE, len(selected))]
    values = tuple(
        FacetValue("org", org, org, counts[org], org in selected, filters.toggled_url("org", org))
        for org in shown
    )
    return Facet("org", values, truncated=len(ranked) > len(shown))


def _chips(store: Store, filters: Filter, lang: str) -> tuple[Chip, ...]:
    chips: list[Chip] = []
    if filters.q:
        chips.append(Chip("q", filters.q, filters.q, filters.with_(q="", sort="").url()))
    for kind in FACET_KINDS:
        for token in filters.values(kind):
            mode, slug = split_token(token)
            term = store.taxonomy.get(kind, slug)
            label = term.label(lang) if term else slug
            chips.append(Chip(kind, slug, label, filters.toggled(kind, token).url(), mode))
    if filters.year_from is not None:
        chips.append(
            Chip(
                "from",
                str(filters.year_from),
                str(filters.year_from),
                filters.with_(year_from=None).url(),
            )
        )
    if filters.year_to is not None:
        chips.append(
            Chip(
                "to", str(filters.year_to), str(filters.year_to), filters.with_(year_to=None).url()
            )
        )
    return tuple(chips)


def _years(store: Store, filters: Filter, active: dict[str, int]) -> tuple[YearBar, ...]:
    base = combine(store, active, without="year")
    bars = []
    for year in store.years:
        count = (base & store.term_bits("year", str(year))).bit_count()
        if not count:
            continue
        low, high = filters.year_from, filters.year_to
        selected = (low is not None or high is not None) and (low or 0) <= year <= (high or 9999)
        bars.append(
            YearBar(year, count, selected, filters.with_(year_from=year, year_to=year).url())
        )
    return tuple(bars)


def _top_components(store: Store, bits: int, filters: Filter, lang: str) -> tuple[FacetValue, ...]:
    """The most frequent components in the current result (groups left out), most first."""
    counted = []
    for term in store.taxonomy.terms["component"]:
        count = (bits & store.term_bits("component", term.slug)).bit_count()
        if count and term.parent is not None:
            counted.append((count, term))
    counted.sort(key=lambda pair: (-pair[0], pair[1].slug))
    return tuple(
        FacetValue(
            "component",
            t.slug,
            t.label(lang),
            c,
            t.slug in filters.included("component"),
            filters.narrowed("component", t.slug).url(),
        )
        for c, t in counted[:3]
    )


def _groups(store: Store, filters: Filter, bits: int, lang: str) -> tuple[CauseGroup, ...]:
    """원인별: each cause in the result, its count and its first incidents in the list's order."""
    found = []
    for term in store.taxonomy.terms["cause"]:
        cause_bits = bits & store.term_bits("cause", term.slug)
        count = cause_bits.bit_count()
        if count:
            found.append((term, count, top_ranks(store, filters, cause_bits, 0, GROUP_SIZE)))
    wanted = sorted({rank for _, _, ranks in found for rank in ranks})
    rows = {row["sort_rank"]: row for row in store.rows_by_rank(wanted, light=True)}
    groups = []
    for term, count, ranks in found:
        cards = tuple(card(store, rows[rank], lang, "") for rank in ranks)
        url = filters.narrowed("cause", term.slug).url()
        groups.append(CauseGroup(term, count, url, cards))
    groups.sort(key=lambda g: (-g.count, g.term.position))
    return tuple(groups)


def _recommendations(store: Store, filters: Filter, lang: str) -> tuple[FacetValue, ...]:
    if not filters.q:
        return ()
    out = []
    for term in store.taxonomy.recommend(filters.q):
        if term.slug in filters.included(term.dimension):
            continue
        url = filters.toggled(term.dimension, term.slug).url()
        count = store.counts.get((term.dimension, term.slug), 0)
        out.append(FacetValue(term.dimension, term.slug, term.label(lang), count, False, url))
    return tuple(out[:8])


def _patterns(store: Store, bits: int, lang: str) -> tuple[PatternCount, ...]:
    counted = []
    for pattern in store.patterns:
        count = (bits & store.term_bits("pattern", pattern.slug)).bit_count()
        if count:
            counted.append(PatternCount(pattern.slug, pattern.title(lang), count))
    counted.sort(key=lambda p: -p.count)
    return tuple(counted)


def _page_urls(filters: Filter, page: int, pages: int) -> dict[str, str]:
    urls = {}
    if page > 1:
        urls["prev"] = filters.with_(page=page - 1).url()
        urls["first"] = filters.with_(page=1).url()
    if page < pages:
        urls["next"] = filters.with_(page=page + 1).url()
        urls["last"] = filters.with_(page=pages).url()
    return urls


def page_numbers(page: int, pages: int) -> list[int | None]:
    """Page links to show: first, last, and a window around the current page (None = gap)."""
    wanted = {1, pages, *range(max(1, page - 2), min(pages, page + 2) + 1)}
    out: list[int | None] = []
    previous = 0
    for number in sorted(wanted):
        if number - previous > 1:
            out.append(None)
        out.append(number)
        previous = number
    return out


def card(store: Store, row: dict[str, Any], lang: str, q: str) -> IncidentCard:
    tags_raw: dict[str, list[str]] = json.loads(row["tags_json"])
    tags = {
        dim: [t for t in (store.taxonomy.get(dim, s) for s in tags_raw.get(dim, [])) if t]
        for dim in DIMENSIONS
    }
    body: dict[str, Any] = json.loads(row["body_json"]) if "body_json" in row else {}
    title = row["title_ko"] if lang == "ko" else row["title_en"]
    match = match_of(store.search(q), title, body, tags, lang) if q and body else None
    return IncidentCard(
        slug=row["slug"],
        organization=row["organization"],
        date=row["date"],
        year=row["year"],
        title=title,
        tags=tags,
        body=body,
        snippet=match.snippet if match else None,
        patterns=tuple(json.loads(row["patterns_json"])),
        duration=row.get("duration"),
        why=match.why if match else None,
    )


@dataclass(frozen=True)
class IncidentDetail:
    card: IncidentCard
    sources: list[dict[str, Any]]
    related: tuple[IncidentCard, ...]
    patterns: tuple[PatternCount, ...]
    review: dict[str, Any] | None = None  # {checked, read, part}: how the text was checked


def get_incident(store: Store, slug: str, *, lang: str) -> IncidentDetail | None:
    """One incident with its sources, patterns and related incidents (most shared tags)."""
    row = store.row_by_slug(slug)
    if row is None:
        return None
    this = card(store, row, lang, "")
    scores = np.zeros(store.total, dtype=np.int16)
    for dim in DIMENSIONS:
        for term in this.tags[dim]:
            scores += store.mask(store.term_bits(dim, term.slug))
    scores[row["sort_rank"]] = -1
    top = np.lexsort((np.arange(store.total), -scores))[:5]
    related_ranks = [int(r) for r in top if scores[r] > 0]
    related = tuple(card(store, r, lang, "") for r in store.rows_by_rank(related_ranks, light=True))
    patterns = tuple(
        PatternCount(p, store.pattern_by_slug[p].title(lang), 0)
        for p in this.patterns
        if p in store.pattern_by_slug
    )
    review = json.loads(row["review_json"]) if row["review_json"] else None
    return IncidentDetail(this, json.loads(row["sources_json"]), related, patterns, review)
