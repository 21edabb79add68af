"""The graph view: GET /graph (inline SVG, no JavaScript needed) and GET /api/graph (JSON).

Both take the list's filters (`/graph?<same filters>`) plus graph-only parameters after them:
`view` (which two kinds), `limit` (nodes per side, or `all`) and `min` (minimum edge weight).
"""

import json
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Annotated, Literal

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response
from pydantic import BaseModel

from app import graph as g
from app.deps import FilterDep, StoreDep, TemplatesDep
from app.facets import Filter, Ignored, encode_query
from app.i18n import choose_lang, translate
from app.incidents import Chip, ordered_ranks, result_bits
from app.routes.api import StrictFilterDep
from app.routes.pages import canonical_redirect, make_view
from app.schema import DIMENSIONS
from app.store import Store
from app.templating import incident_url, render

router = APIRouter()

MAX_LIMIT = 500
MAX_INCIDENTS = 200  # the incident view draws at most this many, even with limit=all
MIN_CHOICES = (1, 2, 3, 5, 10)
ViewName = Literal[
    "cause-component",
    "cause-factor",
    "cause-symptom",
    "factor-component",
    "component-symptom",
    "incident",
]


def say(key: str, lang: str, **values: object) -> str:
    """A graph-page string in the page language (from app/i18n.py, under `graph.`)."""
    return translate(f"graph.{key}", lang, **values)


# -- graph-only parameters --------------------------------------------------------------------
@dataclass(frozen=True)
class GraphParams:
    view: str = g.DEFAULT_VIEW
    limit: int | None = g.DEFAULT_LIMIT  # None = all
    min_weight: int = 1

    def pairs(self) -> list[tuple[str, str]]:
        """Canonical graph parameters: defaults left out, in the order view, limit, min."""
        pairs: list[tuple[str, str]] = []
        if self.view != g.DEFAULT_VIEW:
            pairs.append(("view", self.view))
        if self.limit != g.DEFAULT_LIMIT:
            pairs.append(("limit", "all" if self.limit is None else str(self.limit)))
        if self.min_weight != 1:
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
    min_weight = 1
    text = raw.get("min", "")
    if text.isascii() and text.isdigit() and 0 < int(text) <= 10**6:
        min_weight = int(text)
    elif text:
        ignored.append(Ignored("min", text, f"minimum '{text}' is not a positive number"))
    return GraphParams(view, limit, min_weight), ignored


# -- computing the graph from the store --------------------------------------------------------
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


def compute(store: Store, filters: Filter, params: GraphParams, lang: str) -> tuple[g.Built, int]:
    """The graph for a filter (from result_bits, the list's own query) and its incident count."""
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


# -- API ----------------------------------------------------------------------------------------
class GraphNode(BaseModel):
    id: str
    kind: str
    slug: str
    label: str
    count: int
    url: str


class GraphEdge(BaseModel):
    source: str
    target: str
    weight: int
    url: str


class GraphFilters(BaseModel):
    q: str
    cause: list[str]
    component: list[str]
    symptom: list[str]
    factor: list[str]
    org: list[str]
    year_from: int | None
    year_to: int | None
    lang: str


class GraphPublic(BaseModel):
    """The filtered incidents as a graph: tag values (or incidents) joined by co-occurrence."""

    view: str
    total: int
    limit: int | None
    min_weight: int
    hidden: dict[str, int]
    nodes: list[GraphNode]
    edges: list[GraphEdge]
    filters: GraphFilters
    html_url: str


class GraphError(BaseModel):
    error: str
    parameter: str
    status: int = 400


def graph_public(built: g.Built, total: int, filters: Filter, params: GraphParams) -> GraphPublic:
    graph = built.graph
    left_kind, right_kind = g.VIEWS[params.view]
    nodes = [
        GraphNode(
            id=n, kind=d["kind"], slug=d["slug"], label=d["label"], count=d["count"], url=d["url"]
        )
        for n, d in sorted(graph.nodes(data=True), key=lambda item: (item[1]["side"], item[0]))
    ]
    edges = [
        GraphEdge(source=u, target=v, weight=d["weight"], url=d["url"])
        for u, v, d in sorted(graph.edges(data=True), key=lambda e: (-e[2]["weight"], e[0], e[1]))
    ]
    return GraphPublic(
        view=params.view,
        total=total,
        limit=params.limit,
        min_weight=params.min_weight,
        hidden={left_kind: built.hidden_left, right_kind: built.hidden_right},
        nodes=nodes,
        edges=edges,
        filters=GraphFilters(
            q=filters.q,
            **{dim: list(filters.values(dim)) for dim in (*DIMENSIONS, "org")},
            year_from=filters.year_from,
            year_to=filters.year_to,
            lang=filters.lang,
        ),
        html_url=params.url(filters),
    )


def _bad_request(ignored: Ignored) -> JSONResponse:
    body = GraphError(error=ignored.reason, parameter=ignored.parameter)
    return JSONResponse(body.model_dump(), status_code=400)


