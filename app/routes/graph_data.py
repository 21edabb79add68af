"""The graph of a Filter, shared by /graph, /api/graph and the list page's preview.

The graph takes the list's filters plus its own parameters after them: `view` (which two
kinds), `limit` (nodes per side, or `all`) and `min` (minimum incidents per line; left out, the
smallest that keeps the picture legible: at most `graph.MAX_LINES` lines).
"""

import json
from collections.abc import Sequence
from dataclasses import dataclass

from app import graph as g
from app.facets import Filter, Ignored, encode_query
from app.i18n import translate
from app.incidents import ordered_ranks, result_bits
from app.store import Store
from app.templating import incident_url

MAX_LIMIT = 500
MAX_INCIDENTS = 200  # the incident view draws at most this many, even with limit=all


def say(key: str, lang: str, **values: object) -> str:
    """A graph-page string in the page language (from app/i18n.py, under `graph.`)."""
    return translate(f"graph.{key}", lang, **values)


@dataclass(frozen=True)
class GraphParams:
    view: str = g.DEFAULT_VIEW
    limit: int | None = g.DEFAULT_LIMIT  # None = all
    min_weight: int | None = None  # None = chosen from the data (graph.legible_min)

    def pairs(self) -> list[tuple[str, str]]:
        """Canonical graph parameters: defaults left out, in the order view, limit, min."""
        pairs: list[tuple[str, str]] = []
        if self.view != g.DEFAULT_VIEW:
            pairs.append(("view", self.view))
        if self.limit != g.DEFAULT_LIMIT:
            pairs.append(("limit", "all" if self.limit is None else str(self.limit)))
        if self.min_weight is not None:
            pairs.append(("min", str(self.min_weight)))
        return pairs

    def query_string(self, filters: Filter) -> str:
        return encode_query(graph_filter(filters).query_pairs() + self.pairs())

    def url(self, filters: Filter, path: str = "/graph") -> str:
        query = self.query_string(filters)
        return f"{path}?{query}" if query else path


def graph_filter(filters: Filter) -> Filter:
    """The graph has no pages: the canonical graph URL leaves `page` out."""
    return filters.with_(page=1)


def parse_params(pairs: list[tuple[str, str]]) -> tuple[GraphParams, list[Ignored]]:
    """The graph parameters of a query (last value wins); bad values are Ignored, not errors."""
    raw = {key: value.strip() for key, value in pairs if key in ("view", "limit", "min")}
    ignored: list[Ignored] = []
    view = raw.get("view", g.DEFAULT_VIEW) or g.DEFAULT_VIEW
    if view not in g.VIEWS:
        ignored.append(Ignored("view", view, f"unknown graph view '{view}' ignored"))
        view = g.DEFAULT_VIEW
    limit: int | None = g.DEFAULT_LIMIT
    text = raw.get("limit", "")
    if text == "all":
        limit = None
    elif text.isascii() and text.isdigit() and 0 < int(text) <= MAX_LIMIT:
        limit = int(text)
    elif text:
        ignored.append(Ignored("limit", text, f"limit '{text}' is not 1-{MAX_LIMIT} or 'all'"))
    min_weight: int | None = None
    text = raw.get("min", "")
    if text.isascii() and text.isdigit() and 0 < int(text) <= 10**6:
        min_weight = int(text)
    elif text:
        ignored.append(Ignored("min", text, f"minimum '{text}' is not a positive number"))
    return GraphParams(view, limit, min_weight), ignored


def linker(filters: Filter) -> g.Linker:
    """Node and edge links: the current list AND those values (`+slug` where the dimension
    already has a selection), so each link opens exactly the incidents its number counts."""
    base = graph_filter(filters)

    def link(values: Sequence[tuple[str, str]]) -> str:
        target = base
        for kind, slug in values:
            if kind == "incident":
                return incident_url(slug, filters.lang)
            target = target.narrowed(kind, slug)
        return target.url()

    return link


def terms_of(store: Store, kind: str, lang: str) -> list[g.Term]:
    """A kind's values as graph terms; groups (a parent's bits hold its children's) are left
    out, as in the list's top components, so a component is not drawn twice."""
    terms = store.taxonomy.terms[kind]
    parents = {t.parent for t in terms if t.parent}
    return [
        g.Term(kind, t.slug, t.label(lang), store.term_bits(kind, t.slug))
        for t in terms
        if t.slug not in parents
    ]


def compute(
    store: Store, filters: Filter, params: GraphParams, lang: str, *, max_lines: int = g.MAX_LINES
) -> tuple[g.Built, int]:
    """The graph for a filter (from result_bits, the list's own query) and its incident count.

    `max_lines` bounds the lines when the minimum weight is chosen from the data.
    """
    bits = result_bits(store, filters)
    link = linker(filters)
    if params.view == "incident":
        return _incidents(store, filters, params, lang, bits, link), bits.bit_count()
    left_kind, right_kind = g.VIEWS[params.view]
    built = g.pair_graph(
        bits,
        terms_of(store, left_kind, lang),
        terms_of(store, right_kind, lang),
        link=link,
        limit=params.limit,
        min_weight=params.min_weight,
        max_lines=max_lines,
    )
    return built, bits.bit_count()


def _incidents(
    store: Store, filters: Filter, params: GraphParams, lang: str, bits: int, link: g.Linker
) -> g.Built:
    cap = MAX_INCIDENTS if params.limit is None else min(params.limit, MAX_INCIDENTS)
    ranks = [int(r) for r in ordered_ranks(store, filters, bits)[:cap]]
    incidents: list[tuple[g.Term, list[tuple[str, str]]]] = []
    for row in store.rows_by_rank(ranks):
        tags: dict[str, list[str]] = json.loads(row["tags_json"])
        title = row["title_ko"] if lang == "ko" else row["title_en"]
        term = g.Term("incident", row["slug"], f"{row['slug']} {title}", 1 << int(row["sort_rank"]))
        incidents.append((term, [(k, s) for k in g.INCIDENT_KINDS for s in tags.get(k, [])]))
    terms = [t for kind in g.INCIDENT_KINDS for t in terms_of(store, kind, lang)]
    hidden = bits.bit_count() - len(incidents)
    return g.incident_graph(bits, incidents, terms, link=link, hidden=hidden)
