"""GET /graph: the graph of the filtered incidents as inline SVG (no JavaScript needed), its
list form for phones and its table; and the compact preview the list page shows.

The parameters and the computing live in app/routes/graph_data.py, the JSON twin in
app/routes/graph_api.py (its router is included here).
"""

from dataclasses import dataclass, replace

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from app import graph as g
from app import graph_layout as gl
from app.deps import FilterDep, StoreDep, TemplatesDep
from app.facets import Filter, split_token
from app.incidents import Chip
from app.routes import graph_api
from app.routes.common import canonical_redirect, make_view
from app.routes.graph_data import GraphParams, compute, graph_filter, parse_params, say
from app.schema import DIMENSIONS
from app.store import Store
from app.templating import render

router = APIRouter()
router.include_router(graph_api.router)

MIN_CHOICES = (1, 2, 3, 5, 10)
PREVIEW_LIMIT = 8  # nodes per side in the list page's preview
PREVIEW_LINES = 20


@dataclass(frozen=True)
class Tab:
    view: str
    label: str
    url: str
    current: bool


@dataclass(frozen=True)
class MinChoice:
    value: str  # "" = chosen from the data
    label: str
    selected: bool


@dataclass(frozen=True)
class Group:
    """A node of the left column and its lines: the list form of the picture (phones)."""

    node: gl.PlacedNode
    lines: tuple[gl.PlacedEdge, ...]


@dataclass(frozen=True)
class GraphPage:
    """What templates/graph.html needs."""

    filters: Filter
    params: GraphParams
    heading: str
    total: int
    picture: gl.Picture
    groups: tuple[Group, ...]
    unlinked: tuple[gl.PlacedNode, ...]  # right-column nodes without a line at this minimum
    left_kind: str
    right_kind: str
    hidden_left: int
    hidden_right: int
    min_weight: int
    lines_below: int
    tabs: tuple[Tab, ...]
    chips: tuple[Chip, ...]
    notices: tuple[str, ...]
    list_url: str
    json_url: str
    all_url: str
    top_url: str
    hidden_inputs: tuple[tuple[str, str], ...]
    min_choices: tuple[MinChoice, ...]
    top_n: int = g.DEFAULT_LIMIT
    max_lines: int = g.MAX_LINES


@dataclass(frozen=True)
class GraphPreview:
    """The list page's compact picture of its result, linking to the full graph."""

    picture: gl.Picture
    url: str
    tabs: tuple[Tab, ...]
    lines: int  # lines drawn
    lines_below: int


def chips(store: Store, filters: Filter, params: GraphParams, lang: str) -> tuple[Chip, ...]:
    """The applied filters, each removable (the graph stays on the same view)."""
    out: list[Chip] = []
    if filters.q:
        out.append(Chip("q", filters.q, filters.q, params.url(filters.with_(q="", sort=""))))
    for kind in (*DIMENSIONS, "org"):
        for token in filters.values(kind):
            mode, slug = split_token(token)
            term = store.taxonomy.get(kind, slug) if kind != "org" else None
            label = term.label(lang) if term else slug
            remove = params.url(filters.toggled(kind, token))
            out.append(Chip(kind, slug, label, remove, mode))
    for kind, year in (("from", filters.year_from), ("to", filters.year_to)):
        if year is not None:
            field = "year_from" if kind == "from" else "year_to"
            out.append(Chip(kind, str(year), str(year), params.url(filters.with_(**{field: None}))))
    return tuple(out)


def graph_tabs(filters: Filter, lang: str, params: GraphParams | None = None) -> tuple[Tab, ...]:
    """One link per graph view of these filters (the threshold is chosen afresh per view)."""
    current = params or GraphParams()
    return tuple(
        Tab(
            name,
            say(f"view.{name}", lang),
            replace(current, view=name, min_weight=None).url(filters),
            params is not None and name == current.view,
        )
        for name in g.VIEWS
    )


def min_choices(params: GraphParams, chosen: int, lang: str) -> tuple[MinChoice, ...]:
    auto = params.min_weight is None
    numbers = sorted({*MIN_CHOICES, chosen})
    return (
        MinChoice("", say("min.auto", lang, n=chosen), auto),
        *(MinChoice(str(n), str(n), not auto and n == chosen) for n in numbers),
    )


def groups(picture: gl.Picture) -> tuple[tuple[Group, ...], tuple[gl.PlacedNode, ...]]:
    """Left nodes by count, each with its lines by weight; and the right nodes left unlinked."""
    left = sorted((n for n in picture.nodes if n.side == "left"), key=lambda n: (-n.count, n.label))
    by_source: dict[str, list[gl.PlacedEdge]] = {}
    for edge in picture.edges:  # already heaviest first
        by_source.setdefault(edge.source, []).append(edge)
    linked = {e.target for e in picture.edges}
    unlinked = tuple(n for n in picture.nodes if n.side == "right" and n.id not in linked)
    return tuple(Group(n, tuple(by_source.get(n.id, ()))) for n in left), unlinked


def graph_page(
    store: Store, filters: Filter, params: GraphParams, lang: str, notices: list[str]
) -> GraphPage:
    built, total = compute(store, filters, params, lang)
    left_kind, right_kind = g.VIEWS[params.view]
    geometry = gl.INCIDENTS if params.view == "incident" else gl.FULL
    picture = gl.layout(built.graph, geometry)
    grouped, unlinked = groups(picture)
    hidden_inputs = [*graph_filter(filters).query_pairs(), *params.pairs()]
    return GraphPage(
        filters=filters,
        params=params,
        heading=say(f"heading.{params.view}", lang),
        total=total,
        picture=picture,
        groups=grouped,
        unlinked=unlinked,
        left_kind=left_kind,
        right_kind=right_kind,
        hidden_left=built.hidden_left,
        hidden_right=built.hidden_right,
        min_weight=built.min_weight,
        lines_below=built.lines_below,
        tabs=graph_tabs(filters, lang, params),
        chips=chips(store, filters, params, lang),
        notices=tuple(notices),
        list_url=graph_filter(filters).url(),
        json_url=params.url(filters, "/api/graph"),
        all_url=replace(params, limit=None).url(filters),
        top_url=replace(params, limit=g.DEFAULT_LIMIT).url(filters),
        hidden_inputs=tuple((k, v) for k, v in hidden_inputs if k != "min"),
        min_choices=min_choices(params, built.min_weight, lang),
    )


def graph_preview(store: Store, filters: Filter, lang: str) -> GraphPreview:
    """The list page's preview: the default view's strongest lines, small."""
    params = GraphParams(limit=PREVIEW_LIMIT)
    built, _ = compute(store, filters, params, lang, max_lines=PREVIEW_LINES)
    picture = gl.layout(g.linked_only(built.graph), gl.PREVIEW, restarts=0)
    return GraphPreview(
        picture=picture,
        url=GraphParams().url(filters),
        tabs=graph_tabs(filters, lang),
        lines=len(picture.edges),
        lines_below=built.lines_below,
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