@router.get(
    "/api/graph",
    response_model=GraphPublic,
    responses={400: {"model": GraphError, "description": "An unknown slug or bad parameter"}},
    tags=["graph"],
)
def read_graph(
    request: Request,
    store: StoreDep,
    filters: StrictFilterDep,
    view: Annotated[ViewName, Query(description="Which two kinds to join")] = "cause-component",
    limit: Annotated[
        str, Query(description="Nodes per side (1-500), or 'all'", pattern=r"^(all|\d{1,6})$")
    ] = str(g.DEFAULT_LIMIT),
    min: Annotated[int, Query(ge=1, le=10**6, description="Minimum edge weight")] = 1,
) -> GraphPublic | JSONResponse:
    """The graph of the incidents the filters select (the same filters as /api/incidents).

    Edge weight = incidents in the result tagged with both ends; node count = incidents in the
    result with that value. Unknown slugs are a 400 with `{error, parameter}`.
    """
    params, ignored = parse_params(request.query_params.multi_items())
    problems = [*filters.ignored, *ignored]
    if problems:
        return _bad_request(problems[0])
    lang = choose_lang(request, filters.lang)
    built, total = compute(store, filters, params, lang)
    return graph_public(built, total, filters, params)


# -- HTML -----------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Tab:
    view: str
    label: str
    url: str
    current: bool


@dataclass(frozen=True)
class GraphPage:
    """What templates/graph.html needs."""

    filters: Filter
    params: GraphParams
    total: int
    picture: g.Picture
    left_kind: str
    right_kind: str
    hidden_left: int
    hidden_right: int
    tabs: tuple[Tab, ...]
    chips: tuple[Chip, ...]
    notices: tuple[str, ...]
    list_url: str
    json_url: str
    all_url: str
    top_url: str
    hidden_inputs: tuple[tuple[str, str], ...]
    min_choices: tuple[int, ...]
    top_n: int = g.DEFAULT_LIMIT


def chips(store: Store, filters: Filter, params: GraphParams, lang: str) -> tuple[Chip, ...]:
    """The applied filters, each removable (the graph stays on the same view)."""
    out: list[Chip] = []
    if filters.q:
        out.append(Chip("q", filters.q, filters.q, params.url(filters.with_(q="", sort=""))))
    for kind in (*DIMENSIONS, "org"):
        for slug in filters.values(kind):
            term = store.taxonomy.get(kind, slug) if kind != "org" else None
            label = term.label(lang) if term else slug
            out.append(Chip(kind, slug, label, params.url(filters.toggled(kind, slug))))
    for kind, year in (("from", filters.year_from), ("to", filters.year_to)):
        if year is not None:
            field = "year_from" if kind == "from" else "year_to"
            out.append(Chip(kind, str(year), str(year), params.url(filters.with_(**{field: None}))))
    return tuple(out)


def graph_tabs(filters: Filter, lang: str, params: GraphParams | None = None) -> tuple[Tab, ...]:
    """One link per graph view of these filters (the list page shows them too, as the seed does)."""
    current = params or GraphParams()
    return tuple(
        Tab(
            name,
            say(f"view.{name}", lang),
            replace(current, view=name).url(filters),
            params is not None and name == current.view,
        )
        for name in g.VIEWS
    )


def graph_page(
    store: Store, filters: Filter, params: GraphParams, lang: str, notices: list[str]
) -> GraphPage:
    built, total = compute(store, filters, params, lang)
    left_kind, right_kind = g.VIEWS[params.view]
    tabs = graph_tabs(filters, lang, params)
    hidden_inputs = [*graph_filter(filters).query_pairs(), *params.pairs()]
    return GraphPage(
        filters=filters,
        params=params,
        total=total,
        picture=g.layout(built.graph),
        left_kind=left_kind,
        right_kind=right_kind,
        hidden_left=built.hidden_left,
        hidden_right=built.hidden_right,
        tabs=tabs,
        chips=chips(store, filters, params, lang),
        notices=tuple(notices),
        list_url=graph_filter(filters).url(),
        json_url=params.url(filters, "/api/graph"),
        all_url=replace(params, limit=None).url(filters),
        top_url=replace(params, limit=g.DEFAULT_LIMIT).url(filters),
        hidden_inputs=tuple((k, v) for k, v in hidden_inputs if k != "min"),
        min_choices=tuple(sorted({*MIN_CHOICES, params.min_weight})),
    )


@router.get("/graph", response_class=HTMLResponse, include_in_schema=False)
def show_graph(
    request: Request, store: StoreDep, templates: TemplatesDep, filters: FilterDep
) -> Response:
    """The graph of the filtered incidents as inline SVG; every node and edge is a link."""
    params, ignored = parse_params(request.query_params.multi_items())
    if response := canonical_redirect(
        request, filters, "/graph", query=params.query_string(filters), ignored=bool(ignored)
    ):
        return response
    view = make_view(request, graph_filter(filters), "/graph")
    other = "en" if view.lang == "ko" else "ko"
    view = replace(
        view,
        canonical=params.url(filters),
        lang_switch_url=params.url(filters.with_(lang=other)),
    )
    notices = [i.reason for i in (*filters.ignored, *ignored)]

    def s(key: str, **values: object) -> str:
        return say(key, view.lang, **values)

    def context() -> dict[str, object]:
        return {"page": graph_page(store, filters, params, view.lang, notices), "s": s}

    return render(
        request,
        templates,
        "graph.html",
        context,
        view=view,
        remember_lang=bool(filters.lang),
        cache=store.pages,  # same LRU as the list: keyed by the exact URL and language
    )
