"""GET /api/graph: the graph of a filter as JSON (the models and the route)."""

from typing import Annotated, Literal

from fastapi import APIRouter, Query, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field

from app import graph as g
from app.deps import StoreDep
from app.facets import Filter, Ignored
from app.i18n import choose_lang
from app.routes.api import StrictFilterDep
from app.routes.graph_data import GraphParams, compute, parse_params
from app.schema import DIMENSIONS

router = APIRouter()

ViewName = Literal[
    "cause-component",
    "cause-factor",
    "cause-symptom",
    "factor-component",
    "component-symptom",
    "incident",
]


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
    min_weight: int = Field(description="The minimum weight of the lines given (drawn with)")
    min_auto: bool = Field(
        description=f"True when `min` was left out and chosen from the data: the smallest "
        f"minimum that keeps at most {g.MAX_LINES} lines"
    )
    lines_below: int = Field(description="Lines left out for weighing less than min_weight")
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
        min_weight=built.min_weight,
        min_auto=params.min_weight is None and params.view != "incident",
        lines_below=built.lines_below,
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
    min: Annotated[
        int | None,
        Query(
            ge=1,
            le=10**6,
            description=f"Minimum edge weight; left out, the smallest that keeps at most "
            f"{g.MAX_LINES} lines (see min_weight and min_auto in the answer)",
        ),
    ] = None,
) -> GraphPublic | JSONResponse:
    """The graph of the incidents the filters select (the same filters as /api/incidents).

    Edge weight = incidents in the result tagged with both ends; node count = incidents in the
    result with that value; each `url` opens exactly that many. Unknown slugs are a 400 with
    `{error, parameter}`.
    """
    params, ignored = parse_params(request.query_params.multi_items())
    problems = [*filters.ignored, *ignored]
    if problems:
        return _bad_request(problems[0])
    lang = choose_lang(request, filters.lang)
    built, total = compute(store, filters, params, lang)
    return graph_public(built, total, filters, params)
